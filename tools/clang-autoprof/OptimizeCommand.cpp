//===- OptimizeCommand.cpp - clang-autoprof optimize ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "OptimizeOptions.h"

#include "autoprof/OptimizeTooling/DryRun.h"
#include "autoprof/OptimizeTooling/LLMRewriter.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/TransformationRegistry.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

Expected<std::unique_ptr<LLMRewriter>>
autoprof::tool::llmRewriter(const char *Argv0, bool Send) {
  const optimize::CommandOptions &O = optimizeOptions().V;
  LLMRewriterOptions L;
  L.BaseURL = O.LLMBaseURL;
  L.Model = O.LLMModel;
  L.Retries = O.LLMRetries;
  L.TimeoutSeconds = O.LLMTimeout;
  L.Cache = O.LLMCache;
  L.ReplayOnly = O.LLMReplayOnly;
  L.Prompts = O.LLMPrompts;
  L.Catalog = catalogPath(Argv0, "");
  L.Send = Send;
  L.Parse = sourceSettings(ArgsAfterDashDash);
  L.Messages = toolMessages();
  return LLMRewriter::create(std::move(L));
}

OptimizeOptions &autoprof::tool::optimizeOptions() {
  static OptimizeOptions O;
  return O;
}

namespace {

// Register the options before the command line is parsed.
[[maybe_unused]] const OptimizeOptions &Registered = optimizeOptions();

/// Why the options of `optimize` cannot go together, before anything
/// runs; nullopt when they can.
/// The transformations --transformations names (all without it, none for
/// the model); false after reporting an unknown one.
bool selectTransformations(bool UseLLM,
                           std::vector<const Transformation *> &Ts) {
  const optimize::CommandOptions &O = optimizeOptions().V;
  if (O.Transformations.empty() && !UseLLM)
    Ts = TransformationRegistry::all();
  for (const std::string &Name : O.Transformations) {
    const Transformation *T = TransformationRegistry::find(Name);
    if (!T) {
      reportError("unknown transformation '" + Name +
                  "'; known: " + TransformationRegistry::names());
      return false;
    }
    Ts.push_back(T);
  }
  return true;
}

/// --samples of a dry run, and the tree (--tree) that routes its kernels;
/// false after reporting why they cannot be read.
bool loadSamplesAndTree(const char *Argv0, std::optional<SampleTable> &Samples,
                        ProfilingTree &Tree) {
  const optimize::CommandOptions &O = optimizeOptions().V;
  if (!O.DryRun) {
    reportError("--samples needs --dry-run: a verified run collects its "
                "own profile");
    return false;
  }
  Expected<SampleTable> S = loadSamples(O.Samples);
  if (!S) {
    reportError(toString(S.takeError()));
    return false;
  }
  Samples = std::move(*S);
  std::string Catalog = catalogPath(Argv0, "");
  Expected<std::string> TreePath =
      findTree(O.Tree, sys::path::parent_path(Catalog));
  if (!TreePath) {
    reportError(toString(TreePath.takeError()));
    return false;
  }
  if (Error E = loadCheckedTree(*TreePath, Tree)) {
    reportError(toString(std::move(E)));
    return false;
  }
  return true;
}

/// `optimize --dry-run` on the kernels \p Engine holds: the proposals, or
/// the model's candidates with \p LLM, listed, as diffs, or merged into
/// fixes or a patched copy; with \p Samples, what \p Tree's leaves trigger.
/// Returns the exit status.
int dryRun(const RewriteEngine &Engine, const std::vector<std::string> &Inputs,
           LLMRewriter *LLM, const SampleTable *Samples,
           const ProfilingTree &Tree) {
  const optimize::CommandOptions &O = optimizeOptions().V;
  // The paths to show: as the user named them.
  std::map<std::string, std::string> ShownPaths;
  for (const std::string &In : Inputs)
    ShownPaths[verify::normalPath(In)] = In;
  DryRunView V;
  if (Samples) {
    V.Samples = Samples;
    V.Tree = &Tree;
  }
  V.Shown = [&](const std::string &File) {
    auto It = ShownPaths.find(verify::normalPath(File));
    return It == ShownPaths.end() ? verify::shownPath(File) : It->second;
  };
  V.Warn = [](const std::string &W) { reportWarning(W); };

  std::string Text;
  raw_string_ostream OS(Text);
  Error E = Error::success();
  if (LLM) {
    E = writeModelDryRun(*LLM, Engine, Inputs[0], O.LLMShowPrompt, V, OS);
  } else if (O.Diff) {
    writeProposalDiffs(Engine, V, OS);
  } else if (!O.ExportFixes.empty() || !O.Output.empty()) {
    std::string Main = verify::normalPath(Inputs[0]);
    FileEdits Merged =
        mergeFirstVariants(Engine, Main, /*MainOnly=*/!O.Output.empty(), V);
    if (!O.ExportFixes.empty()) {
      E = writeOutput(O.ExportFixes, exportFixesYAML(Main, Merged));
    } else if (Expected<std::string> Patched =
                   patchedText(Engine, Merged, Main)) {
      E = writeOutput(O.Output, *Patched);
    } else {
      E = Patched.takeError();
    }
  } else {
    writeProposalListing(Engine, V, OS);
  }
  if (!E)
    E = writeOutput("-", Text);
  if (E) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return 0;
}

} // namespace

