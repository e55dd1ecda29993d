//===- PerIndex.cpp - Kernels of one thread per index ---------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include <functional>

using namespace clang;
using namespace autoprof;

namespace {

const char IndexName[] = "blockIdx.x * blockDim.x + threadIdx.x";

/// The side of the comparison \p Cond whose value is \p P, or null.
const Expr *sideOfValue(const KernelModel &M, const Expr *Cond,
                        const Polynomial &P) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(Cond);
  if (!B)
    return nullptr;
  for (const Expr *Side : {B->getLHS(), B->getRHS()}) {
    ModelValue V = M.value(Side);
    if (V && *V.Value == P)
      return Side;
  }
  return nullptr;
}

/// Whether \p X is the initializer of a local variable.
const VarDecl *initializedVar(const KernelModel &M, const Expr *X,
                              llvm::ArrayRef<const Stmt *> Decls) {
  for (const Stmt *S : Decls)
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
          if (V->getInit()->IgnoreParenImpCasts() == X ||
              V->getInit()->IgnoreParens() == X)
            return V;
  return nullptr;
}

std::string uncoveredWhy(const KernelModel &M, const Expr *E,
                         const std::string &What) {
  return "`" + M.text(E) + "` at " + M.where(E) + " is read other than in " +
         What;
}

std::optional<PerIndexKernel> matchGuarded(const KernelModel &M,
                                           const GuardBound &B,
                                           std::string &Why, bool OtherAxes,
                                           bool OtherThreads) {
  if (B.Lhs != globalIndex(0)) {
    Why = "its guard does not bound the global index " + std::string(IndexName);
    return std::nullopt;
  }
  PerIndexKernel K;
  K.Form = PerIndexKernel::Guarded;
  std::optional<Polynomial> Bound = exclusiveBound(B);
  if (!Bound || !isOfParameters(*Bound)) {
    Why = "its bound `" + B.Rhs.str() +
          "` is not a value of parameters and constants";
    return std::nullopt;
  }
  K.Bound = *Bound;
  if (B.Strict)
    K.BoundExpr = sideOfValue(M, B.Cond, B.Rhs);
  std::vector<const Expr *> Uncovered;
  K.IndexExprs = M.expressionsOfValue(globalIndex(0), Uncovered);
  if (OtherAxes) {
    std::vector<const Expr *> Rest = Uncovered;
    if (!takeOtherAxes(M, Rest, /*BlocksOnly=*/!OtherThreads, Why))
      return std::nullopt;
    for (const Expr *U : Uncovered)
      if (!llvm::is_contained(Rest, U))
        K.OtherAxisReads.push_back(U);
    Uncovered = std::move(Rest);
  }
  if (!Uncovered.empty()) {
    Why = uncoveredWhy(M, Uncovered.front(),
                       "the global index " + std::string(IndexName));
    return std::nullopt;
  }
  K.IndexVar = localOfValue(M, globalIndex(0));
  K.Guard = M.guardStatements().front();
  K.Work.assign(M.work().begin(), M.work().end());
  return K;
}

