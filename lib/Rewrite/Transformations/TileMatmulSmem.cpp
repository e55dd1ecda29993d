//===- TileMatmulSmem.cpp - Tile a naive matmul in shared memory ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TileMatmulSmem.h"
#include "CoveringLaunch.h"
#include "IndependentThreads.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <map>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// Whether \p P is the same for every thread of a block and every
/// iteration: no threadIdx, loop variable or opaque value.
bool isUniform(const Polynomial &P) {
  return !P.dependsOn([](const Symbol &S) {
    return S.Kind == Symbol::ThreadIdx || S.Kind == Symbol::LoopVar ||
           S.Kind == Symbol::Opaque;
  });
}

/// Whether \p A is an element row * ldc + col of a global array, with row
/// the global index along \p RowDim and col the other, for any row length
/// ldc, up to an offset fixed for the block (a batch's matrix).
bool isElementOfC(const ModelAccess &A, unsigned RowDim) {
  if (!A.Array || A.Shared || !A.Index)
    return false;
  std::optional<Polynomial> Ldc =
      A.Index->coefficient(Symbol::threadIdx(RowDim));
  if (!Ldc || !isUniform(*Ldc))
    return false;
  auto Want = Polynomial::add(*Polynomial::mul(globalIndex(RowDim), *Ldc),
                              globalIndex(1 - RowDim));
  auto Rest = Want ? Polynomial::sub(*A.Index, *Want) : std::nullopt;
  return Rest && isUniform(*Rest);
}

/// \p P as code, in parentheses unless it is one symbol or a constant.
std::string polyText(const Polynomial &P) {
  std::string T = P.str();
  return P.terms().size() <= 1 &&
                 (P.terms().empty() || P.terms().begin()->second == 1 ||
                  P.terms().begin()->first.empty())
             ? T
             : "(" + T + ")";
}

/// The factors of a product `a * b * c`, through parentheses and implicit
/// casts.
void factors(const Expr *E, std::vector<const Expr *> &Out) {
  E = E->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && B->getOpcode() == BO_Mul) {
    factors(B->getLHS(), Out);
    factors(B->getRHS(), Out);
    return;
  }
  Out.push_back(E);
}

/// An element read or written as `P[I]` or `*(P + I)` (the offsets added
/// in any order, `*(A + r * K + k)`), or read by a load helper's call
/// (loadHelper()): the expression, its pointer, the
/// value of the index as written (from the pointer), and the index's type.
struct Element {
  const Expr *E = nullptr;
  const Expr *Base = nullptr;
  ModelValue Idx;
  QualType IdxType;
  /// For a load helper that reads a pointer field of its struct argument
  /// (`return m.elements[i];`): the field; Base is then the struct.
  const FieldDecl *Field = nullptr;
};

/// \p X as an Element; nullopt for other expressions, or a dereference of
/// a sum that is not one pointer plus integers.
std::optional<Element> elementOf(const KernelModel &M, const Expr *X) {
  X = X->IgnoreParenImpCasts();
  // `__ldg(&A[i])` and the other load intrinsics read the element.
  if (const auto *Call = dyn_cast<CallExpr>(X)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    // A load helper's call, `at(A, i)`, reads its pointer argument's
    // element at its index.
    if (const ArraySubscriptExpr *AS = loadHelper(M.context(), FD)) {
      auto [P, Field] = loadHelperPointer(AS);
      unsigned I = P->getFunctionScopeIndex();
      if (I >= Call->getNumArgs())
        return std::nullopt;
      return Element{Call, Call->getArg(I), M.valueInCall(Call, AS->getIdx()),
                     AS->getIdx()->getType(), Field};
    }
    const auto *Addr =
        Call->getNumArgs() == 1
            ? dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts())
            : nullptr;
    if (!FD || !FD->getIdentifier() || !Addr ||
        Addr->getOpcode() != UO_AddrOf || !isLoadIntrinsic(FD->getName()))
      return std::nullopt;
    return elementOf(M, Addr->getSubExpr());
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(X))
    return Element{AS, AS->getBase(), M.value(AS->getIdx()),
                   AS->getIdx()->getType()};
  const auto *U = dyn_cast<UnaryOperator>(X);
  if (!U || U->getOpcode() != UO_Deref)
    return std::nullopt;
  Element Out;
  Out.E = U;
  Out.Idx.Value = Polynomial::constant(0);
  std::vector<const Expr *> Terms = {U->getSubExpr()};
  while (!Terms.empty()) {
    const Expr *T = Terms.back()->IgnoreParens();
    Terms.pop_back();
    if (const auto *B = dyn_cast<BinaryOperator>(T);
        B && B->getOpcode() == BO_Add && B->getType()->isPointerType()) {
      Terms.push_back(B->getRHS());
      Terms.push_back(B->getLHS());
      continue;
    }
    if (T->getType()->isPointerType()) {
      if (Out.Base)
        return std::nullopt;
      Out.Base = T;
      continue;
    }
    ModelValue V = M.value(T);
    if (!V || !T->getType()->isIntegerType())
      return std::nullopt;
    Out.Idx.Value = Polynomial::add(*Out.Idx.Value, *V.Value);
    if (!Out.Idx.Value)
      return std::nullopt;
    QualType Ty = T->IgnoreParenImpCasts()->getType();
    if (Out.IdxType.isNull() ||
        M.context().getTypeSize(Ty) > M.context().getTypeSize(Out.IdxType))
      Out.IdxType = Ty;
  }
  if (!Out.Base || Out.IdxType.isNull())
    return std::nullopt;
  return Out;
}

/// The naive product, read from the kernel model, and its tiled text.
class MatmulTiler {
public:
  explicit MatmulTiler(const KernelModel &M)
      : M(M), Ctx(M.context()), SM(Ctx.getSourceManager()) {}

  /// The edits, or the reason in Why.
  bool run();

