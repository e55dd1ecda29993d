//===- OneDimKernel.cpp - Kernels of one thread per index -----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "OneDimKernel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace autoprof;

namespace {

bool isBuiltinName(llvm::StringRef N) {
  return N == "threadIdx" || N == "blockIdx" || N == "blockDim" ||
         N == "gridDim";
}

} // namespace

const Expr *autoprof::stripCasts(const ASTContext &Ctx, const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    const auto *C = dyn_cast<ExplicitCastExpr>(E);
    if (!C || !C->getType()->isIntegerType() ||
        Ctx.getTypeSize(C->getType()) < 32)
      return E;
    E = C->getSubExpr();
  }
}

bool autoprof::isBuiltin(const ASTContext &Ctx, const Expr *E,
                         llvm::StringRef Var, char Field) {
  E = stripCasts(Ctx, E);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *P = dyn_cast<MSPropertyRefExpr>(E);
  if (!P)
    return false;
  const Expr *Base = P->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(Base);
  std::string Name = P->getPropertyDecl()->getNameAsString();
  return DR && DR->getDecl()->getName() == Var && Name.size() == 1 &&
         Name[0] == Field;
}

namespace {

/// `A * B` with {A, B} = {VarA.F, VarB.F}.
bool isProduct(const ASTContext &Ctx, const Expr *E, llvm::StringRef VarA,
               llvm::StringRef VarB, char F) {
  const auto *BO = dyn_cast<BinaryOperator>(stripCasts(Ctx, E));
  if (!BO || BO->getOpcode() != BO_Mul)
    return false;
  return (isBuiltin(Ctx, BO->getLHS(), VarA, F) &&
          isBuiltin(Ctx, BO->getRHS(), VarB, F)) ||
         (isBuiltin(Ctx, BO->getLHS(), VarB, F) &&
          isBuiltin(Ctx, BO->getRHS(), VarA, F));
}

bool isProductX(const ASTContext &Ctx, const Expr *E, llvm::StringRef VarA,
                llvm::StringRef VarB) {
  return isProduct(Ctx, E, VarA, VarB, 'x');
}

} // namespace

bool autoprof::isGlobalIndex(const ASTContext &Ctx, const Expr *E, char F) {
  const auto *BO = dyn_cast<BinaryOperator>(stripCasts(Ctx, E));
  if (!BO || BO->getOpcode() != BO_Add)
    return false;
  return (isProduct(Ctx, BO->getLHS(), "blockIdx", "blockDim", F) &&
          isBuiltin(Ctx, BO->getRHS(), "threadIdx", F)) ||
         (isProduct(Ctx, BO->getRHS(), "blockIdx", "blockDim", F) &&
          isBuiltin(Ctx, BO->getLHS(), "threadIdx", F));
}

namespace {

bool isGlobalIndexX(const ASTContext &Ctx, const Expr *E) {
  return isGlobalIndex(Ctx, E, 'x');
}

const VarDecl *refVar(const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

/// The single integer variable of \p S with an initialiser, of 32 bits or
/// more.
const VarDecl *singleIntVar(const ASTContext &Ctx, const Stmt *S) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(S);
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!V || !V->getInit() || !V->getType()->isIntegerType() ||
      Ctx.getTypeSize(V->getType()) < 32 || V->isStaticLocal())
    return nullptr;
  return V;
}

/// Everything of a kernel's body that the match must account for.
class BodyScan : public RecursiveASTVisitor<BodyScan> {
public:
  explicit BodyScan(const SourceManager &SM) : SM(SM) {}
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (isa<VarDecl>(DR->getDecl()) && isBuiltinName(DR->getDecl()->getName()))
      Builtins.insert(DR);
    return true;
  }
  bool VisitVarDecl(VarDecl *V) {
    Unsafe |= V->hasAttr<CUDASharedAttr>() || V->isStaticLocal();
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CUDAKernelCallExpr>(CE)) {
      Unsafe = true;
      return true;
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) {
      Unsafe |= !isa<CXXOperatorCallExpr>(CE);
      return true;
    }
    if (FD->isDefined() || FD->hasBody()) {
      SourceLocation L = SM.getFileLoc(FD->getLocation());
      Unsafe |= !SM.isInSystemHeader(L);
    }
    return true;
  }
  bool VisitAsmStmt(AsmStmt *) {
    Unsafe = true;
    return true;
  }
  const SourceManager &SM;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Builtins;
  bool Unsafe = false;
};

void collectBuiltins(const Stmt *S,
                     llvm::SmallPtrSet<const DeclRefExpr *, 8> &Out) {
  if (!S)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (isBuiltinName(DR->getDecl()->getName()))
      Out.insert(DR);
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(S)) {
    for (const Expr *E : PO->semantics())
      collectBuiltins(E, Out);
    if (const auto *O = dyn_cast<OpaqueValueExpr>(PO->getSyntacticForm()))
      collectBuiltins(O->getSourceExpr(), Out);
  }
  if (const auto *O = dyn_cast<OpaqueValueExpr>(S))
    collectBuiltins(O->getSourceExpr(), Out);
  for (const Stmt *C : S->children())
    collectBuiltins(C, Out);
}

/// `A < B` (or `B > A`) with A referring to \p I; the variable B refers to.
const VarDecl *boundOf(const Expr *Cond, const VarDecl *I, bool Less) {
  const auto *BO = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  if (!BO)
    return nullptr;
  BinaryOperatorKind Op = Less ? BO_LT : BO_GE;
  BinaryOperatorKind Flipped = Less ? BO_GT : BO_LE;
  if (BO->getOpcode() == Op && refVar(BO->getLHS()) == I)
    return refVar(BO->getRHS());
  if (BO->getOpcode() == Flipped && refVar(BO->getRHS()) == I)
    return refVar(BO->getLHS());
  return nullptr;
}