/// The grid-stride form; with \p Guard, the `if (I < N) { ... }` around the
/// loop, which the loop's own test makes redundant, or a guard of
/// conditions of the launch alone: the index may also be read there, and
/// declared before it.
std::optional<PerIndexKernel> matchGridStride(const KernelModel &M,
                                              std::string &Why,
                                              const IfStmt *Guard = nullptr,
                                              bool OtherAxes = false,
                                              bool OtherThreads = false) {
  ASTContext &Ctx = M.context();
  llvm::ArrayRef<const Stmt *> Work = M.work();
  auto NoLoop = [&] {
    Why = "it has no guard of the global index " + std::string(IndexName) +
          " and does not end with a grid-stride loop";
    return std::nullopt;
  };
  if (Work.empty())
    return NoLoop();
  const Stmt *F = Work.back();
  int LoopIndex = isa<ForStmt, WhileStmt>(F) ? M.loopIndex(F) : -1;
  if (LoopIndex < 0)
    return NoLoop();
  for (const Stmt *S : Work.drop_back())
    if (!isa<DeclStmt>(S) || !M.isPure(S)) {
      Why = "the statement at " + M.where(S) +
            " comes before the grid-stride loop and is not a declaration";
      return std::nullopt;
    }
  const ModelLoop &L = M.loops()[LoopIndex];
  if (!L.counted()) {
    Why = L.Why;
    return std::nullopt;
  }
  if (L.First != globalIndex(0) || L.Step != gridSize())
    return NoLoop();
  if (L.OpaqueBounds || !isOfParameters(L.End)) {
    Why = "the loop at " + M.where(F) + " ends at `" + L.End.str() +
          "`, not a value of parameters and constants";
    return std::nullopt;
  }
  // The index and the stride are read only to start and step the loop.
  std::vector<const Expr *> UI, US;
  std::vector<const Expr *> Found = M.expressionsOfValue(globalIndex(0), UI);
  std::vector<const Expr *> Strides = M.expressionsOfValue(gridSize(), US);
  std::vector<const Expr *> Uncovered;
  for (const Expr *U : UI)
    if (llvm::is_contained(US, U))
      Uncovered.push_back(U);
  // A batch on another axis (`in + blockIdx.y * n`) that every stored
  // element depends on, when asked.
  std::vector<const Expr *> Rest = Uncovered;
  if (OtherAxes && !takeOtherAxes(M, Rest, !OtherThreads, Why))
    return std::nullopt;
  if (!Rest.empty()) {
    Why = uncoveredWhy(M, Rest.front(),
                       "the start and the step of the grid-stride loop");
    return std::nullopt;
  }
  Found.insert(Found.end(), Strides.begin(), Strides.end());
  // The loop's start and step: a `for`'s init and increment, or the
  // initializer of a variable declared before the loop (a `while`'s, or
  // that of a `for` without an init statement) and the step.
  const Stmt *Start = L.VarDeclStmt ? L.FirstExpr : cast<ForStmt>(F)->getInit();
  auto InHeader = [&](const Stmt *S) {
    return (Start && isWithin(Ctx, S, Start)) ||
           (L.StepStmt && isWithin(Ctx, S, L.StepStmt)) ||
           (Guard && isWithin(Ctx, S, Guard->getCond()));
  };
  std::vector<const Stmt *> Decls(Work.begin(), Work.end() - 1);
  if (Guard)
    Decls.insert(Decls.end(), M.prologue().begin(), M.prologue().end());
  // A variable declared before the loop is read nowhere outside it.
  if (const DeclRefExpr *R = L.VarDeclStmt ? M.counterOutside(L) : nullptr) {
    Why = "`" + L.Var->getNameAsString() + "` at " + M.where(R) +
          " is read outside the grid-stride loop";
    return std::nullopt;
  }
  for (const Expr *X : Found) {
    if (InHeader(X))
      continue;
    const VarDecl *V = initializedVar(M, X, Decls);
    std::vector<const DeclRefExpr *> Refs;
    if (V)
      Refs = referencesTo(M.kernel().getBody(), V);
    if (!V || !llvm::all_of(Refs, InHeader)) {
      Why = "`" + M.text(X) + "` at " + M.where(X) +
            " is read other than to start or step the grid-stride loop";
      return std::nullopt;
    }
  }
  PerIndexKernel K;
  K.Form = PerIndexKernel::GridStride;
  K.Bound = L.End;
  if (L.EndExpr) {
    ModelValue E = M.value(L.EndExpr);
    if (E && *E.Value == L.End)
      K.BoundExpr = L.EndExpr;
  }
  K.IndexVar = L.Var;
  K.Loop = F;
  K.Work = loopBody(L);
  for (const Expr *U : Uncovered)
    if (!llvm::is_contained(Rest, U))
      K.OtherAxisReads.push_back(U);
  return K;
}

} // namespace

const VarDecl *autoprof::localOfValue(const KernelModel &M,
                                      const Polynomial &P) {
  ASTContext &Ctx = M.context();
  for (const Stmt *S : M.prologue())
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->getType()->isIntegerType() &&
            Ctx.getTypeSize(V->getType()) >= 32 && !V->isStaticLocal())
          // Initialised and never changed, or given its value by its one
          // assignment (`int i; i = ...;`).
          if (const Expr *E = soleValue(Ctx, *V);
              E && (E == V->getInit() ||
                    llvm::any_of(M.prologue(), [&](const Stmt *S) {
                      return isWithin(Ctx, E, S);
                    }))) {
            // Its value is set before the guard, where every thread has it.
            ModelValue Val = M.value(E);
            if (Val && *Val.Value == P)
              return V;
          }
  return nullptr;
}

bool autoprof::alwaysHolds(const GuardBound &B, const Polynomial &Index) {
  std::optional<int64_t> Low = B.Lhs.constantValue();
  return B.Rhs == Index && Low && (B.Strict ? *Low < 0 : *Low <= 0);
}

std::optional<Polynomial> autoprof::exclusiveBound(const GuardBound &B) {
  if (B.Strict)
    return B.Rhs;
  return Polynomial::add(B.Rhs, Polynomial::constant(1));
}

