//===- VerifiedOptimize.cpp - optimize with verification ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `optimize` without --dry-run: build and measure the original program,
/// profile it with the tree (the `profile` subcommand, run as a child), try
/// each rewrite whose trigger fires on the metrics the tree collected, keep
/// the fastest verified one per kernel, and verify the kept rewrites of
/// several kernels together. The source changes only with --in-place and
/// only after a verified win.
///
//===----------------------------------------------------------------------===//

#include "LLMRewriter.h"
#include "OptimizeOptions.h"

#include "autoprof/Profile/Profile.h"
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

/// What the profile says of one kernel.
struct Profiled {
  MetricValues Metrics;
  std::string Leaf;
  std::string Focus;
  std::vector<std::string> Route;
};

Expected<std::map<std::string, Profiled>>
readProfiled(StringRef Path, std::string *Tree = nullptr);

/// Runs `clang-autoprof profile` with the tree on \p Source and the run
/// command; returns the profiled kernels by mangled name.
Expected<std::map<std::string, Profiled>>
profileKernels(CommandRunner &Runner, const char *Argv0,
               const OptimizeOptions &O, const std::string &Source,
               StringRef Dir, uint64_t Seed) {
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  SourceOptions &S = sourceOptions();
  SmallString<256> Out(Dir);
  sys::path::append(Out, "profile.json");
  ChildOptions C;
  C.Argv = {Exe, "profile", "--tree=" + O.Tree,
            "--timeout=" + std::to_string(O.Timeout.getValue())};
  if (!S.BuildPath.empty())
    C.Argv.push_back("-p=" + S.BuildPath);
  if (!S.Kernel.empty())
    C.Argv.push_back("--kernel=" + S.Kernel);
  if (!S.CudaPath.empty())
    C.Argv.push_back("--cuda-path=" + S.CudaPath);
  if (!S.GpuArch.empty())
    C.Argv.push_back("--gpu-arch=" + S.GpuArch);
  for (const std::string &A : S.ExtraArgs)
    C.Argv.push_back("--extra-arg=" + A);
  for (const std::string &A : S.ExtraArgsBefore)
    C.Argv.push_back("--extra-arg-before=" + A);
  C.Argv.push_back(Source);
  C.Argv.push_back("-o");
  C.Argv.push_back(std::string(Out));
  C.Argv.push_back("--");
  if (ArgsAfterDashDash) {
    C.Argv.insert(C.Argv.end(), ArgsAfterDashDash->begin(),
                  ArgsAfterDashDash->end());
    C.Argv.push_back("--");
  }
  C.Argv.insert(C.Argv.end(), {"/bin/sh", "-c", O.Run});
  C.Env["AUTOPROF_SEED"] = std::to_string(Seed);
  SmallString<256> Log(Dir);
  sys::path::append(Log, "profile.log");
  C.OutputFile = std::string(Log);
  C.NewProcessGroup = true;
  C.Phase = "profile";
  C.DeviceLock = O.DeviceLock;
  Expected<ChildResult> R = Runner.run(C);
  if (!R)
    return R.takeError();
  if (R->Interrupted)
    return createStringError("interrupted");
  if (R->Status != 0) {
    // The profile's own error lines say why.
    std::string Why;
    if (auto Buf = MemoryBuffer::getFile(Log, /*IsText=*/true)) {
      SmallVector<StringRef> Lines;
      (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
      for (StringRef L : Lines)
        if (L.starts_with("clang-autoprof: error: ")) {
          Why = L.drop_front(strlen("clang-autoprof: error: ")).str();
          break;
        }
    }
    return createStringError(
        "profiling with tree '" + O.Tree + "' failed (exit status " +
        std::to_string(R->Status) + ")" + (Why.empty() ? "" : ": " + Why));
  }
  if (!sys::fs::exists(Out))
    return createStringError("profiling wrote no profile");
  return readProfiled(Out);
}

/// The profiled kernels of the profile file \p Path, by mangled name; the
/// tree that chose the metrics in \p Tree when given.
Expected<std::map<std::string, Profiled>> readProfiled(StringRef Path,
                                                       std::string *Tree) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read the profile '" + Path +
                             "': " + Buf.getError().message());
  Profile P;
  std::string Err;
  if (!parseProfileJSON((*Buf)->getBuffer().str(), P, Err))
    return createStringError("the profile '" + Path + "' is malformed: " + Err);
  if (Tree)
    *Tree = P.Tree;
  std::map<std::string, Profiled> Out2;
  for (const ProfileRecord &Rec : P.Records) {
    Profiled &K = Out2[Rec.MangledName];
    for (const auto &[Name, V] : Rec.Metrics)
      if (std::isfinite(V.Value))
        K.Metrics[Name] = V.Value;
    if (!Rec.Leaf.empty()) {
      K.Leaf = Rec.Leaf;
      K.Focus = Rec.Focus;
      K.Route.clear();
      for (const ProfileRouteStep &Step : Rec.Route)
        K.Route.push_back(Step.Node + ":" + Step.Branch);
    }
  }
  return Out2;
}

