//===- WarpShuffleReduce.cpp - Finish tree reductions with shuffles -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffleReduce.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <set>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

bool isBarrier(const Stmt *S) {
  const auto *CE = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == "__syncthreads" &&
         CE->getNumArgs() == 0;
}

bool containsExit(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (containsExit(C))
      return true;
  return false;
}

const Stmt *parentOf(ASTContext &Ctx, const Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
}

/// The subscript `A[i]` whose base is the reference \p DR, or null.
const ArraySubscriptExpr *subscriptOf(ASTContext &Ctx, const DeclRefExpr *DR) {
  const Stmt *P = parentOf(Ctx, DR);
  const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(P);
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return nullptr;
  const auto *AS = dyn_cast_or_null<ArraySubscriptExpr>(parentOf(Ctx, Decay));
  return AS && AS->getBase() == Decay ? AS : nullptr;
}

/// The shuffle rewrite of one tree-reduction loop.
struct TreeLoop {
  /// The `for` or `while` loop.
  const Stmt *Loop = nullptr;
  const VarDecl *Var = nullptr;
  /// Whether the loop halves its variable from half the block down to 1
  /// (sequential addressing); else it doubles it from 1 (interleaved or
  /// strided).
  bool Halves = false;
  /// Whether the element of a thread is 2 * s * t (strided), not t.
  bool Strided = false;
  const IfStmt *If = nullptr;
  const VarDecl *Array = nullptr;
  /// Empty for a sum, else the function that combines two values.
  std::string Combine;
  /// The element's and the partner's index expressions in the update.
  std::vector<const Expr *> ElementIdx;
  const Expr *PartnerIdx = nullptr;
  /// A local of the loop's body that holds the element's index, when the
  /// update reads the element through it and the partner as `I + s`.
  const VarDecl *IndexVar = nullptr;
  /// How the thread's index is written after the loop.
  std::string Tid;
};

/// Finds the tree reductions of a kernel on its model.
class TreeFinder {
public:
  explicit TreeFinder(const KernelModel &M) : M(M), Ctx(M.context()) {}

  /// The loops to rewrite, or an empty list with the reason in Why.
  std::vector<TreeLoop> find();
  std::string Why;

private:
  bool launchBlocks();
  std::optional<TreeLoop> match(llvm::ArrayRef<const Stmt *> Body, size_t I);
  bool matchUpdate(const Stmt *S, TreeLoop &T, const Symbol &Sym,
                   std::string &W);
  bool isBlockSize(const Polynomial &P) const;
  bool isThread(const Expr *E) const;
  bool valueIs(const Expr *E, const Polynomial &P) const;
  const ModelAccess *accessAt(const Expr *E) const;
  bool readsOnlyFirst(llvm::ArrayRef<const Stmt *> Rest, const VarDecl *A);
  std::string tidText(const TreeLoop &T, llvm::ArrayRef<const Stmt *> Before);

  const KernelModel &M;
  ASTContext &Ctx;
  /// The constant block sizes of the launches.
  std::set<int64_t> Blocks;
};

bool TreeFinder::launchBlocks() {
  const std::vector<KernelLaunch> *Launches = M.someLaunches(Why);
  if (!Launches)
    return false;
  for (const KernelLaunch &L : *Launches) {
    std::string At = "the launch at " + M.where(L.Call);
    std::optional<Dim3> B = constantDims(Ctx, L.Block);
    if (!B) {
      Why = At + " has a block that is not a compile-time constant";
      return false;
    }
    if ((*B)[1] != 1 || (*B)[2] != 1) {
      Why = At + " has a block of more than one dimension";
      return false;
    }
    int64_t N = (*B)[0];
    if (N < 64 || N > 1024 || (N & (N - 1))) {
      Why = At + " has blocks of " + std::to_string(N) +
            " threads, not a power of two from 64 to 1024";
      return false;
    }
    Blocks.insert(N);
  }
  return true;
}

bool TreeFinder::valueIs(const Expr *E, const Polynomial &P) const {
  ModelValue V = M.value(E);
  return V && *V.Value == P;
}

