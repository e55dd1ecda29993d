//===- WarpPerRow.cpp - One warp per row of a row reduction ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "WarpPerRow.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "OneDimKernel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

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
  return "give each row of a thread-per-row kernel to a warp whose lanes "
         "split the row's loops and combine their sums, minima or maxima "
         "with shuffles, and multiply the grid by 32";
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

namespace {

/// The math functions a row loop may call: they read their arguments only.
bool isPureMath(StringRef Name) {
  static constexpr StringRef Names[] = {
      "expf",   "exp",   "__expf", "exp2f",     "exp2",  "logf",   "log",
      "__logf", "log2f", "log2",   "sqrtf",     "sqrt",  "rsqrtf", "rsqrt",
      "fabsf",  "fabs",  "fmaxf",  "fmax",      "fminf", "fmin",   "max",
      "min",    "tanhf", "tanh",   "erff",      "erf",   "fmaf",   "fma",
      "powf",   "pow",   "__powf", "__fdividef"};
  return llvm::is_contained(Names, Name);
}

/// Whether every call in \p S is to one of the math functions above or to
/// a builtin Clang knows to be constant (`__builtin_inff` of `INFINITY`).
bool callsOnlyMath(const ASTContext &Ctx, const Stmt *S) {
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    const auto *F = dyn_cast_or_null<FunctionDecl>(Call->getCalleeDecl());
    unsigned Builtin = F ? F->getBuiltinID() : 0;
    bool ConstBuiltin = Builtin && Ctx.BuiltinInfo.isConst(Builtin);
    if (!F || !F->getIdentifier() ||
        (!ConstBuiltin && !isPureMath(F->getName())))
      return false;
  }
  for (const Stmt *C : S->children())
    if (C && !callsOnlyMath(Ctx, C))
      return false;
  return true;
}

/// Whether evaluating \p E changes nothing: no assignment, increment or
/// volatile access, and no call but to the math functions (true for a null
/// \p E).
bool isPure(const ASTContext &Ctx, const Expr *E) {
  return !E || (!E->HasSideEffects(Ctx, /*IncludePossibleEffects=*/false) &&
                callsOnlyMath(Ctx, E));
}

/// Whether every subscript in \p S indexes by exactly \p L.
bool subscriptsOnlyBy(const Stmt *S, const VarDecl *L) {
  if (!S)
    return true;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(S))
    if (!isReferenceTo(A->getIdx(), L))
      return false;
  for (const Stmt *C : S->children())
    if (!subscriptsOnlyBy(C, L))
      return false;
  return true;
}

/// One reduction over a row: `S += e` or `S = f(S, e)` with f a minimum or
/// maximum.
struct RowReduction {
  const VarDecl *Var = nullptr;
  /// The function f, or empty for a sum.
  std::string Combine;
};

/// The reduction of \p Last, the last statement of a row loop over \p L,
/// whose variable \p Declared holds; nullopt when it is not one.
std::optional<RowReduction>
matchReduction(const ASTContext &Ctx, const Stmt *Last,
               const std::vector<const VarDecl *> &Declared) {
  auto Local = [&](const Expr *E) -> const VarDecl * {
    for (const VarDecl *V : Declared)
      if (isReferenceTo(E, V))
        return V;
    return nullptr;
  };
  auto Carried = [&](const VarDecl *V) {
    return V && isShuffled(Ctx, V->getType()) &&
           !V->getType().isConstQualified();
  };
  if (const auto *Acc = dyn_cast<CompoundAssignOperator>(Last)) {
    const VarDecl *S = Local(Acc->getLHS());
    if (Acc->getOpcode() != BO_AddAssign || !Carried(S) ||
        !isConstantZero(Ctx, S->getInit()) || mentions(Acc->getRHS(), S) ||
        !isPure(Ctx, Acc->getRHS()))
      return std::nullopt;
    return RowReduction{S, ""};
  }
  const auto *Set = dyn_cast<BinaryOperator>(Last);
  if (!Set || Set->getOpcode() != BO_Assign)
    return std::nullopt;
  const VarDecl *S = Local(Set->getLHS());
  const auto *Call = dyn_cast<CallExpr>(Set->getRHS()->IgnoreParenImpCasts());
  if (!Carried(S) || !Call || Call->getNumArgs() != 2)
    return std::nullopt;
  const auto *F = dyn_cast_or_null<FunctionDecl>(Call->getCalleeDecl());
  if (!F || !F->getIdentifier() ||
      !llvm::is_contained({"fmaxf", "fminf", "fmax", "fmin", "max", "min"},
                          F->getName()))
    return std::nullopt;
  const Expr *A = Call->getArg(0), *B = Call->getArg(1);
  if (isReferenceTo(B, S))
    std::swap(A, B);
  if (!isReferenceTo(A, S) || mentions(B, S) || !isPure(Ctx, B))
    return std::nullopt;
  return RowReduction{S, F->getName().str()};
}

} // namespace