  /// The kernel's new body.
  std::optional<tooling::Replacement> Edit;
  /// The launches' new blocks and grids, when they change.
  std::vector<tooling::Replacement> LaunchEdits;
  std::string Why;

private:
  /// Fills LaunchEdits with blocks of \p T x \p T at every launch and
  /// grids that cover the kernel's bounds with them; false with the reason
  /// in Why when a launch's grid is not known to cover its bounds, or the
  /// kernel reads the block's size other than as blockDim.
  bool relaunch(llvm::ArrayRef<KernelLaunch> Launches, int64_t T) {
    std::optional<PerIndex2DKernel> K = reshapableKernel(M, Why);
    if (!K)
      return false;
    for (const KernelLaunch &L : Launches) {
      std::optional<LaunchFacts> F = launchFacts(M, *K, L, Why);
      if (!F || !coveringLaunch(M, L, *F, T, T, LaunchEdits, Why))
        return false;
    }
    if (!M.blockSizeWhy().empty())
      return refuse(M.blockSizeWhy());
    return true;
  }

  bool refuse(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }
  std::optional<std::string> text(const Expr *E) const {
    return sourceText(Ctx, E);
  }
  /// The text of the side of the guard bound \p B whose value is \p P.
  std::string boundText(const GuardBound &B, const Polynomial &P) const;
  /// The type of the variable that holds the index \p Found, or of the
  /// expression.
  std::string indexType(const std::vector<const Expr *> &Found) const;
  const ModelAccess *accessOf(const Expr *E) const {
    for (const ModelAccess &A : M.accesses())
      if (A.E == E->IgnoreParens())
        return &A;
    return nullptr;
  }

  const KernelModel &M;
  ASTContext &Ctx;
  const SourceManager &SM;
};

std::string MatmulTiler::boundText(const GuardBound &B,
                                   const Polynomial &P) const {
  if (const auto *C = dyn_cast_or_null<BinaryOperator>(B.Cond))
    for (const Expr *Side : {C->getLHS(), C->getRHS()}) {
      ModelValue V = M.value(Side);
      auto T = text(Side);
      if (V && *V.Value == P && T)
        return parenthesize(Side->IgnoreParenImpCasts(), *T);
    }
  return polyText(P);
}

std::string
MatmulTiler::indexType(const std::vector<const Expr *> &Found) const {
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  if (Found.empty())
    return "unsigned int";
  // Declared before the guard, or in the work when there is none.
  for (llvm::ArrayRef<const Stmt *> Part : {M.prologue(), M.work()})
    for (const Stmt *S : Part)
      if (const auto *DS = dyn_cast<DeclStmt>(S))
        for (const Decl *D : DS->decls())
          if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
            for (const Expr *F : Found)
              if (V->getInit()->IgnoreParenImpCasts() == F ||
                  V->getInit()->IgnoreParens() == F)
                return V->getType().getUnqualifiedType().getAsString(PP);
  return Found.front()->getType().getUnqualifiedType().getAsString(PP);
}

