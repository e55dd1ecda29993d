//===- WarpPerRow.cpp - One warp per row of a row reduction ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "WarpPerRow.h"
#include "LaunchSites.h"
#include "OneDimKernel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// Lanes of a warp.
constexpr int WarpSize = 32;

/// Whether __shfl_down_sync carries values of type \p T.
bool isShuffled(const ASTContext &Ctx, QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT || T.isVolatileQualified())
    return false;
  switch (BT->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::Long:
  case BuiltinType::ULong:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
  case BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

/// The loop variable L of `for (U L = lo; L < hi; ++L)` (or L++, L += 1).
const VarDecl *rowLoop(const ASTContext &Ctx, const ForStmt *F) {
  const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit());
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *L = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!L || !L->getInit() || !L->getType()->isIntegerType() ||
      mentions(L->getInit(), L) || L->getInit()->HasSideEffects(Ctx))
    return nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond());
  if (!Cond || Cond->getOpcode() != BO_LT ||
      !isReferenceTo(Cond->getLHS(), L) || mentions(Cond->getRHS(), L) ||
      Cond->getRHS()->HasSideEffects(Ctx))
    return nullptr;
  return isUnitIncrement(Ctx, F->getInc(), L) ? L : nullptr;
}

} // namespace

StringRef WarpPerRow::name() const { return "warp-per-row"; }

StringRef WarpPerRow::description() const {
  return "give each row of a thread-per-row reduction to a warp whose lanes "
         "split the loop and add with __shfl_down_sync, and multiply the "
         "grid by 32";
}

bool WarpPerRow::precondition(const KernelRecord &K) const {
  auto Zero = [&](const char *F) { return K.Features.get(F).value_or(0) == 0; };
  return hasIndependentThreads(K) && K.Features.get("loops").value_or(0) > 0 &&
         Zero("atomics_global") && Zero("atomics_shared");
}

static const MetricCondition Conditions[] = {
    {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
     ">=", 8},
    {"derived__global_excess_sectors_pct", ">", 25},
    // Warps wait on their global loads (one pass to collect).
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
     "ratio",
     ">=", 10}};

