//===- LearnCommand.cpp - `clang-autoprof learn` --------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Learns a profiling tree from a dataset (docs/learn.md): replays trees on
/// the dataset with the built-in rewriter's triggers, refines the tree by
/// the search proposer's operations, cross-validates, and compares the
/// result with other trees at the same budget.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Learn/Baselines.h"
#include "autoprof/Learn/CrossValidation.h"
#include "autoprof/Learn/Dataset.h"
#include "autoprof/Learn/LLMProposer.h"
#include "autoprof/Learn/LearnReport.h"
#include "autoprof/Learn/Learner.h"
#include "autoprof/Learn/LiveOutcomes.h"
#include "autoprof/Learn/Replay.h"
#include "autoprof/Learn/SearchProposer.h"
#include "autoprof/OptimizeTooling/ModelTrial.h"
#include "autoprof/Rewrite/TransformationRegistry.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::learn;
using namespace autoprof::tool;

namespace {

struct LearnOptions_ {
  cl::list<std::string> Datasets{
      "dataset",
      cl::desc("Dataset files (JSON lines; repeat or separate "
               "with commas to merge several)"),
      cl::value_desc("file"), cl::CommaSeparated, cl::sub(learnCommand())};
  cl::opt<unsigned> Budget{
      "budget", cl::desc("Replay passes one kernel may cost (required)"),
      cl::value_desc("passes"), cl::init(0), cl::sub(learnCommand())};
  cl::list<std::string> Init{
      "init",
      cl::desc("Trees to start from, names of tree-models/ or files, comma "
               "separated: learning starts from each and keeps the best on "
               "the training kernels; 'minimal' is one leaf with the launch "
               "attributes and no stage 1 (default: minimal)"),
      cl::value_desc("tree,..."), cl::CommaSeparated, cl::sub(learnCommand())};
  cl::opt<std::string> ProposerName{
      "proposer",
      cl::desc("Who proposes operations: search (every neighbour of the "
               "tree) or llm (a model, one operation per round)"),
      cl::value_desc("search|llm"), cl::init("search"),
      cl::sub(learnCommand())};
  cl::opt<std::string> RewriterName{
      "rewriter",
      cl::desc("Whose rewrites are judged: builtin (the dataset's "
               "outcomes) or llm (optimize --rewriter=llm run on each "
               "kernel with the metrics its leaf shows)"),
      cl::value_desc("builtin|llm"), cl::init("builtin"),
      cl::sub(learnCommand())};
  cl::opt<std::string> Programs{
      "programs",
      cl::desc("With --rewriter=llm: the corpus manifest that says how each "
               "dataset program is built and run"),
      cl::value_desc("manifest.json"), cl::sub(learnCommand())};
  cl::opt<std::string> OutcomeCache{
      "outcome-cache",
      cl::desc("With --rewriter=llm: keep each measured outcome here (JSON "
               "lines) and reuse it"),
      cl::value_desc("file"), cl::sub(learnCommand())};
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
  cl::opt<std::string> LLMCache{
      "llm-cache",
      cl::desc("Keep every reply in this folder, keyed by its request"),
      cl::value_desc("dir"), cl::sub(learnCommand())};
  cl::opt<bool> LLMReplayOnly{
      "llm-replay-only",
      cl::desc("Answer only from --llm-cache; a miss is an error"),
      cl::sub(learnCommand())};
  cl::opt<unsigned> LLMTimeout{
      "llm-timeout", cl::desc("Seconds one request may take (default 300)"),
      cl::init(0), cl::sub(learnCommand())};
  cl::opt<unsigned> Iterations{"iterations",
                               cl::desc("Rounds of proposals (default 20)"),
                               cl::init(20), cl::sub(learnCommand())};
  cl::opt<unsigned> Folds{
      "folds",
      cl::desc("Cross-validate over K folds of programs before learning "
               "the final tree (0: no cross-validation)"),
      cl::value_desc("K"), cl::init(0), cl::sub(learnCommand())};
  cl::opt<uint64_t> Seed{"seed",
                         cl::desc("Seed of the folds and of the order of "
                                  "proposals (default 1)"),
                         cl::init(1), cl::sub(learnCommand())};
  cl::opt<unsigned> MinLeaf{
      "min-leaf",
      cl::desc("Fewest training kernels on each side of a split (default 2)"),
      cl::init(2), cl::sub(learnCommand())};
  cl::opt<bool> Fill{
      "fill",
      cl::desc("After learning, add to each leaf the trigger metrics that "
               "fit the budget and cost no training objective"),
      cl::sub(learnCommand())};
  cl::opt<std::string> Name{"name", cl::desc("Name of the learned tree"),
                            cl::init("learned"), cl::sub(learnCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Write the learned tree here"),
                              cl::value_desc("tree.json"),
                              cl::sub(learnCommand())};
  cl::opt<std::string> Log{"log",
                           cl::desc("Write every proposal here (JSON lines)"),
                           cl::value_desc("file"), cl::sub(learnCommand())};
  cl::list<std::string> Compare{
      "compare",
      cl::desc("Trees to replay beside the learned one, held to the budget"),
      cl::value_desc("tree"), cl::CommaSeparated, cl::sub(learnCommand())};
  cl::list<std::string> CompareFull{
      "compare-unbudgeted",
      cl::desc("Trees to replay as they are, whatever they cost"),
      cl::value_desc("tree"), cl::CommaSeparated, cl::sub(learnCommand())};
  cl::opt<bool> Oracle{"oracle",
                       cl::desc("Add the per-kernel oracle at the budget"),
                       cl::sub(learnCommand())};
  cl::opt<unsigned> Curve{
      "metric-curve",
      cl::desc("Replay every kernel with the same first 0, 1, 2, ... "
               "trigger metrics, over N random orders"),
      cl::value_desc("N"), cl::init(0), cl::sub(learnCommand())};
  cl::opt<std::string> Report{"report",
                              cl::desc("Write the comparison as JSON"),
                              cl::value_desc("file"), cl::sub(learnCommand())};
  cl::opt<bool> Quiet{"quiet", cl::desc("No progress lines"),
                      cl::sub(learnCommand())};
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

/// Loads a tree by name or path and checks its structure.
Expected<ProfilingTree> loadTree(StringRef NameOrPath, StringRef ModelsDir) {
  Expected<std::string> Path = findTree(NameOrPath, ModelsDir);
  if (!Path)
    return Path.takeError();
  ProfilingTree T;
  if (Error E = loadCheckedTree(*Path, T))
    return std::move(E);
  return T;
}

std::string percent(double V) {
  return llvm::formatv("{0:F0}%", 100 * V).str();
}

std::string fixed3(double V) { return llvm::formatv("{0:F4}", V).str(); }

/// The leaves' focus notes of a learned tree: the tests on their path.
void describeLeaves(ProfilingTree &T) {
  for (const auto &Path : leafPaths(T)) {
    std::string Focus;
    for (size_t I = 0; I + 1 < Path.size(); ++I) {
      const TreeNode *N = Path[I];
      bool Then = N->Then == Path[I + 1]->Id;
      char Th[32];
      std::snprintf(Th, sizeof(Th), "%g", N->Test.Threshold);
      Focus += (Focus.empty() ? "" : ", ") + N->Test.Key + " " +
               (Then ? N->Test.Op : std::string("not ") + N->Test.Op) + " " +
               Th;
    }
    for (TreeNode &N : T.Nodes)
      if (N.Id == Path.back()->Id && N.Focus.empty())
        N.Focus = "learned leaf for kernels with " +
                  (Focus.empty() ? std::string("any features") : Focus);
  }
}

/// One `learn` run: its options checked, the model, the dataset, the
/// starting trees and the measured outcomes set up, then each table and the
/// learned tree, in the order the options ask for them.
class LearnRun {
public:
  explicit LearnRun(const char *Argv0) : Argv0(Argv0), O(learnOptions()) {}
  ~LearnRun() {
    if (!LiveDir.empty())
      sys::fs::remove_directories(LiveDir);
  }

  int run() {
    if (!checkOptions() || !setUpModel() || !loadData() || !loadInitialTrees())
      return 1;
    Pricer.emplace(*Host, *Catalog, Inits.front().Chips);
    if (!setUpLive() || !fitInitialTrees() || !openLog())
      return 1;
    Rep.Budget = O.Budget;
    Rep.Kernels = All.size();
    Rep.Folds = O.Folds;
    Rep.Seed = O.Seed;
    Rep.Datasets.assign(O.Datasets.begin(), O.Datasets.end());
    if (!crossValidateTrees())
      return 1;
    for (const std::string &Name : O.Compare)
      if (!addTree(Name, true))
        return 1;
    for (const std::string &Name : O.CompareFull)
      if (!addTree(Name, false))
        return 1;
    if (!addOracle() || !addCurve() || !writeLearned())
      return 1;
    return finish();
  }

private:
  /// The options that cannot go together; false after reporting one.
  bool checkOptions() {
    if (O.Datasets.empty()) {
      reportError("learn needs --dataset=<file>");
      return false;
    }
    if (O.Budget == 0) {
      reportError("learn needs --budget=<passes>, a positive number");
      return false;
    }
    if (O.ProposerName != "search" && O.ProposerName != "llm") {
      reportError("unknown proposer '" + O.ProposerName +
                  "' (expected search or llm)");
      return false;
    }
    LiveLLM = O.RewriterName == "llm";
    if (!LiveLLM && O.RewriterName != "builtin") {
      reportError("unknown rewriter '" + O.RewriterName +
                  "' (expected builtin or llm)");
      return false;
    }
    if (LiveLLM) {
      if (O.ProposerName != "llm") {
        reportError("--rewriter=llm measures every tree it evaluates; give "
                    "--proposer=llm, which proposes one per round");
        return false;
      }
      if (O.Fill || O.Oracle || O.Curve) {
        reportError("--fill, --oracle and --metric-curve replay the built-in "
                    "rewriter's outcomes; they do not go with --rewriter=llm");
        return false;
      }
      if (O.Programs.empty()) {
        reportError("--rewriter=llm builds and runs each kernel's program: "
                    "give --programs=<manifest.json>");
        return false;
      }
    }
    if (O.Folds == 1) {
      reportError("--folds must be 0 (no cross-validation) or at least 2");
      return false;
    }
    if (O.Output.empty() && O.Folds == 0 && O.Compare.empty() &&
        O.CompareFull.empty() && !O.Oracle && O.Curve == 0) {
      reportError("nothing to do: give -o <tree.json>, --folds, --compare, "
                  "--oracle or --metric-curve");
      return false;
    }
    return true;
  }

  /// The model of --proposer=llm and its system prompt.
  bool setUpModel() {
    if (O.ProposerName == "llm") {
      ChatConfig Config = ChatConfig::fromEnvironment();
      if (!O.LLMBaseURL.empty())
        Config.BaseURL = O.LLMBaseURL;
      if (!O.LLMModel.empty())
        Config.Model = O.LLMModel;
      if (O.LLMTimeout)
        Config.Timeout = std::chrono::milliseconds(1000ull * O.LLMTimeout);
      if (O.LLMReplayOnly && O.LLMCache.empty()) {
        reportError("--llm-replay-only answers from a reply cache: give "
                    "--llm-cache=<dir>");
        return false;
      }
      if (Config.Model.empty()) {
        reportError("no LLM model configured: give --llm-model=<name> or set "
                    "AUTOPROF_LLM_MODEL");
        return false;
      }
      if (Config.BaseURL.empty() && !O.LLMReplayOnly) {
        reportError("no LLM server configured: give --llm-base-url=<url> or "
                    "set AUTOPROF_LLM_BASE_URL");
        return false;
      }
      SmallString<256> Prompt(
          sys::path::parent_path(catalogPath(Argv0, O.Catalog)));
      sys::path::append(Prompt, "prompts", "learn-system.txt");
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
          MemoryBuffer::getFile(Prompt, /*IsText=*/true);
      if (!Buf) {
        reportError("cannot read the prompt '" + Prompt +
                    "': " + Buf.getError().message());
        return false;
      }
      SystemPrompt = (*Buf)->getBuffer().str();
      Client = std::make_unique<ChatClient>(Config);
      if (!O.LLMCache.empty())
        Cache.emplace(O.LLMCache, O.LLMReplayOnly
                                      ? ReplyCache::Mode::ReplayOnly
                                      : ReplyCache::Mode::ReadWrite);
    }
    return true;
  }

  /// The catalog and the datasets, each file checked on its own first.
  bool loadData() {
    std::string CatalogPath = catalogPath(Argv0, O.Catalog);
    ModelsDir = sys::path::parent_path(CatalogPath).str();
    Expected<MetricCatalog> Loaded = MetricCatalog::load(CatalogPath);
    if (!Loaded) {
      reportError(toString(Loaded.takeError()));
      return false;
    }
    Catalog.emplace(std::move(*Loaded));

    // The dataset, every file checked on its own first.
    for (const std::string &Path : O.Datasets) {
      Expected<std::vector<DatasetKernel>> D = loadDataset(Path, *Catalog);
      if (!D) {
        reportError(toString(D.takeError()));
        return false;
      }
      for (const DatasetKernel &K : *D)
        for (const Outcome &Out : K.Outcomes)
          if (!Rewriter.find(Out.Transformation)) {
            reportError(Path + ": kernel '" + K.Kernel + "' of '" + K.Program +
                        "': unknown transformation '" + Out.Transformation +
                        "' (expected one of " +
                        TransformationRegistry::names() + ")");
            return false;
          }
      if (Error E = mergeDataset(Data, std::move(*D), Path)) {
        reportError(toString(std::move(E)));
        return false;
      }
    }
    // Replay judges the transformations the dataset measured.
    if (!LiveLLM)
      Rewriter = Rewriter.measuredOn(Data);
    for (const DatasetKernel &K : Data)
      All.push_back(&K);

    return true;
  }

  /// The default tree and the starting trees, on chips the profiler
  /// knows.
  bool loadInitialTrees() {
    // The starting trees.
    {
      Expected<ProfilingTree> D = loadTree("default", ModelsDir);
      if (!D) {
        reportError(toString(D.takeError()));
        return false;
      }
      Default = std::move(*D);
    }
    Expected<std::unique_ptr<ProfilerHost>> LoadedHost = loadProfilerHost();
    if (!LoadedHost) {
      reportError(toString(LoadedHost.takeError()));
      return false;
    }
    Host = std::move(*LoadedHost);
    InitNames.assign(O.Init.begin(), O.Init.end());
    if (InitNames.empty())
      InitNames.push_back("minimal");
    for (const std::string &Name : InitNames) {
      ProfilingTree Init;
      if (Name == "minimal") {
        Init.Chips = Default->Chips;
        Init.Root = "all";
        TreeNode Leaf;
        Leaf.Id = "all";
        Leaf.Leaf = true;
        Leaf.Path = "$.nodes[0]";
        // Launch attributes cost no pass.
        Leaf.Metrics = {"launch__grid_size", "launch__block_size",
                        "launch__registers_per_thread"};
        Init.Nodes.push_back(Leaf);
      } else {
        Expected<ProfilingTree> T = loadTree(Name, ModelsDir);
        if (!T) {
          reportError(toString(T.takeError()));
          return false;
        }
        Init = std::move(*T);
      }
      Init.Name = O.Name;
      for (const std::string &Chip : Init.Chips)
        if (Error E = Host->checkChip(Chip)) {
          reportError(toString(std::move(E)));
          return false;
        }
      if (!Inits.empty() && Init.Chips != Inits.front().Chips) {
        reportError("the initial trees '" + InitNames.front() + "' and '" +
                    Name + "' are for different chips");
        return false;
      }
      Inits.push_back(std::move(Init));
    }
    return true;
  }

  /// With --rewriter=llm, the outcomes measured by running optimize.
  bool setUpLive() {
    if (!LiveLLM)
      return true;
    Expected<std::map<std::string, ProgramSpec>> Specs =
        loadProgramManifest(O.Programs);
    if (!Specs) {
      reportError(toString(Specs.takeError()));
      return false;
    }
    for (const DatasetKernel &K : Data)
      if (!Specs->count(K.Program)) {
        reportError(O.Programs + ": no program '" + K.Program +
                    "' of the dataset");
        return false;
      }
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("clang-autoprof-learn", LiveDir)) {
      reportError("cannot create a temporary directory: " + EC.message());
      return false;
    }
    LiveOptions LO;
    const char *Cuda = std::getenv("CUDAToolkit_ROOT");
    SmallString<256> Nvcc(Cuda && *Cuda ? Cuda : "/usr/local/cuda");
    sys::path::append(Nvcc, "bin", "nvcc");
    LO.Nvcc = std::string(Nvcc);
    LO.CacheFile = O.OutcomeCache;
    LO.WorkDir = std::string(LiveDir);
    // The model's settings are checked before anything runs.
    LLMRewriterOptions LLM = trialModel();
    if (Expected<std::unique_ptr<LLMRewriter>> R = LLMRewriter::create(LLM);
        !R) {
      reportError(toString(R.takeError()));
      return false;
    }
    LO.Optimize = [this, LLM](const LiveTrial &T)
        -> Expected<std::optional<verify::OptimizeReport>> {
      return runTrial(T, LLM);
    };
    Expected<std::unique_ptr<LiveOutcomes>> L =
        LiveOutcomes::create(std::move(*Specs), std::move(LO));
    if (!L) {
      reportError(toString(L.takeError()));
      return false;
    }
    Outcomes = std::move(*L);
    Live = [&](const DatasetKernel &K, const MetricMap &Seen) {
      return Outcomes->gain(K, Seen);
    };
    return true;
  }

  /// The model of --rewriter=llm's trials: the --llm-* options.
  LLMRewriterOptions trialModel() const {
    LLMRewriterOptions L;
    L.BaseURL = O.LLMBaseURL;
    L.Model = O.LLMModel;
    L.Cache = O.LLMCache;
    L.ReplayOnly = O.LLMReplayOnly;
    L.TimeoutSeconds = O.LLMTimeout;
    L.Catalog = catalogPath(Argv0, O.Catalog);
    return L;
  }

  /// One trial of the model, in-process; its progress in the trial's log.
  Expected<std::optional<verify::OptimizeReport>>
  runTrial(const LiveTrial &T, const LLMRewriterOptions &LLM) {
    std::error_code EC;
    raw_fd_ostream Log(T.Log, EC);
    if (EC)
      return createStringError("cannot write '" + T.Log + "': " + EC.message());
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
    MO.LLM = LLM;
    std::string Why;
    Expected<std::optional<verify::OptimizeReport>> R =
        runModelTrial(MO, Log, &Why);
    // A trial without a report gains nothing: say why, once per reason.
    if (R && !*R && TrialProblems.insert(Why).second)
      reportWarning("a trial on '" + T.Kernel +
                    "' ended without a report, so it gains nothing: " + Why);
    return R;
  }

  const LiveGain *livePtr() const { return LiveLLM ? &Live : nullptr; }

  /// Each starting tree within the budget.
  bool fitInitialTrees() {
    for (size_t I = 0; I < Inits.size(); ++I) {
      ProfilingTree &Init = Inits[I];
      const std::string &Name = InitNames[I];
      Init.Budget = O.Budget;
      // A starting tree that costs more than the budget starts from its first
      // fit to the budget, as --compare replays it.
      std::vector<TreeProblem> Problems;
      unsigned Most = checkMetricsAndBudget(Init, *Catalog, *Host, Problems);
      if (Most > O.Budget) {
        Expected<ProfilingTree> Fit = fitToBudget(Init, O.Budget, *Pricer);
        if (!Fit) {
          reportError(llvm::toString(Fit.takeError()));
          return false;
        }
        Init = std::move(*Fit);
        if (!O.Quiet)
          llvm::errs() << "clang-autoprof: learn: the initial tree '" << Name
                       << "' costs up to " << Most
                       << " passes: starting from its first fit to the budget "
                          "of "
                       << O.Budget << "\n";
        Problems.clear();
        checkMetricsAndBudget(Init, *Catalog, *Host, Problems);
      }
      if (!Problems.empty()) {
        reportError("the initial tree '" + Name + "': " +
                    Problems.front().Path + ": " + Problems.front().Message);
        return false;
      }
    }

    return true;
  }

  /// --log.
  bool openLog() {
    if (!O.Log.empty()) {
      std::error_code EC;
      LogOS = std::make_unique<raw_fd_ostream>(O.Log, EC, sys::fs::OF_Text);
      if (EC) {
        reportError("cannot write '" + O.Log + "': " + EC.message());
        return false;
      }
    }

    return true;
  }

  /// A tree learned on \p Train (fold \p Fold, -1 for all kernels) from
  /// each starting tree, the best on the training kernels kept.
  Expected<LearnResult> learn(ArrayRef<const DatasetKernel *> Train, int Fold) {
    SearchOptions SO;
    SO.Budget = O.Budget;
    SO.MinLeaf = O.MinLeaf;
    SO.Seed = O.Seed;
    SO.SamplePool = Default->Stage1;
    SearchProposer Search(Rewriter, *Pricer, SO);
    std::optional<LLMProposer> Model;
    if (Client)
      Model.emplace(*Client, Cache ? &*Cache : nullptr, SystemPrompt, Rewriter,
                    *Catalog, O.Budget);
    Proposer &P = Model ? static_cast<Proposer &>(*Model) : Search;
    learn::LearnOptions LO;
    LO.Budget = O.Budget;
    LO.Iterations = O.Iterations;
    LO.Live = livePtr();
    if (LogOS)
      LO.OnProposal = [&](const LogEntry &E) {
        *LogOS << writeLogLine(E, Fold);
      };
    std::string Where = Fold < 0 ? std::string("all kernels")
                                 : "fold " + std::to_string(Fold + 1) + "/" +
                                       std::to_string(O.Folds);
    if (!O.Quiet)
      LO.OnRound = [&, Where](unsigned Round, const Evaluation &E) {
        errs() << "clang-autoprof: learn (" << Where << "): round " << Round
               << "/" << O.Iterations << ": geomean " << fixed3(E.GeoMean)
               << "x, fast_1 " << percent(E.Fast1) << ", "
               << format("%.2f", E.MeanPasses) << " passes per kernel\n";
      };
    // From each start; the best on the training kernels is kept (the first
    // of equals).
    std::optional<LearnResult> Best;
    for (const ProfilingTree &Init : Inits) {
      Expected<LearnResult> R =
          learnTree(Init, Train, P, Rewriter, *Pricer, LO);
      if (!R)
        return R.takeError();
      if (O.Fill)
        if (Error E = fillLeaves(*R, Train, Rewriter, *Pricer, O.Budget))
          return std::move(E);
      if (!Best || R->Train.betterThan(Best->Train))
        Best = std::move(*R);
    }
    Expected<LearnResult> R = std::move(*Best);
    if (Model) {
      Requests += Model->requests();
      Tokens += Model->tokens();
    }
    return R;
  }

  /// --folds: the learned tree judged on held-out kernels.
  bool crossValidateTrees() {
    if (O.Folds >= 2) {
      TrainFn Train = [&](ArrayRef<const DatasetKernel *> In,
                          unsigned Fold) -> Expected<ProfilingTree> {
        Expected<LearnResult> R = learn(In, Fold);
        if (!R)
          return R.takeError();
        return std::move(R->Tree);
      };
      Expected<CrossValidation> CV = crossValidate(
          All, O.Folds, O.Seed, Train, Rewriter, *Pricer, livePtr());
      if (!CV) {
        reportError(toString(CV.takeError()));
        return false;
      }
      Rep.Rows.push_back(reportRow(O.Name, "learned", true, CV->HeldOut));
    }

    return true;
  }

  /// --compare and --compare-full: a fixed tree, fitted to the budget or
  /// not.
  bool addTree(const std::string &Name, bool Budgeted) {
    Expected<ProfilingTree> T = loadTree(Name, ModelsDir);
    if (!T) {
      reportError(toString(T.takeError()));
      return false;
    }
    if (Budgeted) {
      Expected<ProfilingTree> Fit = fitToBudget(*T, O.Budget, *Pricer);
      if (!Fit) {
        reportError(toString(Fit.takeError()));
        return false;
      }
      T = std::move(*Fit);
    }
    Expected<Evaluation> E =
        evaluateTree(*T, All, Rewriter, *Pricer, livePtr());
    if (!E) {
      reportError(toString(E.takeError()));
      return false;
    }
    Rep.Rows.push_back(
        reportRow(Name, Budgeted ? "tree" : "tree-unbudgeted", true, *E));
    return true;
  }

  /// --oracle: the best metric set of the budget per kernel.
  bool addOracle() {
    if (O.Oracle) {
      std::vector<std::vector<std::string>> Sets =
          candidateMetricSets(Rewriter);
      Evaluation E;
      for (const DatasetKernel *K : All) {
        KernelResult R;
        R.Kernel = K;
        Expected<double> G =
            oracleGain(*K, Sets, O.Budget, Rewriter, *Pricer, &R.Win);
        if (!G) {
          reportError(toString(G.takeError()));
          return false;
        }
        R.Gain = *G;
        E.Kernels.push_back(R);
      }
      summarize(E);
      Rep.Rows.push_back(reportRow("oracle", "oracle", false, E));
    }

    return true;
  }

  /// --metric-curve.
  bool addCurve() {
    if (O.Curve) {
      std::vector<std::string> Pool;
      for (const auto &R : Rewriter.rules())
        Pool.insert(Pool.end(), R.Metrics.begin(), R.Metrics.end());
      Expected<std::vector<CurvePoint>> C =
          metricCurve(All, Pool, O.Curve, O.Seed, Rewriter, *Pricer);
      if (!C) {
        reportError(toString(C.takeError()));
        return false;
      }
      Rep.Curve = std::move(*C);
      Rep.CurveOrders = O.Curve;
    }

    return true;
  }

  /// -o: the tree learned on every kernel.
  bool writeLearned() {
    if (!O.Output.empty()) {
      Expected<LearnResult> R = learn(All, -1);
      if (!R) {
        reportError(toString(R.takeError()));
        return false;
      }
      describeLeaves(R->Tree);
      if (Error E = writeOutput(O.Output, writeTreeJSON(R->Tree))) {
        reportError(toString(std::move(E)));
        return false;
      }
      Rep.Rows.push_back(
          reportRow(O.Name + " (all kernels)", "learned", false, R->Train));
    }

    return true;
  }

  /// What the run cost, the report and the tables.
  int finish() {
    if (Outcomes)
      errs() << "clang-autoprof: learn: " << Outcomes->runs()
             << " optimize runs with the LLM rewriter ("
             << format("%.1f", Outcomes->seconds()) << " s), "
             << Outcomes->hits() << " outcomes reused\n";
    if (Client)
      errs() << "clang-autoprof: learn: the model answered " << Requests
             << " requests (" << Tokens << " tokens); cached replies cost "
             << "none\n";
    if (!O.Report.empty())
      if (Error E = writeOutput(O.Report, writeLearnReportJSON(Rep))) {
        reportError(toString(std::move(E)));
        return 1;
      }
    if (!Rep.Rows.empty() || !Rep.Curve.empty())
      outs() << writeLearnReportText(Rep);
    return 0;
  }

  const char *Argv0;
  /// Why trials ended without a report, each said once.
  std::set<std::string> TrialProblems;
  LearnOptions_ &O;
  bool LiveLLM = false;
  std::unique_ptr<ChatClient> Client;
  std::optional<ReplyCache> Cache;
  std::string SystemPrompt;
  unsigned Requests = 0;
  uint64_t Tokens = 0;
  std::string ModelsDir;
  std::optional<MetricCatalog> Catalog;
  TriggerRewriter Rewriter = builtinRewriter();
  std::vector<DatasetKernel> Data;
  std::vector<const DatasetKernel *> All;
  std::optional<ProfilingTree> Default;
  std::unique_ptr<ProfilerHost> Host;
  std::vector<std::string> InitNames;
  std::vector<ProfilingTree> Inits;
  std::optional<PassPricer> Pricer;
  std::unique_ptr<LiveOutcomes> Outcomes;
  LiveGain Live;
  SmallString<128> LiveDir;
  std::unique_ptr<raw_fd_ostream> LogOS;
  LearnReportData Rep;
};

} // namespace

int autoprof::tool::runLearn(const char *Argv0) {
  return LearnRun(Argv0).run();
}
