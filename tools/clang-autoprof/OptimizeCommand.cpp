//===- OptimizeCommand.cpp - clang-autoprof optimize ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "OptimizeOptions.h"

#include "autoprof/OptimizeTooling/LLMRewriter.h"
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

std::string joined(const std::vector<std::string> &V) {
  std::string S;
  for (const std::string &E : V)
    S += (S.empty() ? "" : ", ") + E;
  return S;
}

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

/// The paths as the user named them.
using ShownPath = std::function<std::string(const std::string &)>;

/// A dry run of --rewriter=llm: for each kernel, its prompt
/// (--llm-show-prompt), or the model's candidate as a diff, or why the
/// reply was rejected. False after reporting an error.
bool askModelDryRun(LLMRewriter &LLMR, const RewriteEngine &Engine,
                    const std::string &Source,
                    const std::optional<SampleTable> &Samples,
                    const ProfilingTree &Tree, const ShownPath &Shown,
                    raw_ostream &OS) {
  OptimizeOptions &O = optimizeOptions();
  LLMRewriter *LLM = &LLMR;
  // One question per kernel: its prompt, or the model's candidate as a
  // diff, or why the reply was rejected.
  for (size_t I = 0; I < Engine.kernels().size(); ++I) {
    const KernelRecord &K = Engine.kernels()[I];
    if (std::optional<std::string> Why = llmUnsupported(Engine, I, Source)) {
      reportWarning("kernel '" + K.QualifiedName + "' is left alone: " + *Why);
      continue;
    }
    KernelProfile KP;
    if (Samples) {
      if (const std::map<std::string, double> *Values =
              Samples->find(K.MangledName, K.Name)) {
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
      return false;
    }
    LLMRound Round =
        LLM->handle(Engine, I, Source, Reply->Text, Reply->FinishReason);
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
  return true;
}

/// --diff: each proposal as a diff of the files it changes.
void writeDiffs(const RewriteEngine &Engine, const ShownPath &Shown,
                raw_ostream &OS) {
  auto Original = [&](StringRef File) { return Engine.originalText(File); };
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
}

/// -o and --export-fixes: the first variant of every proposal, merged.
int writeProposals(const RewriteEngine &Engine,
                   const std::vector<std::string> &Inputs) {
  OptimizeOptions &O = optimizeOptions();
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
  if (auto It = Merged.find(Main); It != Merged.end() && !It->second.empty()) {
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
}

/// The listing of a dry run: each kernel's proposals and what triggers
/// them, and with --explain why the others do not apply.
void listProposals(const RewriteEngine &Engine,
                   const std::optional<SampleTable> &Samples,
                   const ProfilingTree &Tree, const ShownPath &Shown,
                   raw_ostream &OS) {
  for (size_t I = 0; I < Engine.kernels().size(); ++I) {
    const KernelRecord &K = Engine.kernels()[I];
    OS << "kernel " << K.QualifiedName << " at " << Shown(K.File) << ":"
       << K.Line << ":" << K.Column << "\n";
    std::optional<MetricValues> Seen;
    if (Samples) {
      const std::map<std::string, double> *Values =
          Samples->find(K.MangledName, K.Name);
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

  std::string Text;
  raw_string_ostream OS(Text);
  if (LLM) {
    if (!askModelDryRun(*LLM, Engine, Inputs[0], Samples, Tree, Shown, OS))
      return 1;
  } else if (O.Diff) {
    writeDiffs(Engine, Shown, OS);
  } else if (!O.ExportFixes.empty() || !O.Output.empty()) {
    return writeProposals(Engine, Inputs);
  } else {
    listProposals(Engine, Samples, Tree, Shown, OS);
  }
  OS.flush();
  if (Error E = writeOutput("-", Text)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return 0;
}
