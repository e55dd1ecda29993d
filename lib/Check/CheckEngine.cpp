//===- CheckEngine.cpp - Runs the static checks over sources --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckEngine.h"
#include "autoprof/Check/NoLint.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/Tooling/UnitAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace clang;
using namespace autoprof;

namespace {

/// The kernels defined in user code (plain functions and the patterns of
/// templates) and every kernel launch of the translation unit.
class TUCollector : public RecursiveASTVisitor<TUCollector> {
public:
  explicit TUCollector(const SourceManager &SM) : SM(SM) {}
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        FD->isInvalidDecl())
      return true;
    SourceLocation Loc = SM.getFileLoc(FD->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      return true;
    Kernels.push_back(FD);
    return true;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *CE) {
    const FunctionDecl *K = CE->getDirectCallee();
    if (!K) {
      // A call of a template in a template: the callee is unresolved.
      if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(
              CE->getCallee()->IgnoreParenImpCasts()))
        for (const NamedDecl *D : ULE->decls())
          if (const auto *FT = dyn_cast<FunctionTemplateDecl>(D))
            Launches[FT->getTemplatedDecl()->getCanonicalDecl()].push_back(CE);
      return true;
    }
    if (const FunctionDecl *P = K->getTemplateInstantiationPattern())
      K = P;
    Launches[K->getCanonicalDecl()].push_back(CE);
    return true;
  }
  std::vector<const FunctionDecl *> Kernels;
  std::map<const FunctionDecl *, std::vector<const CUDAKernelCallExpr *>>
      Launches;

private:
  const SourceManager &SM;
};

/// Adds \p R to what launches of \p CK, unless its mangled name is there.
void addLaunchable(CheckedKernel &CK, KernelRecord R) {
  if (R.MangledName.empty())
    return;
  for (const KernelRecord &Old : CK.Launchable)
    if (Old.MangledName == R.MangledName)
      return;
  CK.Launchable.push_back(std::move(R));
}

} // namespace

CheckEngine::CheckEngine(
    std::function<const CheckSelection &(llvm::StringRef)> Select,
    KernelFilter Filter)
    : Select(std::move(Select)), Filter(std::move(Filter)) {}

