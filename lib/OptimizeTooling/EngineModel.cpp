//===- EngineModel.cpp - The Clang side of an optimize session ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/EngineModel.h"

#include "autoprof/Check/PerfGate.h"
#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Verify/Verifier.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

EngineModel::EngineModel(const RewriteEngine &Engine, std::string Source,
                         SourceSettings Parse, OriginalText Original,
                         SourceMessages Messages)
    : Engine(Engine), Source(std::move(Source)), Parse(std::move(Parse)),
      Original(std::move(Original)), Messages(std::move(Messages)) {
  this->Parse.SearchBuildDirs = false;
}

bool EngineModel::runOver(RewriteEngine &E, const SourceTexts &Texts) const {
  FirstErrorConsumer Quiet;
  SourceSettings S = Parse;
  S.Files.clear();
  for (const auto &[File, Text] : Texts)
    S.Files[normalPath(File)] = Text;
  S.Diagnostics = &Quiet;
  auto Factory = E.newActionFactory();
  int Status = runSource(S, Source, *Factory, Messages);
  return Status == 0 && !E.translationUnitsWithErrors();
}

EngineModel::View EngineModel::parse(const SourceTexts &Texts,
                                     ArrayRef<KernelSignature> Ks,
                                     const std::string &Name) const {
  View V;
  V.Renamed.assign(Ks.begin(), Ks.end());
  RewriteEngine Check({}, nullptr);
  Check.onTranslationUnit([&](clang::ASTContext &Ctx) {
    if (!V.Reach)
      V.Reach = kernelReachByName(Ctx, Name);
  });
  if (!runOver(Check, Texts)) {
    V.Reach.reset();
    return V;
  }
  // A kernel is found by its qualified name, a template's instantiations
  // in order; its signature stays as given when it is not found.
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

std::vector<optimize::Candidate>
EngineModel::proposals(const optimize::SessionKernel &K,
                       const optimize::Candidate *Base) {
  std::vector<optimize::Candidate> Out;
  if (!Base) {
    for (const Proposal &P : Engine.proposals())
      if (P.Kernel == K.Index && !P.T->enabling())
        add(Out, K, P, P.Edits, nullptr);
    return Out;
  }
  // The proposals made on the base's texts, as edits of the original.
  RewriteEngine Again(Engine.transformations(), Engine.filter());
  if (!runOver(Again, Base->Texts))
    return Out;
  auto Found = llvm::find_if(Again.kernels(), [&](const KernelRecord &R) {
    return R.QualifiedName == K.Name;
  });
  if (Found == Again.kernels().end())
    return Out;
  size_t Index = Found - Again.kernels().begin();
  for (const Proposal &P : Again.proposals()) {
    if (P.Kernel != Index || P.T->enabling())
      continue;
    FileEdits Chained = Edits[Base->Id];
    for (const auto &[File, Rs] : P.Edits)
      Chained[File] = Chained[File].merge(Rs);
    add(Out, K, P, std::move(Chained), Base);
  }
  return Out;
}

optimize::CandidateCheck EngineModel::inspect(const optimize::SessionKernel &K,
                                              const optimize::Candidate &C) {
  auto [It, New] = Reach.try_emplace(K.Name);
  if (New)
    It->second = parse({}, {}, K.Name).Reach;
  View V = parse(C.Texts, K.Launched, K.Name);
  optimize::CandidateCheck Out;
  Out.Renamed = std::move(V.Renamed);
  Out.Refused = hiddenState(It->second, V.Reach);
  return Out;
}

std::optional<optimize::Candidate>
EngineModel::combine(ArrayRef<const optimize::Candidate *> Kept) {
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

Expected<optimize::Candidate> EngineModel::candidate(std::string Name,
                                                     FileEdits E) {
  Expected<SourceTexts> Texts = textsOf(E);
  if (!Texts)
    return Texts.takeError();
  return candidate(std::move(Name), std::move(E), std::move(*Texts));
}

optimize::Candidate EngineModel::candidate(std::string Name, FileEdits E,
                                           SourceTexts Texts) {
  optimize::Candidate C;
  C.Name = std::move(Name);
  C.Texts = std::move(Texts);
  C.Id = remember(std::move(E));
  return C;
}

Expected<SourceTexts> EngineModel::textsOf(const FileEdits &E) const {
  return applyFileEdits(E, [&](StringRef File) { return Original(File); });
}

unsigned EngineModel::remember(FileEdits E) {
  Edits.push_back(std::move(E));
  return Edits.size() - 1;
}

void EngineModel::add(std::vector<optimize::Candidate> &Out,
                      const optimize::SessionKernel &K, const Proposal &P,
                      FileEdits E, const optimize::Candidate *Base) {
  std::string Name = P.name();
  Expected<optimize::Candidate> C =
      candidate(Base ? Base->Name + "+" + Name : Name, std::move(E));
  if (!C) {
    Messages.Warning("cannot apply " + Name + " to '" + K.Name +
                     "': " + toString(C.takeError()));
    return;
  }
  if (Base)
    C->Chain = Base->Chain;
  // The chain holds transformations: one variant of each.
  if (P.After)
    C->Chain.push_back(P.After->name().str());
  C->Chain.push_back(P.T->name().str());
  C->ChangesSignature = P.T->changesSignature() ||
                        (P.After && P.After->changesSignature()) ||
                        (Base && Base->ChangesSignature);
  const Transformation *T = P.T;
  C->Trigger = [T](const optimize::Metrics &M) { return T->trigger(M); };
  Out.push_back(std::move(*C));
}

std::optional<verify::Judgement>
autoprof::hiddenState(const std::optional<KernelReach> &Before,
                      const std::optional<KernelReach> &After) {
  if (!Before || !After)
    return std::nullopt;
  std::optional<std::string> Why =
      reachProblem(*Before, *After, "the candidate's kernel");
  if (!Why)
    return std::nullopt;
  verify::Judgement J;
  J.V = verify::Verdict::HiddenState;
  J.Reason = *Why;
  return J;
}