std::optional<std::string>
autoprof::conditionsExit(const KernelModel &M,
                         llvm::ArrayRef<GuardBound> Bounds) {
  std::vector<GuardCondition> Conds = M.guardConditions();
  for (const GuardBound &B : Bounds)
    Conds.push_back({B.Cond, B.Negated});
  std::string Failing;
  for (const GuardCondition &C : Conds) {
    std::optional<std::string> Text = sourceText(M.context(), C.Cond);
    if (!Text)
      return std::nullopt;
    // `!x` needs no parentheses as an operand.
    std::string Operand =
        isa<UnaryOperator>(C.Cond) ? *Text : parenthesize(C.Cond, *Text);
    Failing += (Failing.empty() ? "" : " || ") + (!C.Negated ? "!" + Operand
                                                  : Conds.size() > 1 ? Operand
                                                                     : *Text);
  }
  if (Failing.empty())
    return Failing;
  return "if (" + Failing + ") return;";
}

bool autoprof::readsOtherAxesOnly(const KernelModel &M, const Expr *E) {
  ModelValue V = M.value(E);
  return V && !V.Value->dependsOn([](const Symbol &S) {
    return (S.isBuiltin() && S.Index == 0) || S.Kind == Symbol::Opaque;
  });
}

bool autoprof::takeOtherAxes(const KernelModel &M,
                             std::vector<const Expr *> &Uncovered,
                             bool BlocksOnly, std::string &Why) {
  auto Taken = [&](const Expr *U) {
    return readsOtherAxesOnly(M, U) &&
           (!BlocksOnly || !M.value(U).Value->dependsOn([](const Symbol &S) {
             return S.Kind == Symbol::ThreadIdx || S.Kind == Symbol::BlockDim;
           }));
  };
  std::vector<const Expr *> Rest;
  for (const Expr *U : Uncovered) {
    if (!Taken(U)) {
      Rest.push_back(U);
      continue;
    }
    for (const Symbol &S : M.value(U).Value->symbols())
      for (const ModelAccess &A : M.accesses())
        if (A.Write && (!A.Index || !A.Index->dependsOn(S))) {
          Why = "`" + M.text(U) + "` at " + M.where(U) +
                " reads another axis of the grid, on which no element "
                "stored at " +
                M.where(A.E) + " depends";
          return false;
        }
  }
  Uncovered = std::move(Rest);
  return true;
}

bool autoprof::isOfParameters(const Polynomial &P) {
  return !P.dependsOn([](const Symbol &S) { return !S.isParameter(); });
}

std::optional<PerIndexKernel> autoprof::matchPerIndex(const KernelModel &M,
                                                      std::string &Why,
                                                      bool OtherAxes,
                                                      bool OtherThreads) {
  if (!M.guardWhy().empty()) {
    Why = M.guardWhy();
    return std::nullopt;
  }
  if (M.guardStatements().empty())
    return matchGridStride(M, Why, nullptr, OtherAxes, OtherThreads);
  if (M.guardStatements().size() > 1) {
    Why = "its guard is made of " + std::to_string(M.guardStatements().size()) +
          " statements, not one bound of the global index";
    return std::nullopt;
  }
  // `0 <= I` holds for every thread: the bound that counts is the other.
  // A bound from below by a value fixed for the launch (`1 <= I`) is kept
  // apart.
  std::vector<const GuardBound *> Bounds;
  std::vector<GuardBound> Lower, OtherAxisBounds;
  for (const GuardBound &B : M.guard()) {
    if (alwaysHolds(B, globalIndex(0)))
      continue;
    // A batch index below a value of the launch (`b < batches`): the same
    // for every thread of a block.
    if (OtherAxes && isOfParameters(B.Rhs) &&
        B.Lhs.dependsOn([](const Symbol &S) { return S.isBuiltin(); }) &&
        !B.Lhs.dependsOn([&](const Symbol &S) {
          return !S.isParameter() &&
                 !(S.isBuiltin() && S.Index > 0 &&
                   (OtherThreads || S.Kind == Symbol::BlockIdx ||
                    S.Kind == Symbol::GridDim));
        })) {
      OtherAxisBounds.push_back(B);
      continue;
    }
    if (B.Rhs == globalIndex(0) && isOfParameters(B.Lhs)) {
      Lower.push_back(B);
      continue;
    }
    Bounds.push_back(&B);
  }
  // A guard of conditions alone (`if (n <= 0) return;`) before a
  // grid-stride loop: all of a launch's threads stride, or none.
  if (Bounds.empty() && Lower.empty() && !M.guardConditions().empty())
    return matchGridStride(M, Why, M.guardStatements().front(), OtherAxes,
                           OtherThreads);
  if (Bounds.size() != 1) {
    Why = "its guard at " + M.where(M.guardStatements().front()) +
          " is not one bound of the global index";
    return std::nullopt;
  }
  // `if (I < N) { for (j = I; j < N; j += stride) ... }`: the loop tests
  // the bound itself, so the kernel strides over the grid. An early return
  // is not taken for this: threads past it leave the kernel.
  const IfStmt *G = M.guardStatements().front();
  std::string StrideWhy;
  if (!G->getElse() && !isReturnOnly(G->getThen()) && Lower.empty() &&
      OtherAxisBounds.empty() && M.guardConditions().empty())
    if (std::optional<PerIndexKernel> K =
            matchGridStride(M, StrideWhy, G, OtherAxes, OtherThreads);
        K && Bounds.front()->Lhs == globalIndex(0) &&
        exclusiveBound(*Bounds.front()) == K->Bound)
      return K;
  std::optional<PerIndexKernel> K =
      matchGuarded(M, *Bounds.front(), Why, OtherAxes, OtherThreads);
  if (K) {
    K->LowerBounds = std::move(Lower);
    K->OtherAxisBounds = std::move(OtherAxisBounds);
  }
  return K;
}

