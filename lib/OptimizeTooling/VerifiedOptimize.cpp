//===- VerifiedOptimize.cpp - optimize with verification ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/VerifiedOptimize.h"

#include "autoprof/Verify/Files.h"

#include "autoprof/Check/PerfGate.h"
#include "autoprof/OptimizeTooling/BuildCommand.h"
#include "autoprof/Rewrite/UnifiedDiff.h"
#include "autoprof/Verify/PhaseTimes.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

namespace {

/// How the verifier builds and runs the program.
VerifierOptions verifierOptions(const VerifiedOptimizeOptions &O,
                                const RewriteEngine &Engine,
                                ArrayRef<optimize::SessionKernel> Kernels) {
  const std::string &Source = O.Session.Source;
  VerifierOptions VO;
  VO.Source = Source;
  // The headers a candidate may change: those defining a kernel to verify,
  // and those its built-in rewrites edit.
  std::set<std::string> Headers;
  for (const optimize::SessionKernel &K : Kernels)
    Headers.insert(normalPath(Engine.kernels()[K.Index].File));
  for (const Proposal &Prop : Engine.proposals())
    if (llvm::any_of(Kernels, [&](const optimize::SessionKernel &K) {
          return K.Index == Prop.Kernel;
        }))
      for (const auto &[File, Rs] : Prop.Edits)
        Headers.insert(normalPath(File));
  Headers.erase(normalPath(Source));
  VO.Headers.assign(Headers.begin(), Headers.end());
  VO.OnSwap = O.Messages.Warning;
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
  VO.InjectLibrary = O.InjectLibrary;
  return VO;
}

/// The given candidates, each an edit of the whole source.
Error givenCandidates(const VerifiedOptimizeOptions &O, EngineModel &Model,
                      std::vector<optimize::Candidate> &Out) {
  if (O.Candidates.empty())
    return Error::success();
  const std::string &Source = O.Session.Source;
  auto Original = MemoryBuffer::getFile(Source, /*IsText=*/true);
  if (!Original)
    return createStringError("cannot read '" + Source +
                             "': " + Original.getError().message());
  for (const auto &[File, Text] : O.Candidates) {
    FileEdits E;
    consumeError(
        addEdit(clang::tooling::Replacement(normalPath(Source), 0,
                                            (*Original)->getBufferSize(), Text),
                E));
    Out.push_back(Model.candidate("candidate " + File, std::move(E),
                                  {{normalPath(Source), Text}}));
  }
  return Error::success();
}

} // namespace

std::vector<optimize::SessionKernel> autoprof::verifiableKernels(
    const RewriteEngine &Engine,
    const std::function<std::optional<std::string>(size_t)> &Unsupported,
    const std::function<void(const std::string &)> &Warn) {
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
      Warn("kernel template '" + K.QualifiedName +
           "' is left alone: the source instantiates it nowhere");
      continue;
    }
    if (Unsupported)
      if (std::optional<std::string> Why = Unsupported(I)) {
        Warn("kernel '" + K.QualifiedName + "' is left alone: " + *Why);
        continue;
      }
    Out.push_back(std::move(SK));
  }
  return Out;
}

