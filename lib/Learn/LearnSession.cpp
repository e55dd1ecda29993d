//===- LearnSession.cpp - One run of `learn` ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/LearnSession.h"

#include "autoprof/LLM/ReplyCache.h"
#include "autoprof/Learn/Baselines.h"
#include "autoprof/Learn/CrossValidation.h"
#include "autoprof/Learn/Dataset.h"
#include "autoprof/Learn/LLMProposer.h"
#include "autoprof/Learn/Learner.h"
#include "autoprof/Learn/SearchProposer.h"
#include "autoprof/Metrics/TreeBudget.h"
#include "autoprof/Profiling/TreeFiles.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdio>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::learn;

namespace {

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

Error fail(const Twine &Message) {
  return createStringError(inconvertibleErrorCode(), Message);
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

/// The tree "minimal": one leaf with the launch attributes, which cost no
/// pass, on the chips of \p Default.
ProfilingTree minimalTree(const ProfilingTree &Default) {
  ProfilingTree Init;
  Init.Chips = Default.Chips;
  Init.Root = "all";
  TreeNode Leaf;
  Leaf.Id = "all";
  Leaf.Leaf = true;
  Leaf.Path = "$.nodes[0]";
  Leaf.Metrics = {"launch__grid_size", "launch__block_size",
                  "launch__registers_per_thread"};
  Init.Nodes.push_back(Leaf);
  return Init;
}

/// One run: the state its steps share.
class LearnSession {
public:
  LearnSession(const LearnSessionOptions &O, LearnSessionHooks Hooks,
               raw_ostream &Progress)
      : O(O), Rewriter(std::move(Hooks.Rewriter)),
        LoadHost(std::move(Hooks.LoadHost)), Trial(std::move(Hooks.Trial)),
        CheckTrialModel(std::move(Hooks.CheckTrialModel)), Progress(Progress) {}
  ~LearnSession() {
    if (!LiveDir.empty())
      sys::fs::remove_directories(LiveDir);
  }

  Expected<LearnSessionResult> run() {
    if (Error E = checkOptions())
      return std::move(E);
    if (Error E = setUpModel())
      return std::move(E);
    if (Error E = loadData())
      return std::move(E);
    if (Error E = loadInitialTrees())
      return std::move(E);
    Pricer.emplace(*Host, *Catalog, Inits.front().Chips);
    if (Error E = setUpLive())
      return std::move(E);
    if (Error E = fitInitialTrees())
      return std::move(E);
    if (Error E = openLog())
      return std::move(E);
    Result.Report.Budget = O.Budget;
    Result.Report.Kernels = Judged.size();
    if (!O.HeldOut.empty()) {
      Result.Report.HeldOutDatasets = O.HeldOut;
      Result.Report.TrainingKernels = All.size();
    }
    Result.Report.Folds = O.Folds;
    Result.Report.Seed = O.Seed;
    Result.Report.Datasets = O.Datasets;
    if (Error E = crossValidateTrees())
      return std::move(E);
    if (Error E = judgeHeldOut())
      return std::move(E);
    for (const std::string &Name : O.Compare)
      if (Error E = addTree(Name, true))
        return std::move(E);
    for (const std::string &Name : O.CompareUnbudgeted)
      if (Error E = addTree(Name, false))
        return std::move(E);
    if (Error E = addOracle())
      return std::move(E);
    if (Error E = addCurve())
      return std::move(E);
    if (Error E = learnOnAll())
      return std::move(E);
    summarizeCost();
    return std::move(Result);
  }

private:
  /// The options that cannot go together.
  Error checkOptions() {
    if (O.Datasets.empty())
      return fail("learn needs --dataset=<file>");
    if (O.Budget == 0)
      return fail("learn needs --budget=<passes>, a positive number");
    if (O.Proposer != "search" && O.Proposer != "llm")
      return fail("unknown proposer '" + O.Proposer +
                  "' (expected search or llm)");
    LiveLLM = O.Rewriter == "llm";
    if (!LiveLLM && O.Rewriter != "builtin")
      return fail("unknown rewriter '" + O.Rewriter +
                  "' (expected builtin or llm)");
    if (LiveLLM) {
      if (O.Proposer != "llm")
        return fail("--rewriter=llm measures every tree it evaluates; give "
                    "--proposer=llm, which proposes one per round");
      if (O.Fill || O.Oracle || O.Curve)
        return fail("--fill, --oracle and --metric-curve replay the built-in "
                    "rewriter's outcomes; they do not go with --rewriter=llm");
      if (O.Programs.empty())
        return fail("--rewriter=llm builds and runs each kernel's program: "
                    "give --programs=<manifest.json>");
      if (!Trial)
        return fail("--rewriter=llm needs a trial runner");
    }
    if (O.Folds == 1)
      return fail("--folds must be 0 (no cross-validation) or at least 2");
    if (!O.HeldOut.empty() && O.Folds >= 2)
      return fail("--held-out and --folds are two ways to judge the learned "
                  "tree: give one");
    if (!O.HeldOut.empty() && LiveLLM)
      return fail("--held-out replays the datasets' outcomes; it does not go "
                  "with --rewriter=llm");
    if (!O.WantLearned && O.Folds == 0 && O.HeldOut.empty() &&
        O.Compare.empty() && O.CompareUnbudgeted.empty() && !O.Oracle &&
        O.Curve == 0)
      return fail("nothing to do: give -o <tree.json>, --folds, --held-out, "
                  "--compare, --oracle or --metric-curve");
    return Error::success();
  }

  /// The model of --proposer=llm and its system prompt.
  Error setUpModel() {
    if (O.Proposer != "llm")
      return Error::success();
    if (O.LLMReplayOnly && O.LLMCache.empty())
      return fail("--llm-replay-only answers from a reply cache: give "
                  "--llm-cache=<dir>");
    if (O.Chat.Model.empty())
      return fail("no LLM model configured: give --llm-model=<name> or set "
                  "AUTOPROF_LLM_MODEL");
    if (O.Chat.BaseURL.empty() && !O.LLMReplayOnly)
      return fail("no LLM server configured: give --llm-base-url=<url> or "
                  "set AUTOPROF_LLM_BASE_URL");
    SmallString<256> Prompt(sys::path::parent_path(O.CatalogPath));
    sys::path::append(Prompt, "prompts", "learn-system.txt");
    ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
        MemoryBuffer::getFile(Prompt, /*IsText=*/true);
    if (!Buf)
      return fail("cannot read the prompt '" + Prompt +
                  "': " + Buf.getError().message());
    SystemPrompt = (*Buf)->getBuffer().str();
    Client = std::make_unique<ChatClient>(O.Chat);
    if (!O.LLMCache.empty())
      Cache.emplace(O.LLMCache, O.LLMReplayOnly ? ReplyCache::Mode::ReplayOnly
                                                : ReplyCache::Mode::ReadWrite);
    return Error::success();
  }

  /// The catalog and the datasets, each file checked on its own first.
  Error loadData() {
    ModelsDir = sys::path::parent_path(O.CatalogPath).str();
    Expected<MetricCatalog> Loaded = MetricCatalog::load(O.CatalogPath);
    if (!Loaded)
      return Loaded.takeError();
    Catalog.emplace(std::move(*Loaded));

    if (Error E = loadFiles(O.Datasets, Data))
      return E;
    if (Error E = loadFiles(O.HeldOut, HeldOutData))
      return E;
    for (const DatasetKernel &H : HeldOutData)
      for (const DatasetKernel &K : Data)
        if (H.Program == K.Program)
          return fail("program '" + H.Program +
                      "' is in both --dataset and --held-out: the held-out "
                      "kernels must come from programs the tree does not "
                      "learn on");
    for (const DatasetKernel &K : Data)
      All.push_back(&K);
    for (const DatasetKernel &K : HeldOutData)
      Judged.push_back(&K);
    // Replay judges the transformations the datasets measured.
    if (!LiveLLM) {
      std::vector<const DatasetKernel *> Both(All);
      Both.insert(Both.end(), Judged.begin(), Judged.end());
      Rewriter = Rewriter.measuredOn(Both);
    }
    if (O.HeldOut.empty())
      Judged = All;
    return Error::success();
  }

  /// Reads and merges \p Paths into \p Into, each file checked on its own
  /// first.
  Error loadFiles(ArrayRef<std::string> Paths,
                  std::vector<DatasetKernel> &Into) {
    for (const std::string &Path : Paths) {
      Expected<std::vector<DatasetKernel>> D = loadDataset(Path, *Catalog);
      if (!D)
        return D.takeError();
      for (const DatasetKernel &K : *D)
        for (const Outcome &Out : K.Outcomes)
          if (!Rewriter.find(Out.Transformation))
            return fail(Path + ": kernel '" + K.Kernel + "' of '" + K.Program +
                        "': unknown transformation '" + Out.Transformation +
                        "' (expected one of " + ruleNames() + ")");
      if (Error E = mergeDataset(Into, std::move(*D), Path))
        return E;
    }
    return Error::success();
  }

  /// The rewriter's rules, comma separated.
  std::string ruleNames() const {
    std::string Names;
    for (const TriggerRewriter::Rule &R : Rewriter.rules())
      Names += (Names.empty() ? "" : ", ") + R.Name;
    return Names;
  }

  /// The default tree and the starting trees, on chips the profiler
  /// knows.
  Error loadInitialTrees() {
    Expected<ProfilingTree> D = loadTree("default", ModelsDir);
    if (!D)
      return D.takeError();
    Default = std::move(*D);
    if (!LoadHost)
      return fail("learn needs the profiler host's pass counts");
    Expected<std::unique_ptr<PassCounter>> LoadedHost = LoadHost();
    if (!LoadedHost)
      return LoadedHost.takeError();
    Host = std::move(*LoadedHost);
    InitNames = O.Init;
    if (InitNames.empty())
      InitNames.push_back("minimal");
    for (const std::string &Name : InitNames) {
      ProfilingTree Init;
      if (Name == "minimal") {
        Init = minimalTree(*Default);
      } else {
        Expected<ProfilingTree> T = loadTree(Name, ModelsDir);
        if (!T)
          return T.takeError();
        Init = std::move(*T);
      }
      Init.Name = O.Name;
      for (const std::string &Chip : Init.Chips)
        if (Error E = Host->checkChip(Chip))
          return E;
      if (!Inits.empty() && Init.Chips != Inits.front().Chips)
        return fail("the initial trees '" + InitNames.front() + "' and '" +
                    Name + "' are for different chips");
      Inits.push_back(std::move(Init));
    }
    return Error::success();
  }

  /// With --rewriter=llm, the outcomes measured by trials of the model.
  Error setUpLive() {
    if (!LiveLLM)
      return Error::success();
    Expected<std::map<std::string, ProgramSpec>> Specs =
        loadProgramManifest(O.Programs);
    if (!Specs)
      return Specs.takeError();
    for (const DatasetKernel &K : Data)
      if (!Specs->count(K.Program))
        return fail(O.Programs + ": no program '" + K.Program +
                    "' of the dataset");
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("clang-autoprof-learn", LiveDir))
      return fail("cannot create a temporary directory: " + EC.message());
    LiveOptions LO;
    LO.Nvcc = O.Nvcc;
    LO.CacheFile = O.OutcomeCache;
    LO.WorkDir = std::string(LiveDir);
    // The model's settings are checked before anything runs.
    if (CheckTrialModel)
      if (Error E = CheckTrialModel())
        return E;
    LO.Optimize = Trial;
    Expected<std::unique_ptr<LiveOutcomes>> L =
        LiveOutcomes::create(std::move(*Specs), std::move(LO));
    if (!L)
      return L.takeError();
    Outcomes = std::move(*L);
    Live = [&](const DatasetKernel &K, const MetricMap &Seen) {
      return Outcomes->gain(K, Seen);
    };
    return Error::success();
  }

  const LiveGain *livePtr() const { return LiveLLM ? &Live : nullptr; }

  /// Each starting tree within the budget.
  Error fitInitialTrees() {
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
        if (!Fit)
          return Fit.takeError();
        Init = std::move(*Fit);
        if (!O.Quiet)
          Progress << "clang-autoprof: learn: the initial tree '" << Name
                   << "' costs up to " << Most
                   << " passes: starting from its first fit to the budget of "
                   << O.Budget << "\n";
        Problems.clear();
        checkMetricsAndBudget(Init, *Catalog, *Host, Problems);
      }
      if (!Problems.empty())
        return fail("the initial tree '" + Name + "': " +
                    Problems.front().Path + ": " + Problems.front().Message);
    }
    return Error::success();
  }

  /// --log.
  Error openLog() {
    if (O.LogFile.empty())
      return Error::success();
    std::error_code EC;
    LogOS = std::make_unique<raw_fd_ostream>(O.LogFile, EC, sys::fs::OF_Text);
    if (EC)
      return fail("cannot write '" + O.LogFile + "': " + EC.message());
    return Error::success();
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
    LearnOptions LO;
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
        Progress << "clang-autoprof: learn (" << Where << "): round " << Round
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
    if (Model) {
      Requests += Model->requests();
      Tokens += Model->tokens();
    }
    return std::move(*Best);
  }

  /// --folds: the learned tree judged on held-out kernels.
  Error crossValidateTrees() {
    if (O.Folds < 2)
      return Error::success();
    TrainFn Train = [&](ArrayRef<const DatasetKernel *> In,
                        unsigned Fold) -> Expected<ProfilingTree> {
      Expected<LearnResult> R = learn(In, Fold);
      if (!R)
        return R.takeError();
      return std::move(R->Tree);
    };
    Expected<CrossValidation> CV = crossValidate(All, O.Folds, O.Seed, Train,
                                                 Rewriter, *Pricer, livePtr());
    if (!CV)
      return CV.takeError();
    Result.Report.Rows.push_back(
        reportRow(O.Name, "learned", true, CV->HeldOut));
    return Error::success();
  }

  /// --held-out: the tree learned on every kernel of --dataset, judged on
  /// the other programs.
  Error judgeHeldOut() {
    if (O.HeldOut.empty())
      return Error::success();
    Expected<LearnResult> R = learn(All, -1);
    if (!R)
      return R.takeError();
    Expected<Evaluation> E =
        evaluateTree(R->Tree, Judged, Rewriter, *Pricer, livePtr());
    if (!E)
      return E.takeError();
    Result.Report.Rows.push_back(reportRow(O.Name, "learned", true, *E));
    Final = std::move(*R);
    return Error::success();
  }

  /// --compare and --compare-unbudgeted: a fixed tree, fitted to the
  /// budget or not.
  Error addTree(const std::string &Name, bool Budgeted) {
    Expected<ProfilingTree> T = loadTree(Name, ModelsDir);
    if (!T)
      return T.takeError();
    if (Budgeted) {
      Expected<ProfilingTree> Fit = fitToBudget(*T, O.Budget, *Pricer);
      if (!Fit)
        return Fit.takeError();
      T = std::move(*Fit);
    }
    Expected<Evaluation> E =
        evaluateTree(*T, Judged, Rewriter, *Pricer, livePtr());
    if (!E)
      return E.takeError();
    Result.Report.Rows.push_back(
        reportRow(Name, Budgeted ? "tree" : "tree-unbudgeted", true, *E));
    return Error::success();
  }

  /// --oracle: the best metric set of the budget per kernel.
  Error addOracle() {
    if (!O.Oracle)
      return Error::success();
    std::vector<std::vector<std::string>> Sets = candidateMetricSets(Rewriter);
    Evaluation E;
    for (const DatasetKernel *K : Judged) {
      KernelResult R;
      R.Kernel = K;
      Expected<double> G =
          oracleGain(*K, Sets, O.Budget, Rewriter, *Pricer, &R.Win);
      if (!G)
        return G.takeError();
      R.Gain = *G;
      E.Kernels.push_back(R);
    }
    summarize(E);
    Result.Report.Rows.push_back(reportRow("oracle", "oracle", false, E));
    return Error::success();
  }

  /// --metric-curve.
  Error addCurve() {
    if (!O.Curve)
      return Error::success();
    std::vector<std::string> Pool;
    for (const auto &R : Rewriter.rules())
      Pool.insert(Pool.end(), R.Metrics.begin(), R.Metrics.end());
    Expected<std::vector<CurvePoint>> C =
        metricCurve(Judged, Pool, O.Curve, O.Seed, Rewriter, *Pricer);
    if (!C)
      return C.takeError();
    Result.Report.Curve = std::move(*C);
    Result.Report.CurveOrders = O.Curve;
    return Error::success();
  }

  /// -o: the tree learned on every kernel.
  Error learnOnAll() {
    if (!O.WantLearned)
      return Error::success();
    if (!Final) {
      Expected<LearnResult> R = learn(All, -1);
      if (!R)
        return R.takeError();
      Final = std::move(*R);
    }
    std::optional<LearnResult> &R = Final;
    describeLeaves(R->Tree);
    Result.LearnedTree = writeTreeJSON(R->Tree);
    Result.Report.Rows.push_back(
        reportRow(O.Name + " (all kernels)", "learned", false, R->Train));
    return Error::success();
  }

  /// What the run cost.
  void summarizeCost() {
    if (Outcomes)
      Progress << "clang-autoprof: learn: " << Outcomes->runs()
               << " optimize runs with the LLM rewriter ("
               << format("%.1f", Outcomes->seconds()) << " s), "
               << Outcomes->hits() << " outcomes reused\n";
    if (Client)
      Progress << "clang-autoprof: learn: the model answered " << Requests
               << " requests (" << Tokens << " tokens); cached replies cost "
               << "none\n";
  }

  const LearnSessionOptions &O;
  TriggerRewriter Rewriter;
  std::function<Expected<std::unique_ptr<PassCounter>>()> LoadHost;
  std::unique_ptr<PassCounter> Host;
  LiveOptimize Trial;
  std::function<Error()> CheckTrialModel;
  raw_ostream &Progress;
  bool LiveLLM = false;
  std::unique_ptr<ChatClient> Client;
  std::optional<ReplyCache> Cache;
  std::string SystemPrompt;
  unsigned Requests = 0;
  uint64_t Tokens = 0;
  std::string ModelsDir;
  std::optional<MetricCatalog> Catalog;
  std::vector<DatasetKernel> Data, HeldOutData;
  /// The kernels learned on, and those the trees are judged on (All,
  /// without --held-out).
  std::vector<const DatasetKernel *> All, Judged;
  /// The tree learned on every kernel of All.
  std::optional<LearnResult> Final;
  std::optional<ProfilingTree> Default;
  std::vector<std::string> InitNames;
  std::vector<ProfilingTree> Inits;
  std::optional<PassPricer> Pricer;
  std::unique_ptr<LiveOutcomes> Outcomes;
  LiveGain Live;
  SmallString<128> LiveDir;
  std::unique_ptr<raw_fd_ostream> LogOS;
  LearnSessionResult Result;
};

} // namespace

Expected<LearnSessionResult>
autoprof::learn::runLearnSession(const LearnSessionOptions &O,
                                 LearnSessionHooks Hooks,
                                 raw_ostream &Progress) {
  return LearnSession(O, std::move(Hooks), Progress).run();
}