/// Whether the builtin read \p Use counts only through the global indices
/// x and y: the outermost sum, difference or product of integers around it
/// (`row * n + blockIdx.x * blockDim.x + threadIdx.x`) has a value that,
/// written with x and y, reads the thread hierarchy no more.
static bool throughIndices(const KernelModel &M, const Expr *Use) {
  ASTContext &Ctx = M.context();
  const Expr *Top = Use;
  for (;;) {
    auto Parents = Ctx.getParents(*Top);
    if (Parents.size() != 1)
      break;
    const auto *P = Parents[0].get<Expr>();
    if (!P || !P->getType()->isIntegerType())
      break;
    if (const auto *B = dyn_cast<BinaryOperator>(P);
        B && B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub &&
        B->getOpcode() != BO_Mul)
      break;
    if (!isa<BinaryOperator, ParenExpr, ImplicitCastExpr, CStyleCastExpr>(P))
      break;
    Top = P;
  }
  ModelValue V = M.value(Top);
  if (!V)
    return false;
  // threadIdx.d = index_d - blockIdx.d * blockDim.d, with index_d a new
  // symbol.
  Polynomial P = *V.Value;
  for (unsigned D = 0; D < 2; ++D) {
    Symbol Index = Symbol::opaque(~0u - D, D == 0 ? "x" : "y");
    auto Start = Polynomial::mul(Polynomial::symbol(Symbol::blockIdx(D)),
                                 Polynomial::symbol(Symbol::blockDim(D)));
    auto Tid = Start ? Polynomial::sub(Polynomial::symbol(Index), *Start)
                     : std::nullopt;
    auto Next = Tid ? P.substitute(Symbol::threadIdx(D), *Tid) : std::nullopt;
    if (!Next)
      return false;
    P = *Next;
  }
  return !P.dependsOn([](const Symbol &S) {
    return S.Kind == Symbol::ThreadIdx || S.Kind == Symbol::BlockIdx ||
           S.Kind == Symbol::BlockDim || S.Kind == Symbol::GridDim;
  });
}

std::optional<PerIndex2DKernel> autoprof::matchPerIndex2D(const KernelModel &M,
                                                          std::string &Why) {
  if (!M.guardWhy().empty()) {
    Why = M.guardWhy();
    return std::nullopt;
  }
  const Polynomial X = globalIndex(0), Y = globalIndex(1);
  PerIndex2DKernel K;
  bool HasX = false, HasY = false;
  for (const GuardBound &B : M.guard()) {
    // A lower bound (`1 <= x` of a stencil) excludes the same threads with
    // any block shape.
    if ((B.Rhs == X || B.Rhs == Y) && B.Lhs.constantValue())
      continue;
    bool IsX = B.Lhs == X;
    if ((!IsX && B.Lhs != Y) || (IsX ? HasX : HasY)) {
      Why = "its guard at " + M.where(B.Cond) +
            " is not one bound of each global index";
      return std::nullopt;
    }
    std::optional<Polynomial> Bound = exclusiveBound(B);
    if (!Bound || !isOfParameters(*Bound)) {
      Why = "its bound `" + B.Rhs.str() +
            "` is not a value of parameters and constants";
      return std::nullopt;
    }
    (IsX ? K.BoundX : K.BoundY) = *Bound;
    (IsX ? K.BoundXExpr : K.BoundYExpr) =
        B.Strict ? sideOfValue(M, B.Cond, B.Rhs) : nullptr;
    (IsX ? HasX : HasY) = true;
  }
  if (!HasX || !HasY) {
    Why = std::string("its guard does not bound the global index ") +
          (HasX ? "blockIdx.y * blockDim.y + threadIdx.y"
                : "blockIdx.x * blockDim.x + threadIdx.x");
    return std::nullopt;
  }
  std::vector<const Expr *> Uncovered;
  M.expressionsOfValues({X, Y}, Uncovered);
  for (const Expr *U : Uncovered)
    if (!throughIndices(M, U)) {
      Why = uncoveredWhy(M, U, "the global indices x and y");
      return std::nullopt;
    }
  return K;
}

