//===- DivergentSyncthreads.cpp - autoprof-divergent-syncthreads ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "DivergentSyncthreads.h"

#include "CheckUtils.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;
using namespace autoprof::checks;

namespace {

class BarrierCalls : public RecursiveASTVisitor<BarrierCalls> {
public:
  bool VisitCallExpr(CallExpr *CE) {
    llvm::StringRef N = calleeName(CE);
    if (N == "__syncthreads" || N == "__syncthreads_count" ||
        N == "__syncthreads_and" || N == "__syncthreads_or" ||
        N == "__barrier_sync")
      Calls.push_back(CE);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *R) {
    Returns.push_back(R);
    return true;
  }
  // Lambdas run where they are called, not where they are written.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  std::vector<const CallExpr *> Calls;
  std::vector<const ReturnStmt *> Returns;
};

} // namespace

llvm::StringRef DivergentSyncthreadsCheck::summary() const {
  return "__syncthreads() under a condition that depends on the thread, or "
         "after a return that only some threads take";
}

llvm::StringRef DivergentSyncthreadsCheck::help() const {
  return "__syncthreads() must be reached by every thread of the block or by "
         "none; under a condition that differs between threads, the block "
         "may hang or read stale shared memory. Move the barrier out of the "
         "condition (compute the condition into a variable and keep the "
         "barrier unconditional), or make the condition uniform across the "
         "block.";
}

void DivergentSyncthreadsCheck::check(const KernelContext &K,
                                      FindingSink &Out) const {
  const Stmt *Body = K.Kernel.getBody();
  if (!Body)
    return;
  const SourceManager &SM = K.Ctx.getSourceManager();
  BuiltinUses Uses(Body);
  BarrierCalls B;
  B.TraverseStmt(const_cast<Stmt *>(Body));
  // The condition that decides whether \p S runs and depends on the
  // thread, or null.
  auto DivergentCondition = [&](const Stmt *S) -> const Expr * {
    const Stmt *Child = S;
    for (const Stmt *P = parentStmt(K.Ctx, S); P && Child != Body;
         Child = P, P = parentStmt(K.Ctx, P)) {
      const Expr *Cond = controllingCondition(P, Child);
      if (Cond &&
          (llvm::is_contained(K.Facts.ThreadDependentConditions, Cond) ||
           Uses.mentions(Cond, "threadIdx")))
        return Cond;
    }
    return nullptr;
  };
  auto LineOf = [&](const Stmt *S) {
    return std::to_string(
        SM.getPresumedLineNumber(SM.getFileLoc(S->getBeginLoc())));
  };
  // Returns that only some threads of a block take.
  std::vector<std::pair<const ReturnStmt *, const Expr *>> Exits;
  for (const ReturnStmt *R : B.Returns)
    if (const Expr *Cond = DivergentCondition(R))
      Exits.push_back({R, Cond});
  for (const CallExpr *CE : B.Calls) {
    std::string Name = "'" + calleeName(CE) + "()'";
    if (const Expr *Cond = DivergentCondition(CE)) {
      Out.report(*this, CE->getBeginLoc(),
                 Name + " under a condition that depends on the thread (line " +
                     LineOf(Cond) +
                     "): the threads that skip it make the barrier hang or "
                     "not synchronise");
      continue;
    }
    for (const auto &[R, Cond] : Exits)
      if (SM.isBeforeInTranslationUnit(R->getBeginLoc(), CE->getBeginLoc())) {
        Out.report(*this, CE->getBeginLoc(),
                   Name + " after a return that only some threads take (line " +
                       LineOf(R) + ", under the condition on line " +
                       LineOf(Cond) +
                       "): the threads that returned never reach the barrier");
        break;
      }
  }
}