namespace {

/// The edits that give a kernel's rows to warps, gathered as the shape is
/// matched.
class RowEdits {
public:
  RowEdits(ASTContext &Ctx, const FunctionDecl &Kernel)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Lane(freshName(Kernel, "Lane")),
        Offset(freshName(Kernel, "Offset", {Lane})) {}

  /// Makes the lanes take every 32nd element of the row of \p Loop over
  /// \p L, from their own.
  bool stride(const ForStmt *Loop, const VarDecl *L) {
    const Expr *Lo = L->getInit();
    auto LoText = sourceText(Ctx, Lo);
    if (!LoText)
      return false;
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
      return false;
    Edits.push_back(*NewLo);
    Edits.push_back(*NewInc);
    return true;
  }

  /// Combines the lanes' values of \p R before \p Before: into lane 0
  /// (`__shfl_down_sync`) or into every lane (`__shfl_xor_sync`, \p ToAll).
  /// \p Then follows the loop, on the line of \p Before.
  void combine(const Stmt *Before, const RowReduction &R, bool ToAll,
               const std::string &Then = "") {
    std::string Indent(SM.getSpellingColumnNumber(Before->getBeginLoc()) - 1,
                       ' ');
    std::string S = R.Var->getNameAsString();
    std::string Shuffle =
        std::string(ToAll ? "__shfl_xor_sync" : "__shfl_down_sync") +
        "(0xffffffff, " + S + ", " + Offset + ")";
    std::string Step = R.Combine.empty() ? S + " += " + Shuffle + ";"
                                         : S + " = " + R.Combine + "(" + S +
                                               ", " + Shuffle + ");";
    Edits.push_back(tooling::Replacement(
        SM, Before->getBeginLoc(), 0,
        "for (int " + Offset + " = " + std::to_string(WarpSize / 2) + "; " +
            Offset + " > 0; " + Offset + " /= 2)\n" + Indent + "  " + Step +
            "\n" + Indent + Then));
  }

  /// The row of the warp, the lane of the thread, and the grids of every
  /// launch multiplied by 32; false when a launch is not whole warps.
  bool rowsAndLaunches(const FunctionDecl &Kernel, const OneDimKernel &Shape) {
    auto Launches = findLaunches(Ctx, Kernel);
    if (!Launches || Launches->empty())
      return false;
    for (const KernelLaunch &KL : *Launches) {
      auto Block = evaluateInt(KL.Block, Ctx);
      if (!KL.Block->getType()->isIntegerType() || !Block || *Block <= 0 ||
          *Block % WarpSize != 0 || !KL.Grid->getType()->isIntegerType() ||
          KL.Grid->HasSideEffects(Ctx))
        return false;
      auto GridText = sourceText(Ctx, KL.Grid);
      if (!GridText)
        return false;
      auto G = replaceExpr(Ctx, KL.Grid,
                           parenthesize(KL.Grid, *GridText) + " * " + W);
      if (!G)
        return false;
      Edits.push_back(*G);
    }
    const Expr *Init = Shape.Index->getInit();
    auto InitText = sourceText(Ctx, Init);
    if (!InitText)
      return false;
    auto Row = replaceExpr(Ctx, Init, "(" + *InitText + ") / " + W);
    if (!Row)
      return false;
    Edits.push_back(*Row);
    std::string IndexIndent(
        SM.getSpellingColumnNumber(Shape.IndexDecl->getBeginLoc()) - 1, ' ');
    Edits.push_back(tooling::Replacement(
        SM, Shape.IndexDecl->getEndLoc().getLocWithOffset(1), 0,
        "\n" + IndexIndent + "// One warp per row: its lanes split the row.\n" +
            IndexIndent + "int " + Lane + " = threadIdx.x % " + W + ";"));
    return true;
  }