Expected<VerifiedOptimizeResult> autoprof::verifiedOptimize(
    const VerifiedOptimizeOptions &O, const RewriteEngine &Engine,
    const VerifiedOptimizeHooks &Hooks, raw_ostream &Log) {
  const std::string &Source = O.Session.Source;
  std::string Build = O.Build;
  if (Build.empty()) {
    Expected<std::string> FromDB =
        databaseBuildCommand(Source, O.Parse.BuildPath);
    if (!FromDB)
      return FromDB.takeError();
    Build = std::move(*FromDB);
  }
  if (!sys::fs::exists(O.InjectLibrary))
    return createStringError("cannot find the injection library '" +
                             O.InjectLibrary +
                             "'; set AUTOPROF_INJECT_LIBRARY");
  std::vector<optimize::SessionKernel> Kernels =
      verifiableKernels(Engine, Hooks.Model ? Hooks.ModelUnsupported : nullptr,
                        O.Messages.Warning);
  if (Kernels.empty())
    return createStringError("no kernel of '" + Source + "' can be verified");
  if (!O.Candidates.empty() && Kernels.size() != 1)
    return createStringError(
        "--candidate is judged on one kernel; " + Twine(Kernels.size()) +
        " kernels are selected (choose one with --kernel)");

  ScopedDir Work;
  if (Error E = Work.create("clang-autoprof-optimize"))
    return std::move(E);
  VerifierOptions VO = verifierOptions(O, Engine, Kernels);
  VO.BuildCommand = Build;
  VO.WorkDir = Work.path().str();
  ProcessRunner Processes;
  TimingRunner Runner(Hooks.Runner ? *Hooks.Runner : Processes);
  std::vector<KernelSignature> All;
  for (const optimize::SessionKernel &K : Kernels)
    All.insert(All.end(), K.Launched.begin(), K.Launched.end());
  Verifier V(Runner, VO, All);
  EngineModel Model(
      Engine, Source, O.Parse,
      [&](StringRef File) { return V.originalText(File); }, O.Messages);
  Expected<std::unique_ptr<optimize::KernelProfiler>> Profiler =
      Hooks.Profiler(Runner, Work.path());
  if (!Profiler)
    return Profiler.takeError();
  std::unique_ptr<optimize::ModelRewriter> Asker;
  if (Hooks.Model)
    Asker = Hooks.Model(Model);

  std::vector<optimize::Candidate> Candidates;
  if (Error E = givenCandidates(O, Model, Candidates))
    return std::move(E);
  optimize::Session S(O.Session, V, Model, Profiler->get(), Asker.get(),
                      std::move(Candidates), Kernels, Log);
  Expected<optimize::SessionResult> R = S.run();
  if (!R)
    return R.takeError();
  VerifiedOptimizeResult Out;
  Out.Report = std::move(R->Report);
  if (R->Result)
    Out.Final = Model.edits(R->Result->Id);
  Expected<SourceTexts> Texts = Model.textsOf(Out.Final);
  if (!Texts)
    return Texts.takeError();
  Out.FinalTexts = std::move(*Texts);
  Out.Originals[normalPath(Source)] = V.originalText();
  for (const auto &[File, Text] : Out.FinalTexts)
    Out.Originals[File] = V.originalText(File).str();
  Out.Report.Timings = Runner.times();
  return Out;
}

Expected<std::vector<std::pair<std::string, std::string>>>
autoprof::readCandidateFiles(const std::vector<std::string> &Paths) {
  std::vector<std::pair<std::string, std::string>> Given;
  for (const std::string &F : Paths) {
    auto Buf = MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf)
      return createStringError("cannot read --candidate '" + F +
                               "': " + Buf.getError().message());
    Given.emplace_back(F, (*Buf)->getBuffer().str());
  }
  return Given;
}

Expected<std::string>
autoprof::writeVerifiedResult(const VerifiedOutputs &Out,
                              const std::string &Source,
                              const VerifiedOptimizeResult &R) {
  if (Out.InPlace)
    for (const auto &[File, Text] : R.FinalTexts)
      if (Error E = Out.Write(File, Text))
        return std::move(E);
  std::string Main = normalPath(Source);
  if (Out.Diff) {
    std::string Text;
    raw_string_ostream OS(Text);
    for (const auto &[File, New] : R.FinalTexts)
      OS << unifiedDiff(File == Main ? Source : shownPath(File),
                        R.Originals.at(File), New);
    return Text;
  }
  if (!Out.ExportFixes.empty()) {
    if (Error E = Out.Write(Out.ExportFixes, exportFixesYAML(Main, R.Final)))
      return std::move(E);
  } else if (!Out.Copy.empty()) {
    auto It = R.FinalTexts.find(Main);
    if (Error E =
            Out.Write(Out.Copy, It == R.FinalTexts.end() ? R.Originals.at(Main)
                                                         : It->second))
      return std::move(E);
  }
  return renderOptimizeReportText(R.Report,
                                  Out.Copy.empty() && Out.ExportFixes.empty());
}
