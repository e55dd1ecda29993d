//===- PadSharedArrays.cpp - Pad 2-D shared tiles against bank conflicts --===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "PadSharedArrays.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

class SharedArrays : public RecursiveASTVisitor<SharedArrays> {
public:
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>() && !V->hasExternalStorage())
      Decls.push_back(V);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Refs[V].push_back(DR);
    return true;
  }
  std::vector<const VarDecl *> Decls;
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> Refs;
};

const Stmt *parentThroughCasts(ASTContext &Ctx, const Stmt *S) {
  while (true) {
    auto Parents = Ctx.getParents(*S);
    if (Parents.size() != 1)
      return nullptr;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    if (!isa<ImplicitCastExpr>(P) && !isa<ParenExpr>(P))
      return P;
    S = P;
  }
}

/// Whether the element \p E is loaded, stored or updated, and its address
/// not taken.
bool isElementUse(ASTContext &Ctx, const Expr *E) {
  while (true) {
    auto Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return false;
    const Expr *P = Parents[0].get<Expr>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P)) {
      E = P;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
      return IC->getCastKind() == CK_LValueToRValue;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->isAssignmentOp() && BO->getLHS() == E;
    if (const auto *UO = dyn_cast<UnaryOperator>(P))
      return UO->isIncrementDecrementOp();
    return false;
  }
}

/// Whether \p DR is the array of a two-level subscript `a[i][j]` whose
/// element is used as a value.
bool isDoubleSubscript(ASTContext &Ctx, const DeclRefExpr *DR) {
  const auto *Inner =
      dyn_cast_or_null<ArraySubscriptExpr>(parentThroughCasts(Ctx, DR));
  if (!Inner || Inner->getBase()->IgnoreParenImpCasts() != DR)
    return false;
  const auto *Outer =
      dyn_cast_or_null<ArraySubscriptExpr>(parentThroughCasts(Ctx, Inner));
  return Outer && Outer->getBase()->IgnoreParenImpCasts() == Inner &&
         isElementUse(Ctx, Outer);
}

} // namespace

StringRef PadSharedArrays::name() const { return "pad-shared-arrays"; }

StringRef PadSharedArrays::description() const {
  return "pad the inner dimension of 2-D __shared__ tiles T a[N][32k] to "
         "32k + 1";
}

bool PadSharedArrays::precondition(const KernelRecord &K) const {
  return K.Features.get("shared_bank_conflict_risk").value_or(0) > 0;
}

std::vector<std::string> PadSharedArrays::triggerMetrics() const {
  return {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
          "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
          "derived__shared_bank_conflict_pct"};
}

std::optional<std::string>
PadSharedArrays::trigger(const MetricValues &M) const {
  std::vector<std::string> Names = triggerMetrics();
  if (auto R = compareMetric(M, Names[0], ">", 0))
    return R;
  if (auto R = compareMetric(M, Names[1], ">", 0))
    return R;
  return compareMetric(M, Names[2], ">", 5);
}

Error PadSharedArrays::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                             tooling::Replacements &Out) const {
  if (!Kernel.getBody())
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  SharedArrays A;
  A.TraverseStmt(Kernel.getBody());
  for (const VarDecl *V : A.Decls) {
    const auto *Outer = Ctx.getAsConstantArrayType(V->getType());
    if (!Outer)
      continue;
    const auto *Inner = Ctx.getAsConstantArrayType(Outer->getElementType());
    if (!Inner || Inner->getElementType()->isArrayType() ||
        Inner->getElementType()->isDependentType() ||
        Ctx.getTypeSizeInChars(Inner->getElementType()).getQuantity() != 4)
      continue;
    uint64_t M = Inner->getSize().getZExtValue();
    if (M == 0 || M % 32 != 0)
      continue;
    bool OnlySubscripts = true;
    for (const DeclRefExpr *DR : A.Refs[V])
      OnlySubscripts &= isDoubleSubscript(Ctx, DR);
    if (!OnlySubscripts)
      continue;
    TypeSourceInfo *TSI = V->getTypeSourceInfo();
    if (!TSI)
      continue;
    auto OuterTL = TSI->getTypeLoc().getAs<ConstantArrayTypeLoc>();
    if (!OuterTL)
      continue;
    auto InnerTL = OuterTL.getElementLoc().getAs<ConstantArrayTypeLoc>();
    if (!InnerTL || !InnerTL.getSizeExpr())
      continue;
    const Expr *Size = InnerTL.getSizeExpr();
    CharSourceRange Range = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(Size->getSourceRange()), SM, LO);
    if (Range.isInvalid())
      continue;
    std::string NewText;
    const auto *Lit = dyn_cast<IntegerLiteral>(Size->IgnoreParenImpCasts());
    if (Lit && Size->getBeginLoc().isFileID())
      NewText = std::to_string(M + 1);
    else
      NewText = Lexer::getSourceText(Range, SM, LO).str() + " + 1";
    if (Error E = Out.add(tooling::Replacement(SM, Range, NewText, LO)))
      return E;
  }
  return Error::success();
}
