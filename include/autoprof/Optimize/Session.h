//===- Session.h - One verified optimize run --------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The pipeline of `optimize` without --dry-run, Clang-free: measure the
/// original program, profile it, try the candidates of each kernel (a
/// model's rounds, given files, or the built-in proposals whose trigger
/// fires), keep the fastest verified one per kernel, compose it with the
/// proposals made on its result, verify the kept rewrites of several kernels
/// together, and leave the build as the user will use it.
///
/// What needs Clang (proposing rewrites, parsing a candidate, combining the
/// edits of several kernels) is behind SourceModel; profiling is behind
/// KernelProfiler and the model behind ModelRewriter, so that a test drives a
/// whole session with fakes.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZE_SESSION_H
#define AUTOPROF_OPTIMIZE_SESSION_H

#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/Verifier.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace optimize {

using verify::SourceTexts;

/// Metric values by name.
using Metrics = std::map<std::string, double>;

/// A kernel the session optimizes, and what is launched of it.
struct SessionKernel {
  /// Its index in the source model.
  size_t Index = 0;
  /// The qualified name.
  std::string Name;
  /// The kernel's instantiations (one for a kernel that is no template).
  std::vector<verify::KernelSignature> Launched;
};

/// A rewrite to verify.
struct Candidate {
  /// What the report calls it: a transformation's name, "candidate FILE",
  /// "llm round N", or a chain "a+b".
  std::string Name;
  /// The transformations it chains, in order (one for a built-in proposal,
  /// none for a given file or a model's reply).
  std::vector<std::string> Chain;
  /// The texts of the files it changes, whole.
  SourceTexts Texts;
  /// Whether it may change a kernel's mangled name.
  bool ChangesSignature = false;
  /// Why it is tried, from the kernel's metrics; nullopt when it does not
  /// trigger. Empty function: always tried, with no trigger.
  std::function<std::optional<std::string>(const Metrics &)> Trigger;
  /// The source model's handle of its edits.
  unsigned Id = 0;
};

/// What one parse of a candidate says.
struct CandidateCheck {
  /// The kernel's signatures with the mangled names they have in the
  /// candidate.
  std::vector<verify::KernelSignature> Renamed;
  /// Why the candidate is refused before it is built (it reaches state the
  /// original does not): a hidden-state verdict; nullopt when it is not.
  std::optional<verify::Judgement> Refused;
};

/// The Clang side of a session.
class SourceModel {
public:
  virtual ~SourceModel();
  /// The built-in proposals for \p K made on \p Base (the original when
  /// null), each as whole texts against the original, its chain extended.
  virtual std::vector<Candidate> proposals(const SessionKernel &K,
                                           const Candidate *Base) = 0;
  /// Parses \p C and looks \p K up in it.
  virtual CandidateCheck inspect(const SessionKernel &K,
                                 const Candidate &C) = 0;
  /// The kept candidates of several kernels as one, or nullopt when their
  /// edits overlap.
  virtual std::optional<Candidate>
  combine(llvm::ArrayRef<const Candidate *> Kept) = 0;
};

/// What the profile says of one kernel.
struct ProfiledKernel {
  Metrics Values;
  std::string Leaf;
  std::string Focus;
  /// "node:branch" steps.
  std::vector<std::string> Route;
};

/// Profiled kernels by mangled name.
using ProfiledKernels = std::map<std::string, ProfiledKernel>;

/// Profiles the original program.
class KernelProfiler {
public:
  virtual ~KernelProfiler();
  /// The line the session prints before profiling.
  virtual std::string describe() const = 0;
  /// Profiles the original, built, with the run seed \p Seed.
  virtual llvm::Expected<ProfiledKernels> profile(uint64_t Seed) = 0;
};

/// Reads a profile file (the `profile` subcommand's JSON); the tree that
/// chose its metrics into \p Tree when given.
llvm::Expected<ProfiledKernels>
readProfiledKernels(llvm::StringRef Path, std::string *Tree = nullptr);

