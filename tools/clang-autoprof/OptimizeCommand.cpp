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
  OptimizeOptions &O = optimizeOptions();
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
std::optional<std::string> optionsProblem() {
  OptimizeOptions &O = optimizeOptions();
  SourceOptions &S = sourceOptions();
  int Outputs = O.Diff + !O.ExportFixes.empty() + !O.Output.empty() + O.InPlace;
  if (Outputs > 1)
    return "--diff, --export-fixes, -o and --in-place exclude each other";
  if (O.DryRun && O.InPlace)
    return "--dry-run never changes the source; --in-place needs a "
           "verified rewrite";
  if (!O.ProfileFile.empty() && O.DryRun)
    return "--profile chooses the rewrites of a verified run; a dry run "
           "takes the values of a profile with --samples";
  if (!O.ProfileFile.empty() && O.Tree.getNumOccurrences())
    return "--profile and --tree exclude each other: the profile's tree "
           "chose its metrics";
  if (O.Rewriter != "builtin" && O.Rewriter != "llm")
    return "unknown --rewriter '" + O.Rewriter + "'; known: builtin, llm";
  bool UseLLM = O.Rewriter == "llm";
  if (O.LLMShowPrompt && !(UseLLM && O.DryRun))
    return "--llm-show-prompt prints the prompts of a dry run: give "
           "--dry-run --rewriter=llm";
  if (O.Explain && (!O.DryRun || UseLLM || O.Diff || !O.ExportFixes.empty() ||
                    !O.Output.empty()))
    return "--explain lists why built-in rewrites do not apply: give "
           "--dry-run without --rewriter=llm, --diff, --export-fixes or "
           "-o";
  if (UseLLM) {
    if (!O.Candidates.empty() || O.TryAll || !O.Transformations.empty())
      return "--candidate, --try-all and --transformations choose "
             "built-in rewrites; --rewriter=llm asks the model";
    if (O.DryRun && (!O.ExportFixes.empty() || !O.Output.empty()))
      return "a dry run of --rewriter=llm prints each candidate's diff; "
             "-o and --export-fixes need a verified run";
    if (S.Sources.size() != 1)
      return ("--rewriter=llm rewrites the kernels of one source; " +
              Twine(S.Sources.size()) + " were given")
          .str();
  }
  if (!O.DryRun) {
    if (O.Run.empty())
      return "no run command: give --run \"<cmd>\" (the program whose "
             "kernels are verified and timed), or --dry-run";
    if (O.Runs < 3)
      return "--runs must be at least 3: speed is judged over runs "
             "with different seeds";
    if (O.Attempts == 0)
      return "--attempts must be at least 1";
    if (!(O.RTol >= 0) || !(O.ATol >= 0) || !(O.MinSpeedup >= 1))
      return "--rtol and --atol must be non-negative and --min-speedup "
             "at least 1";
    if (S.Sources.size() != 1)
      return ("optimize verifies the kernels of one source; " +
              Twine(S.Sources.size()) + " were given")
          .str();
  }
  if (!O.Output.empty()) {
    if (S.Sources.size() != 1)
      return ("-o writes the patched copy of one source; " +
              Twine(S.Sources.size()) + " were given")
          .str();
    if (sys::fs::exists(O.Output) &&
        sys::fs::equivalent(O.Output, S.Sources.front()))
      return "-o '" + O.Output +
             "' names the source itself, which optimize never changes";
  }
  return std::nullopt;
}

/// The transformations --transformations names (all without it, none for
/// the model); false after reporting an unknown one.
bool selectTransformations(bool UseLLM,
                           std::vector<const Transformation *> &Ts) {
  OptimizeOptions &O = optimizeOptions();
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
  OptimizeOptions &O = optimizeOptions();
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

} // namespace

int autoprof::tool::runOptimize(const char *Argv0) {
  OptimizeOptions &O = optimizeOptions();
  SourceOptions &S = sourceOptions();
  if (!sourcesToRun(/*FromDatabase=*/false))
    return 1;
  if (std::optional<std::string> Problem = optionsProblem()) {
    reportError(*Problem);
    return 1;
  }
  bool UseLLM = O.Rewriter == "llm";

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

  std::vector<std::string> Inputs(S.Sources.begin(), S.Sources.end());
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
    if (S.Kernel.getNumOccurrences())
      reportError("no kernel matches --kernel='" + S.Kernel + "'");
    else
      reportError("no kernel in " + llvm::join(Inputs, ", "));
    return 1;
  }
  for (const std::string &F : Engine.failures())
    reportWarning(F);
  if (!O.DryRun)
    return runVerifiedOptimize(Argv0, Engine, Inputs[0], LLM.get());

  // The paths to show: as the user named them.
  std::map<std::string, std::string> ShownPaths;
  for (const std::string &In : Inputs)
    ShownPaths[verify::normalPath(In)] = In;
  DryRunView V;
  if (Samples) {
    V.Samples = &*Samples;
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
    if (E) {
      reportError(toString(std::move(E)));
      return 1;
    }
    return 0;
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