bool TreeFinder::isThread(const Expr *E) const {
  return valueIs(E, Polynomial::symbol(Symbol::threadIdx(0)));
}

/// Whether \p P is the block size: blockDim.x, or the constant that every
/// launch's block has.
bool TreeFinder::isBlockSize(const Polynomial &P) const {
  if (P == Polynomial::symbol(Symbol::blockDim(0)))
    return true;
  std::optional<int64_t> C = P.constantValue();
  return C && Blocks.size() == 1 && *Blocks.begin() == *C;
}

const ModelAccess *TreeFinder::accessAt(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  for (const ModelAccess &A : M.accesses())
    if (A.E == E)
      return &A;
  return nullptr;
}

/// Matches the update `A[e] += A[p]`, `A[e] = A[e] + A[p]` or
/// `A[e] = f(A[e], A[p])` (either order; f a minimum or maximum) of a
/// `__shared__` array A with p = e + s, s the loop's variable.
bool TreeFinder::matchUpdate(const Stmt *S, TreeLoop &T, const Symbol &Sym,
                             std::string &W) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(S);
  W = "the update at " + (S ? M.where(S) : std::string("the loop")) +
      " is not `A[i] += A[i + " + T.Var->getNameAsString() +
      "]` or `A[i] = f(A[i], A[i + " + T.Var->getNameAsString() +
      "])` with f a minimum or maximum";
  if (!B || (B->getOpcode() != BO_AddAssign && B->getOpcode() != BO_Assign))
    return false;
  const ModelAccess *Elem = accessAt(B->getLHS());
  // The element as `A[i]`: the edit rewrites its index.
  if (!Elem || !Elem->Index || !Elem->Array ||
      !isa<ArraySubscriptExpr>(Elem->E))
    return false;
  std::vector<const Expr *> Operands;
  const Expr *RHS = B->getRHS()->IgnoreParenImpCasts();
  if (B->getOpcode() == BO_AddAssign) {
    Operands = {RHS};
  } else if (const auto *Add = dyn_cast<BinaryOperator>(RHS);
             Add && Add->getOpcode() == BO_Add) {
    Operands = {Add->getLHS(), Add->getRHS()};
  } else if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 2 ||
        !FD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
        !llvm::is_contained({"fmaxf", "fminf", "fmax", "fmin", "max", "min"},
                            FD->getName()))
      return false;
    T.Combine = FD->getName().str();
    Operands = {Call->getArg(0), Call->getArg(1)};
  } else {
    return false;
  }
  std::optional<Polynomial> Partner =
      Polynomial::add(*Elem->Index, Polynomial::symbol(Sym));
  if (!Partner)
    return false;
  if (Elem->Array.field())
    return false;
  T.Array = Elem->Array.var();
  T.ElementIdx = {cast<ArraySubscriptExpr>(Elem->E)->getIdx()};
  T.PartnerIdx = nullptr;
  for (const Expr *O : Operands) {
    const ModelAccess *A = accessAt(O);
    if (!A || A->Array != T.Array || !A->Index || !A->Read ||
        !isa<ArraySubscriptExpr>(A->E))
      return false;
    const Expr *Idx = cast<ArraySubscriptExpr>(A->E)->getIdx();
    if (*A->Index == *Partner && !T.PartnerIdx)
      T.PartnerIdx = Idx;
    else if (*A->Index == *Elem->Index && Operands.size() == 2 &&
             T.ElementIdx.size() == 1)
      T.ElementIdx.push_back(Idx);
    else
      return false;
  }
  if (!T.PartnerIdx || T.ElementIdx.size() != Operands.size())
    return false;
  if (!T.Array->isLocalVarDecl() || !T.Array->hasAttr<CUDASharedAttr>()) {
    W = "the update at " + M.where(S) + " does not reduce a `__shared__` array";
    return false;
  }
  W.clear();
  return true;
}

