//===- LearnCommand.cpp - `clang-autoprof learn` --------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Learns a profiling tree from a dataset (docs/learn.md): the options of
/// runLearnCommand() (lib/OptimizeTooling).
///
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/OptimizeTooling/LearnCommand.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::learn;
using namespace autoprof::tool;

namespace {

struct LearnOptions_ {
  /// The command's options, which most of the options below set.
  LearnCommandOptions V;
  LearnSessionOptions &S = V.Session;
  cl::list<std::string, std::vector<std::string>> Datasets{
      "dataset",
      cl::desc("Dataset files (JSON lines; repeat or separate "
               "with commas to merge several)"),
      cl::value_desc("file"),
      cl::CommaSeparated,
      cl::location(S.Datasets),
      cl::sub(learnCommand())};
  cl::list<std::string, std::vector<std::string>> HeldOut{
      "held-out",
      cl::desc("Datasets of other programs: learn on --dataset and judge "
               "the tree, the compared trees and the oracle on these"),
      cl::value_desc("file"),
      cl::CommaSeparated,
      cl::location(S.HeldOut),
      cl::sub(learnCommand())};
  cl::opt<unsigned, true> Budget{
      "budget", cl::desc("Replay passes one kernel may cost (required)"),
      cl::value_desc("passes"), cl::location(S.Budget),
      cl::sub(learnCommand())};
  cl::list<std::string, std::vector<std::string>> Init{
      "init",
      cl::desc("Trees to start from, names of tree-models/ or files, comma "
               "separated: learning starts from each and keeps the best on "
               "the training kernels; 'minimal' is one leaf with the launch "
               "attributes and no stage 1 (default: minimal)"),
      cl::value_desc("tree,..."),
      cl::CommaSeparated,
      cl::location(S.Init),
      cl::sub(learnCommand())};
  cl::opt<std::string, true> ProposerName{
      "proposer",
      cl::desc("Who proposes operations: search (every neighbour of the "
               "tree) or llm (a model, one operation per round)"),
      cl::value_desc("search|llm"), cl::location(S.Proposer),
      cl::sub(learnCommand())};
  cl::opt<std::string, true> RewriterName{
      "rewriter",
      cl::desc("Whose rewrites are judged: builtin (the dataset's "
               "outcomes) or llm (optimize --rewriter=llm run on each "
               "kernel with the metrics its leaf shows)"),
      cl::value_desc("builtin|llm"), cl::location(S.Rewriter),
      cl::sub(learnCommand())};
  cl::opt<std::string, true> Programs{
      "programs",
      cl::desc("With --rewriter=llm: the corpus manifest that says how each "
               "dataset program is built and run"),
      cl::value_desc("manifest.json"), cl::location(S.Programs),
      cl::sub(learnCommand())};
  cl::opt<std::string, true> OutcomeCache{
      "outcome-cache",
      cl::desc("With --rewriter=llm: keep each measured outcome here (JSON "
               "lines) and reuse it"),
      cl::value_desc("file"), cl::location(S.OutcomeCache),
      cl::sub(learnCommand())};
  cl::opt<unsigned, true> Timeout{
      "timeout",
      cl::desc("With --rewriter=llm: seconds one run of a program may take"),
      cl::location(V.Timeout), cl::sub(learnCommand())};
  cl::opt<std::string, true> LLMBaseURL{
      "llm-base-url",
      cl::desc("OpenAI-compatible API base URL for --proposer=llm "
               "(default: AUTOPROF_LLM_BASE_URL)"),
      cl::value_desc("url"), cl::location(V.LLMBaseURL),
      cl::sub(learnCommand())};
  cl::opt<std::string, true> LLMModel{
      "llm-model", cl::desc("Model name (default: AUTOPROF_LLM_MODEL)"),
      cl::value_desc("name"), cl::location(V.LLMModel),
      cl::sub(learnCommand())};
  cl::opt<std::string, true> LLMCache{
      "llm-cache",
      cl::desc("Keep every reply in this folder, keyed by its request"),
      cl::value_desc("dir"), cl::location(S.LLMCache), cl::sub(learnCommand())};
  cl::opt<bool, true> LLMReplayOnly{
      "llm-replay-only",
      cl::desc("Answer only from --llm-cache; a miss is an error"),
      cl::location(S.LLMReplayOnly), cl::sub(learnCommand())};
  cl::opt<unsigned, true> LLMTimeout{
      "llm-timeout", cl::desc("Seconds one request may take (default 300)"),
      cl::location(V.LLMTimeout), cl::sub(learnCommand())};
  cl::opt<unsigned, true> Iterations{
      "iterations", cl::desc("Rounds of proposals (default 20)"),
      cl::location(S.Iterations), cl::sub(learnCommand())};
  cl::opt<unsigned, true> Folds{
      "folds",
      cl::desc("Cross-validate over K folds of programs before learning "
               "the final tree (0: no cross-validation)"),
      cl::value_desc("K"), cl::location(S.Folds), cl::sub(learnCommand())};
  cl::opt<uint64_t, true> Seed{"seed",
                               cl::desc("Seed of the folds and of the order of "
                                        "proposals (default 1)"),
                               cl::location(S.Seed), cl::sub(learnCommand())};
  cl::opt<unsigned, true> MinLeaf{
      "min-leaf",
      cl::desc("Fewest training kernels on each side of a split (default 2)"),
      cl::location(S.MinLeaf), cl::sub(learnCommand())};
  cl::opt<bool, true> Fill{
      "fill",
      cl::desc("After learning, add to each leaf the trigger metrics that "
               "fit the budget and cost no training objective"),
      cl::location(S.Fill), cl::sub(learnCommand())};
  cl::opt<std::string, true> Name{"name", cl::desc("Name of the learned tree"),
                                  cl::location(S.Name),
                                  cl::sub(learnCommand())};
  cl::opt<std::string, true> Output{
      "o", cl::desc("Write the learned tree here"), cl::value_desc("tree.json"),
      cl::location(V.Output), cl::sub(learnCommand())};
  cl::opt<std::string, true> Log{
      "log", cl::desc("Write every proposal here (JSON lines)"),
      cl::value_desc("file"), cl::location(S.LogFile), cl::sub(learnCommand())};
  cl::list<std::string, std::vector<std::string>> Compare{
      "compare",
      cl::desc("Trees to replay beside the learned one, held to the budget"),
      cl::value_desc("tree"),
      cl::CommaSeparated,
      cl::location(S.Compare),
      cl::sub(learnCommand())};
  cl::list<std::string, std::vector<std::string>> CompareFull{
      "compare-unbudgeted",
      cl::desc("Trees to replay as they are, whatever they cost"),
      cl::value_desc("tree"),
      cl::CommaSeparated,
      cl::location(S.CompareUnbudgeted),
      cl::sub(learnCommand())};
  cl::opt<bool, true> Oracle{
      "oracle", cl::desc("Add the per-kernel oracle at the budget"),
      cl::location(S.Oracle), cl::sub(learnCommand())};
  cl::opt<unsigned, true> Curve{
      "metric-curve",
      cl::desc("Replay every kernel with the same first 0, 1, 2, ... "
               "trigger metrics, over N random orders"),
      cl::value_desc("N"), cl::location(S.Curve), cl::sub(learnCommand())};
  cl::opt<std::string, true> Report{
      "report", cl::desc("Write the comparison as JSON"),
      cl::value_desc("file"), cl::location(V.Report), cl::sub(learnCommand())};
  cl::opt<bool, true> Quiet{"quiet", cl::desc("No progress lines"),
                            cl::location(S.Quiet), cl::sub(learnCommand())};
  cl::opt<std::string> Catalog{
      "catalog", cl::desc("Metric catalog (default: the one shipped)"),
      cl::value_desc("file"), cl::sub(learnCommand())};
};

LearnOptions_ &learnOptions() {
  static LearnOptions_ O;
  return O;
}

[[maybe_unused]] const LearnOptions_ &Registered = learnOptions();

} // namespace

int autoprof::tool::runLearn(const char *Argv0) {
  LearnOptions_ &O = learnOptions();
  O.V.CatalogPath = catalogPath(Argv0, O.Catalog);
  O.V.InjectLibrary = injectionLibrary(Argv0);
  O.V.Parse = sourceSettings(std::nullopt);
  LearnCommandHooks H;
  H.LoadHost = []() -> Expected<std::unique_ptr<PassCounter>> {
    return loadProfilerHost();
  };
  H.Write = writeOutput;
  H.Messages = toolMessages();
  return runLearnCommand(O.V, H, errs(), outs());
}