std::vector<std::string> WarpPerRow::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string> WarpPerRow::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error WarpPerRow::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                        tooling::Replacements &Out) const {
  std::optional<OneDimKernel> Shape = matchOneDimKernel(Ctx, Kernel);
  if (!Shape || Shape->Form == OneDimKernel::GridStride)
    return Error::success();
  std::vector<const Stmt *> Work = Shape->Work;
  if (Shape->Form == OneDimKernel::Guarded) {
    const auto *CS = dyn_cast<CompoundStmt>(Work.front());
    if (!CS)
      return Error::success();
    Work.assign(CS->body_begin(), CS->body_end());
  }
  if (Work.size() != 3)
    return Error::success();

  // T S = <init>;
  const auto *SumDecl = dyn_cast<DeclStmt>(Work[0]);
  if (!SumDecl || !SumDecl->isSingleDecl())
    return Error::success();
  const auto *Sum = dyn_cast<VarDecl>(SumDecl->getSingleDecl());
  if (!Sum || !Sum->getInit() || Sum->isStaticLocal() ||
      !isShuffled(Ctx, Sum->getType()) || Sum->getType().isConstQualified())
    return Error::success();

  // for (U L = lo; L < hi; ++L) S += <expr>;
  const auto *Loop = dyn_cast<ForStmt>(Work[1]);
  const VarDecl *L = Loop ? rowLoop(Ctx, Loop) : nullptr;
  if (!L || mentions(Loop->getInit(), Sum) || mentions(Loop->getCond(), Sum))
    return Error::success();
  const Stmt *Body = Loop->getBody();
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    if (CS->size() != 1)
      return Error::success();
    Body = CS->body_front();
  }
  const auto *Acc = dyn_cast<CompoundAssignOperator>(Body);
  if (!Acc || Acc->getOpcode() != BO_AddAssign ||
      !isReferenceTo(Acc->getLHS(), Sum) || mentions(Acc->getRHS(), Sum) ||
      Acc->getRHS()->HasSideEffects(Ctx))
    return Error::success();

  // <lvalue> = <value>;
  const auto *Store = dyn_cast<BinaryOperator>(Work[2]);
  if (!Store || Store->getOpcode() != BO_Assign ||
      Store->getLHS()->HasSideEffects(Ctx) ||
      Store->getRHS()->HasSideEffects(Ctx) || mentions(Store->getLHS(), Sum))
    return Error::success();

  const SourceManager &SM = Ctx.getSourceManager();
  for (const Stmt *S :
       {static_cast<const Stmt *>(Shape->IndexDecl),
        static_cast<const Stmt *>(Loop), static_cast<const Stmt *>(Store)})
    if (!S->getBeginLoc().isFileID() || !S->getEndLoc().isFileID())
      return Error::success();

  // Every launch: an integer grid and a constant block of whole warps.
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  std::vector<tooling::Replacement> Edits;
  for (const KernelLaunch &KL : *Launches) {
    auto Block = evaluateInt(KL.Block, Ctx);
    if (!KL.Block->getType()->isIntegerType() || !Block || *Block <= 0 ||
        *Block % WarpSize != 0 || !KL.Grid->getType()->isIntegerType() ||
        KL.Grid->HasSideEffects(Ctx))
      return Error::success();
    auto GridText = sourceText(Ctx, KL.Grid);
    if (!GridText)
      return Error::success();
    auto G = replaceExpr(Ctx, KL.Grid,
                         parenthesize(KL.Grid, *GridText) + " * " +
                             std::to_string(WarpSize));
    if (!G)
      return Error::success();
    Edits.push_back(*G);
  }

  const Expr *Init = Shape->Index->getInit();
  auto InitText = sourceText(Ctx, Init);
  const Expr *Lo = L->getInit();
  auto LoText = sourceText(Ctx, Lo);
  if (!InitText || !LoText)
    return Error::success();
  std::string Lane = freshName(Kernel, "Lane");
  std::string Offset = freshName(Kernel, "Offset", {Lane});
  std::string W = std::to_string(WarpSize);
  std::string IndexIndent(
      SM.getSpellingColumnNumber(Shape->IndexDecl->getBeginLoc()) - 1, ' ');
  std::string Indent(SM.getSpellingColumnNumber(Loop->getBeginLoc()) - 1, ' ');

  // The row is the warp's; the lane is the thread's place in it.
  auto Row = replaceExpr(Ctx, Init, "(" + *InitText + ") / " + W);
  if (!Row)
    return Error::success();
  Edits.push_back(*Row);
  Edits.push_back(tooling::Replacement(
      SM, Shape->IndexDecl->getEndLoc().getLocWithOffset(1), 0,
      "\n" + IndexIndent + "// One warp per row: its lanes split the row.\n" +
          IndexIndent + "int " + Lane + " = threadIdx.x % " + W + ";"));
  // The lanes take every 32nd element of the row, from their own.
  Expr::EvalResult LoValue;
  bool LoZero = Lo->EvaluateAsInt(LoValue, Ctx) && LoValue.Val.getInt() == 0;
  auto NewLo =
      replaceExpr(Ctx, Lo,
                  LoZero ? Lane
                         : (isa<ArraySubscriptExpr>(Lo->IgnoreImpCasts())
                                ? *LoText
                                : parenthesize(Lo, *LoText)) +
                               " + " + Lane);
  auto NewInc =
      replaceExpr(Ctx, Loop->getInc(), L->getNameAsString() + " += " + W);
  if (!NewLo || !NewInc)
    return Error::success();
  Edits.push_back(*NewLo);
  Edits.push_back(*NewInc);
  // The lanes' sums are added down to lane 0, which stores the row.
  std::string S = Sum->getNameAsString();
  Edits.push_back(tooling::Replacement(
      SM, Store->getBeginLoc(), 0,
      "for (int " + Offset + " = " + std::to_string(WarpSize / 2) + "; " +
          Offset + " > 0; " + Offset + " /= 2)\n" + Indent + "  " + S +
          " += __shfl_down_sync(0xffffffff, " + S + ", " + Offset + ");\n" +
          Indent + "if (" + Lane + " == 0)\n" + Indent + "  "));
  for (const tooling::Replacement &R : Edits)
    if (Error E = Out.add(R))
      return E;
  return Error::success();
}
