//===- OptimizeCommand.cpp - clang-autoprof optimize, as a call -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/OptimizeCommand.h"
#include "autoprof/Optimize/Session.h"
#include "autoprof/OptimizeTooling/DryRun.h"
#include "autoprof/OptimizeTooling/KernelProfilers.h"
#include "autoprof/OptimizeTooling/LLMRewriter.h"
#include "autoprof/OptimizeTooling/VerifiedOptimize.h"
#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/TransformationRegistry.h"
#include "autoprof/Verify/Files.h"
#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/Verifier.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

#include <chrono>
#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

namespace {

/// One `optimize` run: its options, its environment, and what it found.
class OptimizeCommand {
public:
  OptimizeCommand(const optimize::CommandOptions &O,
                  const OptimizeCommandEnv &Env, raw_ostream &Log)
      : O(O), Env(Env), Log(Log) {}

  int run();

private:
  bool error(const Twine &Message) const {
    Env.Messages.Error(Message.str());
    return false;
  }
  bool error(Error E) const { return error(toString(std::move(E))); }
  Expected<std::unique_ptr<LLMRewriter>> llmRewriter() const;
  bool selectTransformations(std::vector<const Transformation *> &Ts) const;
  bool loadSamplesAndTree();
  bool parse(RewriteEngine &Engine) const;
  int dryRun(const RewriteEngine &Engine) const;
  int verifiedRun(const RewriteEngine &Engine) const;