  ASTContext &Ctx;
  const SourceManager &SM;
  const std::string Lane, Offset;
  const std::string W = std::to_string(WarpSize);
  std::vector<tooling::Replacement> Edits;
};

/// `T S = <init>; for (...) S += <expr>; <lvalue> = <value>;`: the lanes'
/// sums are added down to lane 0, which stores the row.
bool matchOneSum(RowEdits &E, const std::vector<const Stmt *> &Work) {
  ASTContext &Ctx = E.Ctx;
  if (Work.size() != 3 || !isa<DeclStmt>(Work[0]) || !isa<ForStmt>(Work[1]) ||
      !isa<BinaryOperator>(Work[2]))
    return false;
  const auto *SumDecl = cast<DeclStmt>(Work[0]);
  if (!SumDecl->isSingleDecl())
    return false;
  const auto *Sum = dyn_cast<VarDecl>(SumDecl->getSingleDecl());
  if (!Sum || !Sum->getInit() || Sum->isStaticLocal() ||
      !isShuffled(Ctx, Sum->getType()) || Sum->getType().isConstQualified() ||
      !isConstantZero(Ctx, Sum->getInit()))
    return false;
  const auto *Loop = cast<ForStmt>(Work[1]);
  const VarDecl *L = rowLoop(Ctx, Loop);
  if (!L || mentions(Loop->getInit(), Sum) || mentions(Loop->getCond(), Sum))
    return false;
  const Stmt *Body = Loop->getBody();
  if (const auto *CS = dyn_cast<CompoundStmt>(Body)) {
    if (CS->size() != 1)
      return false;
    Body = CS->body_front();
  }
  const auto *Acc = dyn_cast<CompoundAssignOperator>(Body);
  if (!Acc || Acc->getOpcode() != BO_AddAssign ||
      !isReferenceTo(Acc->getLHS(), Sum) || mentions(Acc->getRHS(), Sum) ||
      Acc->getRHS()->HasSideEffects(Ctx))
    return false;
  const auto *Store = cast<BinaryOperator>(Work[2]);
  if (Store->getOpcode() != BO_Assign || Store->getLHS()->HasSideEffects(Ctx) ||
      Store->getRHS()->HasSideEffects(Ctx) || mentions(Store->getLHS(), Sum))
    return false;
  if (!E.stride(Loop, L))
    return false;
  std::string Indent(E.SM.getSpellingColumnNumber(Store->getBeginLoc()) - 1,
                     ' ');
  E.combine(Store, RowReduction{Sum, ""}, /*ToAll=*/false,
            "if (" + E.Lane + " == 0)\n" + Indent + "  ");
  return true;
}

/// Whether every declaration of \p DS has a side-effect-free initializer;
/// appends the variables to \p Declared when given.
bool pureDecls(const ASTContext &Ctx, const DeclStmt *DS,
               std::vector<const VarDecl *> *Declared) {
  for (const Decl *D : DS->decls()) {
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V || !V->getInit() || V->isStaticLocal() || !isPure(Ctx, V->getInit()))
      return false;
    if (Declared)
      Declared->push_back(V);
  }
  return true;
}