/// Whether the statements after the loop, \p Rest, read no element of \p A
/// but the first before every thread stores its own element again: elements
/// other than the first hold other partial results after the edit.
bool TreeFinder::readsOnlyFirst(llvm::ArrayRef<const Stmt *> Rest,
                                const VarDecl *A) {
  bool MayExit = false;
  for (const Stmt *S : Rest) {
    const auto *Store = dyn_cast<BinaryOperator>(S);
    if (!MayExit && Store && Store->getOpcode() == BO_Assign)
      if (const ModelAccess *Own = accessAt(Store->getLHS());
          Own && Own->Array == A && Own->Index &&
          *Own->Index == Polynomial::symbol(Symbol::threadIdx(0)) &&
          referencesTo(Store->getRHS(), A).empty())
        return true;
    for (const DeclRefExpr *DR : referencesTo(S, A)) {
      const ArraySubscriptExpr *AS = subscriptOf(Ctx, DR);
      const auto *Load =
          AS ? dyn_cast_or_null<ImplicitCastExpr>(parentOf(Ctx, AS)) : nullptr;
      if (!AS || !valueIs(AS->getIdx(), Polynomial()) || !Load ||
          Load->getCastKind() != CK_LValueToRValue) {
        Why = "`" + A->getNameAsString() + "` is read at " + M.where(DR) +
              " after the reduction, at another element than the first";
        return false;
      }
    }
    MayExit |= containsExit(S);
  }
  return true;
}

/// The thread's index as the code after the loop can write it: a local of
/// the kernel's body declared before the loop, never modified, that holds
/// threadIdx.x; else `threadIdx.x`.
std::string TreeFinder::tidText(const TreeLoop &T,
                                llvm::ArrayRef<const Stmt *> Before) {
  for (const Stmt *S : Before) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      continue;
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (V && V->getInit() && V->getType()->isIntegerType() &&
          Ctx.getTypeSize(V->getType()) >= 32 && isUnmodified(Ctx, *V) &&
          isThread(V->getInit()))
        return V->getNameAsString();
    }
  }
  return "threadIdx.x";
}

