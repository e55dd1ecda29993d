//===- WarpShuffleReduce.cpp - Finish tree reductions with shuffles -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "WarpShuffleReduce.h"
#include "BuiltinReads.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

const VarDecl *refVar(const ASTContext &Ctx, const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(stripCasts(Ctx, E));
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

bool isSyncthreads(const Stmt *S) {
  const auto *CE = dyn_cast_or_null<CallExpr>(S);
  const FunctionDecl *FD = CE ? CE->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == "__syncthreads" &&
         CE->getNumArgs() == 0;
}

/// \p S itself, or the only statement of a compound \p S.
const Stmt *onlyStmt(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return CS->size() == 1 ? CS->body_front() : nullptr;
  return S;
}

bool hasValue(const ASTContext &Ctx, const Expr *E, int64_t V) {
  return E && evaluateInt(E->IgnoreParenImpCasts(), Ctx) == V;
}

/// `A[Tid]`: returns A.
const VarDecl *elementAt(const ASTContext &Ctx, const Expr *E,
                         const VarDecl *Tid) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!AS || refVar(Ctx, AS->getIdx()) != Tid)
    return nullptr;
  return refVar(Ctx, AS->getBase());
}

/// `A[Tid + S]` or `A[S + Tid]`.
bool isPartner(const ASTContext &Ctx, const Expr *E, const VarDecl *A,
               const VarDecl *Tid, const VarDecl *S) {
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E->IgnoreParenImpCasts());
  if (!AS || refVar(Ctx, AS->getBase()) != A)
    return false;
  const auto *Add = dyn_cast<BinaryOperator>(stripCasts(Ctx, AS->getIdx()));
  return Add && Add->getOpcode() == BO_Add &&
         ((refVar(Ctx, Add->getLHS()) == Tid &&
           refVar(Ctx, Add->getRHS()) == S) ||
          (refVar(Ctx, Add->getLHS()) == S &&
           refVar(Ctx, Add->getRHS()) == Tid));
}

/// One level of the tree: `A[Tid] += A[Tid + S]` (Combine empty) or
/// `A[Tid] = F(A[Tid], A[Tid + S])` with F one of fmaxf, fminf, max, min
/// (Combine = F).
struct Step {
  const VarDecl *Array = nullptr;
  std::string Combine;
};

std::optional<Step> matchStep(const ASTContext &Ctx, const Stmt *St,
                              const VarDecl *Tid, const VarDecl *S) {
  const auto *E = dyn_cast_or_null<Expr>(St);
  if (!E)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    const VarDecl *A = elementAt(Ctx, CA->getLHS(), Tid);
    if (CA->getOpcode() != BO_AddAssign || !A ||
        !isPartner(Ctx, CA->getRHS(), A, Tid, S))
      return std::nullopt;
    return Step{A, ""};
  }
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO || BO->getOpcode() != BO_Assign)
    return std::nullopt;
  const VarDecl *A = elementAt(Ctx, BO->getLHS(), Tid);
  const auto *Call = dyn_cast<CallExpr>(BO->getRHS()->IgnoreParenImpCasts());
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!A || !FD || !FD->getIdentifier() || Call->getNumArgs() != 2 ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit())
    return std::nullopt;
  StringRef F = FD->getName();
  if (F != "fmaxf" && F != "fminf" && F != "max" && F != "min")
    return std::nullopt;
  const Expr *X = Call->getArg(0), *Y = Call->getArg(1);
  if (!(elementAt(Ctx, X, Tid) == A && isPartner(Ctx, Y, A, Tid, S)) &&
      !(elementAt(Ctx, Y, Tid) == A && isPartner(Ctx, X, A, Tid, S)))
    return std::nullopt;
  return Step{A, F.str()};
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

/// Whether the statements after the loop, \p Rest, read no element of \p A
/// but the first before every thread stores its own element `A[Tid]` again:
/// elements other than the first hold other partial results after the edit.
bool readsOnlyFirst(ASTContext &Ctx, llvm::ArrayRef<const Stmt *> Rest,
                    const VarDecl *A, const VarDecl *Tid) {
  bool MayExit = false;
  for (const Stmt *S : Rest) {
    const auto *Store = dyn_cast<BinaryOperator>(S);
    if (!MayExit && Store && Store->getOpcode() == BO_Assign &&
        elementAt(Ctx, Store->getLHS(), Tid) == A &&
        referencesTo(Store->getRHS(), A).empty())
      return true;
    for (const DeclRefExpr *DR : referencesTo(S, A)) {
      const ArraySubscriptExpr *AS = subscriptOf(Ctx, DR);
      const auto *Load =
          AS ? dyn_cast_or_null<ImplicitCastExpr>(parentOf(Ctx, AS)) : nullptr;
      if (!AS || !hasValue(Ctx, AS->getIdx(), 0) || !Load ||
          Load->getCastKind() != CK_LValueToRValue)
        return false;
    }
    MayExit |= containsExit(S);
  }
  return true;
}

