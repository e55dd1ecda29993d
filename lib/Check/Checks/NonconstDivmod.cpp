//===- NonconstDivmod.cpp - autoprof-nonconst-divmod ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "NonconstDivmod.h"

#include "CheckUtils.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace autoprof;
using namespace autoprof::checks;

namespace {

class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(const KernelContext &K, const Check &C, FindingSink &Out)
      : K(K), C(C), Out(Out) {}

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (Op != BO_Div && Op != BO_Rem && Op != BO_DivAssign &&
        Op != BO_RemAssign)
      return true;
    QualType T = BO->getType();
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(BO))
      T = CA->getComputationResultType();
    const Expr *RHS = BO->getRHS();
    if (!T->isIntegerType() || T->isDependentType() ||
        RHS->isValueDependent() || RHS->isTypeDependent() ||
        RHS->containsErrors() || RHS->isEvaluatable(K.Ctx))
      return true;
    if (!isInLoop(K.Ctx, BO, K.Kernel.getBody()))
      return true;
    const SourceManager &SM = K.Ctx.getSourceManager();
    std::string Divisor =
        Lexer::getSourceText(SM.getExpansionRange(RHS->getSourceRange()), SM,
                             K.Ctx.getLangOpts())
            .str();
    bool IsDiv = Op == BO_Div || Op == BO_DivAssign;
    Out.report(C, BO->getOperatorLoc(),
               llvm::Twine("integer ") + (IsDiv ? "division" : "modulo") +
                   " by '" + Divisor +
                   "', which is not a compile-time constant, inside a loop: "
                   "it takes tens of instructions per iteration; hoist it out "
                   "of the loop or make the divisor a constant");
    return true;
  }

private:
  const KernelContext &K;
  const Check &C;
  FindingSink &Out;
};

} // namespace

llvm::StringRef NonconstDivmodCheck::summary() const {
  return "integer division or modulo by a non-constant inside a loop";
}

llvm::StringRef NonconstDivmodCheck::help() const {
  return "Integer division and modulo by a value known only at run time take "
         "tens of instructions. Use a power of two and shifts or masks where "
         "the size allows, pass the divisor as a template parameter or a "
         "constant, or compute the quotient once outside the loop and step "
         "the indices incrementally.";
}

void NonconstDivmodCheck::check(const KernelContext &K,
                                FindingSink &Out) const {
  if (!K.Kernel.getBody())
    return;
  Finder F(K, *this, Out);
  F.TraverseStmt(K.Kernel.getBody());
}