std::optional<TreeLoop> TreeFinder::match(llvm::ArrayRef<const Stmt *> Body,
                                          size_t I) {
  const Stmt *F = Body[I];
  const ModelLoop &L = M.loops()[M.loopIndex(F)];
  const Expr *LoopCond = loopCond(L);
  std::string At = "the loop at " + M.where(F);
  TreeLoop T;
  T.Loop = F;
  T.Var = L.InitVar;
  std::string SN = T.Var->getNameAsString();
  if (L.Factor != 2) {
    Why =
        At + " scales `" + SN + "` by " + std::to_string(L.Factor) + ", not 2";
    return std::nullopt;
  }
  T.Halves = L.Divides;
  if (!T.Var->getType()->isIntegerType() ||
      Ctx.getTypeSize(T.Var->getType()) < 32) {
    Why = At + " counts with a type narrower than 32 bits";
    return std::nullopt;
  }
  if (!F->getBeginLoc().isFileID() || !F->getEndLoc().isFileID()) {
    Why = At + " is written through a macro";
    return std::nullopt;
  }
  // Its variable is not read after it: the edit ends it elsewhere.
  if (!L.DeclaredByLoop)
    for (const Stmt *S : Body.drop_front(I + 1))
      if (mentions(S, T.Var)) {
        Why = "`" + SN + "` is read after " + At;
        return std::nullopt;
      }
  Symbol Sym = Symbol::loopVar(M.loopIndex(F), SN);
  Polynomial S = Polynomial::symbol(Sym);

  // The first value and the end: from half the block while s > 0, or from
  // 1 while s < the block.
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      LoopCond ? LoopCond->IgnoreParenImpCasts() : nullptr);
  auto CondIs = [&](BinaryOperatorKind Op, const Polynomial &Rhs) {
    if (!Cond)
      return false;
    BinaryOperatorKind Swapped = BinaryOperator::reverseComparisonOp(Op);
    return (Cond->getOpcode() == Op && valueIs(Cond->getLHS(), S) &&
            valueIs(Cond->getRHS(), Rhs)) ||
           (Cond->getOpcode() == Swapped && valueIs(Cond->getRHS(), S) &&
            valueIs(Cond->getLHS(), Rhs));
  };
  if (T.Halves) {
    // Half the block: `B / 2`, `B >> 1`, or a constant half of every
    // launch's block.
    const Expr *First = L.FirstExpr->IgnoreParenImpCasts();
    bool Half = false;
    if (const auto *D = dyn_cast<BinaryOperator>(First);
        D && ((D->getOpcode() == BO_Div &&
               valueIs(D->getRHS(), Polynomial::constant(2))) ||
              (D->getOpcode() == BO_Shr &&
               valueIs(D->getRHS(), Polynomial::constant(1)))))
      if (ModelValue B = M.value(D->getLHS()); B && isBlockSize(*B.Value))
        Half = true;
    if (ModelValue C = M.value(First);
        !Half && C && C.Value->constantValue() && Blocks.size() == 1 &&
        *C.Value->constantValue() * 2 == *Blocks.begin())
      Half = true;
    if (!Half) {
      Why = At + " does not start `" + SN + "` at half the block's size";
      return std::nullopt;
    }
    bool ToOne =
        CondIs(BO_GT, Polynomial()) || CondIs(BO_GE, Polynomial::constant(1)) ||
        CondIs(BO_NE, Polynomial()) ||
        (LoopCond && !Cond && valueIs(LoopCond->IgnoreParenImpCasts(), S));
    if (!ToOne) {
      Why = At + " does not run down to `" + SN + "` = 1";
      return std::nullopt;
    }
  } else {
    if (!valueIs(L.FirstExpr, Polynomial::constant(1))) {
      Why = At + " does not start `" + SN + "` at 1";
      return std::nullopt;
    }
    bool ToBlock = false;
    if (Cond && Cond->getOpcode() == BO_LT && valueIs(Cond->getLHS(), S))
      if (ModelValue B = M.value(Cond->getRHS()); B && isBlockSize(*B.Value))
        ToBlock = true;
    if (Cond && Cond->getOpcode() == BO_GT && valueIs(Cond->getRHS(), S))
      if (ModelValue B = M.value(Cond->getLHS()); B && isBlockSize(*B.Value))
        ToBlock = true;
    if (!ToBlock) {
      Why = At + " does not run while `" + SN + "` < the block's size";
      return std::nullopt;
    }
  }

  // The body: side-effect-free declarations, one guarded update, and a
  // barrier at the end.
  std::string Shape = "the body of " + At +
                      " is not one guarded update followed by "
                      "`__syncthreads()`";
  std::vector<const Stmt *> Stmts = loopBody(L);
  if (Stmts.size() < 2 || !isBarrier(Stmts.back())) {
    Why = Shape;
    return std::nullopt;
  }
  for (const Stmt *St : llvm::ArrayRef(Stmts).drop_back()) {
    if (const auto *DS = dyn_cast<DeclStmt>(St)) {
      for (const Decl *D : DS->decls()) {
        const auto *V = dyn_cast<VarDecl>(D);
        if (!V || V->isStaticLocal() || V->hasAttr<CUDASharedAttr>() ||
            !M.isPure(V->getInit())) {
          Why = Shape;
          return std::nullopt;
        }
      }
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(St);
    if (!If || T.If || If->getInit() || If->getConditionVariable() ||
        If->getElse() || If->isConstexpr() || !M.isPure(If->getCond())) {
      Why = Shape;
      return std::nullopt;
    }
    T.If = If;
  }
  if (!T.If) {
    Why = Shape;
    return std::nullopt;
  }
  std::vector<const Stmt *> Then = statementsOf(T.If->getThen());
  if (Then.size() != 1 || !matchUpdate(Then.front(), T, Sym, Why))
    return std::nullopt;
  const ModelAccess *Elem =
      accessAt(cast<BinaryOperator>(Then.front())->getLHS());
  const Polynomial &E = *Elem->Index;
  Polynomial Tid = Polynomial::symbol(Symbol::threadIdx(0));

  // The threads that update: `t < s` (sequential), `t % (2 * s) == 0`
  // (interleaved), or `2 * s * t < B` with the element at 2 * s * t
  // (strided).
  const Expr *G = T.If->getCond()->IgnoreParenImpCasts();
  const auto *GB = dyn_cast<BinaryOperator>(G);
  std::string GuardWhy = "the guard `" + M.text(T.If->getCond()) + "` at " +
                         M.where(T.If) + " does not select the threads that " +
                         "combine in a tree";
  std::optional<Polynomial> Twice = Polynomial::mul(Polynomial::constant(2), S);
  if (T.Halves) {
    bool Ok = E == Tid && GB &&
              ((GB->getOpcode() == BO_LT && isThread(GB->getLHS()) &&
                valueIs(GB->getRHS(), S)) ||
               (GB->getOpcode() == BO_GT && isThread(GB->getRHS()) &&
                valueIs(GB->getLHS(), S)));
    if (!Ok) {
      Why = GuardWhy;
      return std::nullopt;
    }
  } else if (E == Tid) {
    // `t % (2 * s) == 0`, `(t & (2 * s - 1)) == 0`, `!(t % (2 * s))`.
    const Expr *Mod = nullptr;
    if (GB && GB->getOpcode() == BO_EQ) {
      if (valueIs(GB->getRHS(), Polynomial()))
        Mod = GB->getLHS();
      else if (valueIs(GB->getLHS(), Polynomial()))
        Mod = GB->getRHS();
    } else if (const auto *U = dyn_cast<UnaryOperator>(G);
               U && U->getOpcode() == UO_LNot) {
      Mod = U->getSubExpr();
    }
    const auto *MB =
        Mod ? dyn_cast<BinaryOperator>(Mod->IgnoreParenImpCasts()) : nullptr;
    std::optional<Polynomial> Mask =
        Twice ? Polynomial::sub(*Twice, Polynomial::constant(1)) : std::nullopt;
    bool Ok =
        MB && Twice && isThread(MB->getLHS()) &&
        ((MB->getOpcode() == BO_Rem && valueIs(MB->getRHS(), *Twice)) ||
         (MB->getOpcode() == BO_And && Mask && valueIs(MB->getRHS(), *Mask)));
    if (!Ok) {
      Why = GuardWhy;
      return std::nullopt;
    }
  } else {
    T.Strided = true;
    std::optional<Polynomial> Strided =
        Twice ? Polynomial::mul(*Twice, Tid) : std::nullopt;
    bool Ok = Strided && E == *Strided && GB && GB->getOpcode() == BO_LT &&
              valueIs(GB->getLHS(), E);
    if (Ok)
      if (ModelValue B = M.value(GB->getRHS()); !B || !isBlockSize(*B.Value))
        Ok = false;
    if (!Ok) {
      Why = GuardWhy;
      return std::nullopt;
    }
    // The element's index held by a local of the body, the partner at
    // `I + s`: the edit sets the local to the thread's index.
    const auto *DR =
        dyn_cast<DeclRefExpr>(T.ElementIdx[0]->IgnoreParenImpCasts());
    const auto *IV = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    const auto *P =
        dyn_cast<BinaryOperator>(T.PartnerIdx->IgnoreParenImpCasts());
    bool Local = IV && IV->isLocalVarDecl() &&
                 isWithin(Ctx, IV->getInit(), F) && isUnmodified(Ctx, *IV) &&
                 P && P->getOpcode() == BO_Add &&
                 ((isReferenceTo(P->getLHS(), IV) && valueIs(P->getRHS(), S)) ||
                  (isReferenceTo(P->getRHS(), IV) && valueIs(P->getLHS(), S)));
    for (const Expr *X : T.ElementIdx)
      Local &= isReferenceTo(X, IV);
    if (Local)
      T.IndexVar = IV;
  }

  // The array: `__shared__`, of float, double, int or unsigned, with room
  // for every launch's block, read and written only by subscripts.
  const ArrayType *AT = Ctx.getAsArrayType(T.Array->getType());
  std::string AN = "`" + T.Array->getNameAsString() + "`";
  if (!AT) {
    Why = AN + " is not an array";
    return std::nullopt;
  }
  if (const auto *CAT = dyn_cast<ConstantArrayType>(AT)) {
    if (CAT->getSize().getZExtValue() <
        static_cast<uint64_t>(*Blocks.rbegin())) {
      Why = AN + " has fewer elements than a launch's block has threads";
      return std::nullopt;
    }
  } else if (!isa<IncompleteArrayType>(AT) || !T.Array->hasExternalStorage()) {
    Why = AN + " has a size that is not a constant";
    return std::nullopt;
  }
  QualType ET = AT->getElementType().getCanonicalType();
  if (ET.isVolatileQualified() ||
      !llvm::is_contained(
          {Ctx.FloatTy, Ctx.DoubleTy, Ctx.IntTy, Ctx.UnsignedIntTy},
          ET.getUnqualifiedType())) {
    Why = AN + " does not hold float, double, int or unsigned values";
    return std::nullopt;
  }
  for (const DeclRefExpr *DR : referencesTo(M.kernel().getBody(), T.Array))
    if (!subscriptOf(Ctx, DR)) {
      Why = AN + " is used at " + M.where(DR) + " other than by a subscript";
      return std::nullopt;
    }

  // Every thread reaches the loop after a barrier.
  for (const Stmt *St : Body.take_front(I))
    if (containsExit(St)) {
      Why = "a thread may return at " + M.where(St) + ", before " + At;
      return std::nullopt;
    }
  bool After = false;
  for (size_t J = I; J-- > 0;) {
    if (isa<DeclStmt>(Body[J]))
      continue;
    After = isBarrier(Body[J]);
    break;
  }
  if (!After) {
    Why = At + " does not follow a `__syncthreads()`";
    return std::nullopt;
  }
  if (!readsOnlyFirst(Body.drop_front(I + 1), T.Array))
    return std::nullopt;
  T.Tid = tidText(T, Body.take_front(I));
  return T;
}

