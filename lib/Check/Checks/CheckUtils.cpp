//===- CheckUtils.cpp - AST helpers shared by the checks ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "CheckUtils.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace autoprof {
namespace checks {

const Stmt *parentStmt(ASTContext &Ctx, const Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  if (Parents.size() != 1)
    return nullptr;
  if (const auto *P = Parents[0].get<Stmt>())
    return P;
  // The initialiser of a local variable: its parent is the declaration.
  if (const auto *V = Parents[0].get<VarDecl>()) {
    auto DeclParents = Ctx.getParents(*V);
    if (DeclParents.size() == 1)
      return DeclParents[0].get<DeclStmt>();
  }
  return nullptr;
}

bool isInLoop(ASTContext &Ctx, const Stmt *S, const Stmt *Body) {
  const Stmt *Child = S;
  for (const Stmt *P = parentStmt(Ctx, S); P && Child != Body;
       Child = P, P = parentStmt(Ctx, P)) {
    if (const auto *F = dyn_cast<ForStmt>(P)) {
      if (Child != F->getInit())
        return true;
    } else if (isa<WhileStmt>(P) || isa<DoStmt>(P)) {
      return true;
    } else if (const auto *R = dyn_cast<CXXForRangeStmt>(P)) {
      if (Child == R->getBody())
        return true;
    }
  }
  return false;
}

namespace {

/// The values assigned to a local variable in a body.
class Assignments : public RecursiveASTVisitor<Assignments> {
public:
  explicit Assignments(const VarDecl *V) : V(V) {}
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const auto *DR =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (DR->getDecl() == V)
          Values.push_back(BO->getRHS());
    return true;
  }
  const VarDecl *V;
  std::vector<const Expr *> Values;
};

bool readsBuiltin(const Expr *E, StringRef Builtin) {
  if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return DR->getDecl()->getName() == Builtin;
  return false;
}

} // namespace

bool mentionsBuiltin(const Expr *E, StringRef Builtin, const Stmt *Body,
                     unsigned Depth) {
  if (!E || Depth > 6)
    return false;
  E = E->IgnoreParenImpCasts();
  // threadIdx.x is a property of the builtin variable, read through a
  // pseudo-object expression.
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return mentionsBuiltin(PO->getSyntacticForm(), Builtin, Body, Depth);
  if (const auto *P = dyn_cast<MSPropertyRefExpr>(E))
    return mentionsBuiltin(P->getBaseExpr(), Builtin, Body, Depth);
  if (const auto *O = dyn_cast<OpaqueValueExpr>(E))
    return mentionsBuiltin(O->getSourceExpr(), Builtin, Body, Depth);
  if (readsBuiltin(E, Builtin))
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V->isLocalVarDecl() && !isa<ParmVarDecl>(V)) {
        if (mentionsBuiltin(V->getInit(), Builtin, Body, Depth + 1))
          return true;
        if (!Body)
          return false;
        Assignments A(V);
        A.TraverseStmt(const_cast<Stmt *>(Body));
        for (const Expr *Value : A.Values)
          if (mentionsBuiltin(Value, Builtin, Body, Depth + 1))
            return true;
        return false;
      }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentionsBuiltin(CE, Builtin, Body, Depth))
        return true;
  return false;
}

// The condition of \p P that decides whether \p Child runs, or null.
const Expr *controllingCondition(const Stmt *P, const Stmt *Child) {
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Child == If->getThen() || Child == If->getElse() ? If->getCond()
                                                            : nullptr;
  if (const auto *F = dyn_cast<ForStmt>(P))
    return Child == F->getBody() || Child == F->getInc() ? F->getCond()
                                                         : nullptr;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return Child == W->getBody() ? W->getCond() : nullptr;
  if (const auto *D = dyn_cast<DoStmt>(P))
    return Child == D->getBody() ? D->getCond() : nullptr;
  if (const auto *S = dyn_cast<SwitchStmt>(P))
    return Child == S->getBody() ? S->getCond() : nullptr;
  if (const auto *C = dyn_cast<AbstractConditionalOperator>(P))
    return Child == C->getTrueExpr() || Child == C->getFalseExpr()
               ? C->getCond()
               : nullptr;
  if (const auto *B = dyn_cast<BinaryOperator>(P))
    return B->isLogicalOp() && Child == B->getRHS() ? B->getLHS() : nullptr;
  return nullptr;
}

std::string calleeName(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    return FD->getNameAsString();
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *ULE = dyn_cast<UnresolvedLookupExpr>(Callee))
    return ULE->getName().getAsString();
  if (const auto *M = dyn_cast<MemberExpr>(Callee))
    return M->getMemberDecl()->getNameAsString();
  return "";
}

} // namespace checks
} // namespace autoprof
