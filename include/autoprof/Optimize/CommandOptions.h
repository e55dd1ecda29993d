//===- CommandOptions.h - What `optimize` is asked to do --------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The options of `optimize` as a value, as its command line sets them,
/// and the check of which of them go together, done before anything runs.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZE_COMMANDOPTIONS_H
#define AUTOPROF_OPTIMIZE_COMMANDOPTIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace autoprof {
namespace optimize {

/// The options of `optimize` (docs/optimize.md), each named as its flag.
struct CommandOptions {
  /// --dry-run, --explain, --diff, --in-place, --try-all, --compose.
  bool DryRun = false, Explain = false, Diff = false, InPlace = false,
       TryAll = false, Compose = true;
  /// --export-fixes, -o, --run, --build, --report, --keep-profile,
  /// --profile, --samples, --device-lock.
  std::string ExportFixes, Output, Run, Build, Report, KeepProfile,
      ProfileFile, Samples, DeviceLock;
  /// --tree, and whether it was given.
  std::string Tree;
  bool TreeGiven = false;
  /// --rewriter: builtin or llm.
  std::string Rewriter = "builtin";
  /// --transformations and --candidate.
  std::vector<std::string> Transformations, Candidates;
  /// --attempts, --runs, --timeout.
  unsigned Attempts = 3, Runs = 3, Timeout = 300;
  /// --rtol, --atol, --min-speedup.
  double RTol = 1e-4, ATol = 1e-5, MinSpeedup = 1.02;
  /// How far a floating-point output may move beyond the tolerances, in
  /// multiples of how far two runs of the original with the same seed
  /// differ (JudgeOptions::OrderSlack).
  double OrderSlack = 4;
  /// --llm-base-url, --llm-model, --llm-cache, --llm-prompts.
  std::string LLMBaseURL, LLMModel, LLMCache, LLMPrompts;
  /// --llm-replay-only, --llm-show-prompt.
  bool LLMReplayOnly = false, LLMShowPrompt = false;
  /// --llm-retries, --llm-timeout.
  unsigned LLMRetries = 4, LLMTimeout = 300;

  bool useModel() const { return Rewriter == "llm"; }
};

/// Checks that the options \p O go together for the sources \p Sources;
/// fails with one line saying why not.
llvm::Error checkCommandOptions(const CommandOptions &O,
                                llvm::ArrayRef<std::string> Sources);

} // namespace optimize
} // namespace autoprof

#endif // AUTOPROF_OPTIMIZE_COMMANDOPTIONS_H