/// Why a model's last reply failed, for the next round's prompt.
struct RoundFailure {
  std::string Verdict;
  std::string Reason;
  std::string Code;
};

/// What became of one round of the model.
struct ModelRound {
  /// The candidate, when the reply passed the model rewriter's checks.
  std::optional<Candidate> C;
  /// Why not, otherwise.
  verify::Verdict V = verify::Verdict::ReplyRejected;
  std::string Reason;
  /// The code the reply proposed.
  std::string Code;
};

/// Asks a model to rewrite a kernel.
class ModelRewriter {
public:
  virtual ~ModelRewriter();
  virtual const std::string &model() const = 0;
  /// Asks for a rewrite of \p K, told what \p P says and, after the first
  /// round, why \p Previous failed; fails when the model cannot be asked.
  virtual llvm::Expected<ModelRound>
  round(const SessionKernel &K, const ProfiledKernel &P,
        const std::optional<RoundFailure> &Previous) = 0;
};

struct SessionOptions {
  /// The source as the user named it.
  std::string Source;
  /// The tree named in the report.
  std::string Tree;
  /// Candidates verified per kernel (or the model's rounds).
  unsigned Attempts = 3;
  /// Verify every proposal, triggered or not.
  bool TryAll = false;
  /// Try the proposals made on a kept rewrite's result.
  bool Compose = true;
  verify::JudgeOptions Judge;
  /// The result is written over the source: the build is left as the
  /// result's.
  bool InPlace = false;
  /// Only the source may change (-o writes a copy of it).
  bool SourceOnly = false;
  /// Receives each warning, one line.
  std::function<void(const std::string &)> Warn;
};

/// What a session found.
struct SessionResult {
  verify::OptimizeReport Report;
  /// The kept result, by file; empty for none.
  std::optional<Candidate> Result;
};

/// One `optimize` run over the kernels of one source.
class Session {
public:
  /// \p Given candidates replace the built-in proposals (and need no
  /// profile); \p Model, when given, replaces them too. \p Profiler may be
  /// null when candidates are given.
  Session(SessionOptions O, verify::Verifier &V, SourceModel &Source,
          KernelProfiler *Profiler, ModelRewriter *Model,
          std::vector<Candidate> Given, std::vector<SessionKernel> Kernels,
          llvm::raw_ostream &Log);

  /// Runs the session. Fails, with one line, when the original cannot be
  /// measured or profiled, a command cannot be started, or the tool is
  /// interrupted ("interrupted"); the build then holds the original.
  llvm::Expected<SessionResult> run();

private:
  llvm::Error measureOriginal();
  /// Tries the candidates of kernel \p KI; fills \p KR and returns the
  /// kept one.
  llvm::Expected<std::optional<Candidate>>
  optimizeKernel(size_t KI, verify::KernelReport &KR);
  llvm::Expected<std::optional<Candidate>>
  askModel(size_t KI, const ProfiledKernel &P, verify::KernelReport &KR);
  llvm::Expected<std::optional<Candidate>>
  tryBuiltins(size_t KI, verify::KernelReport &KR);
  /// Verifies \p C on kernel \p KI: one verdict.
  llvm::Expected<verify::Judgement> judge(size_t KI, const Candidate &C);
  /// The result from the kept candidates, by report kernel.
  llvm::Expected<std::optional<Candidate>>
  combineKept(std::vector<std::pair<size_t, Candidate>> &Kept,
              verify::OptimizeReport &Report);

  SessionOptions O;
  verify::Verifier &V;
  SourceModel &Source;
  KernelProfiler *Profiler;
  ModelRewriter *Model;
  std::vector<Candidate> Given;
  std::vector<SessionKernel> Kernels;
  llvm::raw_ostream &Log;
  ProfiledKernels Profiles;
};

/// One verdict for a kernel from those of its instantiations: the first
/// that is not accepted, else the one with the least speedup.
verify::Judgement overall(llvm::ArrayRef<verify::Judgement> Js);

} // namespace optimize
} // namespace autoprof

#endif // AUTOPROF_OPTIMIZE_SESSION_H