bool MatmulTiler::run() {
  if (!M.cooperationWhy().empty())
    return refuse("its threads may depend on each other: " +
                  M.cooperationWhy());
  // The row and column as written, for the types of the tiles' indices.
  // Other reads of the builtins need no check: every thread still computes
  // its own element with the same statements, only A's and B's elements
  // come from the tiles.
  std::vector<const Expr *> U0, U1;
  std::vector<const Expr *> G0 = M.expressionsOfValue(globalIndex(0), U0);
  std::vector<const Expr *> G1 = M.expressionsOfValue(globalIndex(1), U1);
  // A guard bounding both indices, or none: then every thread of the grid
  // stores its element, and the tiles read only rows and columns that
  // some thread of the block reads.
  if (!M.guardWhy().empty())
    return refuse(M.guardWhy());
  const bool Unguarded = M.guardStatements().empty();
  const IfStmt *GS = Unguarded ? nullptr : M.guardStatements().front();
  const auto *Body = cast<CompoundStmt>(M.kernel().getBody());
  // Several guard statements: early returns one after the other, or `if`s
  // each the only statement of the one before; their conditions join.
  bool EarlyExit = GS && isReturnOnly(GS->getThen());
  for (size_t I = 1; I < M.guardStatements().size(); ++I) {
    const IfStmt *Prev = M.guardStatements()[I - 1];
    const IfStmt *Next = M.guardStatements()[I];
    bool Follows = false;
    if (isReturnOnly(Prev->getThen())) {
      auto It = llvm::find(Body->body(), Prev);
      Follows = It != Body->body_end() && std::next(It) != Body->body_end() &&
                *std::next(It) == Next;
    } else {
      std::vector<const Stmt *> Inner = statementsOf(Prev->getThen());
      Follows = Inner.size() == 1 && Inner.front() == Next;
    }
    if (!Follows || Prev->getElse())
      return refuse("the guard's statements at " + M.where(Prev) + " and " +
                    M.where(Next) + " are not one after the other");
  }

  // The work: declarations, the loop over k, what is done to C before and
  // after it.
  std::vector<const Stmt *> Work(M.work().begin(), M.work().end());
  int LI = -1;
  size_t LoopPos = 0;
  for (size_t I = 0; I < Work.size(); ++I) {
    int J = M.loopIndex(Work[I]);
    if (J < 0)
      continue;
    if (LI >= 0)
      return refuse("the work holds more than one loop");
    LI = J;
    LoopPos = I;
  }
  if (LI < 0)
    return refuse("no loop over k follows the guard");
  const ModelLoop &L = M.loops()[LI];
  std::string At = "the loop at " + M.where(L.S);
  if (!L.counted())
    return refuse(L.Why);
  if (!L.First.isZero() || L.Step != Polynomial::constant(1) ||
      !isUniform(L.End))
    return refuse(At + " does not run k from 0 by 1 to a bound fixed for the "
                       "block");
  for (const ModelLoop &O : M.loops())
    if (O.Parent == LI)
      return refuse(At + " holds another loop");
  // The tiles' loops declare their own k.
  if (const DeclRefExpr *DR = M.counterOutside(L))
    return refuse("`" + L.Var->getNameAsString() +
                  "` is read outside the loop at " + M.where(L.S) + ", at " +
                  M.where(DR));
  std::vector<const Stmt *> LoopBody = loopBody(L);
  const ModelReduction *R = nullptr;
  for (const ModelReduction &X : M.reductions())
    if (X.Loop == static_cast<unsigned>(LI) && !LoopBody.empty() &&
        X.Statement == LoopBody.back() && !X.Guard && X.Term && !X.Subtract &&
        X.Combine == "+")
      R = &X;
  // Before the sum, the loop may only name values: `float a = A[...];`,
  // each set once from what the iteration reads and only read after.
  llvm::SmallPtrSet<const VarDecl *, 4> Lets;
  for (size_t I = 0; R && I + 1 < LoopBody.size(); ++I) {
    const auto *DS = dyn_cast<DeclStmt>(LoopBody[I]);
    if (!DS)
      return refuse(At + " does not only add to one sum");
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->hasLocalStorage() || !V->getInit() ||
          V->getType()->isReferenceType() ||
          V->getType().isVolatileQualified() || !V->getType()->isScalarType() ||
          !M.isPure(V->getInit()) ||
          (R->Scalar && mentions(V->getInit(), R->Scalar)) ||
          llvm::any_of(Lets, [&](const VarDecl *Let) {
            return mentions(V->getInit(), Let);
          }))
        return refuse("the declaration at " + M.where(DS) + " in " + At +
                      " does not name a value read in the iteration");
      Lets.insert(V);
    }
  }
  if (!R)
    return refuse(At + " does not only add to one sum");
  auto NamesLet = [&](const Stmt *X) {
    return llvm::any_of(Lets,
                        [&](const VarDecl *Let) { return mentions(X, Let); });
  };
  auto LetOf = [&](const Expr *X) -> const VarDecl * {
    const auto *DR = dyn_cast<DeclRefExpr>(X->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    return V && Lets.contains(V) ? V : nullptr;
  };

  // The term: A[row * K' + k] * B[k * N + col], times factors fixed for
  // the loop; a factor that names a value is its value. Where each load
  // is written in the term: the load, or the name of its value.
  std::vector<const Expr *> Written, Fs;
  factors(R->Term, Written);
  if (R->Factor)
    factors(R->Factor, Written);
  std::map<const Expr *, const Expr *> UseOf;
  for (const Expr *X : Written) {
    const VarDecl *Let = LetOf(X);
    const Expr *Value = Let ? Let->getInit() : nullptr;
    if (!Value && NamesLet(X))
      return refuse(At + " multiplies by `" + M.text(X) +
                    "`, which is neither an element of A or B nor fixed");
    // A named value replaces its name in the tiled loop, which reads it
    // from a tile: it must be one element.
    if (Value && !elementOf(M, Value))
      return refuse("the value `" + M.text(X) + "` in " + At +
                    " is not one element of A or B");
    // Of the element's type: `int a = A[..]` or `double a = A[..]` would
    // change what the product computes.
    if (Value && !M.context().hasSameUnqualifiedType(
                     Let->getType(), Value->IgnoreParenImpCasts()->getType()))
      return refuse("the value `" + M.text(X) + "` in " + At +
                    " converts the element to another type");
    const Expr *F = Value ? Value->IgnoreParenImpCasts() : X;
    Fs.push_back(F);
    UseOf[F] = X;
  }
  std::vector<Element> Loads;
  for (const Expr *X : Fs) {
    if (std::optional<Element> El = elementOf(M, X)) {
      Loads.push_back(*El);
      // The tiles' read replaces the load as written: `A[i]`,
      // `__ldg(&A[i])`, or the name of its value.
      const Expr *Use = UseOf.count(X) ? UseOf[X] : X;
      UseOf[El->E] = Use;
      continue;
    }
    bool Fixed =
        M.isPure(X) && !llvm::any_of(M.accesses(), [&](const ModelAccess &A) {
          return A.E->getBeginLoc() == X->getBeginLoc() ||
                 (SM.isBeforeInTranslationUnit(X->getBeginLoc(),
                                               A.E->getEndLoc()) &&
                  SM.isBeforeInTranslationUnit(A.E->getBeginLoc(),
                                               X->getEndLoc()));
        });
    if (!Fixed || (X->getType()->isIntegerType() &&
                   (!M.value(X) || !isUniform(*M.value(X).Value))))
      return refuse(At + " multiplies by `" + M.text(X) +
                    "`, which is neither an element of A or B nor fixed");
  }
  if (Loads.size() != 2)
    return refuse(At + " does not add products of one element of A and one "
                       "of B");
  Symbol K = Symbol::loopVar(LI, "");
  struct Side {
    const Element *AS = nullptr;
    const ModelAccess *Acc = nullptr;
  } SA, SB;
  unsigned RowDim = 0, ColDim = 0;
  Polynomial StrideA, StrideB;
  // How each load is written: the whole index through a pointer fixed for
  // the block (`A[row * K + k]`, `Ab[...]` with `Ab = A + batch * M * K`),
  // or only k through a pointer to the thread's own row of A (`a[k]` with
  // `a = A + row * K`) or column of B (`b[k * N]` with `b = B + col`).
  // Either matrix may be stored transposed: A[k * M + row] (a product
  // A^T B), B[col * K + k] (A B^T); its tile is then loaded along k.
  bool OwnRowA = false, OwnColB = false, TransA = false, TransB = false;
  // For a pointer to the thread's own row or column that the tiles' loads
  // cannot use: what the parameter's index adds to row, col and k.
  std::optional<Polynomial> RestA, RestB;
  bool Found = false;
  // The index Outer * Stride + Inner, with Stride fixed for the block and
  // not zero: the stride, or nullopt.
  auto StrideOf = [&](const Polynomial &I, const Polynomial &Outer,
                      const Symbol &OuterSym, const Polynomial &Inner,
                      const Symbol &InnerSym) -> std::optional<Polynomial> {
    auto One = I.coefficient(InnerSym);
    auto S = I.coefficient(OuterSym);
    if (!One || *One != Polynomial::constant(1) || !S || !isUniform(*S) ||
        S->isZero())
      return std::nullopt;
    auto Want = Polynomial::add(*Polynomial::mul(Outer, *S), Inner);
    auto Rest = Want ? Polynomial::sub(I, *Want) : std::nullopt;
    if (!Rest || !isUniform(*Rest))
      return std::nullopt;
    return S;
  };
  const Polynomial KP = Polynomial::symbol(K);
  // Whether the kernel writes an element row * ldc + col of some matrix,
  // row along \p D and col along the other: which reading of the loads is
  // the product's (As[i * n + c] * x[r * k + i] is A^T B^T with rows along
  // c, or A B with rows along r).
  auto WritesC = [&](unsigned D) {
    return llvm::any_of(M.accesses(), [&](const ModelAccess &A) {
      return A.Write && isElementOfC(A, D);
    });
  };
  for (bool Swap : {false, true}) {
    const Element *AE = &Loads[Swap], *BE = &Loads[!Swap];
    const ModelAccess *AAcc = accessOf(AE->E), *BAcc = accessOf(BE->E);
    const ModelValue &VA = AE->Idx, &VB = BE->Idx;
    if (!VA || !VB || !AAcc || !BAcc || !AAcc->Index || !BAcc->Index)
      continue;
    // The indices from the start of the arrays.
    const Polynomial &IA = *AAcc->Index, &IB = *BAcc->Index;
    for (unsigned D : {1u, 0u}) {
      unsigned E = 1 - D;
      const Polynomial GR = globalIndex(D), GC = globalIndex(E);
      if (!WritesC(D))
        continue;
      for (bool TA : {false, true}) {
        for (bool TB : {false, true}) {
          // A: row * SA + k, or k * SA + row; B: k * SB + col, or
          // col * SB + k.
          auto SAx = TA ? StrideOf(IA, KP, K, GR, Symbol::threadIdx(D))
                        : StrideOf(IA, GR, Symbol::threadIdx(D), KP, K);
          auto SBx = TB ? StrideOf(IB, GC, Symbol::threadIdx(E), KP, K)
                        : StrideOf(IB, KP, K, GC, Symbol::threadIdx(E));
          if (!SAx || !SBx)
            continue;
          auto WantA = TA ? Polynomial::add(*Polynomial::mul(KP, *SAx), GR)
                          : Polynomial::add(*Polynomial::mul(GR, *SAx), KP);
          auto WantB = TB ? Polynomial::add(*Polynomial::mul(GC, *SBx), KP)
                          : Polynomial::add(*Polynomial::mul(KP, *SBx), GC);
          if (!WantA || !WantB)
            continue;
          // A thread loads a row of A's tile along threadIdx.y, or along x
          // when A is transposed; a column of B's along x, or y when B is
          // transposed. A pointer to the thread's own row or column serves
          // those loads only when they follow the thread's own index.
          auto KA = Polynomial::mul(KP, *SAx), KB = Polynomial::mul(KP, *SBx);
          // Otherwise the tiles read the parameter itself, at the index
          // from its start.
          bool RowA = TA ? KA && *VA.Value == *KA : *VA.Value == KP;
          bool ColB = TB ? *VB.Value == KP : KB && *VB.Value == *KB;
          if ((*VA.Value != *WantA && !RowA) || (*VB.Value != *WantB && !ColB))
            continue;
          bool RebaseA = *VA.Value != *WantA && (TA ? D != 0 : D != 1);
          bool RebaseB = *VB.Value != *WantB && (TB ? E != 1 : E != 0);
          auto Named = [](const ModelAccess *X) {
            return X->Array && !X->Shared && isa<ParmVarDecl>(X->Array.var());
          };
          if ((RebaseA && !Named(AAcc)) || (RebaseB && !Named(BAcc)))
            continue;
          SA = {AE, AAcc};
          SB = {BE, BAcc};
          RowDim = D;
          ColDim = E;
          StrideA = *SAx;
          StrideB = *SBx;
          OwnRowA = *VA.Value != *WantA && !RebaseA;
          OwnColB = *VB.Value != *WantB && !RebaseB;
          if (RebaseA)
            RestA = Polynomial::sub(IA, *WantA);
          if (RebaseB)
            RestB = Polynomial::sub(IB, *WantB);
          TransA = TA;
          TransB = TB;
          Found = true;
          break;
        }
        if (Found)
          break;
      }
      if (Found)
        break;
    }
    if (Found)
      break;
  }
  if (!Found) {
    // Indices of the right form, as written, through a pointer that moves
    // otherwise (`Ar = A + row`): say so.
    for (bool Swap : {false, true})
      for (unsigned D : {1u, 0u}) {
        const Element *AE = &Loads[Swap], *BE = &Loads[!Swap];
        const ModelValue &VA = AE->Idx, &VB = BE->Idx;
        if (!VA || !VB)
          continue;
        auto SAx = VA.Value->coefficient(Symbol::threadIdx(D));
        auto SBx = VB.Value->coefficient(K);
        if (!SAx || SAx->isZero() || !SBx || SBx->isZero())
          continue;
        auto WantA = Polynomial::add(*Polynomial::mul(globalIndex(D), *SAx),
                                     Polynomial::symbol(K));
        auto WantB = Polynomial::add(
            *Polynomial::mul(Polynomial::symbol(K), *SBx), globalIndex(1 - D));
        if (!WantA || !WantB || *WantA != *VA.Value || *WantB != *VB.Value)
          continue;
        for (const Element *X : {AE, BE}) {
          const ModelAccess *XA = accessOf(X->E);
          const ModelValue &W = X->Idx;
          auto Offset = XA && XA->Index ? Polynomial::sub(*XA->Index, *W.Value)
                                        : std::nullopt;
          if (!Offset || !isUniform(*Offset))
            return refuse("the pointer `" + M.text(X->Base) + "` at " +
                          M.where(X->E) +
                          " moves with the thread: the tiles "
                          "need one matrix per block");
        }
      }
  }
  if (!Found || !SA.Acc || !SB.Acc || !SA.Acc->Array || !SB.Acc->Array)
    return refuse(At + " does not read A[row * K + k] (or A[k * M + row]) "
                       "and B[k * N + col] (or B[col * K + k]) with row and "
                       "col the global indices along y and x (or x and y)");

  // C: the element the loop accumulates, or the one the sum is stored in.
  const Polynomial Row = globalIndex(RowDim), Col = globalIndex(ColDim);
  // The thread stores it itself, as written, so any pointer may reach it
  // (`c = C + row * N; c[col]`): its index from the array's start is what
  // counts, row * ldc + col with any row length ldc, up to an offset fixed
  // for the block (a batch's matrix).
  auto IsC = [&](const Expr *E) -> const ModelAccess * {
    std::optional<Element> El = elementOf(M, E);
    const ModelAccess *A = El ? accessOf(El->E) : nullptr;
    return A && isElementOfC(*A, RowDim) ? A : nullptr;
  };
  const ModelAccess *C = nullptr;
  std::vector<const Stmt *> Before, After;
  const VarDecl *AccVar = R->Scalar;
  bool AccInPrologue = false;
  // The sum's value when the loop starts: zero.
  const Expr *AccStart = nullptr;
  std::vector<const DeclStmt *> Moved;
  for (size_t I = 0; I < Work.size(); ++I) {
    if (I == LoopPos)
      continue;
    const Stmt *S = Work[I];
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      // After the loop, under the guard as before, with the stores.
      if (I > LoopPos) {
        if (!M.isPure(DS))
          return refuse("the declaration at " + M.where(S) +
                        " after the loop over k has side effects");
        After.push_back(S);
        continue;
      }
      bool IsAcc =
          AccVar && DS->isSingleDecl() && DS->getSingleDecl() == AccVar;
      // `int k;` of a loop that sets k: the tiles' loop declares its own.
      bool IsLoopVar = !L.DeclaredByLoop && DS->isSingleDecl() &&
                       DS->getSingleDecl() == L.Var &&
                       llvm::none_of(Work, [&](const Stmt *O) {
                         return O != DS && O != L.S && mentions(O, L.Var);
                       });
      if (IsAcc || IsLoopVar)
        continue;
      bool Reads = llvm::any_of(M.accesses(), [&](const ModelAccess &A) {
        return SM.isBeforeInTranslationUnit(DS->getBeginLoc(),
                                            A.E->getBeginLoc()) &&
               SM.isBeforeInTranslationUnit(A.E->getEndLoc(), DS->getEndLoc());
      });
      if (!M.isPure(DS) || Reads)
        return refuse("the declaration at " + M.where(S) +
                      " reads memory or has side effects: every thread "
                      "would run it, also outside the matrices");
      if (AccVar && mentions(DS, AccVar))
        return refuse("the declaration at " + M.where(S) + " reads the sum `" +
                      AccVar->getNameAsString() + "` before the loop");
      Moved.push_back(DS);
      continue;
    }
    const auto *B = dyn_cast<BinaryOperator>(S);
    // `acc = 0;` before the loop gives the sum its start (valueOnEntry()
    // below); the tiled code sets it again.
    if (AccVar && I < LoopPos && B && B->getOpcode() == BO_Assign &&
        M.isLocalSet(S) && isReferenceTo(B->getLHS(), AccVar))
      continue;
    const ModelAccess *T =
        B && B->isAssignmentOp() ? IsC(B->getLHS()) : nullptr;
    if (!T || !M.isPure(B->getRHS()))
      return refuse("the statement at " + M.where(S) +
                    " is neither a declaration, the loop over k nor a store "
                    "of the product's element");
    if (C && C->Array != T->Array)
      return refuse("the statement at " + M.where(S) +
                    " stores to another matrix");
    C = T;
    (I < LoopPos ? Before : After).push_back(S);
  }
  if (R->Element >= 0) {
    const ModelAccess &E = M.accesses()[R->Element];
    if (C && (C->Array != E.Array))
      return refuse("the loop accumulates into another matrix than the one "
                    "stored");
    C = IsC(E.E);
    if (!C)
      return refuse(At + " accumulates into an element other than "
                         "C[row * N + col]");
    if (!After.empty())
      return refuse("the statement at " + M.where(After.front()) +
                    " follows the loop that accumulates into C");
  } else {
    auto DeclaredIn = [&](llvm::ArrayRef<const Stmt *> Stmts) {
      return llvm::any_of(Stmts, [&](const Stmt *S) {
        const auto *DS = dyn_cast<DeclStmt>(S);
        return DS && DS->isSingleDecl() && DS->getSingleDecl() == AccVar;
      });
    };
    // Declared before the guard, the sum is read nowhere else there.
    AccInPrologue =
        DeclaredIn(M.prologue()) &&
        llvm::none_of(M.prologue(), [&](const Stmt *S) {
          const auto *DS = dyn_cast<DeclStmt>(S);
          return !(DS && DS->isSingleDecl() && DS->getSingleDecl() == AccVar) &&
                 mentions(S, AccVar);
        });
    AccStart = valueOnEntry(Ctx, *AccVar, *L.S);
    if (!AccStart || !isConstantZero(Ctx, AccStart) ||
        (!DeclaredIn(Work) && !AccInPrologue))
      return refuse("the sum `" + AccVar->getNameAsString() +
                    "` is not declared after the guard starting at zero");
    size_t AfterStores =
        llvm::count_if(After, [](const Stmt *S) { return !isa<DeclStmt>(S); });
    if (!Before.empty() || AfterStores != 1 || !C)
      return refuse("the sum is not stored once, after the loop, into "
                    "C[row * N + col]");
  }
  if (C->Array == SA.Acc->Array || C->Array == SB.Acc->Array)
    return refuse("C is A or B");
  QualType Elem = C->E->getType().getCanonicalType().getUnqualifiedType();
  if (Elem != Ctx.FloatTy && Elem != Ctx.DoubleTy)
    return refuse("the matrices hold neither float nor double");
  for (const Element *X : {SA.AS, SB.AS})
    if (X->E->getType().getCanonicalType().getUnqualifiedType() != Elem ||
        X->E->getType().isVolatileQualified())
      return refuse("A, B and C do not hold one element type");
  if (AccVar && AccVar->getType().getCanonicalType() != Elem)
    return refuse("the sum's type is not the matrices' element type");

  // The guard: row < M and col < N (or row <= M - 1, col <= N - 1), each
  // bound fixed for the block.
  const GuardBound *MB = nullptr, *NB = nullptr;
  std::optional<Polynomial> MEnd, NEnd;
  for (const GuardBound &G : M.guard()) {
    std::optional<Polynomial> End = exclusiveBound(G);
    if (End && G.Lhs == Row && isUniform(*End) && !MB) {
      MB = &G;
      MEnd = End;
    } else if (End && G.Lhs == Col && isUniform(*End) && !NB) {
      NB = &G;
      NEnd = End;
    } else
      return refuse("the guard at " + M.where(GS) +
                    " is not exactly row < M and col < N");
  }
  if (!Unguarded && (!MB || !NB))
    return refuse("the guard at " + M.where(GS) +
                  " does not bound both the row and the column");

  // Every launch: the same constant block (T, T) with T 16 or 32; else
  // every launch gets blocks of 16 x 16 and a grid that covers the bounds.
  const auto &Launches = M.launches();
  if (!Launches)
    return refuse(M.launchWhy());
  if (Launches->empty())
    return refuse("it is never launched in this translation unit");
  std::optional<int64_t> T;
  for (const KernelLaunch &KL : *Launches) {
    auto Bl = constantDims(Ctx, KL.Block);
    if (!Bl || (*Bl)[0] != (*Bl)[1] || (*Bl)[2] != 1 ||
        ((*Bl)[0] != 16 && (*Bl)[0] != 32) || (T && *T != (*Bl)[0])) {
      if (!relaunch(*Launches, 16))
        return refuse("its launches neither share a square constant block of "
                      "16 x 16 or 32 x 32 threads nor can take blocks of "
                      "16 x 16: " +
                      Why);
      T = 16;
      break;
    }
    T = (*Bl)[0];
  }

  // Moved declarations and the sum leave the guarded block: no name of
  // theirs may be a parameter's or a prologue variable's.
  if (!EarlyExit && !Unguarded) {
    std::vector<const VarDecl *> Names;
    for (const DeclStmt *DS : Moved)
      for (const Decl *D : DS->decls())
        Names.push_back(cast<VarDecl>(D));
    if (AccVar && !AccInPrologue)
      Names.push_back(AccVar);
    for (const VarDecl *V : Names) {
      for (const ParmVarDecl *P : M.kernel().parameters())
        if (P->getName() == V->getName())
          return refuse("`" + V->getNameAsString() +
                        "` would leave the guarded block and hide a "
                        "parameter");
      for (const Stmt *S : M.prologue())
        if (const auto *DS = dyn_cast<DeclStmt>(S))
          for (const Decl *D : DS->decls())
            if (const auto *P = dyn_cast<VarDecl>(D);
                P && P->getName() == V->getName())
              return refuse("`" + V->getNameAsString() +
                            "` would leave the guarded block and hide "
                            "another variable");
    }
  }

  // The texts.
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  // The guard as one condition: true for the threads that store.
  std::optional<std::string> Guard = std::string();
  bool EveryEarly = true;
  for (const IfStmt *G : M.guardStatements())
    EveryEarly &= isReturnOnly(G->getThen());
  if (Unguarded) {
    // No condition: every thread stores.
  } else if (M.guardStatements().size() == 1) {
    Guard = text(GS->getCond());
  } else {
    for (const IfStmt *G : M.guardStatements()) {
      std::optional<std::string> C = text(G->getCond());
      if (!C) {
        Guard.reset();
        break;
      }
      bool Early = isReturnOnly(G->getThen());
      // Early returns all: the store runs unless one holds.
      std::string Part = EveryEarly ? "(" + *C + ")"
                         : Early    ? "!(" + *C + ")"
                                    : "(" + *C + ")";
      *Guard += (Guard->empty() ? "" : EveryEarly ? " || " : " && ") + Part;
    }
    EarlyExit = EveryEarly;
  }
  // A pointer written as a sum (`*(A + r * K + k)`) is parenthesized.
  // A helper's struct argument gets its field.
  auto BaseText = [&](const Element &X) -> std::optional<std::string> {
    auto T = text(X.Base);
    if (!T)
      return std::nullopt;
    std::string P = parenthesize(X.Base->IgnoreParenImpCasts(), *T);
    return X.Field ? P + "." + X.Field->getNameAsString() : P;
  };
  auto ABase = RestA ? SA.Acc->Array.name() : BaseText(*SA.AS);
  auto BBase = RestB ? SB.Acc->Array.name() : BaseText(*SB.AS);
  // The edit replaces the kernel's body from the guard (or, without one,
  // the work) to its end.
  SourceLocation Start = GS ? GS->getBeginLoc() : Work.front()->getBeginLoc();
  if (!Guard || !ABase || !BBase || !Start.isFileID())
    return refuse("the product is written through a macro");
  std::string Ind = lineIndent(SM, Start);
  std::string In2 = Ind + "  ";
  std::string TS = std::to_string(*T);
  // The element type as the kernel spells it: a template's `T` stays `T`.
  std::string E = spelledType(Ctx, C->E->getType());
  std::string Zero = E != Elem.getAsString(PP) ? E + "(0)"
                     : Elem == Ctx.FloatTy     ? "0.0f"
                                               : "0.0";
  std::vector<const Expr *> RowE = RowDim == 1 ? G1 : G0;
  std::vector<const Expr *> ColE = ColDim == 1 ? G1 : G0;
  std::string RT = indexType(RowE), CT = indexType(ColE);
  std::string IT = L.Var->getType().getUnqualifiedType().getAsString(PP);
  auto Fresh = [&](StringRef Base) { return freshName(M.kernel(), Base); };
  std::string As = Fresh("As"), Bs = Fresh("Bs"), K0 = Fresh("K0");
  std::string ARow = Fresh("ARow"), AK = Fresh("AK"), BK = Fresh("BK");
  std::string BCol = Fresh("BCol");
  std::string Acc = AccVar ? AccVar->getNameAsString() : Fresh("Acc");
  std::string I = L.Var->getNameAsString();
  std::string KText =
      L.EndExpr && M.value(L.EndExpr) && *M.value(L.EndExpr).Value == L.End &&
              text(L.EndExpr)
          ? parenthesize(L.EndExpr->IgnoreParenImpCasts(), *text(L.EndExpr))
          : polyText(L.End);
  std::string MText = MB ? boundText(*MB, *MEnd) : "";
  std::string NText = NB ? boundText(*NB, *NEnd) : "";
  // A stride as written where it is one of the bounds.
  // A stride as written where it is one of the bounds, the row length of
  // the matrix as stored first (K for A, N for B; M for A^T, K for B^T).
  auto StrideText = [&](const Polynomial &S, char First) {
    std::pair<char, const std::optional<Polynomial> *> Order[] = {
        {'K', nullptr}, {'M', &MEnd}, {'N', &NEnd}};
    std::stable_partition(std::begin(Order), std::end(Order),
                          [&](const auto &X) { return X.first == First; });
    for (const auto &[Name, End] : Order) {
      if (!End && S == L.End)
        return KText;
      if (End && *End && S == **End)
        return Name == 'M' ? MText : NText;
    }
    return polyText(S);
  };
  std::string SAText = StrideText(StrideA, TransA ? 'M' : 'K');
  std::string SBText = StrideText(StrideB, TransB ? 'K' : 'N');
  char RD = "xyz"[RowDim], CD = "xyz"[ColDim];
  // A row of As is read across a warp when rows follow threadIdx.x: pad it.
  // A tile loaded along k is written by columns: pad it too.
  std::string APad = RowDim == 0 || TransA ? TS + " + 1" : TS;
  std::string BPad = TransB ? TS + " + 1" : TS;
  std::string ARead = As + "[threadIdx." + RD + "][" + I + "]";
  std::string BRead = Bs + "[" + I + "][threadIdx." + CD + "]";
  auto CastTo = [&](QualType Idx) {
    return Ctx.getTypeSize(Idx) > 32 ? "(" + Idx.getAsString(PP) + ")"
                                     : std::string();
  };
  // The parameter itself is indexed in `size_t`: the pointer's offset may
  // have been computed so.
  std::string ACast = RestA ? "(size_t)" : CastTo(SA.AS->IdxType);
  std::string BCast = RestB ? "(size_t)" : CastTo(SB.AS->IdxType);
  auto Plus = [](const std::optional<Polynomial> &Rest) {
    return Rest && !Rest->isZero() ? " + " + polyText(*Rest) : std::string();
  };
  // The term (and a fused multiply-add's second factor) with the two loads
  // read from the tiles.
  std::vector<std::pair<const Expr *, std::string>> Subs = {
      {UseOf.count(SA.AS->E) ? UseOf[SA.AS->E] : SA.AS->E, ARead},
      {UseOf.count(SB.AS->E) ? UseOf[SB.AS->E] : SB.AS->E, BRead}};
  llvm::sort(Subs, [&](const auto &X, const auto &Y) {
    return SM.isBeforeInTranslationUnit(Y.first->getBeginLoc(),
                                        X.first->getBeginLoc());
  });
  auto FromTiles = [&](const Expr *Part) -> std::optional<std::string> {
    auto Out = text(Part);
    if (!Out)
      return std::nullopt;
    unsigned Begin = SM.getFileOffset(SM.getFileLoc(Part->getBeginLoc()));
    for (const auto &[X, New] : Subs) {
      if (!isWithin(Ctx, X, Part))
        continue;
      auto Old = text(X);
      if (!Old || !X->getBeginLoc().isFileID() ||
          SM.getFileOffset(X->getBeginLoc()) < Begin)
        return std::nullopt;
      unsigned Off = SM.getFileOffset(X->getBeginLoc()) - Begin;
      if (Off + Old->size() > Out->size())
        return std::nullopt;
      Out->replace(Off, Old->size(), New);
    }
    return Out;
  };
  auto NewTerm = FromTiles(R->Term);
  auto NewFactor =
      R->Factor ? FromTiles(R->Factor) : std::optional<std::string>("");
  if (!NewTerm || !NewFactor)
    return refuse("the product is written through a macro");
  std::string Update = R->Fused.empty()
                           ? Acc + " += " + *NewTerm
                           : Acc + " = " + R->Fused + "(" + *NewTerm + ", " +
                                 *NewFactor + ", " + Acc + ")";

  std::string Txt;
  // A pointer the tiles no longer read through, named nowhere else, is
  // not declared again: it would be unused.
  auto OnlyInRebased = [&](const DeclStmt *D) {
    const auto *V =
        D->isSingleDecl() ? dyn_cast<VarDecl>(D->getSingleDecl()) : nullptr;
    if (!V)
      return false;
    size_t InLoads = 0;
    for (auto [Rest, X] : {std::pair(&RestA, SA.AS), std::pair(&RestB, SB.AS)})
      if (*Rest)
        InLoads += referencesTo(X->E, V).size();
    return InLoads && InLoads == referencesTo(Body, V).size();
  };
  for (const DeclStmt *D : Moved) {
    if (OnlyInRebased(D))
      continue;
    CharSourceRange CR = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(D->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (CR.isInvalid())
      return refuse("the declaration at " + M.where(D) +
                    " is written through a macro");
    Txt += Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str() + "\n" + Ind;
  }
  auto AccInit = AccVar ? text(AccStart) : std::optional<std::string>(Zero);
  if (!AccInit)
    return refuse("the sum starts through a macro");
  Txt += "// " + TS + " x " + TS +
         " tiles of A and B in shared memory: each thread loads one\n";
  Txt += Ind + "// element of each (zero outside the matrices) and every "
               "thread reaches\n";
  Txt += Ind + "// the barriers; the sum keeps the order of k.\n";
  Txt += Ind + "__shared__ " + E + " " + As + "[" + TS + "][" + APad + "];\n";
  Txt += Ind + "__shared__ " + E + " " + Bs + "[" + TS + "][" + BPad + "];\n";
  // A sum declared before the guard at zero is already there; one set
  // to zero after its declaration is set again.
  if (!AccInPrologue)
    Txt += Ind + E + " " + Acc + " = " + *AccInit + ";\n";
  else if (AccStart != AccVar->getInit())
    Txt += Ind + Acc + " = " + *AccInit + ";\n";
  Txt += Ind + "for (" + IT + " " + K0 + " = 0; " + K0 + " < " + KText + "; " +
         K0 + " += " + TS + ") {\n";
  // Consecutive threads along x load consecutive elements: along k for
  // A (along its rows when it is transposed), along B's columns (along k
  // when it is transposed).
  std::string AlongK = TransA ? "threadIdx.y" : "threadIdx.x";
  std::string AlongM = TransA ? "threadIdx.x" : "threadIdx.y";
  std::string BAlongK = TransB ? "threadIdx.x" : "threadIdx.y";
  std::string BAlongN = TransB ? "threadIdx.y" : "threadIdx.x";
  Txt += In2 + RT + " " + ARow + " = blockIdx." + RD + " * " + TS + " + " +
         AlongM + ";\n";
  Txt += In2 + IT + " " + AK + " = " + K0 + " + " + AlongK + ";\n";
  Txt += In2 + IT + " " + BK + " = " + K0 + " + " + BAlongK + ";\n";
  Txt += In2 + CT + " " + BCol + " = blockIdx." + CD + " * " + TS + " + " +
         BAlongN + ";\n";
  std::string AIdx =
      TransA ? (OwnRowA ? ACast + AK + " * " + SAText
                        : ACast + AK + " * " + SAText + " + " + ARow)
             : (OwnRowA ? AK : ACast + ARow + " * " + SAText + " + " + AK);
  AIdx += Plus(RestA);
  std::string BIdx =
      TransB ? (OwnColB ? BK : BCast + BCol + " * " + SBText + " + " + BK)
             : BCast + BK + " * " + SBText + (OwnColB ? "" : " + " + BCol);
  BIdx += Plus(RestB);
  Txt += In2 + As + "[" + AlongM + "][" + AlongK + "] =\n";
  Txt += In2 + "    " + (MB ? ARow + " < " + MText + " && " : "") + AK + " < " +
         KText + " ? " + *ABase + "[" + AIdx + "] : " + Zero + ";\n";
  Txt += In2 + Bs + "[" + BAlongK + "][" + BAlongN + "] =\n";
  Txt += In2 + "    " + BK + " < " + KText +
         (NB ? " && " + BCol + " < " + NText : "") + " ? " + *BBase + "[" +
         BIdx + "] : " + Zero + ";\n";
  Txt += In2 + "__syncthreads();\n";
  Txt += In2 + "for (" + IT + " " + I + " = 0; " + I + " < " + TS + " && " +
         K0 + " + " + I + " < " + KText + "; ++" + I + ")\n";
  Txt += In2 + "  " + Update + ";\n";
  Txt += In2 + "__syncthreads();\n";
  Txt += Ind + "}\n";
  if (!Unguarded)
    Txt += Ind + (EarlyExit ? "if (!(" + *Guard + "))" : "if (" + *Guard + ")");
  std::vector<std::string> Stores;
  for (const Stmt *S : Before) {
    auto X = text(cast<Expr>(S));
    if (!X)
      return refuse("the statement at " + M.where(S) +
                    " is written through a macro");
    Stores.push_back(*X + ";");
  }
  if (R->Element >= 0) {
    auto CT2 = text(M.accesses()[R->Element].E);
    if (!CT2)
      return refuse("C is written through a macro");
    Stores.push_back(*CT2 + " += " + Acc + ";");
  }
  for (const Stmt *S : After) {
    if (isa<DeclStmt>(S)) {
      CharSourceRange CR = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(S->getSourceRange()), SM,
          Ctx.getLangOpts());
      if (CR.isInvalid())
        return refuse("the declaration at " + M.where(S) +
                      " is written through a macro");
      Stores.push_back(Lexer::getSourceText(CR, SM, Ctx.getLangOpts()).str());
      continue;
    }
    auto X = text(cast<Expr>(S));
    if (!X)
      return refuse("the statement at " + M.where(S) +
                    " is written through a macro");
    Stores.push_back(*X + ";");
  }
  if (Unguarded) {
    for (size_t I = 0; I < Stores.size(); ++I)
      Txt += (I ? "\n" : "") + Ind + Stores[I];
  } else if (Stores.size() == 1) {
    Txt += "\n" + In2 + Stores.front();
  } else {
    Txt += " {\n";
    for (const std::string &X : Stores)
      Txt += In2 + X + "\n";
    Txt += Ind + "}";
  }

  unsigned Begin = SM.getFileOffset(Start);
  unsigned End = SM.getFileOffset(Body->getRBracLoc());
  StringRef Buffer = SM.getBufferData(SM.getFileID(Start));
  StringRef Between = Buffer.substr(Begin, End - Begin).rtrim();
  Edit = tooling::Replacement(SM, Start, Between.size(), Txt);
  return true;
}

} // namespace

