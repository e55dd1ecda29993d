//===- OptimizeOptions.h - Options of clang-autoprof optimize ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The options of `optimize`, shared by its dry run (proposals only) and
/// its verified run (profile, rewrite, build, run, judge).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLS_OPTIMIZEOPTIONS_H
#define AUTOPROF_TOOLS_OPTIMIZEOPTIONS_H

#include "Commands.h"
#include "autoprof/Optimize/CommandOptions.h"

#include "llvm/Support/CommandLine.h"

#include <string>

namespace autoprof {
namespace tool {

struct OptimizeOptions {
  /// The options' values, which each option below sets.
  optimize::CommandOptions V;
  llvm::cl::opt<bool, true> DryRun{
      "dry-run",
      llvm::cl::desc("Propose the rewrites that static features "
                     "allow, without a GPU; change no file"),
      llvm::cl::location(V.DryRun), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> Explain{
      "explain",
      llvm::cl::desc("With --dry-run, also say for each kernel why each "
                     "transformation that proposes nothing does not apply"),
      llvm::cl::location(V.Explain), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> Diff{
      "diff", llvm::cl::desc("Print the unified diff of each proposal"),
      llvm::cl::location(V.Diff), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> ExportFixes{
      "export-fixes",
      llvm::cl::desc("Write the proposals, merged, as YAML for "
                     "clang-apply-replacements"),
      llvm::cl::value_desc("file"), llvm::cl::location(V.ExportFixes),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Output{
      "o",
      llvm::cl::desc("Write a patched copy of the source with every proposal "
                     "that does not conflict applied"),
      llvm::cl::value_desc("file"), llvm::cl::location(V.Output),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::list<std::string, std::vector<std::string>> Transformations{
      "transformations",
      llvm::cl::desc("Only these transformations (default: all)"),
      llvm::cl::value_desc("name,..."),
      llvm::cl::CommaSeparated,
      llvm::cl::location(V.Transformations),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Run{
      "run",
      llvm::cl::desc("Shell command that runs the program; exit status 0 means "
                     "its own check passed"),
      llvm::cl::value_desc("cmd"), llvm::cl::location(V.Run),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Build{
      "build",
      llvm::cl::desc(
          "Shell command that builds the program from the source "
          "(default: the source's command in the compilation database, "
          "when it links a program)"),
      llvm::cl::value_desc("cmd"), llvm::cl::location(V.Build),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Tree{
      "tree",
      llvm::cl::desc("Tree that chooses the metrics to collect: a name in "
                     "tree-models/ or a path (default: learned)"),
      llvm::cl::value_desc("name|path"),
      llvm::cl::location(V.Tree),
      llvm::cl::init(DefaultTreeName),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Rewriter{
      "rewriter",
      llvm::cl::desc("Who proposes rewrites: builtin (the built-in "
                     "transformations) or llm (a model over HTTP)"),
      llvm::cl::value_desc("builtin|llm"), llvm::cl::location(V.Rewriter),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<unsigned, true> Attempts{
      "attempts",
      llvm::cl::desc("Triggered rewrites verified per kernel, or rounds of "
                     "asking the model with --rewriter=llm (default: 3)"),
      llvm::cl::value_desc("N"), llvm::cl::location(V.Attempts),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> InPlace{
      "in-place",
      llvm::cl::desc("Write the verified rewrite into the source (atomically)"),
      llvm::cl::location(V.InPlace), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Report{
      "report", llvm::cl::desc("Write every attempt and its verdict as JSON"),
      llvm::cl::value_desc("report.json"), llvm::cl::location(V.Report),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<unsigned, true> Runs{
      "runs",
      llvm::cl::desc("Measured runs of each version, seeds 1..N (at least 3; "
                     "default: 3)"),
      llvm::cl::value_desc("N"), llvm::cl::location(V.Runs),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<double, true> RTol{
      "rtol",
      llvm::cl::desc("Relative tolerance of floating-point outputs (default: "
                     "1e-4)"),
      llvm::cl::location(V.RTol), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<double, true> ATol{
      "atol",
      llvm::cl::desc("Absolute tolerance of floating-point outputs (default: "
                     "1e-5)"),
      llvm::cl::location(V.ATol), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<double, true> OrderSlack{
      "order-slack",
      llvm::cl::desc("How far a floating-point output may move beyond the "
                     "tolerances, in multiples of how far two runs of the "
                     "original with the same seed differ (default: 4)"),
      llvm::cl::location(V.OrderSlack), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<double, true> MinSpeedup{
      "min-speedup",
      llvm::cl::desc(
          "Least speedup accepted, beyond the runs' spread (default: "
          "1.02)"),
      llvm::cl::location(V.MinSpeedup), llvm::cl::sub(optimizeCommand())};
  llvm::cl::list<std::string, std::vector<std::string>> Candidates{
      "candidate",
      llvm::cl::desc("Verify this rewrite of the source (a whole file) "
                     "instead of proposing built-in ones; one kernel must be "
                     "selected"),
      llvm::cl::value_desc("file"), llvm::cl::location(V.Candidates),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> TryAll{
      "try-all",
      llvm::cl::desc("Verify every proposal up to --attempts, triggered or "
                     "not (to measure what each rewrite gains)"),
      llvm::cl::location(V.TryAll), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> Compose{
      "compose",
      llvm::cl::desc("Try the proposals made on a kept rewrite's result, "
                     "keeping a chain that beats it (default: on; "
                     "--compose=false judges each rewrite alone)"),
      llvm::cl::location(V.Compose), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> KeepProfile{
      "keep-profile",
      llvm::cl::desc("Also write the profile the tree collected"),
      llvm::cl::value_desc("profile.json"), llvm::cl::location(V.KeepProfile),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> ProfileFile{
      "profile",
      llvm::cl::desc("Choose the rewrites from this profile (written by "
                     "`profile` or --keep-profile) instead of profiling the "
                     "program"),
      llvm::cl::value_desc("profile.json"), llvm::cl::location(V.ProfileFile),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> Samples{
      "samples",
      llvm::cl::desc("With --dry-run: route each kernel through --tree with "
                     "this profile's values and say which proposals its "
                     "leaf's metrics trigger"),
      llvm::cl::value_desc("profile.json"), llvm::cl::location(V.Samples),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> DeviceLock{
      "device-lock",
      llvm::cl::desc("Take turns with other processes holding this lock "
                     "file for the runs that time or profile kernels (their "
                     "builds overlap)"),
      llvm::cl::value_desc("file"), llvm::cl::location(V.DeviceLock),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> LLMBaseURL{
      "llm-base-url",
      llvm::cl::desc("With --rewriter=llm: the server's API base URL, e.g. "
                     "https://api.openai.com/v1 (default: "
                     "$AUTOPROF_LLM_BASE_URL)"),
      llvm::cl::value_desc("url"), llvm::cl::location(V.LLMBaseURL),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> LLMModel{
      "llm-model",
      llvm::cl::desc("With --rewriter=llm: the model (default: "
                     "$AUTOPROF_LLM_MODEL); the key comes only from "
                     "$AUTOPROF_LLM_API_KEY or $OPENAI_API_KEY"),
      llvm::cl::value_desc("name"), llvm::cl::location(V.LLMModel),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> LLMCache{
      "llm-cache",
      llvm::cl::desc("With --rewriter=llm: keep every reply in this "
                     "directory, keyed by its request, and reuse it"),
      llvm::cl::value_desc("dir"), llvm::cl::location(V.LLMCache),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> LLMReplayOnly{
      "llm-replay-only",
      llvm::cl::desc("With --llm-cache: answer from the cache only, never "
                     "from the network"),
      llvm::cl::location(V.LLMReplayOnly), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<bool, true> LLMShowPrompt{
      "llm-show-prompt",
      llvm::cl::desc("With --rewriter=llm --dry-run: print the prompt of "
                     "each kernel instead of sending it"),
      llvm::cl::location(V.LLMShowPrompt), llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<std::string, true> LLMPrompts{
      "llm-prompts",
      llvm::cl::desc("The directory of the prompt templates system.txt, "
                     "kernel.txt and retry.txt (default: the shipped "
                     "tree-models/prompts)"),
      llvm::cl::value_desc("dir"), llvm::cl::location(V.LLMPrompts),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<unsigned, true> LLMRetries{
      "llm-retries",
      llvm::cl::desc("Retries of a request after HTTP 429, 5xx, a timeout "
                     "or a connection error (default: 4)"),
      llvm::cl::value_desc("N"), llvm::cl::location(V.LLMRetries),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<unsigned, true> LLMTimeout{
      "llm-timeout",
      llvm::cl::desc("Seconds one request to the model may take (default: "
                     "300)"),
      llvm::cl::value_desc("S"), llvm::cl::location(V.LLMTimeout),
      llvm::cl::sub(optimizeCommand())};
  llvm::cl::opt<unsigned, true> Timeout{
      "timeout",
      llvm::cl::desc("Seconds a build or a run may take (default: 300; 0: no "
                     "limit)"),
      llvm::cl::value_desc("S"), llvm::cl::location(V.Timeout),
      llvm::cl::sub(optimizeCommand())};
};

/// The options, registered with the `optimize` subcommand on first use.
OptimizeOptions &optimizeOptions();

} // namespace tool
} // namespace autoprof

#endif // AUTOPROF_TOOLS_OPTIMIZEOPTIONS_H
