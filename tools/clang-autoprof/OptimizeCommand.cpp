//===- OptimizeCommand.cpp - clang-autoprof optimize ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "LLMRewriter.h"
#include "OptimizeOptions.h"

#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/TransformationRegistry.h"
#include "autoprof/Rewrite/UnifiedDiff.h"
#include "autoprof/Tree/Routing.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

std::string autoprof::tool::absolutePath(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string autoprof::tool::shownPath(StringRef File) {
  std::string Abs = absolutePath(File);
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return Abs;
  StringRef Rest(Abs);
  if (Rest.consume_front(Cwd) && Rest.consume_front("/") && !Rest.empty())
    return Rest.str();
  return Abs;
}

OptimizeOptions &autoprof::tool::optimizeOptions() {
  static OptimizeOptions O;
  return O;
}

namespace {

// Register the options before the command line is parsed.
[[maybe_unused]] const OptimizeOptions &Registered = optimizeOptions();

std::string joined(const std::vector<std::string> &V) {
  std::string S;
  for (const std::string &E : V)
    S += (S.empty() ? "" : ", ") + E;
  return S;
}

} // namespace

int autoprof::tool::runOptimize(const char *Argv0) {
  OptimizeOptions &O = optimizeOptions();
  SourceOptions &S = sourceOptions();
  if (!sourcesToRun(/*FromDatabase=*/false))
    return 1;
  int Outputs = O.Diff + !O.ExportFixes.empty() + !O.Output.empty() + O.InPlace;
  if (Outputs > 1) {
    reportError("--diff, --export-fixes, -o and --in-place exclude each other");
    return 1;
  }
  if (O.DryRun && O.InPlace) {
    reportError("--dry-run never changes the source; --in-place needs a "
                "verified rewrite");
    return 1;
  }
  if (!O.ProfileFile.empty() && O.DryRun) {
    reportError("--profile chooses the rewrites of a verified run; a dry run "
                "takes the values of a profile with --samples");
    return 1;
  }
  if (!O.ProfileFile.empty() && O.Tree.getNumOccurrences()) {
    reportError("--profile and --tree exclude each other: the profile's tree "
                "chose its metrics");
    return 1;
  }
  if (O.Rewriter != "builtin" && O.Rewriter != "llm") {
    reportError("unknown --rewriter '" + O.Rewriter + "'; known: builtin, llm");
    return 1;
  }
  bool UseLLM = O.Rewriter == "llm";
  if (O.LLMShowPrompt && !(UseLLM && O.DryRun)) {
    reportError("--llm-show-prompt prints the prompts of a dry run: give "
                "--dry-run --rewriter=llm");
    return 1;
  }
  if (O.Explain && (!O.DryRun || UseLLM || O.Diff || !O.ExportFixes.empty() ||
                    !O.Output.empty())) {
    reportError("--explain lists why built-in rewrites do not apply: give "
                "--dry-run without --rewriter=llm, --diff, --export-fixes or "
                "-o");
    return 1;
  }
  if (UseLLM) {
    if (!O.Candidates.empty() || O.TryAll || !O.Transformations.empty()) {
      reportError("--candidate, --try-all and --transformations choose "
                  "built-in rewrites; --rewriter=llm asks the model");
      return 1;
    }
    if (O.DryRun && (!O.ExportFixes.empty() || !O.Output.empty())) {
      reportError("a dry run of --rewriter=llm prints each candidate's diff; "
                  "-o and --export-fixes need a verified run");
      return 1;
    }
    if (S.Sources.size() != 1) {
      reportError("--rewriter=llm rewrites the kernels of one source; " +
                  Twine(S.Sources.size()) + " were given");
      return 1;
    }
  }
  if (!O.DryRun) {
    if (O.Run.empty()) {
      reportError("no run command: give --run \"<cmd>\" (the program whose "
                  "kernels are verified and timed), or --dry-run");
      return 1;
    }
    if (O.Runs < 3) {
      reportError("--runs must be at least 3: speed is judged over runs "
                  "with different seeds");
      return 1;
    }
    if (O.Attempts == 0) {
      reportError("--attempts must be at least 1");
      return 1;
    }
    if (!(O.RTol >= 0) || !(O.ATol >= 0) || !(O.MinSpeedup >= 1)) {
      reportError("--rtol and --atol must be non-negative and --min-speedup "
                  "at least 1");
      return 1;
    }
    if (S.Sources.size() != 1) {
      reportError("optimize verifies the kernels of one source; " +
                  Twine(S.Sources.size()) + " were given");
      return 1;
    }
  }

  // The model's settings are checked before anything runs.
  std::unique_ptr<LLMRewriter> LLM;
  if (UseLLM) {
    Expected<std::unique_ptr<LLMRewriter>> R =
        LLMRewriter::create(Argv0, /*Send=*/!O.LLMShowPrompt);
    if (!R) {
      reportError(toString(R.takeError()));
      return 1;
    }
    LLM = std::move(*R);
  }

  std::vector<const Transformation *> Ts;
  if (O.Transformations.empty() && !UseLLM)
    Ts = TransformationRegistry::all();
  for (const std::string &Name : O.Transformations) {
    const Transformation *T = TransformationRegistry::find(Name);
    if (!T) {
      reportError("unknown transformation '" + Name +
                  "'; known: " + TransformationRegistry::names());
      return 1;
    }
    Ts.push_back(T);
  }

  std::vector<std::string> Inputs(S.Sources.begin(), S.Sources.end());
  if (!O.Output.empty()) {
    if (Inputs.size() != 1) {
      reportError("-o writes the patched copy of one source; " +
                  Twine(Inputs.size()) + " were given");
      return 1;
    }
    if (sys::fs::exists(O.Output) && sys::fs::equivalent(O.Output, Inputs[0])) {
      reportError("-o '" + O.Output +
                  "' names the source itself, which optimize never changes");
      return 1;
    }
  }

  // With --samples, the tree that chooses what a dry run's triggers see.
  std::optional<SampleTable> Samples;
  ProfilingTree Tree;
  if (!O.Samples.empty()) {
    if (!O.DryRun) {
      reportError("--samples needs --dry-run: a verified run collects its "
                  "own profile");
      return 1;
    }
    Expected<SampleTable> S = loadSamples(O.Samples);
    if (!S) {
      reportError(toString(S.takeError()));
      return 1;
    }
    Samples = std::move(*S);
    std::string Catalog = catalogPath(Argv0, "");
    Expected<std::string> TreePath =
        findTree(O.Tree, sys::path::parent_path(Catalog));
    if (!TreePath) {
      reportError(toString(TreePath.takeError()));
      return 1;
    }
    if (Error E = loadCheckedTree(*TreePath, Tree)) {
      reportError(toString(std::move(E)));
      return 1;
    }
  }

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
      reportError("no kernel in " + joined(Inputs));
    return 1;
  }
  for (const std::string &F : Engine.failures())
    reportWarning(F);
  if (!O.DryRun)
    return runVerifiedOptimize(Argv0, Engine, Inputs[0], LLM.get());

  // The paths to show: as the user named them.
  std::map<std::string, std::string> ShownPaths;
  for (const std::string &In : Inputs)
    ShownPaths[absolutePath(In)] = In;
  auto Shown = [&](const std::string &File) {
    auto It = ShownPaths.find(absolutePath(File));
    return It == ShownPaths.end() ? shownPath(File) : It->second;
  };
  auto Original = [&](StringRef File) { return Engine.originalText(File); };

  std::string Text;
  raw_string_ostream OS(Text);
  if (LLM) {
    // One question per kernel: its prompt, or the model's candidate as a
    // diff, or why the reply was rejected.
    for (size_t I = 0; I < Engine.kernels().size(); ++I) {
      const KernelRecord &K = Engine.kernels()[I];
      if (std::optional<std::string> Why =
              llmUnsupported(Engine, I, Inputs[0])) {
        reportWarning("kernel '" + K.QualifiedName +
                      "' is left alone: " + *Why);
        continue;
      }
      KernelProfile KP;
      if (Samples) {
        if (const std::map<std::string, double> *Values = Samples->find(K)) {
          Route R = routeKernel(Tree, K.Features, Values);
          KP.Metrics = shownMetrics(Tree, R.Leaf, *Values);
          if (R.Leaf) {
            KP.Leaf = R.Leaf->Id;
            KP.Focus = R.Leaf->Focus;
          }
        }
      }
      std::vector<ChatMessage> Messages =
          LLM->prompt(Engine, I, KP, std::nullopt);
      if (O.LLMShowPrompt) {
        OS << "# prompt for kernel " << K.QualifiedName << "\n";
        for (const ChatMessage &M : Messages)
          OS << "## " << M.Role << "\n"
             << M.Content << (StringRef(M.Content).ends_with("\n") ? "" : "\n");
        continue;
      }
      Expected<ChatReply> Reply = LLM->ask(std::move(Messages));
      if (!Reply) {
        reportError(toString(Reply.takeError()));
        return 1;
      }
      LLMRound Round =
          LLM->handle(Engine, I, Inputs[0], Reply->Text, Reply->FinishReason);
      OS << "# llm on kernel " << K.QualifiedName;
      if (!Round.Candidate) {
        OS << ": " << verify::verdictName(Round.V) << ": " << Round.Reason
           << "\n";
        continue;
      }
      const KernelSource &KS = Engine.kernelSources()[I];
      OS << "\n"
         << unifiedDiff(Shown(KS.File), Engine.originalText(KS.File),
                        *Round.Candidate);
    }
  } else if (O.Diff) {
    for (const Proposal &P : Engine.proposals()) {
      auto New = applyFileEdits(P.Edits, Original);
      if (!New) {
        reportWarning("cannot apply " + P.name() + " to '" +
                      Engine.kernels()[P.Kernel].QualifiedName +
                      "': " + toString(New.takeError()));
        continue;
      }
      OS << "# " << P.name() << " on kernel "
         << Engine.kernels()[P.Kernel].QualifiedName << "\n";
      for (const auto &[File, NewText] : *New)
        OS << unifiedDiff(Shown(File), Engine.originalText(File), NewText);
    }
  } else if (!O.ExportFixes.empty() || !O.Output.empty()) {
    // -o writes a copy of the first source: a proposal that changes another
    // file too cannot be written there whole.
    std::string Main = absolutePath(Inputs[0]);
    std::vector<const Proposal *> List;
    for (const Proposal &P : Engine.proposals()) {
      // Variants are alternatives: the first of each stands for them.
      if (!P.Variant.empty() && llvm::any_of(List, [&](const Proposal *Q) {
            return Q->Kernel == P.Kernel && Q->T == P.T;
          }))
        continue;
      bool Elsewhere = llvm::any_of(P.Edits, [&](const auto &FE) {
        return !FE.second.empty() && FE.first != Main;
      });
      if (!O.Output.empty() && Elsewhere) {
        reportWarning("skipping " + P.name() + " on kernel '" +
                      Engine.kernels()[P.Kernel].QualifiedName +
                      "': it changes files other than '" + Inputs[0] +
                      "', and -o writes a copy of that one only");
        continue;
      }
      List.push_back(&P);
    }
    std::vector<const Proposal *> Skipped;
    FileEdits Merged = mergeProposals(List, Skipped);
    for (const Proposal *P : Skipped)
      reportWarning("skipping " + P->name() + " on kernel '" +
                    Engine.kernels()[P->Kernel].QualifiedName +
                    "': its edits overlap another proposal's");
    if (!O.ExportFixes.empty()) {
      if (Error E = writeOutput(O.ExportFixes, exportFixesYAML(Main, Merged))) {
        reportError(toString(std::move(E)));
        return 1;
      }
      return 0;
    }
    std::string Patched;
    if (auto It = Merged.find(Main);
        It != Merged.end() && !It->second.empty()) {
      auto New = applyEdits(Engine.originalText(Main), It->second);
      if (!New) {
        reportError("cannot apply the proposals to '" + Inputs[0] +
                    "': " + toString(New.takeError()));
        return 1;
      }
      Patched = *New;
    } else {
      auto Buf = MemoryBuffer::getFile(Inputs[0]);
      if (!Buf) {
        reportError("cannot read '" + Inputs[0] +
                    "': " + Buf.getError().message());
        return 1;
      }
      Patched = (*Buf)->getBuffer().str();
    }
    if (Error E = writeOutput(O.Output, Patched)) {
      reportError(toString(std::move(E)));
      return 1;
    }
    return 0;
  } else {
    for (size_t I = 0; I < Engine.kernels().size(); ++I) {
      const KernelRecord &K = Engine.kernels()[I];
      OS << "kernel " << K.QualifiedName << " at " << Shown(K.File) << ":"
         << K.Line << ":" << K.Column << "\n";
      std::optional<MetricValues> Seen;
      if (Samples) {
        const std::map<std::string, double> *Values = Samples->find(K);
        if (!Values) {
          OS << "  not in the profile\n";
        } else {
          Route R = routeKernel(Tree, K.Features, Values);
          Seen = shownMetrics(Tree, R.Leaf, *Values);
          OS << "  leaf: " << (R.Leaf ? R.Leaf->Id : std::string("(pending)"))
             << ", " << Seen->size() << " metrics\n";
        }
      }
      bool Any = false;
      for (const Proposal &P : Engine.proposals()) {
        if (P.Kernel != I)
          continue;
        Any = true;
        OS << "  " << P.name() << ": " << P.T->description() << "\n";
        if (!Seen) {
          OS << "    trigger: needs " << joined(P.T->triggerMetrics()) << "\n";
          continue;
        }
        if (std::optional<std::string> Why = P.T->trigger(*Seen))
          OS << "    triggered: " << *Why << "\n";
        else
          OS << "    not triggered by the leaf's metrics\n";
      }
      if (!Any)
        OS << "  no proposal\n";
      for (const Refusal &R : Engine.refusals())
        if (R.Kernel == I)
          OS << "  " << R.T->name() << ": not applied: " << R.Reason << "\n";
    }
  }
  OS.flush();
  if (Error E = writeOutput("-", Text)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return 0;
}