  const optimize::CommandOptions &O;
  const OptimizeCommandEnv &Env;
  raw_ostream &Log;
  std::vector<std::string> Inputs;
  /// The kernels --kernel selects.
  KernelFilter Filter;
  std::unique_ptr<LLMRewriter> LLM;
  /// With --samples, the tree that chooses what a dry run's triggers see.
  std::optional<SampleTable> Samples;
  ProfilingTree Tree;
};

/// The model rewriter the options describe (--llm-*); with
/// --llm-show-prompt no server is needed.
Expected<std::unique_ptr<LLMRewriter>> OptimizeCommand::llmRewriter() const {
  LLMRewriterOptions L;
  L.BaseURL = O.LLMBaseURL;
  L.Model = O.LLMModel;
  L.Retries = O.LLMRetries;
  L.TimeoutSeconds = O.LLMTimeout;
  L.Cache = O.LLMCache;
  L.ReplayOnly = O.LLMReplayOnly;
  L.Prompts = O.LLMPrompts;
  L.Catalog = Env.CatalogPath;
  L.Send = !O.LLMShowPrompt;
  L.Parse = Env.Parse;
  L.Messages = Env.Messages;
  return LLMRewriter::create(std::move(L));
}

/// The transformations --transformations names (all without it, none for
/// the model); false after reporting an unknown one.
bool OptimizeCommand::selectTransformations(
    std::vector<const Transformation *> &Ts) const {
  if (O.Transformations.empty() && !LLM)
    Ts = TransformationRegistry::all();
  for (const std::string &Name : O.Transformations) {
    const Transformation *T = TransformationRegistry::find(Name);
    if (!T)
      return error("unknown transformation '" + Name +
                   "'; known: " + TransformationRegistry::names());
    Ts.push_back(T);
  }
  // The transformations named apply also to kernels that must first be
  // prepared for them (inlined helpers).
  if (!Ts.empty())
    for (const Transformation *T : TransformationRegistry::all())
      if (T->enabling() && !is_contained(Ts, T))
        Ts.push_back(T);
  return true;
}

/// --samples of a dry run, and the tree (--tree) that routes its kernels;
/// false after reporting why they cannot be read.
bool OptimizeCommand::loadSamplesAndTree() {
  if (!O.DryRun)
    return error("--samples needs --dry-run: a verified run collects its "
                 "own profile");
  Expected<SampleTable> S = loadSamples(O.Samples);
  if (!S)
    return error(S.takeError());
  Samples = std::move(*S);
  Expected<std::string> TreePath =
      findTree(O.Tree, sys::path::parent_path(Env.CatalogPath));
  if (!TreePath)
    return error(TreePath.takeError());
  if (Error E = loadCheckedTree(*TreePath, Tree))
    return error(std::move(E));
  return true;
}

/// Parses the sources into \p Engine; false after reporting a source that
/// does not compile or holds no kernel.
bool OptimizeCommand::parse(RewriteEngine &Engine) const {
  if (O.Explain)
    Engine.explainRefusals();
  auto Factory = Engine.newActionFactory();
  int Status = runSources(
      Env.Parse, Inputs,
      [&](size_t) -> clang::tooling::FrontendActionFactory & {
        return *Factory;
      },
      [](size_t) {}, Env.Messages);
  if (Status == 2)
    return false;
  if (Engine.translationUnitsWithErrors())
    return error(Twine(Inputs.size() == 1 ? "'" + Inputs[0] + "' does"
                                          : std::string("the sources do")) +
                 " not compile; nothing is proposed");
  if (Status != 0)
    return false;
  if (Engine.kernels().empty())
    return error(Env.KernelGiven
                     ? "no kernel matches --kernel='" + Env.KernelRegex + "'"
                     : "no kernel in " + join(Inputs, ", "));
  // Each enabling edit is followed by the proposals on its result.
  Engine.expandEnabling([&](RewriteEngine &Again, const std::string &Main,
                            const std::map<std::string, std::string> &Texts) {
    FirstErrorConsumer Quiet;
    SourceSettings S = Env.Parse;
    S.Files.clear();
    for (const auto &[File, Text] : Texts)
      S.Files[normalPath(File)] = Text;
    S.Diagnostics = &Quiet;
    // The input as the user named it, which the compile commands know.
    std::string Input = Main;
    for (const std::string &In : Inputs)
      if (normalPath(In) == normalPath(Main))
        Input = In;
    auto Factory = Again.newActionFactory();
    return runSource(S, Input, *Factory, Env.Messages) == 0 &&
           !Again.translationUnitsWithErrors();
  });
  for (const std::string &F : Engine.failures())
    Env.Messages.Warning(F);
  return true;
}

/// `optimize --dry-run` on the kernels \p Engine holds: the proposals, or
/// the model's candidates, listed, as diffs, or merged into fixes or a
/// patched copy; with --samples, what the tree's leaves trigger.
int OptimizeCommand::dryRun(const RewriteEngine &Engine) const {
  // The paths to show: as the user named them.
  std::map<std::string, std::string> ShownPaths;
  for (const std::string &In : Inputs)
    ShownPaths[normalPath(In)] = In;
  DryRunView V;
  if (Samples) {
    V.Samples = &*Samples;
    V.Tree = &Tree;
  }
  V.Shown = [&](const std::string &File) {
    auto It = ShownPaths.find(normalPath(File));
    return It == ShownPaths.end() ? shownPath(File) : It->second;
  };
  V.Warn = Env.Messages.Warning;

  std::string Text;
  raw_string_ostream OS(Text);
  Error E = Error::success();
  if (LLM) {
    E = writeModelDryRun(*LLM, Engine, Inputs[0], O.LLMShowPrompt, V, OS);
  } else if (O.Diff) {
    writeProposalDiffs(Engine, V, OS);
  } else if (!O.ExportFixes.empty() || !O.Output.empty()) {
    std::string Main = normalPath(Inputs[0]);
    FileEdits Merged =
        mergeFirstVariants(Engine, Main, /*MainOnly=*/!O.Output.empty(), V);
    if (!O.ExportFixes.empty()) {
      E = Env.Write(O.ExportFixes, exportFixesYAML(Main, Merged));
    } else if (Expected<std::string> Patched =
                   patchedText(Engine, Merged, Main)) {
      E = Env.Write(O.Output, *Patched);
    } else {
      E = Patched.takeError();
    }
  } else {
    writeProposalListing(Engine, V, OS);
  }
  if (!E)
    E = Env.Write("-", Text);
  return E ? (error(std::move(E)), 1) : 0;
}

/// `optimize` without --dry-run on the first source: measures the
/// original, profiles it with the tree (or reads --profile), verifies the
/// triggered rewrites (or the model's, or the given files) and keeps the
/// best; the source changes only with --in-place, after a verified win.
int OptimizeCommand::verifiedRun(const RewriteEngine &Engine) const {
  auto Started = std::chrono::steady_clock::now();
  const std::string &Source = Inputs[0];
  auto Fail = [&](Error E) {
    std::string Msg = toString(std::move(E));
    error(Msg);
    return Msg == "interrupted" ? 130 : 1;
  };
  VerifiedOptimizeOptions VO;
  optimize::SessionOptions &SO = VO.Session;
  SO.Source = Source;
  SO.Tree = O.Tree;
  SO.Attempts = O.Attempts;
  SO.TryAll = O.TryAll;
  SO.Compose = O.Compose;
  SO.Judge.RTol = O.RTol;
  SO.Judge.ATol = O.ATol;
  SO.Judge.OrderSlack = O.OrderSlack;
  SO.Judge.MinSpeedup = O.MinSpeedup;
  SO.InPlace = O.InPlace;
  SO.SourceOnly = !O.Output.empty();
  SO.Warn = Env.Messages.Warning;
  VO.Parse = Env.Parse;
  VO.Build = O.Build;
  VO.Run = O.Run;
  VO.Runs = O.Runs;
  VO.Timeout = O.Timeout;
  VO.DeviceLock = O.DeviceLock;
  VO.Messages = Env.Messages;
  VO.InjectLibrary = Env.InjectLibrary;
  // Rewrites given as files replace the built-in proposals.
  auto Given = readCandidateFiles(
      std::vector<std::string>(O.Candidates.begin(), O.Candidates.end()));
  if (!Given)
    return Fail(Given.takeError());
  VO.Candidates = std::move(*Given);
  // A given profile replaces profiling the program.
  std::optional<optimize::ProfiledKernels> GivenProfile;
  if (!O.ProfileFile.empty()) {
    Expected<optimize::ProfiledKernels> P =
        optimize::readProfiledKernels(O.ProfileFile, &VO.Session.Tree);
    if (!P)
      return Fail(P.takeError());
    GivenProfile = std::move(*P);
  }
  TreeProfilerOptions T;
  T.CatalogPath = Env.CatalogPath;
  T.Tree = O.Tree;
  T.Source = Source;
  T.Parse = Env.Parse;
  T.Filter = Filter;
  T.KernelRegex = Env.KernelRegex;
  T.InjectLibrary = Env.InjectLibrary;
  T.Run = O.Run;
  T.Timeout = O.Timeout;
  T.DeviceLock = O.DeviceLock;
  T.KeepProfile = O.KeepProfile;
  T.CheckDevice = Env.CheckDevice;
  T.Messages = Env.Messages;

  VerifiedOptimizeHooks Hooks;
  Hooks.Profiler = [&](CommandRunner &Runner, StringRef Dir)
      -> Expected<std::unique_ptr<optimize::KernelProfiler>> {
    if (GivenProfile)
      return newGivenProfiler(O.ProfileFile, std::move(*GivenProfile),
                              O.KeepProfile);
    return newTreeProfiler(T, Runner, Dir);
  };
  if (LLM) {
    Hooks.Model = [&](EngineModel &Edits) {
      return std::make_unique<LLMRounds>(*LLM, Engine, Source, Edits);
    };
    Hooks.ModelUnsupported = [&](size_t I) {
      return llmUnsupported(Engine, I, Source);
    };
  }
  Expected<VerifiedOptimizeResult> R = verifiedOptimize(VO, Engine, Hooks, Log);
  if (!R)
    return Fail(R.takeError());
  VerifiedOutputs Out;
  Out.InPlace = O.InPlace;
  Out.Diff = O.Diff;
  Out.ExportFixes = O.ExportFixes;
  Out.Copy = O.Output;
  Out.Write = Env.Write;
  Expected<std::string> Text = writeVerifiedResult(Out, Source, *R);
  if (!Text)
    return Fail(Text.takeError());
  R->Report.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Started)
          .count();
  if (!O.Report.empty())
    if (Error E = Env.Write(O.Report, writeOptimizeReportJSON(R->Report)))
      return Fail(std::move(E));
  if (Error E = Env.Write("-", *Text))
    return Fail(std::move(E));
  return 0;
}

int OptimizeCommand::run() {
  if (Env.Sources.empty())
    return error("no source given"), 1;
  Inputs = Env.Sources;
  if (Error E = optimize::checkCommandOptions(O, Inputs))
    return error(std::move(E)), 1;
  // The model's settings are checked before anything runs.
  if (O.useModel()) {
    Expected<std::unique_ptr<LLMRewriter>> R = llmRewriter();
    if (!R)
      return error(R.takeError()), 1;
    LLM = std::move(*R);
  }
  std::vector<const Transformation *> Ts;
  if (!selectTransformations(Ts))
    return 1;
  if (!O.Samples.empty() && !loadSamplesAndTree())
    return 1;
  Expected<KernelFilter> F = kernelNameFilter(Env.KernelRegex);
  if (!F)
    return error(F.takeError()), 1;
  Filter = std::move(*F);
  RewriteEngine Engine(Ts, Filter);
  if (!parse(Engine))
    return 1;
  return O.DryRun ? dryRun(Engine) : verifiedRun(Engine);
}

} // namespace

int autoprof::runOptimizeCommand(const optimize::CommandOptions &O,
                                 const OptimizeCommandEnv &Env,
                                 raw_ostream &Log) {
  return OptimizeCommand(O, Env, Log).run();
}