StringRef TileMatmulSmem::name() const { return "tile-matmul-smem"; }

StringRef TileMatmulSmem::description() const {
  return "stage the naive product acc += A[row * K + k] * B[k * N + col] "
         "(either matrix may be transposed) through T x T __shared__ tiles of "
         "A and B";
}

bool TileMatmulSmem::precondition(const KernelRecord &K) const {
  return hasIndependentThreads(K);
}

static const MetricCondition Conditions[] = {
    // Warps wait on their global loads: the naive matmuls of the corpus
    // stall 23-44 cycles on the long scoreboard per issued instruction (one
    // pass to collect).
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
     "ratio",
     ">=", 10},
    // Re-reads that hit L1 still saturate it: the naive matmuls of the
    // corpus run L1 at 67-99% of its peak with hit rates near 90%.
    {"l1tex__throughput.avg.pct_of_peak_sustained_active", ">=", 60},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed", ">=", 50},
    {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", ">=", 50},
    {"l1tex__t_sector_hit_rate.pct", "<", 50},
    {"derived__global_excess_sectors_pct", ">", 25}};

std::vector<std::string> TileMatmulSmem::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
TileMatmulSmem::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error TileMatmulSmem::apply(const KernelModel &M, FileEdits &Out) const {
  MatmulTiler T(M);
  if (!T.run())
    return Error::success();
  if (Error E = addEdit(*T.Edit, Out))
    return E;
  return addEdits(T.LaunchEdits, Out);
}

std::string TileMatmulSmem::explain(const KernelModel &M) const {
  MatmulTiler T(M);
  return T.run() ? "" : T.Why;
}