std::optional<std::string> autoprof::textAtLaunch(ASTContext &Ctx,
                                                  const KernelLaunch &L,
                                                  const Polynomial &P,
                                                  const Expr *Spelled) {
  if (!isOfParameters(P))
    return std::nullopt;
  // A constant keeps its name when the name means the same at the launch:
  // a global constant or a macro, written before the launch.
  const SourceManager &SM = Ctx.getSourceManager();
  if (P.constantValue() && Spelled) {
    const Expr *E = Spelled->IgnoreParenImpCasts();
    bool Before = SM.isBeforeInTranslationUnit(Spelled->getBeginLoc(),
                                               L.Call->getBeginLoc());
    bool Named = false;
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        Named = !DR->getBeginLoc().isMacroID() && V->hasGlobalStorage() &&
                !V->isLocalVarDeclOrParm() &&
                SM.isBeforeInTranslationUnit(V->getLocation(),
                                             L.Call->getBeginLoc());
    Named |= Spelled->getBeginLoc().isMacroID();
    if (Named && Before)
      if (auto Text = sourceText(Ctx, Spelled))
        return parenthesize(Spelled, *Text);
  }
  Polynomial Out = P;
  unsigned Number = 0;
  for (const Symbol &S : P.symbols()) {
    unsigned Position = S.Kind == Symbol::ParamField ? S.Index / 1024 : S.Index;
    if (Position >= L.Call->getNumArgs())
      return std::nullopt;
    const Expr *Arg = L.Call->getArg(Position);
    auto Text = sourceText(Ctx, Arg);
    if (!Text || Arg->HasSideEffects(Ctx))
      return std::nullopt;
    // The argument, printed in the parameter's place: with its field for a
    // field of a parameter (`(dims).rows`).
    std::string Printed = parenthesize(Arg, *Text);
    if (S.Kind == Symbol::ParamField)
      Printed += "." + StringRef(S.Name).rsplit('.').second.str();
    Symbol A = Symbol::opaque(Number++, Printed);
    auto Next = Out.substitute(S, Polynomial::symbol(A));
    if (!Next)
      return std::nullopt;
    Out = *Next;
  }
  return Out.str();
}

bool autoprof::gridCoversAtLaunch(ASTContext &Ctx, const KernelLaunch &Launch,
                                  int64_t Block, const Polynomial &Bound) {
  // The bound is of the x index: a dim3 grid covers it with its x.
  KernelLaunch L = Launch;
  if (!L.Grid->getType()->isIntegerType())
    if (auto Exprs = launchDimExprs(Ctx, L.Grid); Exprs && (*Exprs)[0])
      L.Grid = (*Exprs)[0];
  if (auto C = Bound.constantValue())
    return gridCoversCount(Ctx, L.Grid, Block, *C);
  // A parameter or a field of a struct parameter, less a constant: the grid
  // covers it when it covers the parameter (the field of the argument).
  std::vector<Symbol> Symbols = Bound.symbols();
  if (Symbols.size() != 1)
    return false;
  const Symbol &S = Symbols.front();
  unsigned Position = S.Kind == Symbol::ParamField ? S.Index / 1024 : S.Index;
  if (!S.isParameter() || Position >= L.Call->getNumArgs())
    return false;
  auto Less = Polynomial::sub(Bound, Polynomial::symbol(S));
  auto Slack = Less ? Less->constantValue() : std::nullopt;
  if (!Slack || *Slack > 0)
    return false;
  if (S.Kind == Symbol::ParamField)
    return gridCoversField(Ctx, L.Grid, Block, L.Call->getArg(Position),
                           S.Index % 1024);
  return gridCoversBound(Ctx, L.Grid, Block,
                         L.Call->getArg(Symbols.front().Index));
}
