//===- BuiltinReads.cpp - Reads of the thread hierarchy ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "BuiltinReads.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace autoprof;

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

bool autoprof::hasIndependentThreads(const KernelRecord &K) {
  auto Zero = [&](const char *F) { return K.Features.get(F).value_or(0) == 0; };
  return K.Template != TemplateKind::Primary && Zero("shared_arrays") &&
         Zero("syncthreads") && Zero("warp_shuffles") && Zero("warp_votes") &&
         Zero("uses_cooperative_groups");
}
