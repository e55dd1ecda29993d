//===- PerfGate.h - Kernels slower than their baseline ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The performance gate of `check`: the kernels timed in runs of the
/// program, compared with a baseline (autoprof/Verify/PerfBaseline.h), and
/// the findings of `autoprof-perf-regression` that the comparison gives.
/// docs/check.md describes the gate and docs/checks/autoprof-perf-regression.md
/// the finding. timeAndGate() runs the program through Verify's
/// CommandRunner, so that a test drives the gate with a fake program.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_PERFGATE_H
#define AUTOPROF_CHECK_PERFGATE_H

#include "autoprof/Check/Check.h"
#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Verify/Judge.h"
#include "autoprof/Verify/PerfBaseline.h"
#include "autoprof/Verify/Verifier.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace autoprof {

/// The name of the check whose findings the gate reports.
constexpr llvm::StringLiteral PerfRegressionCheckName =
    "autoprof-perf-regression";

/// What the gate found over the kernels it compares.
struct PerfGateResult {
  /// One per kernel compared: those timed now first, in order, then those
  /// of the baseline that did not launch.
  std::vector<verify::PerfComparison> Comparisons;
  unsigned Within = 0;
  unsigned Slower = 0;
  unsigned NotLaunched = 0;
  unsigned NotInBaseline = 0;
};

/// Compares the kernels of \p Current with \p Baseline (comparePerf),
/// keeping only those whose mangled name \p Compared holds.
///
/// A kernel of the baseline that \p Compared lacks is left out whether or
/// not it launched: it belongs to sources not checked now, or --kernel or
/// --checks deselect it, or it is gone. So is a kernel timed now that
/// \p Compared lacks (recorded, not compared).
PerfGateResult gatePerf(const verify::PerfBaseline &Baseline,
                        const verify::PerfBaseline &Current,
                        const std::set<std::string> &Compared,
                        double Tolerance);

/// One line on \p C for people, its kernel named by \p C.Name:
///
///     kernel 'k' is 1.31x slower than its baseline (2.01 us against 1.53 us,
///     tolerance 5%, noise 2.1%)
///     kernel 'k' is within its baseline: 1.02x (...)
///     kernel 'k' did not launch when the run command ran (baseline 1.53 us)
///     kernel 'k' is not in the baseline (1.55 us over 5 runs)
std::string describePerf(const verify::PerfComparison &C, double Tolerance);

/// The finding of \p C at \p Where: an error when the kernel is slower, a
/// warning when it did not launch, nothing otherwise.
std::optional<Finding> perfFinding(const verify::PerfComparison &C,
                                   const FileLocation &Where, double Tolerance);

/// A kernel the gate times.
struct GateKernel {
  verify::KernelSignature Signature;
  /// Where its findings go.
  FileLocation Where;
  /// Whether it is compared with the baseline: its translation unit's
  /// checks enable autoprof-perf-regression. Others are only recorded.
  bool Compare = false;
  /// Its translation unit's warnings promoted to errors, or null.
  const GlobList *WarningsAsErrors = nullptr;
};

/// How the gate times its kernels.
struct PerfGateOptions {
  /// The shell command that runs the program (`--run`).
  std::string RunCommand;
  /// libautoprof-inject.so.
  std::string InjectLibrary;
  /// Runs of the program, with the seeds 1 to Runs (`--perf-runs`).
  unsigned Runs = 5;
  /// Seconds a run may take; 0 waits for ever.
  unsigned Timeout = 0;
  /// A lock file every run holds; empty for none.
  std::string DeviceLock;
  /// A folder for the runs' configurations, measurements and logs.
  std::string WorkDir;
  /// The relative slowdown allowed beyond the noise (`--perf-tolerance`).
  double Tolerance = 0.05;
  /// A line on \p Log per kernel compared and before the runs.
  bool Verbose = false;
  /// Called with the kernels timed before they are compared (what
  /// `--perf-record` writes); its error ends the gate. May be empty.
  std::function<llvm::Error(const verify::PerfBaseline &)> Record;
  /// Receives each warning, one line, as it comes: a kernel timed now that
  /// the baseline lacks. May be empty.
  std::function<void(const std::string &)> Warn;
};

/// Checks, before anything runs, that the gate's options \p G go together
/// with its files: \p Record (`--perf-record`, where the timings go) and
/// \p Baseline (`--perf-baseline`), either empty for none, and the checked
/// \p Sources, which the record must not replace. Fails with one line.
llvm::Error checkGateOptions(const PerfGateOptions &G, llvm::StringRef Record,
                             llvm::StringRef Baseline,
                             llvm::ArrayRef<std::string> Sources);

/// What the gate found.
struct PerfGateRun {
  /// The kernels timed now, in the order given: what `--perf-record`
  /// writes.
  verify::PerfBaseline Current;
  /// The findings of autoprof-perf-regression.
  std::vector<Finding> Findings;
};

/// Times \p Kernels over O.Runs runs of the program through \p Runner and,
/// when \p Baseline is given, compares those marked Compare with it,
/// finding the kernels slower than their baseline or no longer launched (a
/// warning promoted to an error where the kernel's WarningsAsErrors says).
/// Progress and the summary go to \p Log. Fails with one line when a run
/// cannot start or fails, the program never uses CUDA, or none of the
/// kernels launched; with "interrupted" when the tool was interrupted.
llvm::Expected<PerfGateRun>
timeAndGate(llvm::ArrayRef<GateKernel> Kernels,
            const std::optional<verify::PerfBaseline> &Baseline,
            const PerfGateOptions &O, verify::CommandRunner &Runner,
            llvm::raw_ostream &Log);

/// The signature the verifier and the gate time \p K by: its names and its
/// pointer parameters' element kinds.
verify::KernelSignature signatureOf(const KernelRecord &K);

} // namespace autoprof

#endif // AUTOPROF_CHECK_PERFGATE_H