/// Every reference to \p V reads it, except \p Allowed.
bool onlyReads(ASTContext &Ctx, const VarDecl *V, const Stmt *Body,
               const Expr *Allowed) {
  class Refs : public RecursiveASTVisitor<Refs> {
  public:
    explicit Refs(const VarDecl *V) : V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (DR->getDecl() == V)
        Found.push_back(DR);
      return true;
    }
    const VarDecl *V;
    std::vector<const DeclRefExpr *> Found;
  } R(V);
  R.TraverseStmt(const_cast<Stmt *>(Body));
  for (const DeclRefExpr *DR : R.Found) {
    if (DR == Allowed)
      continue;
    auto Parents = Ctx.getParents(*DR);
    const auto *IC =
        Parents.size() == 1 ? Parents[0].get<ImplicitCastExpr>() : nullptr;
    if (!IC || IC->getCastKind() != CK_LValueToRValue)
      return false;
  }
  return true;
}

} // namespace

std::optional<OneDimKernel>
autoprof::matchOneDimKernel(ASTContext &Ctx, const FunctionDecl &Kernel) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body || Body->size() < 2)
    return std::nullopt;
  BodyScan Scan(Ctx.getSourceManager());
  Scan.TraverseStmt(const_cast<CompoundStmt *>(Body));
  if (Scan.Unsafe)
    return std::nullopt;
  llvm::SmallPtrSet<const DeclRefExpr *, 8> Matched;
  OneDimKernel K;
  std::vector<const Stmt *> Stmts(Body->body_begin(), Body->body_end());
  const VarDecl *Bound = nullptr;
  // A kernel that ends with a loop over the global index is GridStride; any
  // other loop at the end is work after a guard.
  const auto *Last = dyn_cast<ForStmt>(Stmts.back());
  const VarDecl *LoopVar = Last ? singleIntVar(Ctx, Last->getInit()) : nullptr;
  if (LoopVar && isGlobalIndexX(Ctx, LoopVar->getInit())) {
    const ForStmt *Loop = Last;
    // GridStride: [T Stride = gridDim.x * blockDim.x;] for (...) S
    if (Stmts.size() > 2)
      return std::nullopt;
    const VarDecl *StrideVar = nullptr;
    if (Stmts.size() == 2) {
      StrideVar = singleIntVar(Ctx, Stmts[0]);
      if (!StrideVar ||
          !isProductX(Ctx, StrideVar->getInit(), "gridDim", "blockDim") ||
          !isUnmodified(Ctx, *StrideVar))
        return std::nullopt;
      collectBuiltins(Stmts[0], Matched);
    }
    const VarDecl *I = singleIntVar(Ctx, Loop->getInit());
    if (!I || !isGlobalIndexX(Ctx, I->getInit()) || !Loop->getCond() ||
        Loop->getConditionVariable())
      return std::nullopt;
    const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(Loop->getInc());
    if (!Inc || Inc->getOpcode() != BO_AddAssign || refVar(Inc->getLHS()) != I)
      return std::nullopt;
    const Expr *Step = Inc->getRHS();
    if (!(StrideVar && refVar(Step) == StrideVar) &&
        !isProductX(Ctx, Step, "gridDim", "blockDim"))
      return std::nullopt;
    Bound = boundOf(Loop->getCond(), I, /*Less=*/true);
    if (!onlyReads(Ctx, I, Body, Inc->getLHS()->IgnoreParenImpCasts()))
      return std::nullopt;
    collectBuiltins(Loop->getInit(), Matched);
    collectBuiltins(Step, Matched);
    K.Form = OneDimKernel::GridStride;
    K.Index = I;
    K.Loop = Loop;
    K.Work.push_back(Loop->getBody());
  } else {
    const VarDecl *I = singleIntVar(Ctx, Stmts[0]);
    const auto *If = dyn_cast<IfStmt>(Stmts[1]);
    if (!I || !isGlobalIndexX(Ctx, I->getInit()) || !If || If->getInit() ||
        If->getConditionVariable() || If->getElse() || If->isConstexpr() ||
        !isUnmodified(Ctx, *I))
      return std::nullopt;
    collectBuiltins(Stmts[0], Matched);
    K.Index = I;
    K.IndexDecl = cast<DeclStmt>(Stmts[0]);
    K.Guard = If;
    if (Stmts.size() == 2) {
      K.Form = OneDimKernel::Guarded;
      Bound = boundOf(If->getCond(), I, /*Less=*/true);
      K.Work.push_back(If->getThen());
    } else {
      K.Form = OneDimKernel::EarlyExit;
      Bound = boundOf(If->getCond(), I, /*Less=*/false);
      if (!isReturnOnly(If->getThen()))
        return std::nullopt;
      K.Work.assign(Stmts.begin() + 2, Stmts.end());
    }
  }
  const auto *N = dyn_cast_or_null<ParmVarDecl>(Bound);
  if (!N || !N->getType()->isIntegerType() || !isUnmodified(Ctx, *N))
    return std::nullopt;
  K.Bound = N;
  K.BoundParam = N->getFunctionScopeIndex();
  // threadIdx, blockIdx, blockDim and gridDim appear only in the index and
  // the stride.
  for (const DeclRefExpr *DR : Scan.Builtins)
    if (!Matched.count(DR))
      return std::nullopt;
  return K;
}

bool autoprof::hasIndependentThreads(const KernelRecord &K) {
  auto Zero = [&](const char *F) { return K.Features.get(F).value_or(0) == 0; };
  return K.Template == TemplateKind::None && Zero("shared_arrays") &&
         Zero("syncthreads") && Zero("warp_shuffles") && Zero("warp_votes") &&
         Zero("uses_cooperative_groups");
}