/// Declarations and loops over the row: each loop either reduces the row
/// into a variable declared before it, or writes element L of arrays from
/// element L of others. Every lane ends each reduction with the whole row's
/// value.
bool matchRowLoops(RowEdits &E, const std::vector<const Stmt *> &Work) {
  ASTContext &Ctx = E.Ctx;
  std::vector<const VarDecl *> Declared;
  std::vector<const VarDecl *> Reduced;
  bool Writes = false;
  for (size_t I = 0; I < Work.size(); ++I) {
    // After a storing loop only storing loops: a lane could otherwise read
    // what another lane stored, with nothing ordering the two.
    if (Writes && !isa<ForStmt>(Work[I]))
      return false;
    if (const auto *DS = dyn_cast<DeclStmt>(Work[I])) {
      if (!pureDecls(Ctx, DS, &Declared))
        return false;
      continue;
    }
    const auto *Loop = dyn_cast<ForStmt>(Work[I]);
    const VarDecl *L = Loop ? rowLoop(Ctx, Loop) : nullptr;
    if (!L || !isPure(Ctx, L->getInit()) || !isPure(Ctx, Loop->getCond()))
      return false;
    std::vector<const Stmt *> Body = {Loop->getBody()};
    if (const auto *CS = dyn_cast<CompoundStmt>(Loop->getBody()))
      Body.assign(CS->body_begin(), CS->body_end());
    if (Body.empty())
      return false;
    // Declarations of the iteration's own values first.
    for (size_t B = 0; B + 1 < Body.size(); ++B) {
      const auto *DS = dyn_cast<DeclStmt>(Body[B]);
      if (!DS || !pureDecls(Ctx, DS, nullptr))
        return false;
    }
    const Stmt *Last = Body.back();
    if (std::optional<RowReduction> R = matchReduction(Ctx, Last, Declared)) {
      // One reduction per variable, not read elsewhere in its loop, and
      // work after it.
      if (Writes || llvm::is_contained(Reduced, R->Var) ||
          mentions(Loop->getInit(), R->Var) ||
          mentions(Loop->getCond(), R->Var) ||
          llvm::any_of(llvm::ArrayRef(Body).drop_back(),
                       [&](const Stmt *S) { return mentions(S, R->Var); }) ||
          I + 1 == Work.size())
        return false;
      Reduced.push_back(R->Var);
      if (!E.stride(Loop, L))
        return false;
      E.combine(Work[I + 1], *R, /*ToAll=*/true);
      continue;
    }
    // X[L] = <value>: each iteration touches element L only.
    const auto *Store = dyn_cast<BinaryOperator>(Last);
    const auto *Elem =
        Store ? dyn_cast<ArraySubscriptExpr>(Store->getLHS()->IgnoreParens())
              : nullptr;
    if (!Elem || Store->getOpcode() != BO_Assign ||
        !isPure(Ctx, Elem->getBase()) || !isPure(Ctx, Store->getRHS()) ||
        !subscriptsOnlyBy(Loop->getBody(), L) ||
        llvm::any_of(Declared, [&](const VarDecl *V) {
          return isReferenceTo(Elem->getBase(), V) &&
                 !V->getType()->isPointerType();
        }))
      return false;
    Writes = true;
    if (!E.stride(Loop, L))
      return false;
  }
  return !Reduced.empty() && Writes;
}

} // namespace

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
  Work.push_back(Shape->IndexDecl);
  for (const Stmt *S : Work)
    if (!S->getBeginLoc().isFileID() || !S->getEndLoc().isFileID())
      return Error::success();
  Work.pop_back();

  RowEdits E(Ctx, Kernel);
  if (!matchOneSum(E, Work) && !matchRowLoops(E, Work))
    return Error::success();
  if (!E.rowsAndLaunches(Kernel, *Shape))
    return Error::success();
  for (const tooling::Replacement &R : E.Edits)
    if (Error Err = Out.add(R))
      return Err;
  return Error::success();
}
