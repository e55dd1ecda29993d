//===- FeatureExtractor.cpp - Kernels and launch sites of a TU ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/Tooling/UnitAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"

#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <tuple>

using namespace clang;
using namespace autoprof;

namespace {

/// Adds \p R unless a kernel of the same name, place and template is
/// there (a header seen by several translation units).
void addKernel(FeatureReport &Report, KernelRecord R) {
  for (const KernelRecord &K : Report.Kernels)
    if (K.QualifiedName == R.QualifiedName && K.File == R.File &&
        K.Line == R.Line && K.Template == R.Template)
      return;
  Report.Kernels.push_back(std::move(R));
}

/// Adds \p L unless a launch of the same kernel at the same place is there.
void addLaunchSite(FeatureReport &Report, LaunchSite L) {
  for (const LaunchSite &O : Report.LaunchSites)
    if (O.File == L.File && O.Line == L.Line && O.Column == L.Column &&
        O.QualifiedKernel == L.QualifiedKernel)
      return;
  Report.LaunchSites.push_back(std::move(L));
}

/// Launch sites in source order; stable, so that equal places keep the
/// order they were found in.
void sortLaunchSites(FeatureReport &Report) {
  std::stable_sort(Report.LaunchSites.begin(), Report.LaunchSites.end(),
                   [](const LaunchSite &A, const LaunchSite &B) {
                     return std::tie(A.File, A.Line, A.Column) <
                            std::tie(B.File, B.Line, B.Column);
                   });
}

std::string qualifiedName(const FunctionDecl &FD) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintingPolicy PP = FD.getASTContext().getPrintingPolicy();
  PP.SuppressTagKeyword = true;
  FD.getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  return S;
}

/// Forwards diagnostics to the original consumer and records where errors
/// were reported, so that kernels containing one are not reported.
class TUVisitor : public RecursiveASTVisitor<TUVisitor> {
  using Base = RecursiveASTVisitor<TUVisitor>;

public:
  TUVisitor(ASTContext &Ctx, const KernelFilter &Filter, FeatureReport &Report,
            llvm::ArrayRef<SourceLocation> Errors)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Filter(Filter), Report(Report),
        Errors(Errors) {}

  bool hasError(const FunctionDecl &FD) const {
    SourceLocation B = SM.getFileLoc(FD.getBeginLoc());
    SourceLocation E = SM.getFileLoc(FD.getEndLoc());
    for (SourceLocation L : Errors)
      if (SM.isPointWithin(L, B, E))
        return true;
    return false;
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool inUserCode(SourceLocation Loc) const {
    Loc = SM.getFileLoc(Loc);
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  }

  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Caller;
    Caller = FD;
    bool R = Base::TraverseFunctionDecl(FD);
    Caller = Saved;
    return R;
  }
  bool TraverseCXXMethodDecl(CXXMethodDecl *MD) {
    const FunctionDecl *Saved = Caller;
    Caller = MD;
    bool R = Base::TraverseCXXMethodDecl(MD);
    Caller = Saved;
    return R;
  }

  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        FD->isInvalidDecl() || !inUserCode(FD->getLocation()))
      return true;
    std::string Qualified = qualifiedName(*FD);
    if (Filter && !Filter(FD->getNameAsString(), Qualified))
      return true;
    if (hasError(*FD)) {
      // Through Clang's diagnostics, beside the errors it follows.
      DiagnosticsEngine &D = Ctx.getDiagnostics();
      D.Report(FD->getLocation(),
               D.getCustomDiagID(DiagnosticsEngine::Warning,
                                 "kernel '%0' is not reported: its body has "
                                 "errors"))
          << Qualified;
      return true;
    }
    KernelRecord R = analyzeKernel(*FD, Ctx);
    addKernel(Report, std::move(R));
    return true;
  }

  std::optional<std::string> text(const Expr *E) const {
    if (!E || isa<CXXDefaultArgExpr>(E))
      return std::nullopt;
    CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
    return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
  }

  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *CE) {
    const FunctionDecl *K = CE->getDirectCallee();
    const CallExpr *Config = CE->getConfig();
    if (!K || !Config || !inUserCode(CE->getBeginLoc()))
      return true;
    LaunchSite L;
    L.Kernel = K->getNameAsString();
    L.QualifiedKernel = qualifiedName(*K);
    if (Filter && !Filter(L.Kernel, L.QualifiedKernel))
      return true;
    L.Caller = Caller ? qualifiedName(*Caller) : "";
    PresumedLoc PL = SM.getPresumedLoc(SM.getFileLoc(CE->getBeginLoc()));
    if (PL.isValid()) {
      L.File = PL.getFilename();
      L.Line = PL.getLine();
      L.Column = PL.getColumn();
    }
    auto Arg = [&](unsigned I) -> const Expr * {
      return I < Config->getNumArgs() ? Config->getArg(I) : nullptr;
    };
    L.Grid = text(Arg(0)).value_or("");
    L.Block = text(Arg(1)).value_or("");
    L.SharedMem = text(Arg(2));
    L.Stream = text(Arg(3));
    // Threads per block, when the block argument is constant: as the
    // kernel model reads launches (through dim3 locals and integer locals
    // that keep one value).
    if (std::optional<Dim3> D = constantDims(Ctx, Arg(1)))
      L.BlockSize = (*D)[0] * (*D)[1] * (*D)[2];
    addLaunchSite(Report, std::move(L));
    return true;
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const KernelFilter &Filter;
  FeatureReport &Report;
  llvm::ArrayRef<SourceLocation> Errors;
  const FunctionDecl *Caller = nullptr;
};

} // namespace

void autoprof::extractFeatures(ASTContext &Ctx, const KernelFilter &Filter,
                               FeatureReport &Report,
                               llvm::ArrayRef<SourceLocation> Errors) {
  scopeToUserCode(Ctx);
  TUVisitor V(Ctx, Filter, Report, Errors);
  V.TraverseDecl(Ctx.getTranslationUnitDecl());
  sortLaunchSites(Report);
}

void autoprof::mergeFeatureReport(FeatureReport &Into, FeatureReport &&From) {
  for (KernelRecord &K : From.Kernels)
    addKernel(Into, std::move(K));
  for (LaunchSite &L : From.LaunchSites)
    addLaunchSite(Into, std::move(L));
  sortLaunchSites(Into);
}

std::unique_ptr<tooling::FrontendActionFactory>
autoprof::newFeatureActionFactory(FeatureReport &Report, KernelFilter Filter) {
  return newUnitActionFactory(
      [&Report, Filter = std::move(Filter)](const ParsedUnit &U) {
        extractFeatures(U.Ctx, Filter, Report, U.Errors);
      });
}

int autoprof::extractSourceFeatures(const SourceSettings &S,
                                    llvm::ArrayRef<std::string> Inputs,
                                    const KernelFilter &Filter,
                                    FeatureReport &Report,
                                    const SourceMessages &Messages,
                                    SourceRunSummary *Summary,
                                    llvm::raw_ostream &Log) {
  std::vector<FeatureReport> Reports(Inputs.size());
  std::vector<std::unique_ptr<clang::tooling::FrontendActionFactory>> Factories;
  for (FeatureReport &R : Reports)
    Factories.push_back(newFeatureActionFactory(R, Filter));
  return runSources(
      S, Inputs,
      [&](size_t I) -> clang::tooling::FrontendActionFactory & {
        return *Factories[I];
      },
      [&](size_t I) {
        mergeFeatureReport(Report, std::move(Reports[I]));
        Reports[I] = FeatureReport();
      },
      Messages, Summary, Log);
}
