//===- Session.cpp - One verified optimize run ----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimize/Session.h"

#include "autoprof/Profile/Profile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::optimize;
using namespace autoprof::verify;

SourceModel::~SourceModel() = default;
KernelProfiler::~KernelProfiler() = default;
ModelRewriter::~ModelRewriter() = default;

Expected<ProfiledKernels>
autoprof::optimize::readProfiledKernels(StringRef Path, std::string *Tree) {
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
  ProfiledKernels Out;
  for (const ProfileRecord &Rec : P.Records) {
    ProfiledKernel &K = Out[Rec.MangledName];
    for (const auto &[Name, V] : Rec.Metrics)
      if (std::isfinite(V.Value))
        K.Values[Name] = V.Value;
    if (!Rec.Leaf.empty()) {
      K.Leaf = Rec.Leaf;
      K.Focus = Rec.Focus;
      K.Route.clear();
      for (const ProfileRouteStep &Step : Rec.Route)
        K.Route.push_back(Step.Node + ":" + Step.Branch);
    }
  }
  return Out;
}

Judgement autoprof::optimize::overall(ArrayRef<Judgement> Js) {
  const Judgement *Pick = &Js.front();
  for (const Judgement &J : Js) {
    if (!J.accepted())
      return J;
    if (*J.Speedup < *Pick->Speedup)
      Pick = &J;
  }
  return *Pick;
}

Session::Session(SessionOptions O, Verifier &V, SourceModel &Source,
                 KernelProfiler *Profiler, ModelRewriter *Model,
                 std::vector<Candidate> Given,
                 std::vector<SessionKernel> Kernels, raw_ostream &Log)
    : O(std::move(O)), V(V), Source(Source), Profiler(Profiler), Model(Model),
      Given(std::move(Given)), Kernels(std::move(Kernels)), Log(Log) {}

Error Session::measureOriginal() {
  if (Error E = V.prepare())
    return E;
  Log << "clang-autoprof: building and measuring the original ("
      << V.options().Seeds.size() << " runs)\n";
  if (Error E = V.measureOriginal())
    return E;
  if (!V.originalRuns().front().Measured)
    return createStringError("the run command never used CUDA: no kernel of '" +
                             O.Source + "' was measured");
  const Measurement &First = *V.originalRuns().front().Measured;
  bool AnyLaunched = false;
  for (SessionKernel &K : Kernels) {
    // Instantiations that never launched cannot be judged.
    erase_if(K.Launched, [&](const KernelSignature &S) {
      return !First.find(S.MangledName);
    });
    AnyLaunched |= !K.Launched.empty();
  }
  if (!AnyLaunched)
    return createStringError("no kernel of '" + O.Source +
                             "' launched when the run command ran");
  return Error::success();
}

Expected<Judgement> Session::judge(size_t KI, const Candidate &C) {
  const SessionKernel &K = Kernels[KI];
  CandidateCheck Check = Source.inspect(K, C);
  if (Check.Refused)
    return *Check.Refused;
  Expected<std::vector<Judgement>> J = V.verify(
      C.Texts, C.ChangesSignature ? Check.Renamed : K.Launched, O.Judge);
  if (!J)
    return J.takeError();
  return overall(*J);
}

Expected<std::optional<Candidate>>
Session::askModel(size_t KI, const ProfiledKernel &P, KernelReport &KR) {
  // A round per attempt, each told why the one before failed, until one is
  // verified faster.
  std::optional<RoundFailure> Previous;
  for (unsigned Round = 1; Round <= O.Attempts; ++Round) {
    Log << "clang-autoprof: asking " << Model->model() << " to rewrite "
        << Kernels[KI].Name << " (round " << Round << ")\n";
    Expected<ModelRound> R = Model->round(Kernels[KI], P, Previous);
    if (!R) {
      // Leave the build as the original's before stopping.
      consumeError(V.rebuild(V.originalText()));
      return R.takeError();
    }
    AttemptReport A;
    A.Transformation = "llm round " + std::to_string(Round);
    A.Trigger = "asked " + Model->model();
    if (R->C) {
      Log << "clang-autoprof: verifying the reply\n";
      // The model rewriter has checked what the reply's kernel reaches.
      Expected<std::vector<Judgement>> J =
          V.verify(R->C->Texts, Kernels[KI].Launched, O.Judge);
      if (!J)
        return J.takeError();
      A.Result = overall(*J);
    } else {
      A.Result.V = R->V;
      A.Result.Reason = R->Reason;
    }
    Previous =
        RoundFailure{verdictName(A.Result.V).str(), A.Result.Reason, R->Code};
    bool Won = A.Result.accepted();
    if (Won) {
      KR.Kept = A.Transformation;
      KR.Speedup = *A.Result.Speedup;
    }
    KR.Attempts.push_back(std::move(A));
    if (Won) {
      R->C->Name = KR.Kept;
      return std::move(R->C);
    }
  }
  return std::nullopt;
}

