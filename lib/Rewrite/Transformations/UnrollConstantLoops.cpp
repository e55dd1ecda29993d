//===- UnrollConstantLoops.cpp - #pragma unroll on constant loops ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "UnrollConstantLoops.h"

#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <set>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

bool isConstant(const Expr *E, const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return false;
  Expr::EvalResult R;
  return E->EvaluateAsInt(R, Ctx);
}

/// Whether \p S is `for (i = c0; i <op> c1; step)` with constant c0, c1 and
/// a constant step.
bool hasConstantTripCount(const ForStmt *S, const ASTContext &Ctx) {
  const VarDecl *IV = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(S->getInit())) {
    if (DS->isSingleDecl())
      if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
        if (V->getInit() && isConstant(V->getInit(), Ctx))
          IV = V;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(S->getInit())) {
    if (BO->getOpcode() == BO_Assign && isConstant(BO->getRHS(), Ctx))
      if (const auto *DR =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        IV = dyn_cast<VarDecl>(DR->getDecl());
  }
  if (!IV)
    return false;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(S->getCond());
  if (!Cond || !Cond->isComparisonOp())
    return false;
  const Expr *Bound = isReferenceTo(Cond->getLHS(), IV)   ? Cond->getRHS()
                      : isReferenceTo(Cond->getRHS(), IV) ? Cond->getLHS()
                                                          : nullptr;
  if (!Bound || !isConstant(Bound, Ctx))
    return false;
  const Expr *Inc = S->getInc();
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    return UO->isIncrementDecrementOp() && isReferenceTo(UO->getSubExpr(), IV);
  if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    return (CA->getOpcode() == BO_AddAssign ||
            CA->getOpcode() == BO_SubAssign) &&
           isReferenceTo(CA->getLHS(), IV) && isConstant(CA->getRHS(), Ctx);
  return false;
}

/// Whether a statement contains a loop.
class LoopFinder : public RecursiveASTVisitor<LoopFinder> {
public:
  bool VisitForStmt(ForStmt *) { return Found = true, false; }
  bool VisitWhileStmt(WhileStmt *) { return Found = true, false; }
  bool VisitDoStmt(DoStmt *) { return Found = true, false; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *) { return Found = true, false; }
  bool Found = false;
};

/// The innermost constant-trip `for` loops without a loop hint.
class Candidates : public RecursiveASTVisitor<Candidates> {
public:
  explicit Candidates(const ASTContext &Ctx) : Ctx(Ctx) {}
  bool VisitAttributedStmt(AttributedStmt *S) {
    for (const Attr *A : S->getAttrs())
      if (isa<LoopHintAttr>(A))
        Hinted.insert(S->getSubStmt());
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    if (Hinted.count(S) || !hasConstantTripCount(S, Ctx))
      return true;
    LoopFinder F;
    F.TraverseStmt(S->getBody());
    if (!F.Found)
      Loops.push_back(S);
    return true;
  }
  std::vector<const ForStmt *> Loops;

private:
  const ASTContext &Ctx;
  std::set<const Stmt *> Hinted;
};

} // namespace

StringRef UnrollConstantLoops::name() const { return "unroll-constant-loops"; }

StringRef UnrollConstantLoops::description() const {
  return "add '#pragma unroll' before innermost for loops with a constant "
         "trip count";
}

bool UnrollConstantLoops::precondition(const KernelRecord &K) const {
  return K.Features.get("const_trip_loops").value_or(0) > 0;
}

static const MetricCondition Conditions[] = {
    {"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active."
     "ratio",
     ">=", 0.5},
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
     "ratio",
     ">=", 1},
    {"smsp__issue_active.avg.pct_of_peak_sustained_active", "<", 40}};

std::vector<std::string> UnrollConstantLoops::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
UnrollConstantLoops::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error UnrollConstantLoops::apply(const KernelModel &M, FileEdits &Out) const {
  ASTContext &Ctx = M.context();
  const FunctionDecl &Kernel = M.kernel();
  if (!Kernel.getBody())
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  Candidates C(Ctx);
  C.TraverseStmt(Kernel.getBody());
  for (const ForStmt *S : C.Loops) {
    SourceLocation Loc = S->getForLoc();
    if (Loc.isInvalid() || !Loc.isFileID())
      continue;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    StringRef Text = SM.getBufferData(FID);
    size_t LineStart = Text.rfind('\n', Offset ? Offset - 1 : 0);
    LineStart = LineStart == StringRef::npos || Offset == 0 ? 0 : LineStart + 1;
    StringRef Indent = Text.slice(LineStart, Offset);
    if (Indent.find_first_not_of(" \t") != StringRef::npos)
      continue; // the loop does not start its line
    SourceLocation Start = Loc.getLocWithOffset(-(int)Indent.size());
    if (Error E =
            addEdit(tooling::Replacement(SM, Start, 0,
                                         (Indent + "#pragma unroll\n").str()),
                    Out))
      return E;
  }
  return Error::success();
}