int autoprof::tool::runOptimize(const char *Argv0) {
  std::optional<std::vector<std::string>> Given =
      sourcesToRun(/*FromDatabase=*/false);
  if (!Given)
    return 1;
  const std::vector<std::string> &Inputs = *Given;
  OptimizeOptions &Opts = optimizeOptions();
  Opts.V.TreeGiven = Opts.Tree.getNumOccurrences();
  const optimize::CommandOptions &O = Opts.V;
  if (Error E = optimize::checkCommandOptions(O, Inputs)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  bool UseLLM = O.useModel();

  // The model's settings are checked before anything runs.
  std::unique_ptr<LLMRewriter> LLM;
  if (UseLLM) {
    Expected<std::unique_ptr<LLMRewriter>> R =
        llmRewriter(Argv0, /*Send=*/!O.LLMShowPrompt);
    if (!R) {
      reportError(toString(R.takeError()));
      return 1;
    }
    LLM = std::move(*R);
  }

  std::vector<const Transformation *> Ts;
  if (!selectTransformations(UseLLM, Ts))
    return 1;

  // With --samples, the tree that chooses what a dry run's triggers see.
  std::optional<SampleTable> Samples;
  ProfilingTree Tree;
  if (!O.Samples.empty() && !loadSamplesAndTree(Argv0, Samples, Tree))
    return 1;

  KernelFilter Filter;
  if (!kernelFilter(Filter))
    return 1;
  RewriteEngine Engine(Ts, Filter);
  if (O.Explain)
    Engine.explainRefusals();
  auto Factory = Engine.newActionFactory();
  int Status = runOnSources(*Factory, Inputs, ArgsAfterDashDash);
  if (Status == 2)
    return 1;
  if (Engine.translationUnitsWithErrors()) {
    reportError(Twine(Inputs.size() == 1 ? "'" + Inputs[0] + "' does"
                                         : std::string("the sources do")) +
                " not compile; nothing is proposed");
    return 1;
  }
  if (Status != 0)
    return 1;
  if (Engine.kernels().empty()) {
    if (sourceOptions().Kernel.getNumOccurrences())
      reportError("no kernel matches --kernel='" + sourceOptions().Kernel +
                  "'");
    else
      reportError("no kernel in " + llvm::join(Inputs, ", "));
    return 1;
  }
  for (const std::string &F : Engine.failures())
    reportWarning(F);
  if (!O.DryRun)
    return runVerifiedOptimize(Argv0, Engine, Inputs[0], LLM.get());

  return dryRun(Engine, Inputs, LLM.get(), Samples ? &*Samples : nullptr, Tree);
}
