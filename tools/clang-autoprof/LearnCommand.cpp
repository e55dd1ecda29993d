//===- LearnCommand.cpp - `clang-autoprof learn` --------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Learns a profiling tree from a dataset (docs/learn.md): the options, the
/// built-in rewriter's triggers and the model's trials given to lib/Learn's
/// session, and its tree and report written.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Learn/LearnReport.h"
#include "autoprof/Learn/LearnSession.h"
#include "autoprof/OptimizeTooling/ModelTrial.h"
#include "autoprof/Rewrite/TransformationRegistry.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::learn;
using namespace autoprof::tool;

namespace {

struct LearnOptions_ {
  /// The session's options, which most of the options below set.
  LearnSessionOptions S;
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
  cl::opt<unsigned> Timeout{
      "timeout",
      cl::desc("With --rewriter=llm: seconds one run of a program may take"),
      cl::init(0), cl::sub(learnCommand())};
  cl::opt<std::string> LLMBaseURL{
      "llm-base-url",
      cl::desc("OpenAI-compatible API base URL for --proposer=llm "
               "(default: AUTOPROF_LLM_BASE_URL)"),
      cl::value_desc("url"), cl::sub(learnCommand())};
  cl::opt<std::string> LLMModel{
      "llm-model", cl::desc("Model name (default: AUTOPROF_LLM_MODEL)"),
      cl::value_desc("name"), cl::sub(learnCommand())};
  cl::opt<std::string, true> LLMCache{
      "llm-cache",
      cl::desc("Keep every reply in this folder, keyed by its request"),
      cl::value_desc("dir"), cl::location(S.LLMCache), cl::sub(learnCommand())};
  cl::opt<bool, true> LLMReplayOnly{
      "llm-replay-only",
      cl::desc("Answer only from --llm-cache; a miss is an error"),
      cl::location(S.LLMReplayOnly), cl::sub(learnCommand())};
  cl::opt<unsigned> LLMTimeout{
      "llm-timeout", cl::desc("Seconds one request may take (default 300)"),
      cl::init(0), cl::sub(learnCommand())};
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
  cl::opt<std::string> Output{"o", cl::desc("Write the learned tree here"),
                              cl::value_desc("tree.json"),
                              cl::sub(learnCommand())};
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
  cl::opt<std::string> Report{"report",
                              cl::desc("Write the comparison as JSON"),
                              cl::value_desc("file"), cl::sub(learnCommand())};
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

/// The built-in rewriter's transformations as replay rules.
TriggerRewriter builtinRewriter() {
  std::vector<TriggerRewriter::Rule> Rules;
  for (const Transformation *T : TransformationRegistry::all())
    Rules.push_back(
        {T->name().str(), T->triggerMetrics(),
         [T](const MetricMap &M) { return T->trigger(M).has_value(); }});
  return TriggerRewriter(std::move(Rules));
}

/// The session's options from the command line.
LearnSessionOptions sessionOptions(const char *Argv0) {
  const LearnOptions_ &O = learnOptions();
  LearnSessionOptions S = O.S;
  const char *Cuda = std::getenv("CUDAToolkit_ROOT");
  SmallString<256> Nvcc(Cuda && *Cuda ? Cuda : "/usr/local/cuda");
  sys::path::append(Nvcc, "bin", "nvcc");
  S.Nvcc = std::string(Nvcc);
  S.Chat = ChatConfig::fromEnvironment();
  if (!O.LLMBaseURL.empty())
    S.Chat.BaseURL = O.LLMBaseURL;
  if (!O.LLMModel.empty())
    S.Chat.Model = O.LLMModel;
  if (O.LLMTimeout)
    S.Chat.Timeout = std::chrono::milliseconds(1000ull * O.LLMTimeout);
  S.WantLearned = !O.Output.empty();
  S.CatalogPath = catalogPath(Argv0, O.Catalog);
  return S;
}

/// The model of the --llm-* options, for --rewriter=llm's trials.
LLMRewriterOptions trialModel(const char *Argv0) {
  const LearnOptions_ &O = learnOptions();
  LLMRewriterOptions LLM;
  LLM.BaseURL = O.LLMBaseURL;
  LLM.Model = O.LLMModel;
  LLM.Cache = O.S.LLMCache;
  LLM.ReplayOnly = O.S.LLMReplayOnly;
  LLM.TimeoutSeconds = O.LLMTimeout;
  LLM.Catalog = catalogPath(Argv0, O.Catalog);
  return LLM;
}

} // namespace

int autoprof::tool::runLearn(const char *Argv0) {
  const LearnOptions_ &O = learnOptions();
  ModelTrials Trials(trialModel(Argv0),
                     [](const std::string &W) { reportWarning(W); });
  LearnSessionHooks Hooks;
  Hooks.Rewriter = builtinRewriter();
  Hooks.LoadHost = []() -> Expected<std::unique_ptr<PassCounter>> {
    return loadProfilerHost();
  };
  Hooks.Trial = [&](const LiveTrial &T) {
    ModelTrialOptions MO;
    MO.Source = T.Source;
    MO.Kernel = T.Kernel;
    MO.ProfileFile = T.ProfileFile;
    MO.Build = T.Build;
    MO.Run = T.Run;
    MO.InjectLibrary = injectionLibrary(Argv0);
    MO.Timeout = O.Timeout;
    MO.Parse =
        sourceSettings(std::vector<std::string>{"-std=c++17", "-I" + T.Dir});
    return Trials.run(std::move(MO), T.Log);
  };
  Hooks.CheckTrialModel = [&] { return Trials.check(); };
  Expected<LearnSessionResult> R =
      runLearnSession(sessionOptions(Argv0), std::move(Hooks), errs());
  if (failed(R))
    return 1;
  if (R->LearnedTree)
    if (failed(writeOutput(O.Output, *R->LearnedTree)))
      return 1;
  if (!O.Report.empty())
    if (failed(writeOutput(O.Report, writeLearnReportJSON(R->Report))))
      return 1;
  if (!R->Report.Rows.empty() || !R->Report.Curve.empty())
    outs() << writeLearnReportText(R->Report);
  return 0;
}