void CheckEngine::run(ASTContext &Ctx, llvm::StringRef MainFile) {
  const CheckSelection &Sel = Select(MainFile);
  scopeToUserCode(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  TUCollector C(SM);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  size_t First = Findings.size();
  for (const FunctionDecl *FD : C.Kernels) {
    // One model of the kernel, for its features and every check.
    KernelModel Model(Ctx, *FD);
    KernelFacts Facts;
    KernelRecord K = analyzeKernel(*FD, Ctx, Facts, &Model);
    if (Filter && !Filter(K.Name, K.QualifiedName))
      continue;
    std::string Key = K.File + ":" + std::to_string(K.Line) + ":" +
                      std::to_string(K.Column) + ":" + K.QualifiedName;
    if (CollectKernels)
      collect(*FD, Ctx, K, Key, MainFile);
    if (llvm::is_contained(Kernels, Key))
      continue;
    Kernels.push_back(Key);
    std::vector<const CUDAKernelCallExpr *> Launches;
    auto It = C.Launches.find(FD->getCanonicalDecl());
    if (It != C.Launches.end())
      Launches = It->second;
    KernelContext KC{Ctx, *FD, K, Facts, Model, Launches};
    FindingSink Sink(Ctx, Findings);
    for (const Check *Ch : Sel.Checks)
      Ch->check(KC, Sink);
    FindingKernel.resize(Findings.size(), Kernels.size() - 1);
  }
  for (size_t I = First; I < Findings.size(); ++I) {
    Finding &F = Findings[I];
    if (F.Level == Severity::Warning &&
        Sel.WarningsAsErrors.contains(F.Check)) {
      F.Level = Severity::Error;
      F.Promoted = true;
    }
    if (!Texts.count(F.File))
      if (auto FE = SM.getFileManager().getOptionalFileRef(F.File)) {
        FileID FID = SM.translateFile(*FE);
        if (FID.isValid())
          Texts[F.File] = SM.getBufferData(FID).str();
      }
  }
  // NOLINT comments, as clang-tidy reads them.
  size_t Kept = First;
  for (size_t I = First; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    auto T = Texts.find(F.File);
    if (T != Texts.end() && silencedByNoLint(T->second, F.Line, F.Check))
      continue;
    if (Kept != I) {
      Findings[Kept] = std::move(Findings[I]);
      FindingKernel[Kept] = FindingKernel[I];
    }
    ++Kept;
  }
  Findings.resize(Kept);
  FindingKernel.resize(Kept);
}

void CheckEngine::merge(CheckEngine &&Other) {
  // The kernels Other checked first, with their findings, as if its
  // translation units had run after this engine's.
  std::vector<size_t> NewIndex(Other.Kernels.size(), SIZE_MAX);
  for (size_t K = 0; K < Other.Kernels.size(); ++K)
    if (!llvm::is_contained(Kernels, Other.Kernels[K])) {
      NewIndex[K] = Kernels.size();
      Kernels.push_back(std::move(Other.Kernels[K]));
    }
  for (size_t I = 0; I < Other.Findings.size(); ++I) {
    size_t K = NewIndex[Other.FindingKernel[I]];
    Finding &F = Other.Findings[I];
    if (K == SIZE_MAX || llvm::any_of(Findings, [&](const Finding &O) {
          return O.Check == F.Check && O.File == F.File && O.Offset == F.Offset;
        }))
      continue;
    Findings.push_back(std::move(F));
    FindingKernel.push_back(K);
  }
  for (auto &[File, Text] : Other.Texts)
    Texts.try_emplace(File, std::move(Text));
  llvm::append_range(FilesWithErrors, Other.FilesWithErrors);

  std::vector<const std::string *> KeyOf(Other.Checked.size());
  for (const auto &[Key, I] : Other.CheckedIndex)
    KeyOf[I] = &Key;
  for (size_t I = 0; I < Other.Checked.size(); ++I) {
    auto [It, New] = CheckedIndex.try_emplace(*KeyOf[I], Checked.size());
    if (New) {
      Checked.push_back(std::move(Other.Checked[I]));
      continue;
    }
    for (KernelRecord &R : Other.Checked[I].Launchable)
      addLaunchable(Checked[It->second], std::move(R));
  }
}

void CheckEngine::collect(const FunctionDecl &FD, ASTContext &Ctx,
                          const KernelRecord &K, const std::string &Key,
                          llvm::StringRef MainFile) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto [It, New] = CheckedIndex.try_emplace(Key, Checked.size());
  if (New) {
    std::optional<FileLocation> Where = fileLocation(SM, FD.getLocation());
    if (!Where) {
      CheckedIndex.erase(It);
      return;
    }
    CheckedKernel CK;
    CK.QualifiedName = K.QualifiedName;
    CK.MainFile = MainFile.str();
    CK.Where = *Where;
    if (!Texts.count(Where->File))
      Texts[Where->File] =
          SM.getBufferData(SM.getFileID(SM.getFileLoc(FD.getLocation()))).str();
    Checked.push_back(std::move(CK));
  }
  CheckedKernel &CK = Checked[It->second];
  auto Add = [&](KernelRecord R) { addLaunchable(CK, std::move(R)); };
  // A template launches as its instantiations; another translation unit
  // may instantiate it differently.
  if (const FunctionTemplateDecl *FT = FD.getDescribedFunctionTemplate()) {
    for (const FunctionDecl *Spec : FT->specializations())
      if (Spec->isTemplateInstantiation() && Spec->hasBody())
        Add(analyzeKernel(*Spec, Ctx));
  } else {
    Add(K);
  }
}

std::unique_ptr<tooling::FrontendActionFactory>
CheckEngine::newActionFactory() {
  return newUnitActionFactory([this](const ParsedUnit &U) {
    if (U.hasErrors()) {
      noteFileWithErrors(U.MainFile);
      return;
    }
    run(U.Ctx, U.MainFile);
  });
}

std::vector<Finding> CheckEngine::findings() const {
  std::vector<Finding> Sorted = Findings;
  sortFindings(Sorted);
  return Sorted;
}

llvm::StringRef CheckEngine::fileText(llvm::StringRef File) const {
  auto It = Texts.find(File.str());
  return It == Texts.end() ? llvm::StringRef() : llvm::StringRef(It->second);
}

void CheckEngine::noteFileWithErrors(llvm::StringRef MainFile) {
  FilesWithErrors.push_back(MainFile.str());
}
