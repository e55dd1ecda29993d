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

/// The values assigned to the local variables of a body.
class Assignments : public RecursiveASTVisitor<Assignments> {
public:
  explicit Assignments(
      llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> &Values)
      : Values(Values) {}
  bool VisitVarDecl(VarDecl *V) {
    if (V->isLocalVarDecl() && V->getInit())
      Values[V].push_back(V->getInit());
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      if (const auto *DR =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
          Values[V].push_back(BO->getRHS());
    return true;
  }
  llvm::DenseMap<const VarDecl *, std::vector<const Expr *>> &Values;
};

bool readsBuiltin(const Expr *E, StringRef Builtin) {
  if (const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    return DR->getDecl()->getName() == Builtin;
  return false;
}

} // namespace

BuiltinUses::BuiltinUses(const Stmt *Body) {
  if (Body) {
    Assignments A(Values);
    A.TraverseStmt(const_cast<Stmt *>(Body));
  }
}

bool BuiltinUses::variableMentions(const VarDecl *V, StringRef Builtin) {
  auto Key = std::make_pair(V, Builtin.str());
  auto It = Known.find(Key);
  if (It != Known.end())
    return It->second;
  if (!InProgress.insert(Key).second) {
    // A variable assigned from itself (`i += stride`), directly or not:
    // its other values decide. A "no" found meanwhile is not final.
    SawCycle = true;
    return false;
  }
  bool OuterSawCycle = SawCycle;
  SawCycle = false;
  bool Result = false;
  auto VIt = Values.find(V);
  if (VIt != Values.end())
    for (const Expr *Value : VIt->second)
      if ((Result = mentions(Value, Builtin)))
        break;
  InProgress.erase(Key);
  if (Result || !SawCycle)
    Known[Key] = Result;
  SawCycle |= OuterSawCycle;
  return Result;
}

bool BuiltinUses::mentions(const Expr *E, StringRef Builtin) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  // threadIdx.x is a property of the builtin variable, read through a
  // pseudo-object expression.
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return mentions(PO->getSyntacticForm(), Builtin);
  if (const auto *P = dyn_cast<MSPropertyRefExpr>(E))
    return mentions(P->getBaseExpr(), Builtin);
  if (const auto *O = dyn_cast<OpaqueValueExpr>(E))
    return mentions(O->getSourceExpr(), Builtin);
  if (readsBuiltin(E, Builtin))
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      return V->isLocalVarDecl() && variableMentions(V, Builtin);
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (mentions(CE, Builtin))
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