std::vector<TreeLoop> TreeFinder::find() {
  std::vector<TreeLoop> Found;
  if (!launchBlocks())
    return Found;
  std::vector<const Stmt *> Body = statementsOf(M.kernel().getBody());
  // A loop under `#pragma unroll` is edited in place, the pragma kept.
  for (const Stmt *&S : Body)
    if (const auto *A = dyn_cast<AttributedStmt>(S); A && M.loopIndex(A) >= 0)
      S = A->getSubStmt();
  std::string First;
  for (size_t I = 0; I < Body.size(); ++I) {
    int LI = M.loopIndex(Body[I]);
    if (LI < 0 || !isa<ForStmt, WhileStmt>(Body[I]) ||
        !M.loops()[LI].geometric())
      continue;
    if (auto T = match(Body, I))
      Found.push_back(*T);
    else if (First.empty())
      First = Why;
  }
  Why = !Found.empty()  ? ""
        : First.empty() ? "its body has no loop that halves or doubles its "
                          "variable (a tree reduction) outside conditions"
                        : First;
  return Found;
}

/// The edits of \p T.
std::optional<std::vector<tooling::Replacement>> editsOf(const KernelModel &M,
                                                         const TreeLoop &T) {
  ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  std::string SN = T.Var->getNameAsString();
  std::string A = T.Array->getNameAsString();
  const ModelLoop &L = M.loops()[M.loopIndex(T.Loop)];
  std::vector<std::optional<tooling::Replacement>> R;
  if (!T.Halves) {
    R.push_back(replaceExpr(Ctx, L.FirstExpr, "blockDim.x / 2"));
    R.push_back(replaceExpr(Ctx, L.StepStmt, SN + " >>= 1"));
    if (T.IndexVar) {
      std::string IN = T.IndexVar->getNameAsString();
      R.push_back(replaceExpr(Ctx, T.IndexVar->getInit(), T.Tid));
      R.push_back(replaceExpr(Ctx, T.If->getCond(), IN + " < " + SN));
    } else {
      R.push_back(replaceExpr(Ctx, T.If->getCond(), T.Tid + " < " + SN));
      // Strided indices written in place: the element at the thread's
      // index, the partner s after it.
      if (T.Strided) {
        for (const Expr *X : T.ElementIdx)
          R.push_back(replaceExpr(Ctx, X, T.Tid));
        R.push_back(replaceExpr(Ctx, T.PartnerIdx, T.Tid + " + " + SN));
      }
    }
  }
  R.push_back(replaceExpr(Ctx, loopCond(L), SN + " > 32"));

  // The last 64 values, reduced by warp 0.
  std::string Ind = lineIndent(SM, T.Loop->getBeginLoc());
  const FunctionDecl &K = M.kernel();
  std::string V = freshName(K, "V"), O = freshName(K, "O");
  QualType Elem = Ctx.getAsArrayType(T.Array->getType())
                      ->getElementType()
                      .getUnqualifiedType();
  std::string E = spelledType(Ctx, Elem);
  std::string Lo = A + "[" + T.Tid + "]", Hi = A + "[" + T.Tid + " + 32]";
  std::string Shfl = "__shfl_down_sync(0xffffffff, " + V + ", " + O + ")";
  const std::string &F = T.Combine;
  std::string N = "\n";
  N += Ind + "// The last 64 values: warp 0 combines them with shuffles.\n";
  N += Ind + "if (" + T.Tid + " < 32) {\n";
  N += Ind + "  " + E + " " + V + " = " +
       (F.empty() ? Lo + " + " + Hi : F + "(" + Lo + ", " + Hi + ")") + ";\n";
  N += Ind + "  for (int " + O + " = 16; " + O + " > 0; " + O + " >>= 1)\n";
  N += Ind + "    " + V +
       (F.empty() ? " += " + Shfl : " = " + F + "(" + V + ", " + Shfl + ")") +
       ";\n";
  N += Ind + "  if (" + T.Tid + " == 0)\n";
  N += Ind + "    " + A + "[0] = " + V + ";\n";
  N += Ind + "}\n";
  N += Ind + "__syncthreads();";
  SourceLocation End =
      Lexer::getLocForEndOfToken(T.Loop->getEndLoc(), 0, SM, Ctx.getLangOpts());
  if (End.isInvalid())
    return std::nullopt;
  std::vector<tooling::Replacement> Out;
  for (const auto &X : R) {
    if (!X)
      return std::nullopt;
    Out.push_back(*X);
  }
  Out.push_back(tooling::Replacement(SM, End, 0, N));
  return Out;
}

} // namespace

