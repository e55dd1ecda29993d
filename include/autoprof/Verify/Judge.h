//===- Judge.h - Whether a candidate is correct and faster ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The verdict on a rewritten kernel from measured runs of the original and
/// the candidate program with the same seeds: the program's own check, the
/// launches of the kernel, its saved outputs against the original's, and
/// its duration against the original's beyond the measured noise. Each
/// verdict carries a one-line reason.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_JUDGE_H
#define AUTOPROF_VERIFY_JUDGE_H

#include "autoprof/Profile/Measurement.h"
#include "autoprof/Verify/BufferCompare.h"
#include "autoprof/Verify/ChildProcess.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>

namespace autoprof {
namespace verify {

/// One measured run of a program.
struct RunOutcome {
  uint64_t Seed = 0;
  ChildResult Child;
  /// What the injection library recorded; absent when the program wrote
  /// none (it never initialised CUDA, or died before exiting).
  std::optional<Measurement> Measured;
};

/// The kernel under test: its mangled name and its pointer parameters.
struct KernelSignature {
  std::string Name;
  std::string MangledName;
  /// The kernel's mangled name in the candidate, when the rewrite changes
  /// it (a parameter's type); empty when the candidate keeps MangledName.
  std::string CandidateMangledName;
  struct Pointer {
    std::string Name;
    ElementKind Kind = ElementKind::Bytes;
  };
  /// By parameter index.
  std::map<unsigned, Pointer> Pointers;

  /// The name the candidate's runs record the kernel under.
  const std::string &candidateName() const {
    return CandidateMangledName.empty() ? MangledName : CandidateMangledName;
  }
};

/// A kernel's duration over runs: the median of each run's launches (the
/// first launch left out when there are more), summarised.
struct Timing {
  double MedianNs = 0;
  double MinNs = 0;
  double MaxNs = 0;
  unsigned Runs = 0;
};

/// The timing of \p MangledName over \p Runs, or nullopt when no run timed
/// a launch of it.
std::optional<Timing> summarizeTiming(llvm::ArrayRef<RunOutcome> Runs,
                                      llvm::StringRef MangledName);

enum class Verdict {
  Faster,
  NotFaster,
  Slower,
  BuildFailed,
  CheckFailed,
  Crashed,
  TimedOut,
  WrongOutput,
  FewerLaunches,
  WritesNothing,
  ImpossibleTime,
  NotMeasured,
  /// A model's reply that was never built: it holds no code block, its code
  /// changes the kernel's name or parameters, Clang finds an error in it,
  /// or it breaks the reply contract otherwise.
  NoCodeBlock,
  SignatureChanged,
  CompileError,
  ReplyRejected,
  /// A candidate (a `--candidate` file or a built-in rewrite) whose kernel
  /// reaches more than the original's: state kept across launches, a
  /// variable outside it, memory outside its pointer arguments
  /// (autoprof/Rewrite/KernelReach.h). Never built.
  HiddenState,
  /// The candidate launches a kernel the original does not, or the other
  /// kernels of the program take longer and all its kernels together are
  /// not faster: work moved out of the kernel.
  OtherKernels,
  /// The saved launch changed device memory that none of its pointer
  /// arguments points into, where the original's changed none.
  WritesOutside,
  /// Started from outputs overwritten with poison, a later launch gave
  /// other results than the original's: it answered from what an earlier
  /// launch left behind.
  ReusedResults,
};

/// "faster", "not-faster", "slower", "build-failed", "check-failed",
/// "crashed", "timeout", "wrong-output", "fewer-launches",
/// "writes-nothing", "impossible-time", "not-measured", "no-code-block",
/// "signature-changed", "compile-error", "reply-rejected", "hidden-state",
/// "other-kernels", "writes-outside", "reused-results".
llvm::StringRef verdictName(Verdict V);

/// The verdict named \p Name (a name verdictName() gives), or nullopt.
std::optional<Verdict> verdictFromName(llvm::StringRef Name);

struct Judgement {
  Verdict V = Verdict::NotMeasured;
  std::string Reason;
  /// Original median over candidate median, with the range the runs allow
  /// (the slowest original over the fastest candidate and the reverse).
  /// When the other kernels take longer but the whole program is faster,
  /// the candidate's times include the others' extra time per launch.
  std::optional<double> Speedup;
  std::optional<double> SpeedupLow;
  std::optional<double> SpeedupHigh;
  std::optional<Timing> Original;
  std::optional<Timing> Candidate;
  /// The median over runs of the total time of the program's other kernels
  /// (every kernel but the judged one), when it launches any.
  std::optional<double> OtherOriginalNs;
  std::optional<double> OtherCandidateNs;

  bool accepted() const { return V == Verdict::Faster; }
};

struct JudgeOptions {
  double RTol = 1e-4;
  double ATol = 1e-5;
  /// The least speedup that counts, on top of runs that do not overlap.
  double MinSpeedup = 1.02;
  /// The candidate's mangled names of kernels the rewrite renamed (a
  /// parameter's type changed), each with the original's name: the same
  /// kernel among the other kernels.
  std::map<std::string, std::string> Renamed;
  /// How much longer the other kernels may take in the candidate's fastest
  /// run than in the original's slowest: a fraction, and an absolute
  /// amount for short totals.
  double OtherSlack = 0.05;
  double OtherSlackNs = 20000;
  /// How far from the original's a floating-point output may lie, beyond
  /// the tolerances, in multiples of the largest difference between two
  /// runs of the original with the same input (an order-dependent result:
  /// a sum by atomicAdd); no slack when they agree.
  double OrderSlack = 4;
};

/// The runs of the original and of the candidate whose saved launch is a
/// later one, started from buffers whose bytes the launch before changed
/// were overwritten with the same poison in both; null when there is none
/// (the kernel launched once, or the original's poisoned run failed).
struct PoisonedRuns {
  const RunOutcome *Original = nullptr;
  const RunOutcome *Candidate = nullptr;
};

/// Judges candidate runs \p Candidate against original runs \p Original
/// (the same seeds, in the same order) for kernel \p K, and the poisoned
/// runs \p Poisoned when there are. The first run of each holds the saved
/// buffers. \p Repeats are further runs of the original, each with the seed
/// of one in \p Original: where a buffer differs between the two, the
/// output depends on the order of the threads, and the candidate's may lie
/// OrderSlack times that difference further away (floating point), or is
/// judged wrong with that reason (integers and bytes: no distance says how
/// far is right).
Judgement judge(const KernelSignature &K, llvm::ArrayRef<RunOutcome> Original,
                llvm::ArrayRef<RunOutcome> Candidate, const JudgeOptions &O,
                PoisonedRuns Poisoned = {},
                llvm::ArrayRef<RunOutcome> Repeats = {});

/// Why a run failed the program's own check, or nullopt when it passed:
/// "timed out", "killed by signal 11 (Segmentation fault)", "exit status
/// 1".
std::optional<std::string> runFailure(const ChildResult &R);

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_JUDGE_H
