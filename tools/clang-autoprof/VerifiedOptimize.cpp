//===- VerifiedOptimize.cpp - optimize with verification ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `optimize` without --dry-run: build and measure the original program,
/// profile it with the tree (lib/Profiling, in-process), try
/// each rewrite whose trigger fires on the metrics the tree collected, keep
/// the fastest verified one per kernel, and verify the kept rewrites of
/// several kernels together. The source changes only with --in-place and
/// only after a verified win.
///
//===----------------------------------------------------------------------===//

#include "LLMRewriter.h"
#include "OptimizeOptions.h"

#include "autoprof/Check/PerfGate.h"
#include "autoprof/Optimize/Session.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Profiling/ProfileProgram.h"
#include "autoprof/Rewrite/KernelReach.h"
#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/UnifiedDiff.h"
#include "autoprof/Verify/Judge.h"
#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/PhaseTimes.h"
#include "autoprof/Verify/Verifier.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/JSONCompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cmath>
#include <deque>
#include <map>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

/// Quotes \p Arg for /bin/sh.
std::string shellQuote(StringRef Arg) {
  if (!Arg.empty() &&
      Arg.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                            "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                            "0123456789_-+=./:,@%") == StringRef::npos)
    return Arg.str();
  std::string Q = "'";
  for (char C : Arg)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

/// The build command: --build, else the source's command in the
/// compilation database when it links a program.
Expected<std::string> buildCommand(const OptimizeOptions &O,
                                   const std::string &Source) {
  if (!O.Build.empty())
    return O.Build;
  const std::string &BuildPath = sourceOptions().BuildPath;
  std::string Err;
  std::unique_ptr<clang::tooling::CompilationDatabase> DB;
  if (!BuildPath.empty())
    DB = clang::tooling::JSONCompilationDatabase::loadFromDirectory(BuildPath,
                                                                    Err);
  else
    DB = clang::tooling::CompilationDatabase::autoDetectFromSource(Source, Err);
  if (!DB)
    return createStringError("no build command: give --build \"<cmd>\" "
                             "(no compilation database was found for '" +
                             Source + "')");
  std::vector<clang::tooling::CompileCommand> Cmds =
      DB->getCompileCommands(absolutePath(Source));
  if (Cmds.empty())
    return createStringError("no build command: give --build \"<cmd>\" (the "
                             "compilation database has no command for '" +
                             Source + "')");
  const clang::tooling::CompileCommand &C = Cmds.front();
  for (const std::string &A : C.CommandLine)
    if (A == "-c" || A == "--compile" || A == "-S" || A == "-E")
      return createStringError(
          "no build command: give --build \"<cmd>\" (the compilation "
          "database's command for '" +
          Source + "' compiles an object; the program must be linked)");
  std::string Cmd = "cd " + shellQuote(C.Directory) + " &&";
  for (const std::string &A : C.CommandLine)
    Cmd += " " + shellQuote(A);
  return Cmd;
}

/// Profiles the original, built, with the tree, in-process: the kernels'
/// static features from \p Source, the program the run command, its output
/// in \p Dir's profile.log; writes \p Dir's profile.json and returns the
/// profiled kernels by mangled name.
Expected<optimize::ProfiledKernels>
profileKernels(CommandRunner &Runner, const char *Argv0,
               const OptimizeOptions &O, const std::string &Source,
               StringRef Dir, uint64_t Seed) {
  auto Failed = [&](const Twine &Why) {
    return createStringError("profiling with tree '" + O.Tree +
                             "' failed: " + Why);
  };
  std::string CatalogPath = catalogPath(Argv0, "");
  Expected<MetricCatalog> Catalog = MetricCatalog::load(CatalogPath);
  if (!Catalog)
    return Catalog.takeError();
  profiling::ProfileRequest R;
  Expected<std::string> Tree =
      findTree(O.Tree, sys::path::parent_path(CatalogPath));
  if (!Tree)
    return Tree.takeError();
  R.TreePath = *Tree;
  if (Error E = loadCheckedTree(R.TreePath, R.Tree))
    return std::move(E);
  Expected<profiling::MetricClasses> Classes =
      profiling::classifyMetrics(R, *Catalog);
  if (!Classes)
    return Classes.takeError();
  if (Error E = addSourceKernels({Source}, &ArgsAfterDashDash, R.Kernels))
    return Failed(toString(std::move(E)));
  if (Error E = checkProfilingDevice(R, *Classes))
    return Failed(toString(std::move(E)));
  R.InjectionLibrary = injectionLibrary(Argv0);
  if (!sys::fs::exists(R.InjectionLibrary))
    return Failed("cannot find the injection library '" + R.InjectionLibrary +
                  "'; set AUTOPROF_INJECT_LIBRARY");
  R.Program = {"/bin/sh", "-c", O.Run};
  R.Env["AUTOPROF_SEED"] = std::to_string(Seed);
  R.KernelRegex = sourceOptions().Kernel;
  R.Timeout = O.Timeout;
  SmallString<256> Log(Dir), Out(Dir);
  sys::path::append(Log, "profile.log");
  sys::path::append(Out, "profile.json");
  R.OutputFile = std::string(Log);
  R.NewProcessGroup = true;
  R.DeviceLock = O.DeviceLock;
  Expected<profiling::ProfileRun> Run =
      profiling::profileProgram(R, *Catalog, *Classes, Runner, nulls());
  if (!Run)
    return Failed(toString(Run.takeError()));
  const ChildResult &First = Run->First;
  if (First.Interrupted)
    return createStringError("interrupted");
  if (First.TimedOut)
    return Failed("the program ran past --timeout=" +
                  std::to_string(O.Timeout.getValue()) + " s");
  if (First.Status != 0)
    return Failed("the program exited with status " +
                  std::to_string(First.Status));
  if (!Run->P.Errors.empty())
    return Failed(Run->P.Errors.front());
  if (Error E = writeOutput(Out, writeProfileJSON(Run->P)))
    return std::move(E);
  return optimize::readProfiledKernels(Out);
}

/// What one quiet parse of \p Source, with the files of \p Texts
/// rewritten, tells of a candidate.
struct CandidateView {
  /// \p Ks with the mangled names their kernels have in the candidate,
  /// where the rewrite changed them (a parameter's type). A kernel is found
  /// by its qualified name, a template's instantiations in order; they stay
  /// as given when Clang cannot parse the candidate (its build then says
  /// why) or a kernel is not found.
  std::vector<KernelSignature> Renamed;
  /// What the kernel named reaches; nullopt when the parse fails or the
  /// kernel is not found.
  std::optional<KernelReach> Reach;
};

CandidateView inspect(const std::string &Source, const SourceTexts &Texts,
                      ArrayRef<KernelSignature> Ks, const std::string &Name) {
  CandidateView V;
  V.Renamed.assign(Ks.begin(), Ks.end());
  RewriteEngine Check({}, nullptr);
  FirstErrorConsumer Quiet;
  SourceOverrides Ov;
  for (const auto &[File, Text] : Texts)
    Ov.Files[absolutePath(File)] = Text;
  Ov.Diagnostics = &Quiet;
  Check.onTranslationUnit([&](clang::ASTContext &Ctx) {
    if (!V.Reach)
      V.Reach = kernelReachByName(Ctx, Name);
  });
  auto Factory = Check.newActionFactory();
  if (runOnSources(*Factory, {Source}, ArgsAfterDashDash,
                   /*SearchBuildDirs=*/false, &Ov) != 0 ||
      Check.translationUnitsWithErrors()) {
    V.Reach.reset();
    return V;
  }
  std::vector<const KernelRecord *> Found;
  for (size_t I = 0; I < Check.kernels().size(); ++I) {
    const KernelRecord &K = Check.kernels()[I];
    if (K.Template == TemplateKind::Primary)
      for (const KernelRecord &Instance : Check.instantiations()[I])
        Found.push_back(&Instance);
    else
      Found.push_back(&K);
  }
  std::map<std::string, unsigned> Seen;
  for (KernelSignature &S : V.Renamed) {
    unsigned Nth = Seen[S.Name]++;
    for (const KernelRecord *K : Found)
      if (K->QualifiedName == S.Name && Nth-- == 0) {
        if (K->MangledName != S.MangledName)
          S.CandidateMangledName = K->MangledName;
        break;
      }
  }
  return V;
}

/// The hidden-state judgement of a candidate whose kernel reaches \p After
/// where the original's reaches \p Before, or nullopt when it reaches
/// nothing more (or either is unknown).
std::optional<Judgement> hiddenState(const std::optional<KernelReach> &Before,
                                     const std::optional<KernelReach> &After) {
  if (!Before || !After)
    return std::nullopt;
  std::optional<std::string> Why =
      reachProblem(*Before, *After, "the candidate's kernel");
  if (!Why)
    return std::nullopt;
  Judgement J;
  J.V = Verdict::HiddenState;
  J.Reason = *Why;
  return J;
}

/// Copies the profile \p From to --keep-profile, when given.
Error keepProfile(const OptimizeOptions &O, StringRef From) {
  if (O.KeepProfile.empty())
    return Error::success();
  auto Buf = MemoryBuffer::getFile(From, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read the profile");
  return writeOutput(O.KeepProfile, (*Buf)->getBuffer());
}

/// Profiles the original with the tree.
class TreeProfiler : public optimize::KernelProfiler {
public:
  TreeProfiler(CommandRunner &Runner, const char *Argv0,
               const OptimizeOptions &O, const std::string &Source,
               StringRef Dir)
      : Runner(Runner), Argv0(Argv0), O(O), Source(Source), Dir(Dir) {}
  std::string describe() const override {
    return "profiling with tree '" + O.Tree + "'";
  }
  Expected<optimize::ProfiledKernels> profile(uint64_t Seed) override {
    Expected<optimize::ProfiledKernels> P =
        profileKernels(Runner, Argv0, O, Source, Dir, Seed);
    if (!P)
      return P.takeError();
    SmallString<256> File(Dir);
    sys::path::append(File, "profile.json");
    if (Error E = keepProfile(O, File))
      return std::move(E);
    return P;
  }

private:
  CommandRunner &Runner;
  const char *Argv0;
  const OptimizeOptions &O;
  const std::string &Source;
  std::string Dir;
};

/// The profile --profile names.
class GivenProfiler : public optimize::KernelProfiler {
public:
  GivenProfiler(const OptimizeOptions &O, optimize::ProfiledKernels P)
      : O(O), P(std::move(P)) {}
  std::string describe() const override {
    return "using the profile '" + O.ProfileFile + "'";
  }
  Expected<optimize::ProfiledKernels> profile(uint64_t) override {
    if (Error E = keepProfile(O, O.ProfileFile))
      return std::move(E);
    return P;
  }

private:
  const OptimizeOptions &O;
  optimize::ProfiledKernels P;
};

/// The Clang side of a session: the engine's proposals, and a parse of
/// each candidate. Keeps every candidate's edits of the original files by
/// its id.
class EngineModel : public optimize::SourceModel {
public:
  EngineModel(const RewriteEngine &Engine, const std::string &Source,
              Verifier &V)
      : Engine(Engine), Source(Source), V(V) {}

  std::vector<optimize::Candidate>
  proposals(const optimize::SessionKernel &K,
            const optimize::Candidate *Base) override {
    std::vector<optimize::Candidate> Out;
    if (!Base) {
      for (const Proposal &P : Engine.proposals())
        if (P.Kernel == K.Index)
          add(Out, K, P, P.Edits, nullptr);
      return Out;
    }
    // The proposals made on the base's texts, as edits of the original.
    RewriteEngine Again(Engine.transformations(), Engine.filter());
    FirstErrorConsumer Quiet;
    SourceOverrides Ov;
    for (const auto &[File, Text] : Base->Texts)
      Ov.Files[absolutePath(File)] = Text;
    Ov.Diagnostics = &Quiet;
    auto Factory = Again.newActionFactory();
    if (runOnSources(*Factory, {Source}, ArgsAfterDashDash,
                     /*SearchBuildDirs=*/false, &Ov) != 0 ||
        Again.translationUnitsWithErrors())
      return Out;
    auto Found = llvm::find_if(Again.kernels(), [&](const KernelRecord &R) {
      return R.QualifiedName == K.Name;
    });
    if (Found == Again.kernels().end())
      return Out;
    size_t Index = Found - Again.kernels().begin();
    for (const Proposal &P : Again.proposals()) {
      if (P.Kernel != Index)
        continue;
      FileEdits Chained = Edits[Base->Id];
      for (const auto &[File, Rs] : P.Edits)
        Chained[File] = Chained[File].merge(Rs);
      add(Out, K, P, std::move(Chained), Base);
    }
    return Out;
  }

  optimize::CandidateCheck inspect(const optimize::SessionKernel &K,
                                   const optimize::Candidate &C) override {
    auto [It, New] = Reach.try_emplace(K.Name);
    if (New)
      It->second = ::inspect(Source, {}, {}, K.Name).Reach;
    CandidateView View = ::inspect(Source, C.Texts, K.Launched, K.Name);
    optimize::CandidateCheck Out;
    Out.Renamed = std::move(View.Renamed);
    Out.Refused = hiddenState(It->second, View.Reach);
    return Out;
  }

  std::optional<optimize::Candidate>
  combine(ArrayRef<const optimize::Candidate *> Kept) override {
    std::vector<Proposal> Parts(Kept.size());
    std::vector<const Proposal *> Ptrs;
    for (size_t I = 0; I < Kept.size(); ++I) {
      Parts[I].Edits = Edits[Kept[I]->Id];
      Ptrs.push_back(&Parts[I]);
    }
    std::vector<const Proposal *> Skipped;
    FileEdits Merged = mergeProposals(Ptrs, Skipped);
    if (!Skipped.empty())
      return std::nullopt;
    Expected<SourceTexts> Texts = textsOf(Merged);
    if (!Texts) {
      consumeError(Texts.takeError());
      return std::nullopt;
    }
    optimize::Candidate C;
    C.Texts = std::move(*Texts);
    C.Id = remember(std::move(Merged));
    return C;
  }

  /// A candidate whose edits are \p E.
  Expected<optimize::Candidate> candidate(std::string Name, FileEdits E) {
    Expected<SourceTexts> Texts = textsOf(E);
    if (!Texts)
      return Texts.takeError();
    optimize::Candidate C;
    C.Name = std::move(Name);
    C.Texts = std::move(*Texts);
    C.Id = remember(std::move(E));
    return C;
  }

  /// A candidate whose edits \p E give \p Texts.
  optimize::Candidate candidate(std::string Name, FileEdits E,
                                SourceTexts Texts) {
    optimize::Candidate C;
    C.Name = std::move(Name);
    C.Texts = std::move(Texts);
    C.Id = remember(std::move(E));
    return C;
  }

  const FileEdits &edits(unsigned Id) const { return Edits[Id]; }

  Expected<SourceTexts> textsOf(const FileEdits &E) const {
    return applyFileEdits(E,
                          [&](StringRef File) { return V.originalText(File); });
  }

private:
  unsigned remember(FileEdits E) {
    Edits.push_back(std::move(E));
    return Edits.size() - 1;
  }

  void add(std::vector<optimize::Candidate> &Out,
           const optimize::SessionKernel &K, const Proposal &P, FileEdits E,
           const optimize::Candidate *Base) {
    std::string Name = P.name();
    Expected<optimize::Candidate> C =
        candidate(Base ? Base->Name + "+" + Name : Name, std::move(E));
    if (!C) {
      reportWarning("cannot apply " + Name + " to '" + K.Name +
                    "': " + toString(C.takeError()));
      return;
    }
    if (Base)
      C->Chain = Base->Chain;
    // The chain holds transformations: one variant of each.
    C->Chain.push_back(P.T->name().str());
    C->ChangesSignature =
        P.T->changesSignature() || (Base && Base->ChangesSignature);
    const Transformation *T = P.T;
    C->Trigger = [T](const optimize::Metrics &M) { return T->trigger(M); };
    Out.push_back(std::move(*C));
  }

  const RewriteEngine &Engine;
  const std::string &Source;
  Verifier &V;
  std::vector<FileEdits> Edits;
  std::map<std::string, std::optional<KernelReach>> Reach;
};

/// The model's rounds through LLMRewriter.
class LLMModel : public optimize::ModelRewriter {
public:
  LLMModel(LLMRewriter &LLM, const RewriteEngine &Engine,
           const std::string &Source, EngineModel &Edits)
      : LLM(LLM), Engine(Engine), Source(Source), Edits(Edits) {}
  const std::string &model() const override { return LLM.model(); }
  Expected<optimize::ModelRound>
  round(const optimize::SessionKernel &K, const optimize::ProfiledKernel &P,
        const std::optional<optimize::RoundFailure> &Previous) override {
    std::optional<PromptFailure> Failed;
    if (Previous)
      Failed =
          PromptFailure{Previous->Verdict, Previous->Reason, Previous->Code};
    Expected<ChatReply> Reply = LLM.ask(LLM.prompt(
        Engine, K.Index, KernelProfile{P.Leaf, P.Focus, P.Values}, Failed));
    if (!Reply)
      return Reply.takeError();
    LLMRound R =
        LLM.handle(Engine, K.Index, Source, Reply->Text, Reply->FinishReason);
    optimize::ModelRound Out;
    Out.Code = R.Code;
    Out.V = R.V;
    Out.Reason = R.Reason;
    if (R.Candidate) {
      FileEdits E;
      consumeError(addEdit(
          kernelReplacement(Engine.kernelSources()[K.Index], R.Code), E));
      // The text the model rewriter checked.
      Out.C = Edits.candidate("", std::move(E),
                              {{absolutePath(Source), *R.Candidate}});
    }
    return Out;
  }

private:
  LLMRewriter &LLM;
  const RewriteEngine &Engine;
  const std::string &Source;
  EngineModel &Edits;
};

/// The kernels of \p Engine that can be verified, each with what is
/// launched of it (a template's instantiations); warns of the others.
/// Kernels of the source and of the headers it includes (never system
/// headers) are verified alike.
std::vector<optimize::SessionKernel> selectKernels(const RewriteEngine &Engine,
                                                   const std::string &Source,
                                                   bool UseLLM) {
  std::vector<optimize::SessionKernel> Out;
  for (size_t I = 0; I < Engine.kernels().size(); ++I) {
    const KernelRecord &K = Engine.kernels()[I];
    optimize::SessionKernel SK;
    SK.Index = I;
    SK.Name = K.QualifiedName;
    if (K.Template == TemplateKind::Primary)
      for (const KernelRecord &Instance : Engine.instantiations()[I])
        SK.Launched.push_back(signatureOf(Instance));
    else
      SK.Launched.push_back(signatureOf(K));
    if (SK.Launched.empty()) {
      reportWarning("kernel template '" + K.QualifiedName +
                    "' is left alone: the source instantiates it nowhere");
      continue;
    }
    if (UseLLM)
      if (std::optional<std::string> Why = llmUnsupported(Engine, I, Source)) {
        reportWarning("kernel '" + K.QualifiedName +
                      "' is left alone: " + *Why);
        continue;
      }
    Out.push_back(std::move(SK));
  }
  return Out;
}

/// How the verifier builds and runs the program.
VerifierOptions verifierOptions(const OptimizeOptions &O,
                                const RewriteEngine &Engine,
                                const std::string &Source,
                                ArrayRef<optimize::SessionKernel> Kernels) {
  VerifierOptions VO;
  VO.Source = Source;
  // The headers a candidate may change: those defining a kernel to verify,
  // and those its built-in rewrites edit.
  std::set<std::string> Headers;
  for (const optimize::SessionKernel &K : Kernels)
    Headers.insert(absolutePath(Engine.kernels()[K.Index].File));
  for (const Proposal &Prop : Engine.proposals())
    if (llvm::any_of(Kernels, [&](const optimize::SessionKernel &K) {
          return K.Index == Prop.Kernel;
        }))
      for (const auto &[File, Rs] : Prop.Edits)
        Headers.insert(absolutePath(File));
  Headers.erase(absolutePath(Source));
  VO.Headers.assign(Headers.begin(), Headers.end());
  VO.OnSwap = [](const std::string &Line) { reportWarning(Line); };
  // nvcc names a kernel of internal linkage (static, or in an anonymous
  // namespace) after its file: such a program is built in place.
  for (const optimize::SessionKernel &K : Kernels)
    for (const KernelSignature &S : K.Launched)
      if (StringRef(S.MangledName).starts_with("_ZL") ||
          StringRef(S.MangledName).contains("_GLOBAL__N_"))
        VO.BuildFromCopies = false;
  VO.RunCommand = O.Run;
  VO.Seeds.clear();
  for (unsigned I = 1; I <= O.Runs; ++I)
    VO.Seeds.push_back(I);
  VO.RunTimeout = O.Timeout;
  VO.BuildTimeout = O.Timeout;
  VO.DeviceLockFile = O.DeviceLock;
  return VO;
}

/// The --candidate files, read.
Expected<std::vector<std::pair<std::string, std::string>>>
readCandidates(const OptimizeOptions &O) {
  std::vector<std::pair<std::string, std::string>> Given;
  for (const std::string &F : O.Candidates) {
    auto Buf = MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf)
      return createStringError("cannot read --candidate '" + F +
                               "': " + Buf.getError().message());
    Given.emplace_back(F, (*Buf)->getBuffer().str());
  }
  return Given;
}

/// Writes what the options ask of \p Final (the kept edits): the files in
/// place, a diff, fixes or a copy; returns the text to print.
Expected<std::string> writeResult(const OptimizeOptions &O,
                                  const std::string &Source, Verifier &V,
                                  const EngineModel &M, const FileEdits &Final,
                                  const OptimizeReport &Report) {
  Expected<SourceTexts> FinalTexts = M.textsOf(Final);
  if (!FinalTexts)
    return FinalTexts.takeError();
  if (O.InPlace)
    for (const auto &[File, Text] : *FinalTexts)
      if (Error E = writeOutput(File, Text))
        return std::move(E);
  if (O.Diff) {
    std::string Text;
    raw_string_ostream OS(Text);
    for (const auto &[File, New] : *FinalTexts)
      OS << unifiedDiff(File == absolutePath(Source) ? Source : shownPath(File),
                        V.originalText(File), New);
    return Text;
  }
  if (!O.ExportFixes.empty()) {
    if (Error E = writeOutput(O.ExportFixes,
                              exportFixesYAML(absolutePath(Source), Final)))
      return std::move(E);
  } else if (!O.Output.empty()) {
    auto It = FinalTexts->find(absolutePath(Source));
    if (Error E = writeOutput(
            O.Output, It == FinalTexts->end() ? V.originalText() : It->second))
      return std::move(E);
  }
  return renderOptimizeReportText(Report,
                                  O.Output.empty() && O.ExportFixes.empty());
}

/// The session's options from the tool's.
optimize::SessionOptions sessionOptions(const OptimizeOptions &O,
                                        const std::string &Source,
                                        const std::string &Tree) {
  optimize::SessionOptions SO;
  SO.Source = Source;
  SO.Tree = Tree;
  SO.Attempts = O.Attempts;
  SO.TryAll = O.TryAll;
  SO.Compose = O.Compose;
  SO.Judge.RTol = O.RTol;
  SO.Judge.ATol = O.ATol;
  SO.Judge.MinSpeedup = O.MinSpeedup;
  SO.InPlace = O.InPlace;
  SO.SourceOnly = !O.Output.empty();
  SO.Warn = [](const std::string &Line) { reportWarning(Line); };
  return SO;
}

/// The --candidate files as candidates, each an edit of the whole source.
Error givenCandidates(ArrayRef<std::pair<std::string, std::string>> Given,
                      const std::string &Source, EngineModel &Model,
                      std::vector<optimize::Candidate> &Out) {
  if (Given.empty())
    return Error::success();
  auto Original = MemoryBuffer::getFile(Source, /*IsText=*/true);
  if (!Original)
    return createStringError("cannot read '" + Source +
                             "': " + Original.getError().message());
  for (const auto &[File, Text] : Given) {
    FileEdits E;
    consumeError(
        addEdit(clang::tooling::Replacement(absolutePath(Source), 0,
                                            (*Original)->getBufferSize(), Text),
                E));
    Out.push_back(Model.candidate("candidate " + File, std::move(E),
                                  {{absolutePath(Source), Text}}));
  }
  return Error::success();
}

} // namespace

TempDir::~TempDir() {
  if (!Path.empty())
    sys::fs::remove_directories(Path);
}

int autoprof::tool::runVerifiedOptimize(const char *Argv0,
                                        const RewriteEngine &Engine,
                                        const std::string &Source,
                                        LLMRewriter *LLM) {
  auto Started = std::chrono::steady_clock::now();
  OptimizeOptions &O = optimizeOptions();
  auto Fail = [&](Error E) {
    std::string Msg = toString(std::move(E));
    reportError(Msg);
    return Msg == "interrupted" ? 130 : 1;
  };
  Expected<std::string> Build = buildCommand(O, Source);
  if (!Build)
    return Fail(Build.takeError());
  std::string Inject = injectionLibrary(Argv0);
  if (!sys::fs::exists(Inject))
    return Fail(createStringError("cannot find the injection library '" +
                                  Inject + "'; set AUTOPROF_INJECT_LIBRARY"));
  std::vector<optimize::SessionKernel> Kernels =
      selectKernels(Engine, Source, LLM);
  if (Kernels.empty())
    return Fail(
        createStringError("no kernel of '" + Source + "' can be verified"));
  // Rewrites given as files replace the built-in proposals.
  auto Given = readCandidates(O);
  if (!Given)
    return Fail(Given.takeError());
  if (!Given->empty() && Kernels.size() != 1)
    return Fail(createStringError(
        "--candidate is judged on one kernel; " + Twine(Kernels.size()) +
        " kernels are selected (choose one with --kernel)"));
  // A given profile replaces profiling the program.
  std::unique_ptr<optimize::KernelProfiler> Profiler;
  std::string Tree = O.Tree;
  if (!O.ProfileFile.empty()) {
    Expected<optimize::ProfiledKernels> P =
        optimize::readProfiledKernels(O.ProfileFile, &Tree);
    if (!P)
      return Fail(P.takeError());
    Profiler = std::make_unique<GivenProfiler>(O, std::move(*P));
  }

  TempDir Work;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("clang-autoprof-optimize", Work.Path))
    return Fail(createStringError("cannot create a temporary directory: " +
                                  EC.message()));
  VerifierOptions VO = verifierOptions(O, Engine, Source, Kernels);
  VO.BuildCommand = *Build;
  VO.InjectLibrary = Inject;
  VO.WorkDir = std::string(Work.Path);
  ProcessRunner Processes;
  TimingRunner Runner(Processes);
  std::vector<KernelSignature> All;
  for (const optimize::SessionKernel &K : Kernels)
    All.insert(All.end(), K.Launched.begin(), K.Launched.end());
  Verifier V(Runner, VO, All);
  EngineModel Model(Engine, Source, V);
  if (!Profiler)
    Profiler =
        std::make_unique<TreeProfiler>(Runner, Argv0, O, Source, Work.Path);
  std::optional<LLMModel> Asker;
  if (LLM)
    Asker.emplace(*LLM, Engine, Source, Model);

  // A given file replaces the whole source.
  std::vector<optimize::Candidate> Candidates;
  if (Error E = givenCandidates(*Given, Source, Model, Candidates))
    return Fail(std::move(E));
  optimize::SessionOptions SO = sessionOptions(O, Source, Tree);
  optimize::Session S(SO, V, Model, Profiler.get(), Asker ? &*Asker : nullptr,
                      std::move(Candidates), Kernels, errs());
  Expected<optimize::SessionResult> R = S.run();
  if (!R)
    return Fail(R.takeError());
  OptimizeReport &Report = R->Report;
  FileEdits Final;
  if (R->Result)
    Final = Model.edits(R->Result->Id);
  Expected<std::string> Text = writeResult(O, Source, V, Model, Final, Report);
  if (!Text)
    return Fail(Text.takeError());
  Report.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Started)
          .count();
  Report.Timings = Runner.times();
  if (!O.Report.empty())
    if (Error E = writeOutput(O.Report, writeOptimizeReportJSON(Report)))
      return Fail(std::move(E));
  if (Error E = writeOutput("-", *Text))
    return Fail(std::move(E));
  return 0;
}