Expected<std::optional<Candidate>> Session::tryBuiltins(size_t KI,
                                                        KernelReport &KR) {
  const SessionKernel &K = Kernels[KI];
  std::optional<Candidate> Best;
  double BestSpeedup = 0;
  unsigned Tried = 0;
  // Each round tries the proposals made on the best result so far (the
  // original first); a chain is kept when it beats the best alone.
  for (const Candidate *Base = nullptr;;) {
    bool Improved = false;
    for (Candidate &C : Source.proposals(K, Base)) {
      // A transformation applies once in a chain.
      if (Base && C.Chain.size() > 1 &&
          is_contained(Base->Chain, C.Chain.back()))
        continue;
      std::optional<std::string> Why =
          C.Trigger ? C.Trigger(KR.Metrics) : std::optional<std::string>("");
      if ((!Why && !O.TryAll) || Tried >= O.Attempts)
        continue;
      ++Tried;
      Log << "clang-autoprof: verifying " << C.Name << " on " << K.Name << "\n";
      Expected<Judgement> J = judge(KI, C);
      if (!J)
        return J.takeError();
      AttemptReport A{C.Name, Why.value_or(""), *J};
      if (A.Result.accepted() && *A.Result.Speedup > BestSpeedup) {
        Best = std::move(C);
        BestSpeedup = *A.Result.Speedup;
        Improved = true;
      }
      KR.Attempts.push_back(std::move(A));
    }
    if (!O.Compose || !Improved || Tried >= O.Attempts)
      break;
    Base = &*Best;
  }
  if (Best) {
    KR.Kept = Best->Name;
    KR.Speedup = BestSpeedup;
  }
  return Best;
}

Expected<std::optional<Candidate>> Session::optimizeKernel(size_t KI,
                                                           KernelReport &KR) {
  auto P = Profiles.find(KR.MangledName);
  ProfiledKernel Profiled;
  if (P != Profiles.end()) {
    Profiled = P->second;
    KR.Metrics = Profiled.Values;
    KR.Leaf = Profiled.Leaf;
    KR.Route = Profiled.Route;
  }
  if (Model)
    return askModel(KI, Profiled, KR);
  if (Given.empty())
    return tryBuiltins(KI, KR);
  std::optional<Candidate> Best;
  for (const Candidate &C : Given) {
    StringRef File = C.Name;
    File.consume_front("candidate ");
    Log << "clang-autoprof: verifying " << File << "\n";
    Expected<Judgement> J = judge(KI, C);
    if (!J)
      return J.takeError();
    AttemptReport A{C.Name, "given by --candidate", *J};
    if (A.Result.accepted() &&
        (!KR.Speedup || *A.Result.Speedup > *KR.Speedup)) {
      KR.Kept = A.Transformation;
      KR.Speedup = *A.Result.Speedup;
      Best = C;
    }
    KR.Attempts.push_back(std::move(A));
  }
  return Best;
}