StringRef WarpShuffleReduce::name() const { return "warp-shuffle-reduce"; }

StringRef WarpShuffleReduce::description() const {
  return "reduce a __shared__ array with sequential addressing down to 64 "
         "values, then in one warp with __shfl_down_sync";
}

bool WarpShuffleReduce::precondition(const KernelRecord &K) const {
  auto Positive = [&](const char *F) {
    return K.Features.get(F).value_or(0) > 0;
  };
  return K.Template != TemplateKind::Primary && Positive("shared_arrays") &&
         Positive("syncthreads");
}

static const MetricCondition Conditions[] = {
    {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio",
     ">=", 1},
    {"derived__branch_uniformity_pct", "<", 90},
    {"smsp__average_thread_inst_executed_per_inst_executed.ratio", "<", 24},
    {"derived__shared_bank_conflict_pct", ">", 5}};

std::vector<std::string> WarpShuffleReduce::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
WarpShuffleReduce::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error WarpShuffleReduce::apply(const KernelModel &M, FileEdits &Out) const {
  TreeFinder Finder(M);
  std::vector<tooling::Replacement> Edits;
  for (const TreeLoop &T : Finder.find())
    if (auto E = editsOf(M, T))
      Edits.insert(Edits.end(), E->begin(), E->end());
  return addEdits(Edits, Out);
}

std::string WarpShuffleReduce::explain(const KernelModel &M) const {
  TreeFinder Finder(M);
  std::vector<TreeLoop> Found = Finder.find();
  if (Found.empty())
    return Finder.Why;
  for (const TreeLoop &T : Found)
    if (editsOf(M, T))
      return "";
  return "the loop at " + M.where(Found.front().Loop) +
         " is not a plain range of its file";
}