/// A tree reduction loop of the kernel's body and how to rewrite it.
struct TreeLoop {
  const ForStmt *Loop = nullptr;
  const VarDecl *S = nullptr;
  const VarDecl *Tid = nullptr;
  const IfStmt *If = nullptr;
  bool Interleaved = false;
  /// Strided: the element index `Index = 2 * S * Tid`, or null.
  const VarDecl *Index = nullptr;
  Step Op;
};

/// `for (T S = 1; S < blockDim.x; S *= 2) { if (Tid % (2 * S) == 0) Op;
/// __syncthreads(); }` (interleaved) or `for (T S = blockDim.x / 2; S > 0;
/// S >>= 1) { if (Tid < S) Op; __syncthreads(); }` (sequential), or
/// `for (T S = 1; S < blockDim.x; S *= 2) { T Index = 2 * S * Tid;
/// if (Index < blockDim.x) Op; __syncthreads(); }` (strided, Op on Index).
std::optional<TreeLoop> matchLoop(ASTContext &Ctx, const Stmt *St) {
  TreeLoop L;
  L.Loop = dyn_cast<ForStmt>(St);
  if (!L.Loop || L.Loop->getConditionVariable())
    return std::nullopt;
  const auto *Init = dyn_cast_or_null<DeclStmt>(L.Loop->getInit());
  if (!Init || !Init->isSingleDecl())
    return std::nullopt;
  L.S = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!L.S || !L.S->getInit() || !L.S->getType()->isIntegerType() ||
      Ctx.getTypeSize(L.S->getType()) < 32)
    return std::nullopt;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(L.Loop->getBody());
  if (!Body || (Body->size() != 2 && Body->size() != 3) ||
      !isSyncthreads(Body->body_back()))
    return std::nullopt;
  if (Body->size() == 3) {
    const auto *DS = dyn_cast<DeclStmt>(Body->body_front());
    L.Index = DS && DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl())
                                       : nullptr;
    if (!L.Index || !L.Index->getInit() ||
        !L.Index->getType()->isIntegerType() ||
        Ctx.getTypeSize(L.Index->getType()) < 32 ||
        !isUnmodified(Ctx, *L.Index))
      return std::nullopt;
  }
  L.If = dyn_cast<IfStmt>(Body->body_begin()[Body->size() - 2]);
  if (!L.If || L.If->getInit() || L.If->getConditionVariable() ||
      L.If->getElse() || L.If->isConstexpr())
    return std::nullopt;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      L.Loop->getCond()->IgnoreParenImpCasts());
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(
      L.Loop->getInc() ? L.Loop->getInc()->IgnoreParens() : nullptr);
  const auto *Guard =
      dyn_cast<BinaryOperator>(L.If->getCond()->IgnoreParenImpCasts());
  if (!Cond || !Inc || !Guard || refVar(Ctx, Cond->getLHS()) != L.S ||
      refVar(Ctx, Inc->getLHS()) != L.S)
    return std::nullopt;
  const Expr *Start = L.S->getInit()->IgnoreParenImpCasts();
  if (hasValue(Ctx, Start, 1)) {
    // Interleaved: S = 1; S < blockDim.x; S *= 2 (or S <<= 1), and
    // Tid % (2 * S) == 0.
    L.Interleaved = true;
    if (Cond->getOpcode() != BO_LT ||
        !isBuiltin(Ctx, Cond->getRHS(), "blockDim", 'x') ||
        !((Inc->getOpcode() == BO_MulAssign &&
           hasValue(Ctx, Inc->getRHS(), 2)) ||
          (Inc->getOpcode() == BO_ShlAssign &&
           hasValue(Ctx, Inc->getRHS(), 1))))
      return std::nullopt;
    // `2 * S` or `S * 2`.
    auto IsTwiceS = [&](const Expr *E) {
      const auto *Twice = dyn_cast<BinaryOperator>(stripCasts(Ctx, E));
      return Twice && Twice->getOpcode() == BO_Mul &&
             ((hasValue(Ctx, Twice->getLHS(), 2) &&
               refVar(Ctx, Twice->getRHS()) == L.S) ||
              (refVar(Ctx, Twice->getLHS()) == L.S &&
               hasValue(Ctx, Twice->getRHS(), 2)));
    };
    if (L.Index) {
      // Strided: Index = 2 * S * Tid (or Tid * (2 * S)), and
      // Index < blockDim.x.
      const auto *Mul =
          dyn_cast<BinaryOperator>(stripCasts(Ctx, L.Index->getInit()));
      if (Guard->getOpcode() != BO_LT ||
          refVar(Ctx, Guard->getLHS()) != L.Index ||
          !isBuiltin(Ctx, Guard->getRHS(), "blockDim", 'x') || !Mul ||
          Mul->getOpcode() != BO_Mul)
        return std::nullopt;
      if (IsTwiceS(Mul->getLHS()))
        L.Tid = refVar(Ctx, Mul->getRHS());
      else if (IsTwiceS(Mul->getRHS()))
        L.Tid = refVar(Ctx, Mul->getLHS());
    } else {
      if (Guard->getOpcode() != BO_EQ || !hasValue(Ctx, Guard->getRHS(), 0))
        return std::nullopt;
      const auto *Rem =
          dyn_cast<BinaryOperator>(stripCasts(Ctx, Guard->getLHS()));
      if (!Rem || Rem->getOpcode() != BO_Rem || !IsTwiceS(Rem->getRHS()))
        return std::nullopt;
      L.Tid = refVar(Ctx, Rem->getLHS());
    }
  } else {
    if (L.Index)
      return std::nullopt;
    // Sequential: S = blockDim.x / 2 (or >> 1); S > 0; S >>= 1 (or /= 2),
    // and Tid < S.
    const auto *Half = dyn_cast<BinaryOperator>(stripCasts(Ctx, Start));
    if (!Half || !isBuiltin(Ctx, Half->getLHS(), "blockDim", 'x') ||
        !((Half->getOpcode() == BO_Div && hasValue(Ctx, Half->getRHS(), 2)) ||
          (Half->getOpcode() == BO_Shr && hasValue(Ctx, Half->getRHS(), 1))))
      return std::nullopt;
    if (Cond->getOpcode() != BO_GT || !hasValue(Ctx, Cond->getRHS(), 0) ||
        !((Inc->getOpcode() == BO_ShrAssign &&
           hasValue(Ctx, Inc->getRHS(), 1)) ||
          (Inc->getOpcode() == BO_DivAssign &&
           hasValue(Ctx, Inc->getRHS(), 2))))
      return std::nullopt;
    if (Guard->getOpcode() != BO_LT || refVar(Ctx, Guard->getRHS()) != L.S)
      return std::nullopt;
    L.Tid = refVar(Ctx, Guard->getLHS());
  }
  // Tid = threadIdx.x, never changed.
  if (!L.Tid || L.Tid == L.S || !L.Tid->isLocalVarDecl() || !L.Tid->getInit() ||
      !L.Tid->getType()->isIntegerType() ||
      Ctx.getTypeSize(L.Tid->getType()) < 32 ||
      !isBuiltin(Ctx, L.Tid->getInit(), "threadIdx", 'x') ||
      !isUnmodified(Ctx, *L.Tid))
    return std::nullopt;
  if (L.Index == L.Tid || L.Index == L.S)
    return std::nullopt;
  auto Op =
      matchStep(Ctx, onlyStmt(L.If->getThen()), L.Index ? L.Index : L.Tid, L.S);
  if (!Op)
    return std::nullopt;
  L.Op = *Op;
  return L;
}

