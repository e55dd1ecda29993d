//===- KernelSplice.cpp - A model's kernel in place of the original -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/KernelSplice.h"

#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>

using namespace clang;
using namespace autoprof;
using namespace llvm;

namespace {

/// \p Type without `__restrict__` and without a `const` of the parameter
/// itself, with single spaces.
std::string callingType(StringRef Type) {
  SmallVector<StringRef> Words;
  std::string Spaced;
  for (char C : Type)
    Spaced +=
        C == '*' || C == '&' ? std::string(" ") + C + " " : std::string(1, C);
  StringRef(Spaced).split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Kept;
  for (StringRef W : Words)
    if (W != "__restrict__" && W != "__restrict" && W != "restrict")
      Kept.push_back(W.str());
  // A `const` after the last `*` qualifies the parameter itself.
  if (!Kept.empty() && Kept.back() == "const" &&
      std::find(Kept.begin(), Kept.end(), "*") != Kept.end())
    Kept.pop_back();
  if (std::find(Kept.begin(), Kept.end(), "*") == Kept.end() && !Kept.empty() &&
      Kept.front() == "const")
    Kept.erase(Kept.begin());
  std::string Out;
  for (const std::string &W : Kept)
    Out += (Out.empty() ? "" : " ") + W;
  return Out;
}

std::string paramList(const KernelRecord &K) {
  std::string S;
  for (const KernelParam &P : K.Params)
    S += (S.empty() ? "" : ", ") + P.Type;
  return "(" + S + ")";
}

} // namespace

Expected<std::string> autoprof::spliceKernel(StringRef Original,
                                             const KernelSource &KS,
                                             StringRef Code) {
  if (!KS.valid() || KS.End > Original.size())
    return createStringError("the kernel's definition has no source range "
                             "that can be replaced (is it made by a macro?)");
  return (Original.take_front(KS.Begin) + Code.rtrim() +
          Original.drop_front(KS.End))
      .str();
}

tooling::Replacement autoprof::kernelReplacement(const KernelSource &KS,
                                                 StringRef Code) {
  return tooling::Replacement(KS.File, KS.Begin, KS.End - KS.Begin,
                              Code.rtrim());
}

std::optional<CandidateProblem>
autoprof::checkCandidateKernels(const KernelRecord &Kernel,
                                ArrayRef<KernelRecord> Before,
                                ArrayRef<KernelRecord> After) {
  std::map<std::string, unsigned> Was, Is;
  for (const KernelRecord &K : Before)
    ++Was[K.QualifiedName];
  for (const KernelRecord &K : After)
    ++Is[K.QualifiedName];
  CandidateProblem P;
  for (const auto &[Name, N] : Is)
    if (N > Was[Name]) {
      P.K = CandidateProblem::Kind::ExtraKernel;
      P.Reason = Was[Name] ? "the reply defines kernel '" + Name +
                                 "' once more; it may define only '" +
                                 Kernel.QualifiedName + "'"
                           : "the reply defines another kernel, '" + Name +
                                 "'; it may define only '" +
                                 Kernel.QualifiedName + "'";
      return P;
    }
  std::vector<const KernelRecord *> Same;
  for (const KernelRecord &K : After)
    if (K.QualifiedName == Kernel.QualifiedName)
      Same.push_back(&K);
  P.K = CandidateProblem::Kind::SignatureChanged;
  if (Same.size() < Was[Kernel.QualifiedName]) {
    P.Reason = "the reply does not define kernel '" + Kernel.QualifiedName +
               "' (renamed, or not a __global__ function)";
    return P;
  }
  for (const KernelRecord *K : Same) {
    if (K->Params.size() != Kernel.Params.size() ||
        (K->Template == TemplateKind::Primary) !=
            (Kernel.Template == TemplateKind::Primary))
      continue;
    bool Equal = true;
    for (size_t I = 0; I < K->Params.size(); ++I)
      Equal &=
          callingType(K->Params[I].Type) == callingType(Kernel.Params[I].Type);
    if (Equal)
      return std::nullopt;
  }
  // Say what changed, against the candidate kernel of that name that is not
  // one of the original's.
  const KernelRecord *Changed = Same.front();
  for (const KernelRecord *K : Same) {
    bool Known = false;
    for (const KernelRecord &B : Before)
      Known |=
          B.QualifiedName == K->QualifiedName && paramList(B) == paramList(*K);
    if (!Known)
      Changed = K;
  }
  if (Changed->Params.size() != Kernel.Params.size()) {
    P.Reason = "kernel '" + Kernel.QualifiedName + "' had " +
               std::to_string(Kernel.Params.size()) + " parameters " +
               paramList(Kernel) + " and has " +
               std::to_string(Changed->Params.size()) + " " +
               paramList(*Changed);
    return P;
  }
  for (size_t I = 0; I < Changed->Params.size(); ++I)
    if (callingType(Changed->Params[I].Type) !=
        callingType(Kernel.Params[I].Type)) {
      P.Reason = "parameter " + std::to_string(I + 1) + " of kernel '" +
                 Kernel.QualifiedName + "' was '" + Kernel.Params[I].Type +
                 "' and is '" + Changed->Params[I].Type + "'";
      return P;
    }
  P.Reason = "kernel '" + Kernel.QualifiedName +
             "' is a template in one version and not in the other";
  return P;
}

void FirstErrorConsumer::HandleDiagnostic(DiagnosticsEngine::Level Level,
                                          const Diagnostic &Info) {
  DiagnosticConsumer::HandleDiagnostic(Level, Info);
  if (Level < DiagnosticsEngine::Error || !First.empty())
    return;
  SmallString<256> Message;
  Info.FormatDiagnostic(Message);
  std::string Where;
  if (Info.hasSourceManager() && Info.getLocation().isValid()) {
    const SourceManager &SM = Info.getSourceManager();
    SourceLocation L = SM.getExpansionLoc(Info.getLocation());
    if (!Quotable.empty()) {
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(L));
      SmallString<256> Path(FE ? FE->getName() : StringRef());
      if (FE)
        SM.getFileManager().makeAbsolutePath(Path);
      sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
      if (Path != Quotable) {
        First = "error: in a file other than the source (not quoted)";
        return;
      }
    }
    PresumedLoc P = SM.getPresumedLoc(L);
    if (P.isValid())
      Where = (sys::path::filename(P.getFilename()) + ":" + Twine(P.getLine()) +
               ":" + Twine(P.getColumn()) + ": ")
                  .str();
  }
  First = Where + "error: " + std::string(Message);
}