Expected<std::optional<Candidate>>
Session::combineKept(std::vector<std::pair<size_t, Candidate>> &Kept,
                     OptimizeReport &Report) {
  if (Kept.empty())
    return std::nullopt;
  if (Kept.size() == 1)
    return Kept.front().second;
  std::vector<const Candidate *> Parts;
  for (const auto &[R, C] : Kept)
    Parts.push_back(&C);
  std::optional<Candidate> Together = Source.combine(Parts);
  if (Together) {
    std::vector<KernelSignature> Ks;
    for (const auto &[R, C] : Kept)
      for (const SessionKernel &K : Kernels)
        if (!K.Launched.empty() &&
            K.Launched.front().MangledName == Report.Kernels[R].MangledName) {
          // A kernel whose rewrite renames it is measured under its new
          // name.
          std::vector<KernelSignature> Named =
              C.ChangesSignature ? Source.inspect(K, *Together).Renamed
                                 : K.Launched;
          Ks.insert(Ks.end(), Named.begin(), Named.end());
        }
    Log << "clang-autoprof: verifying the kept rewrites together\n";
    Expected<std::vector<Judgement>> J = V.verify(Together->Texts, Ks, O.Judge);
    if (!J)
      return J.takeError();
    AttemptReport A;
    for (const auto &[R, C] : Kept)
      A.Transformation += (A.Transformation.empty() ? "" : "+") + C.Name;
    A.Result = J->front();
    for (const Judgement &One : *J)
      if (!One.accepted()) {
        A.Result = One;
        Together.reset();
      }
    Report.Combined = A;
  }
  if (Together)
    return Together;
  // Else the fastest alone.
  size_t Fastest = 0;
  for (size_t I = 1; I < Kept.size(); ++I)
    if (*Report.Kernels[Kept[I].first].Speedup >
        *Report.Kernels[Kept[Fastest].first].Speedup)
      Fastest = I;
  for (size_t I = 0; I < Kept.size(); ++I)
    if (I != Fastest) {
      Report.Kernels[Kept[I].first].Kept.clear();
      Report.Kernels[Kept[I].first].Speedup.reset();
    }
  return Kept[Fastest].second;
}

Expected<SessionResult> Session::run() {
  if (Error E = measureOriginal())
    return std::move(E);
  // Given rewrites need no profile.
  if (Given.empty() && Profiler) {
    Log << "clang-autoprof: " << Profiler->describe() << "\n";
    Expected<ProfiledKernels> P = Profiler->profile(V.options().Seeds.front());
    // The build holds the original until a candidate is built.
    if (!P)
      return P.takeError();
    Profiles = std::move(*P);
  }

  SessionResult Out;
  OptimizeReport &Report = Out.Report;
  Report.Source = O.Source;
  Report.Tree = O.Tree;
  Report.Seeds = V.options().Seeds;
  Report.InputsVary = V.originalInputsVary();
  Report.LaterLaunchUnchecked = V.laterLaunchUnchecked();
  if (Model)
    Report.Rewriter = "llm";
  /// Per kernel of the report that kept one: the candidate.
  std::vector<std::pair<size_t, Candidate>> Kept;
  for (size_t KI = 0; KI < Kernels.size(); ++KI) {
    const SessionKernel &K = Kernels[KI];
    KernelReport KR;
    KR.Name = K.Name;
    if (K.Launched.empty()) {
      if (O.Warn)
        O.Warn("kernel '" + K.Name +
               "' never launched when the run command ran; it is left alone");
      Report.Kernels.push_back(std::move(KR));
      continue;
    }
    KR.MangledName = K.Launched.front().MangledName;
    Expected<std::optional<Candidate>> C = optimizeKernel(KI, KR);
    if (!C)
      return C.takeError();
    if (*C)
      Kept.emplace_back(Report.Kernels.size(), std::move(**C));
    Report.Kernels.push_back(std::move(KR));
  }

  Expected<std::optional<Candidate>> Result = combineKept(Kept, Report);
  if (!Result)
    return Result.takeError();
  Out.Result = std::move(*Result);
  if (O.SourceOnly && Out.Result) {
    std::string Src = normalPath(O.Source);
    for (const auto &[File, Text] : Out.Result->Texts)
      if (normalPath(File) != Src) {
        consumeError(V.rebuild(SourceTexts()));
        return createStringError(
            "the kept rewrite changes '%s', and -o writes a copy of '%s' "
            "only: use --in-place, --diff or --export-fixes",
            File.c_str(), O.Source.c_str());
      }
  }
  // Leave the build as it will be used: of the rewritten files with
  // --in-place, else of the originals.
  if (Error E = V.rebuild(O.InPlace && Out.Result ? Out.Result->Texts
                                                  : SourceTexts()))
    return std::move(E);
  Report.Outcome = !Out.Result ? "no rewrite"
                   : O.InPlace ? "rewritten"
                               : "verified";
  return Out;
}
