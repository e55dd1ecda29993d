//===- VerifiedOptimize.h - optimize with verification ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `optimize` without --dry-run, as a library: build and measure the
/// original program, profile it, try the built-in rewrites (or the given
/// candidates, or a model's rounds), keep the fastest verified one per
/// kernel and verify the kept rewrites of several kernels together. Its
/// options are a value; the profiler and the model come from the caller,
/// so a test or `learn` drives a whole run without the command line. It
/// changes no file: the caller writes what the result holds.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_VERIFIEDOPTIMIZE_H
#define AUTOPROF_OPTIMIZETOOLING_VERIFIEDOPTIMIZE_H

#include "autoprof/Optimize/Session.h"
#include "autoprof/OptimizeTooling/EngineModel.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/Verifier.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autoprof {

/// What a verified optimize run does.
struct VerifiedOptimizeOptions {
  /// The session's options: the source, the tree named in the report,
  /// attempts, composition, the judge, where the result will go.
  optimize::SessionOptions Session;
  /// How the source and candidates are parsed.
  SourceSettings Parse;
  /// The shell command that builds the program; empty: the source's
  /// command in the compilation database of Parse.BuildPath.
  std::string Build;
  /// The shell command that runs the program.
  std::string Run;
  /// The injection library the runs load.
  std::string InjectLibrary;
  /// Runs of each program, with seeds 1..Runs.
  unsigned Runs = 3;
  /// Seconds a build or run may take; 0 for no limit.
  unsigned Timeout = 0;
  /// The file whose lock serialises timed runs across processes.
  std::string DeviceLock;
  /// Given candidates (a name and the whole source's text): they replace
  /// the built-in proposals, for a run of one kernel.
  std::vector<std::pair<std::string, std::string>> Candidates;
  /// Warnings and the source driver's messages.
  SourceMessages Messages;
};

/// What the caller brings to a run.
struct VerifiedOptimizeHooks {
  /// Runs the builds and the program; null: child processes.
  verify::CommandRunner *Runner = nullptr;
  /// The profiler of the original, given the runner and the run's
  /// temporary folder; its error ends the run.
  std::function<llvm::Expected<std::unique_ptr<optimize::KernelProfiler>>(
      verify::CommandRunner &, llvm::StringRef WorkDir)>
      Profiler;
  /// With a model: its rewriter, whose candidates EngineModel makes.
  std::function<std::unique_ptr<optimize::ModelRewriter>(EngineModel &)> Model;
  /// With a model: why it leaves the engine's kernel \p Index alone, or
  /// nullopt.
  std::function<std::optional<std::string>(size_t Index)> ModelUnsupported;
};

/// What a run found and kept.
struct VerifiedOptimizeResult {
  verify::OptimizeReport Report;
  /// The kept edits of the original files (empty when nothing was kept),
  /// and the texts they give.
  FileEdits Final;
  verify::SourceTexts FinalTexts;
  /// The original texts of the source and of every file Final changes, by
  /// absolute path.
  std::map<std::string, std::string> Originals;
};

/// The kernels of \p Engine that can be verified, each with what is
/// launched of it (a template's instantiations); warns of the others
/// (templates instantiated nowhere, kernels \p Unsupported names).
std::vector<optimize::SessionKernel> verifiableKernels(
    const RewriteEngine &Engine,
    const std::function<std::optional<std::string>(size_t)> &Unsupported,
    const std::function<void(const std::string &)> &Warn);

/// Runs optimize on \p O.Session.Source, whose kernels and proposals
/// \p Engine holds; progress lines go to \p Log. Fails with one line
/// ("interrupted" when a run was interrupted).
llvm::Expected<VerifiedOptimizeResult>
verifiedOptimize(const VerifiedOptimizeOptions &O, const RewriteEngine &Engine,
                 const VerifiedOptimizeHooks &Hooks, llvm::raw_ostream &Log);

/// What a verified run's kept edits are written as: at most one of them.
struct VerifiedOutputs {
  /// The source itself (and the headers it changes), atomically.
  bool InPlace = false;
  /// Print the kept edits as a diff instead of the report.
  bool Diff = false;
  /// A clang-apply-replacements file, or a patched copy of the source.
  std::string ExportFixes, Copy;
  /// Writes \p Text to \p Path.
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
};

/// Writes what \p Out asks of \p R's kept edits of \p Source (as the user
/// named it; other files are named relative to the working directory) and
/// returns the text to print: the diff, or the report (with the kept
/// rewrite's diff unless a copy or fixes were written).
llvm::Expected<std::string>
writeVerifiedResult(const VerifiedOutputs &Out, const std::string &Source,
                    const VerifiedOptimizeResult &R);

/// The files of --candidate, read: each path with its text.
llvm::Expected<std::vector<std::pair<std::string, std::string>>>
readCandidateFiles(const std::vector<std::string> &Paths);

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_VERIFIEDOPTIMIZE_H