/// One verdict for a kernel from those of its instantiations: the first
/// that is not accepted, else the one with the least speedup.
Judgement overall(const std::vector<Judgement> &Js) {
  const Judgement *Pick = &Js.front();
  for (const Judgement &J : Js) {
    if (!J.accepted())
      return J;
    if (*J.Speedup < *Pick->Speedup)
      Pick = &J;
  }
  return *Pick;
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

} // namespace

KernelSignature autoprof::tool::kernelSignature(const KernelRecord &K) {
  KernelSignature S;
  S.Name = K.QualifiedName;
  S.MangledName = K.MangledName;
  for (unsigned I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].Pointer)
      S.Pointers[I] = {K.Params[I].Name, elementKindOf(K.Params[I].Type)};
  return S;
}

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
  Expected<std::string> Build = buildCommand(O, Source);
  if (!Build) {
    reportError(toString(Build.takeError()));
    return 1;
  }
  std::string Inject = injectionLibrary(Argv0);
  if (!sys::fs::exists(Inject)) {
    reportError("cannot find the injection library '" + Inject +
                "'; set AUTOPROF_INJECT_LIBRARY");
    return 1;
  }

  // The kernels that can be measured, each with what is launched of it: a
  // template's instantiations.
  std::vector<size_t> Kernels;
  std::vector<std::vector<KernelSignature>> Signatures;
  // Kernels of the source and of the headers it includes (never system
  // headers) are verified alike.
  for (size_t I = 0; I < Engine.kernels().size(); ++I) {
    const KernelRecord &K = Engine.kernels()[I];
    std::vector<KernelSignature> Launched;
    if (K.Template == TemplateKind::Primary)
      for (const KernelRecord &Instance : Engine.instantiations()[I])
        Launched.push_back(kernelSignature(Instance));
    else
      Launched.push_back(kernelSignature(K));
    if (Launched.empty()) {
      reportWarning("kernel template '" + K.QualifiedName +
                    "' is left alone: the source instantiates it nowhere");
      continue;
    }
    if (LLM)
      if (std::optional<std::string> Why = llmUnsupported(Engine, I, Source)) {
        reportWarning("kernel '" + K.QualifiedName +
                      "' is left alone: " + *Why);
        continue;
      }
    Kernels.push_back(I);
    Signatures.push_back(std::move(Launched));
  }
  if (Kernels.empty()) {
    reportError("no kernel of '" + Source + "' can be verified");
    return 1;
  }

  // Rewrites given as files replace the built-in proposals.
  std::vector<std::pair<std::string, std::string>> Given;
  for (const std::string &F : O.Candidates) {
    auto Buf = MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf) {
      reportError("cannot read --candidate '" + F +
                  "': " + Buf.getError().message());
      return 1;
    }
    Given.emplace_back(F, (*Buf)->getBuffer().str());
  }
  if (!Given.empty() && Kernels.size() != 1) {
    reportError("--candidate is judged on one kernel; " +
                Twine(Kernels.size()) +
                " kernels are selected (choose one with --kernel)");
    return 1;
  }

  // A given profile replaces profiling the program.
  std::optional<std::map<std::string, Profiled>> GivenProfile;
  std::string GivenTree;
  if (!O.ProfileFile.empty()) {
    Expected<std::map<std::string, Profiled>> P =
        readProfiled(O.ProfileFile, &GivenTree);
    if (!P) {
      reportError(toString(P.takeError()));
      return 1;
    }
    GivenProfile = std::move(*P);
  }

  TempDir Work;
  if (std::error_code EC = sys::fs::createUniqueDirectory(
          "clang-autoprof-optimize", Work.Path)) {
    reportError("cannot create a temporary directory: " + EC.message());
    return 1;
  }
  VerifierOptions VO;
  VO.Source = Source;
  // The headers a candidate may change: those defining a kernel to verify,
  // and those its built-in rewrites edit.
  std::set<std::string> Headers;
  for (size_t I : Kernels)
    Headers.insert(absolutePath(Engine.kernels()[I].File));
  for (const Proposal &Prop : Engine.proposals())
    if (llvm::is_contained(Kernels, Prop.Kernel))
      for (const auto &[File, Rs] : Prop.Edits)
        Headers.insert(absolutePath(File));
  Headers.erase(absolutePath(Source));
  VO.Headers.assign(Headers.begin(), Headers.end());
  VO.BuildCommand = *Build;
  VO.OnSwap = [](const std::string &Line) { reportWarning(Line); };
  // nvcc names a kernel of internal linkage (static, or in an anonymous
  // namespace) after its file: such a program is built in place.
  for (const std::vector<KernelSignature> &Ks : Signatures)
    for (const KernelSignature &S : Ks)
      if (StringRef(S.MangledName).starts_with("_ZL") ||
          StringRef(S.MangledName).contains("_GLOBAL__N_"))
        VO.BuildFromCopies = false;
  VO.RunCommand = O.Run;
  VO.InjectLibrary = Inject;
  VO.Seeds.clear();
  for (unsigned I = 1; I <= O.Runs; ++I)
    VO.Seeds.push_back(I);
  VO.RunTimeout = O.Timeout;
  VO.BuildTimeout = O.Timeout;
  VO.WorkDir = std::string(Work.Path);
  VO.DeviceLockFile = O.DeviceLock;
  ProcessRunner Processes;
  TimingRunner Runner(Processes);
  std::vector<KernelSignature> All;
  for (const std::vector<KernelSignature> &Ks : Signatures)
    All.insert(All.end(), Ks.begin(), Ks.end());
  Verifier V(Runner, VO, All);
  auto Fail = [&](Error E) {
    std::string Msg = toString(std::move(E));
    reportError(Msg);
    return Msg == "interrupted" ? 130 : 1;
  };
  if (Error E = V.prepare())
    return Fail(std::move(E));
  errs() << "clang-autoprof: building and measuring the original ("
         << VO.Seeds.size() << " runs)\n";
  if (Error E = V.measureOriginal())
    return Fail(std::move(E));
  if (!V.originalRuns().front().Measured) {
    reportError("the run command never used CUDA: no kernel of '" + Source +
                "' was measured");
    return 1;
  }
  const Measurement &First = *V.originalRuns().front().Measured;
  bool AnyLaunched = false;
  for (std::vector<KernelSignature> &Ks : Signatures) {
    // Instantiations that never launched cannot be judged.
    llvm::erase_if(Ks, [&](const KernelSignature &S) {
      return !First.find(S.MangledName);
    });
    AnyLaunched |= !Ks.empty();
  }
  if (!AnyLaunched) {
    reportError("no kernel of '" + Source +
                "' launched when the run command ran");
    return 1;
  }

  // Given rewrites need no profile.
  Expected<std::map<std::string, Profiled>> Prof =
      std::map<std::string, Profiled>();
  if (Given.empty() && GivenProfile) {
    errs() << "clang-autoprof: using the profile '" << O.ProfileFile << "'\n";
    Prof = std::move(*GivenProfile);
  } else if (Given.empty()) {
    errs() << "clang-autoprof: profiling with tree '" << O.Tree << "'\n";
    Prof =
        profileKernels(Runner, Argv0, O, Source, Work.Path, VO.Seeds.front());
  }
  // The build holds the original until a candidate is built.
  if (!Prof)
    return Fail(Prof.takeError());
  if (!O.KeepProfile.empty() && Given.empty()) {
    SmallString<256> P(Work.Path);
    if (!O.ProfileFile.empty())
      P = O.ProfileFile;
    else
      sys::path::append(P, "profile.json");
    auto Buf = MemoryBuffer::getFile(P, /*IsText=*/true);
    if (!Buf)
      return Fail(createStringError("cannot read the profile"));
    if (Error E = writeOutput(O.KeepProfile, (*Buf)->getBuffer()))
      return Fail(std::move(E));
  }

  OptimizeReport Report;
  Report.Source = Source;
  Report.Tree = O.ProfileFile.empty() ? std::string(O.Tree) : GivenTree;
  Report.Seeds = VO.Seeds;
  Report.InputsVary = V.originalInputsVary();
  Report.LaterLaunchUnchecked = V.laterLaunchUnchecked();
  if (LLM)
    Report.Rewriter = "llm";
  JudgeOptions JO;
  JO.RTol = O.RTol;
  JO.ATol = O.ATol;
  JO.MinSpeedup = O.MinSpeedup;
  /// Per kernel of the report: the proposal kept and its name.
  std::vector<const Proposal *> Kept;
  std::vector<std::string> KeptNames;
  std::vector<size_t> KeptReport;
  /// The model's verified rewrites, as edits of the kernels' ranges.
  std::deque<Proposal> LLMProposals;
  /// The fastest verified --candidate, as an edit of the whole file.
  std::optional<FileEdits> GivenKept;
  auto Original = [&](StringRef File) { return V.originalText(File); };

  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const KernelRecord &K = Engine.kernels()[Kernels[KI]];
    KernelReport KR;
    KR.Name = K.QualifiedName;
    KR.MangledName = Signatures[KI].empty()
                         ? K.MangledName
                         : Signatures[KI].front().MangledName;
    if (Signatures[KI].empty()) {
      reportWarning("kernel '" + K.QualifiedName +
                    "' never launched when the run command ran; it is left "
                    "alone");
      Report.Kernels.push_back(std::move(KR));
      continue;
    }
    auto P = Prof->find(KR.MangledName);
    std::string Focus;
    if (P != Prof->end()) {
      KR.Metrics = P->second.Metrics;
      KR.Leaf = P->second.Leaf;
      KR.Route = P->second.Route;
      Focus = P->second.Focus;
    }
    // The model: a round per attempt, each told why the one before failed,
    // until one is verified faster.
    std::optional<PromptFailure> Previous;
    for (unsigned Round = 1; LLM && Round <= O.Attempts; ++Round) {
      std::vector<ChatMessage> Messages =
          LLM->prompt(Engine, Kernels[KI],
                      KernelProfile{KR.Leaf, Focus, KR.Metrics}, Previous);
      errs() << "clang-autoprof: asking " << LLM->model() << " to rewrite "
             << K.QualifiedName << " (round " << Round << ")\n";
      Expected<ChatReply> Reply = LLM->ask(std::move(Messages));
      if (!Reply) {
        // Leave the build as the original's before stopping.
        consumeError(V.rebuild(V.originalText()));
        return Fail(Reply.takeError());
      }
      LLMRound R = LLM->handle(Engine, Kernels[KI], Source, Reply->Text,
                               Reply->FinishReason);
      AttemptReport A;
      A.Transformation = "llm round " + std::to_string(Round);
      A.Trigger = "asked " + LLM->model();
      if (R.Candidate) {
        errs() << "clang-autoprof: verifying the reply\n";
        Expected<std::vector<Judgement>> J =
            V.verify(*R.Candidate, Signatures[KI], JO);
        if (!J)
          return Fail(J.takeError());
        A.Result = overall(*J);
      } else {
        A.Result.V = R.V;
        A.Result.Reason = R.Reason;
      }
      Previous =
          PromptFailure{verdictName(A.Result.V).str(), A.Result.Reason, R.Code};
      bool Won = A.Result.accepted();
      if (Won) {
        Proposal &Prop = LLMProposals.emplace_back();
        Prop.Kernel = Kernels[KI];
        consumeError(addEdit(
            kernelReplacement(Engine.kernelSources()[Kernels[KI]], R.Code),
            Prop.Edits));
        KR.Kept = A.Transformation;
        KR.Speedup = *A.Result.Speedup;
        Kept.push_back(&Prop);
        KeptNames.push_back(A.Transformation);
        KeptReport.push_back(Report.Kernels.size());
      }
      KR.Attempts.push_back(std::move(A));
      if (Won)
        break;
    }
    const Proposal *Best = nullptr;
    double BestSpeedup = 0;
    unsigned Tried = 0;
    // What the kernel reaches outside itself, which no candidate may
    // exceed: the original's, once per kernel.
    std::optional<KernelReach> Reach;
    bool ReachKnown = false;
    auto OriginalReach = [&]() -> const std::optional<KernelReach> & {
      if (!ReachKnown)
        Reach = inspect(Source, {}, {}, K.QualifiedName).Reach;
      ReachKnown = true;
      return Reach;
    };
    for (const auto &[File, Text] : Given) {
      errs() << "clang-autoprof: verifying " << File << "\n";
      CandidateView C =
          inspect(Source, {{Source, Text}}, Signatures[KI], K.QualifiedName);
      std::optional<Judgement> Hidden = hiddenState(OriginalReach(), C.Reach);
      Expected<std::vector<Judgement>> J =
          Hidden ? Expected<std::vector<Judgement>>(
                       std::vector<Judgement>{*Hidden})
                 : V.verify(Text, C.Renamed, JO);
      if (!J)
        return Fail(J.takeError());
      AttemptReport A{"candidate " + File, "given by --candidate", overall(*J)};
      if (A.Result.accepted() && *A.Result.Speedup > BestSpeedup) {
        BestSpeedup = *A.Result.Speedup;
        KR.Kept = A.Transformation;
        KR.Speedup = BestSpeedup;
        FileEdits R;
        consumeError(
            addEdit(clang::tooling::Replacement(absolutePath(Source), 0,
                                                V.originalText().size(), Text),
                    R));
        GivenKept = R;
      }
      KR.Attempts.push_back(std::move(A));
    }
    for (const Proposal &Prop : Engine.proposals()) {
      if (!Given.empty() || LLM)
        break;
      if (Prop.Kernel != Kernels[KI])
        continue;
      std::optional<std::string> Why = Prop.T->trigger(KR.Metrics);
      if ((!Why && !O.TryAll) || Tried >= O.Attempts)
        continue;
      ++Tried;
      Expected<SourceTexts> Text = applyFileEdits(Prop.Edits, Original);
      if (!Text) {
        reportWarning("cannot apply " + Prop.T->name() + " to '" +
                      K.QualifiedName + "': " + toString(Text.takeError()));
        continue;
      }
      errs() << "clang-autoprof: verifying " << Prop.T->name() << " on "
             << K.QualifiedName << "\n";
      CandidateView C = inspect(Source, *Text, Signatures[KI], K.QualifiedName);
      std::optional<Judgement> Hidden = hiddenState(OriginalReach(), C.Reach);
      Expected<std::vector<Judgement>> J =
          Hidden ? Expected<std::vector<Judgement>>(
                       std::vector<Judgement>{*Hidden})
                 : V.verify(*Text,
                            Prop.T->changesSignature() ? C.Renamed
                                                       : Signatures[KI],
                            JO);
      if (!J)
        return Fail(J.takeError());
      AttemptReport A{Prop.T->name().str(), Why.value_or(""), overall(*J)};
      if (A.Result.accepted() && *A.Result.Speedup > BestSpeedup) {
        Best = &Prop;
        BestSpeedup = *A.Result.Speedup;
      }
      KR.Attempts.push_back(std::move(A));
    }
    if (Best) {
      KR.Kept = Best->T->name().str();
      KR.Speedup = BestSpeedup;
      Kept.push_back(Best);
      KeptNames.push_back(KR.Kept);
      KeptReport.push_back(Report.Kernels.size());
    }
    Report.Kernels.push_back(std::move(KR));
  }

  // The result: the kept rewrites together, verified once more when there
  // are several, else the fastest alone.
  FileEdits Final;
  if (GivenKept) {
    Final = *GivenKept;
  } else if (Kept.size() == 1) {
    Final = Kept.front()->Edits;
  } else if (Kept.size() > 1) {
    std::vector<const Proposal *> Skipped;
    FileEdits Merged = mergeProposals(Kept, Skipped);
    Expected<SourceTexts> Text = applyFileEdits(Merged, Original);
    bool Together = Skipped.empty() && static_cast<bool>(Text);
    if (!Text)
      consumeError(Text.takeError());
    if (Together) {
      std::vector<KernelSignature> Ks;
      for (size_t R : KeptReport)
        for (const std::vector<KernelSignature> &Of : Signatures)
          if (!Of.empty() &&
              Of.front().MangledName == Report.Kernels[R].MangledName)
            Ks.insert(Ks.end(), Of.begin(), Of.end());
      errs() << "clang-autoprof: verifying the kept rewrites together\n";
      Expected<std::vector<Judgement>> J = V.verify(*Text, Ks, JO);
      if (!J)
        return Fail(J.takeError());
      AttemptReport A;
      for (const std::string &Name : KeptNames)
        A.Transformation += (A.Transformation.empty() ? "" : "+") + Name;
      A.Result = J->front();
      for (const Judgement &One : *J)
        if (!One.accepted()) {
          A.Result = One;
          Together = false;
        }
      Report.Combined = A;
    }
    if (Together) {
      Final = Merged;
    } else {
      size_t Fastest = 0;
      for (size_t I = 1; I < Kept.size(); ++I)
        if (*Report.Kernels[KeptReport[I]].Speedup >
            *Report.Kernels[KeptReport[Fastest]].Speedup)
          Fastest = I;
      Final = Kept[Fastest]->Edits;
      for (size_t I = 0; I < Kept.size(); ++I)
        if (I != Fastest) {
          Report.Kernels[KeptReport[I]].Kept.clear();
          Report.Kernels[KeptReport[I]].Speedup.reset();
        }
    }
  }
  Expected<SourceTexts> FinalTexts = applyFileEdits(Final, Original);
  if (!FinalTexts)
    return Fail(FinalTexts.takeError());
  bool Rewritten = !FinalTexts->empty();
  if (!O.Output.empty() && Rewritten &&
      (FinalTexts->size() > 1 || !FinalTexts->count(absolutePath(Source)))) {
    consumeError(V.rebuild(SourceTexts()));
    return Fail(createStringError(
        "the kept rewrite changes '%s', and -o writes a copy of '%s' only: "
        "use --in-place, --diff or --export-fixes",
        std::prev(FinalTexts->end())->first.c_str(), Source.c_str()));
  }

  // Leave the build as it will be used: of the rewritten files with
  // --in-place, else of the originals.
  if (Error E = V.rebuild(O.InPlace ? *FinalTexts : SourceTexts()))
    return Fail(std::move(E));
  if (O.InPlace)
    for (const auto &[File, Text] : *FinalTexts)
      if (Error E = writeOutput(File, Text))
        return Fail(std::move(E));
  Report.Outcome = !Rewritten  ? "no rewrite"
                   : O.InPlace ? "rewritten"
                               : "verified";

  std::string Text;
  raw_string_ostream OS(Text);
  if (O.Diff) {
    for (const auto &[File, New] : *FinalTexts)
      OS << unifiedDiff(File == absolutePath(Source) ? Source : shownPath(File),
                        V.originalText(File), New);
  } else if (!O.ExportFixes.empty()) {
    if (Error E = writeOutput(O.ExportFixes,
                              exportFixesYAML(absolutePath(Source), Final)))
      return Fail(std::move(E));
  } else if (!O.Output.empty()) {
    auto It = FinalTexts->find(absolutePath(Source));
    if (Error E = writeOutput(
            O.Output, It == FinalTexts->end() ? V.originalText() : It->second))
      return Fail(std::move(E));
  }
  if (!O.Diff) {
    for (const KernelReport &K : Report.Kernels) {
      OS << "kernel " << K.Name;
      if (!K.Leaf.empty())
        OS << ": leaf " << K.Leaf;
      OS << "\n";
      if (K.Attempts.empty())
        OS << "  no rewrite triggered\n";
      for (const AttemptReport &A : K.Attempts) {
        OS << "  " << A.Transformation << ": " << verdictName(A.Result.V)
           << ": " << A.Result.Reason << "\n    "
           << (LLM ? "rewriter: " : "trigger: ")
           << (A.Trigger.empty() ? "none (--try-all)" : A.Trigger) << "\n";
        if (A.Result.OtherOriginalNs && A.Result.OtherCandidateNs)
          OS << "    other kernels: "
             << format("%.1f us against %.1f us",
                       *A.Result.OtherCandidateNs / 1e3,
                       *A.Result.OtherOriginalNs / 1e3)
             << " (median total per run)\n";
      }
      if (!K.Kept.empty())
        OS << "  kept: " << K.Kept << " (" << format("%.2fx", *K.Speedup)
           << ")\n";
    }
    if (Report.Combined)
      OS << "together: " << Report.Combined->Transformation << ": "
         << verdictName(Report.Combined->Result.V) << ": "
         << Report.Combined->Result.Reason << "\n";
    if (Report.InputsVary && !*Report.InputsVary)
      OS << "note: the inputs the saved launch only reads are the same with "
            "every AUTOPROF_SEED: verification rests on one input\n";
    if (!Report.LaterLaunchUnchecked.empty())
      OS << "note: no later launch was checked from poisoned outputs: "
         << Report.LaterLaunchUnchecked << "\n";
    OS << "outcome: " << Report.Outcome;
    if (Rewritten && !O.InPlace && O.Output.empty() && O.ExportFixes.empty())
      OS << " (the source is unchanged; --in-place writes it)";
    OS << "\n";
  }
  OS.flush();
  Report.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Started)
          .count();
  Report.Timings = Runner.times();
  if (!O.Report.empty())
    if (Error E = writeOutput(O.Report, writeOptimizeReportJSON(Report)))
      return Fail(std::move(E));
  if (Error E = writeOutput("-", Text))
    return Fail(std::move(E));
  return 0;
}
