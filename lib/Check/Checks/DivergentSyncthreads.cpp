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
  // Lambdas run where they are called, not where they are written.
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  std::vector<const CallExpr *> Calls;
};

} // namespace

llvm::StringRef DivergentSyncthreadsCheck::summary() const {
  return "__syncthreads() under a condition that depends on the thread";
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
  for (const CallExpr *CE : B.Calls) {
    const Stmt *Child = CE;
    for (const Stmt *P = parentStmt(K.Ctx, CE); P && Child != Body;
         Child = P, P = parentStmt(K.Ctx, P)) {
      const Expr *Cond = controllingCondition(P, Child);
      bool Dependent =
          Cond &&
          (llvm::is_contained(K.Facts.ThreadDependentConditions, Cond) ||
           Uses.mentions(Cond, "threadIdx"));
      if (!Dependent)
        continue;
      unsigned Line =
          SM.getPresumedLineNumber(SM.getFileLoc(Cond->getBeginLoc()));
      Out.report(*this, CE->getBeginLoc(),
                 "'" + calleeName(CE) +
                     "()' under a condition that depends on the thread "
                     "(line " +
                     std::to_string(Line) +
                     "): the threads that skip it make the barrier hang or "
                     "not synchronise");
      break;
    }
  }
}