/// Whether \p A is a `__shared__` array of the kernel of at least \p Size
/// elements (any size when `extern`) of float, int or unsigned, whose every
/// reference is subscripted.
bool isSharedArray(ASTContext &Ctx, const FunctionDecl &Kernel,
                   const VarDecl *A, int64_t Size) {
  if (!A->isLocalVarDecl() || !A->hasAttr<CUDASharedAttr>())
    return false;
  const ArrayType *AT = Ctx.getAsArrayType(A->getType());
  if (!AT)
    return false;
  if (const auto *CAT = dyn_cast<ConstantArrayType>(AT)) {
    if (CAT->getSize().getZExtValue() < (uint64_t)Size)
      return false;
  } else if (!isa<IncompleteArrayType>(AT) || !A->hasExternalStorage()) {
    return false;
  }
  QualType E = AT->getElementType().getCanonicalType();
  if (E.isVolatileQualified())
    return false;
  E = E.getUnqualifiedType();
  if (E != Ctx.FloatTy && E != Ctx.IntTy && E != Ctx.UnsignedIntTy)
    return false;
  for (const DeclRefExpr *DR : referencesTo(Kernel.getBody(), A))
    if (!subscriptOf(Ctx, DR))
      return false;
  return true;
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

Error WarpShuffleReduce::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                               FileEdits &Out) const {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return Error::success();
  // Every launch: a constant 1-D block of a power of two in [64, 1024].
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  int64_t MaxBlock = 0;
  for (const KernelLaunch &L : *Launches) {
    auto B = constantDims(Ctx, L.Block);
    if (!B || (*B)[1] != 1 || (*B)[2] != 1 || (*B)[0] < 64 || (*B)[0] > 1024 ||
        ((*B)[0] & ((*B)[0] - 1)))
      return Error::success();
    MaxBlock = std::max(MaxBlock, (*B)[0]);
  }

  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  std::vector<const Stmt *> S(Body->body_begin(), Body->body_end());
  std::vector<tooling::Replacement> Edits;
  for (size_t I = 1; I < S.size(); ++I) {
    auto L = matchLoop(Ctx, S[I]);
    if (!L || !isSyncthreads(S[I - 1]) ||
        !isSharedArray(Ctx, Kernel, L->Op.Array, MaxBlock) ||
        !S[I]->getBeginLoc().isFileID() || !S[I]->getEndLoc().isFileID() ||
        !readsOnlyFirst(Ctx, llvm::ArrayRef(S).drop_front(I + 1), L->Op.Array,
                        L->Tid))
      continue;
    // Every thread of warp 0 reaches the loop.
    bool Exits = false;
    for (size_t J = 0; J < I; ++J)
      Exits |= containsExit(S[J]);
    if (Exits)
      continue;

    std::string SN = L->S->getNameAsString();
    std::string Tid = L->Tid->getNameAsString();
    std::string A = L->Op.Array->getNameAsString();
    std::vector<std::optional<tooling::Replacement>> Loop;
    if (L->Interleaved) {
      Loop.push_back(replaceExpr(Ctx, L->S->getInit(), "blockDim.x / 2"));
      Loop.push_back(replaceExpr(Ctx, L->Loop->getInc(), SN + " >>= 1"));
      if (L->Index) {
        std::string Index = L->Index->getNameAsString();
        Loop.push_back(replaceExpr(Ctx, L->Index->getInit(), Tid));
        Loop.push_back(replaceExpr(Ctx, L->If->getCond(), Index + " < " + SN));
      } else {
        Loop.push_back(replaceExpr(Ctx, L->If->getCond(), Tid + " < " + SN));
      }
    }
    Loop.push_back(replaceExpr(Ctx, L->Loop->getCond(), SN + " > 32"));

    // The last 64 values, reduced by warp 0.
    std::string Ind(SM.getSpellingColumnNumber(S[I]->getBeginLoc()) - 1, ' ');
    std::string V = freshName(Kernel, "V"), O = freshName(Kernel, "O");
    QualType Elem = Ctx.getAsArrayType(L->Op.Array->getType())
                        ->getElementType()
                        .getUnqualifiedType();
    std::string E = Elem.getAsString(Ctx.getPrintingPolicy());
    std::string Lo = A + "[" + Tid + "]", Hi = A + "[" + Tid + " + 32]";
    std::string Shfl = "__shfl_down_sync(0xffffffff, " + V + ", " + O + ")";
    const std::string &F = L->Op.Combine;
    std::string N = "\n";
    N += Ind + "// The last 64 values: warp 0 combines them with shuffles.\n";
    N += Ind + "if (" + Tid + " < 32) {\n";
    N += Ind + "  " + E + " " + V + " = " +
         (F.empty() ? Lo + " + " + Hi : F + "(" + Lo + ", " + Hi + ")") + ";\n";
    N += Ind + "  for (int " + O + " = 16; " + O + " > 0; " + O + " >>= 1)\n";
    N += Ind + "    " + V +
         (F.empty() ? " += " + Shfl : " = " + F + "(" + V + ", " + Shfl + ")") +
         ";\n";
    N += Ind + "  if (" + Tid + " == 0)\n";
    N += Ind + "    " + A + "[0] = " + V + ";\n";
    N += Ind + "}\n";
    N += Ind + "__syncthreads();";
    SourceLocation After =
        Lexer::getLocForEndOfToken(S[I]->getEndLoc(), 0, SM, LO);
    if (After.isInvalid())
      continue;
    bool Ok = true;
    for (const auto &R : Loop)
      Ok &= R.has_value();
    if (!Ok)
      continue;
    for (const auto &R : Loop)
      Edits.push_back(*R);
    Edits.push_back(tooling::Replacement(SM, After, 0, N));
  }
  return addEdits(Edits, Out);
}
