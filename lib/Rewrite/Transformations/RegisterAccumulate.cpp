//===- RegisterAccumulate.cpp - Accumulate in a register ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "RegisterAccumulate.h"
#include "TextEdits.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// What a statement holds that the rewrite cannot keep.
class LoopScan : public RecursiveASTVisitor<LoopScan> {
public:
  LoopScan(const KernelModel &M, unsigned Begin, unsigned End)
      : M(M), SM(M.context().getSourceManager()), Begin(Begin), End(End) {}

  // Breaks and continues of nested loops and switches stay inside them.
#define NESTED(Kind)                                                           \
  bool Traverse##Kind(Kind *S) {                                               \
    ++Depth;                                                                   \
    bool R = RecursiveASTVisitor::Traverse##Kind(S);                           \
    --Depth;                                                                   \
    return R;                                                                  \
  }
  NESTED(ForStmt)
  NESTED(WhileStmt)
  NESTED(DoStmt)
  NESTED(SwitchStmt)
#undef NESTED

  /// Scans the statements of the loop \p S (not \p S itself, whose
  /// breaks are its own).
  bool scanLoop(const Stmt *S) {
    for (const Stmt *C : S->children())
      if (C && !TraverseStmt(const_cast<Stmt *>(C)))
        return false;
    return true;
  }

  bool VisitReturnStmt(ReturnStmt *) { return stop("returns from inside"); }
  bool VisitGotoStmt(GotoStmt *) { return stop("holds a goto"); }
  bool VisitBreakStmt(BreakStmt *) {
    return Depth ? true : stop("leaves by a break");
  }
  bool VisitContinueStmt(ContinueStmt *) {
    return Depth ? true : stop("skips iterations with a continue");
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *) { return stop("holds inline assembly"); }
  /// blockIdx.x and its kind: reads of builtins, calls inside.
  bool TraversePseudoObjectExpr(PseudoObjectExpr *E) {
    return M.isPure(E) || RecursiveASTVisitor::TraversePseudoObjectExpr(E);
  }
  bool VisitCallExpr(CallExpr *C) {
    if (isa<CUDAKernelCallExpr>(C) || !M.isPure(C))
      return stop("calls " + M.text(C->getCallee()) +
                  ", which may touch memory");
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    if (E->isArrow())
      ArrowRead = true;
    return true;
  }
  /// Assignments and increments of variables declared outside the loop.
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp())
      noteWrite(B->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (U->isIncrementDecrementOp())
      noteWrite(U->getSubExpr());
    return true;
  }

  std::string Why;
  /// A variable declared before the loop that the loop may change: its own
  /// variable when the loop sets it again before it starts.
  const VarDecl *Exempt = nullptr;
  /// A variable declared before the loop that it changes and that cannot
  /// be saved and restored, or null.
  const VarDecl *Outside = nullptr;
  /// The local numbers and pointers declared before the loop that it
  /// changes: saved before the register loop, restored before the original
  /// loop runs again.
  std::vector<const VarDecl *> Restored;
  /// A write the scan cannot tie to a variable (through `->` of a local
  /// struct pointer).
  bool Untracked = false;
  bool ArrowRead = false;

private:
  bool stop(const std::string &Reason) {
    Why = Reason;
    return false;
  }
  void noteWrite(const Expr *E) {
    if (Outside || Untracked)
      return;
    // The variable written: through members and local array elements to
    // the variable they belong to.
    E = E->IgnoreParenImpCasts();
    while (true) {
      if (const auto *ME = dyn_cast<MemberExpr>(E)) {
        if (ME->isArrow()) {
          Untracked = true;
          return;
        }
        E = ME->getBase()->IgnoreParenImpCasts();
      } else if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
                 AS && AS->getBase()->getType()->isArrayType()) {
        E = AS->getBase()->IgnoreParenImpCasts();
      } else {
        break;
      }
    }
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V) {
      // Memory through a pointer: the model's accesses say whether it is
      // the element or another write.
      return;
    }
    if (V == Exempt)
      return;
    auto [F, Off] = SM.getDecomposedLoc(SM.getFileLoc(V->getLocation()));
    (void)F;
    // A reference may name anything, wherever it is declared.
    if (Off < Begin || Off >= End || V->getType()->isReferenceType()) {
      QualType T = V->getType();
      bool Scalar =
          T->isIntegerType() || T->isRealFloatingType() || T->isPointerType();
      if (!V->hasLocalStorage() || T->isReferenceType() || !Scalar ||
          T.isVolatileQualified())
        Outside = V;
      else if (!llvm::is_contained(Restored, V))
        Restored.push_back(V);
    }
  }

  const KernelModel &M;
  const SourceManager &SM;
  unsigned Begin, End;
  unsigned Depth = 0;
};

/// The variable of \p L when the loop gives it its first value itself: a
/// `for` whose init is `V = e`, with e pure and not reading V, so that the
/// loop run again starts where it started, and it is read nowhere else;
/// null otherwise.
const VarDecl *setByInit(const KernelModel &M, const ModelLoop &L) {
  const auto *F = dyn_cast<ForStmt>(L.S);
  const auto *B = F ? dyn_cast_or_null<BinaryOperator>(F->getInit()) : nullptr;
  if (!B || B->getOpcode() != BO_Assign || !L.Var ||
      L.Var->getType()->isReferenceType() ||
      !isReferenceTo(B->getLHS(), L.Var) || !M.isPure(B->getRHS()) ||
      mentions(B->getRHS(), L.Var))
    return nullptr;
  // Read nowhere else: a loop that does not start (skipped whole by the
  // rewrite's guard) would leave it at another value.
  ASTContext &Ctx = M.context();
  for (const DeclRefExpr *DR : referencesTo(M.kernel().getBody(), L.Var))
    if (!isWithin(Ctx, DR, L.S))
      return nullptr;
  return L.Var;
}

/// Whether arithmetic in \p E on a value computed from \p Var is done in
/// an unsigned type narrower than 64 bits, where it may wrap around: an
/// address that moves in a straight line with the variable in the
/// polynomial may then jump back in the program.
bool mayWrap(const ASTContext &Ctx, const Expr *E, const VarDecl *Var) {
  std::vector<const Stmt *> Work = {E};
  while (!Work.empty()) {
    const auto *X = dyn_cast_or_null<Expr>(Work.back());
    Work.pop_back();
    if (!X)
      continue;
    QualType T = X->getType();
    if ((isa<BinaryOperator>(X) || isa<UnaryOperator>(X)) &&
        T->isUnsignedIntegerType() && Ctx.getTypeSize(T) < 64 &&
        mentions(X, Var))
      return true;
    for (const Stmt *C : X->children())
      Work.push_back(C);
  }
  return false;
}

/// Every reference to a declaration in \p S.
std::vector<const DeclRefExpr *> declRefsIn(const Stmt *S) {
  std::vector<const DeclRefExpr *> Refs;
  std::vector<const Stmt *> Work = {S};
  while (!Work.empty()) {
    const Stmt *T = Work.back();
    Work.pop_back();
    if (!T)
      continue;
    if (const auto *D = dyn_cast<DeclRefExpr>(T))
      Refs.push_back(D);
    for (const Stmt *C : T->children())
      Work.push_back(C);
  }
  return Refs;
}

/// Plans the rewrite of the first reduction of a global element that can
/// be kept in a register, or says why none can.
class Accumulate {
public:
  explicit Accumulate(const KernelModel &M)
      : M(M), Ctx(M.context()), SM(Ctx.getSourceManager()) {}

  /// The edits, or the reason in Why.
  bool run() {
    std::string First;
    for (const ModelReduction &R : M.reductions()) {
      if (R.Element < 0)
        continue;
      Edits.clear();
      std::string Reason = plan(R);
      if (Reason.empty())
        return true;
      if (First.empty())
        First = Reason;
    }
    Why = First.empty() ? "the kernel model shows no loop that accumulates "
                          "into one global element"
                        : First;
    return false;
  }

  std::vector<tooling::Replacement> Edits;
  std::string Why;

private:
  std::string plan(const ModelReduction &R);
  /// Whether \p V is declared inside the loop's text.
  bool declaredInside(const ValueDecl *V) const {
    auto [F, Off] = SM.getDecomposedLoc(SM.getFileLoc(V->getLocation()));
    return F == Loop.File && Off >= Loop.Begin && Off < Loop.End;
  }
  /// The text of \p E with each reference to \p Var replaced by \p By, or
  /// nullopt when a piece of it is not in the loop's file.
  std::optional<std::string> substituted(const Expr *E, const VarDecl *Var,
                                         llvm::StringRef By) const;
  /// How a value of \p Watched (or a variable of the loop computed from
  /// one) reaches an address, the loop's condition or step, or a branch of
  /// the loop \p L; empty when none does.
  std::string staleUse(const ModelLoop &L,
                       llvm::ArrayRef<const ModelAccess *> Watched) const;
  /// Whether the text of \p E can be evaluated before the loop \p L with
  /// the value it has in every iteration: pure, and naming only what is
  /// declared before the loop and not changed by it (its own variable
  /// aside, when \p AllowVar).
  bool fixedBefore(const Expr *E, const ModelLoop &L, const LoopScan &Scan,
                   bool AllowVar) const;
  /// The read \p A with the loop's variable at its first value and at the
  /// loop's end, when its address moves in a straight line with the
  /// variable and nothing else in it changes in the loop: every address
  /// it reads lies between the two. Nullopt otherwise.
  /// The loop's variable at its first and last values, as texts that can
  /// be evaluated just before a loop known to run, converted to the
  /// variable's type; every value the variable takes lies between the
  /// two. Nullopt when either is not known.
  std::optional<std::pair<std::string, std::string>>
  loopEnds(const ModelLoop &L, const LoopScan &Scan) const;
  std::optional<std::pair<std::string, std::string>>
  span(const ModelAccess &A, const ModelLoop &L, const LoopScan &Scan,
       llvm::StringRef First, llvm::StringRef End) const;

  const KernelModel &M;
  ASTContext &Ctx;
  const SourceManager &SM;
  FileRange Loop;
};

std::optional<std::string> Accumulate::substituted(const Expr *E,
                                                   const VarDecl *Var,
                                                   llvm::StringRef By) const {
  std::optional<FileRange> R = rangeOf(Ctx, E);
  if (!R || R->File != Loop.File)
    return std::nullopt;
  std::vector<TextEdit> Subs;
  for (const DeclRefExpr *DR : referencesTo(E, Var)) {
    std::optional<FileRange> D = rangeOf(Ctx, DR);
    if (!D || D->File != R->File)
      return std::nullopt;
    Subs.push_back({D->Begin, D->End - D->Begin, "(" + By.str() + ")"});
  }
  return editedSlice(Ctx, R->File, R->Begin, R->End, Subs);
}

bool Accumulate::fixedBefore(const Expr *E, const ModelLoop &L,
                             const LoopScan &Scan, bool AllowVar) const {
  if (!E || !M.isPure(E))
    return false;
  for (const DeclRefExpr *DR : declRefsIn(E)) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V)
      continue;
    if (V == L.Var) {
      if (!AllowVar)
        return false;
      continue;
    }
    if (declaredInside(V) || V == Scan.Outside || V == Scan.Exempt ||
        llvm::is_contained(Scan.Restored, V) ||
        V->getType()->isReferenceType() || V->getType().isVolatileQualified())
      return false;
  }
  return true;
}

std::optional<std::pair<std::string, std::string>>
Accumulate::loopEnds(const ModelLoop &L, const LoopScan &Scan) const {
  // The bound of its condition: its end, or its low bound counting down.
  const Expr *Bound = L.Descending ? L.LowExpr : L.EndExpr;
  if (!L.Var || !Bound || !fixedBefore(Bound, L, Scan, false))
    return std::nullopt;
  QualType VT = L.Var->getType();
  if (!VT->isIntegerType())
    return std::nullopt;
  // Where the loop starts: a `for`'s own first value, else the value the
  // variable holds when the loop is reached.
  std::optional<std::string> First = L.Var->getName().str();
  if (const auto *F = dyn_cast<ForStmt>(L.S); F && F->getInit()) {
    const Expr *Init = nullptr;
    if (const auto *DS = dyn_cast<DeclStmt>(F->getInit());
        DS && DS->isSingleDecl() && DS->getSingleDecl() == L.Var)
      Init = L.Var->getInit();
    else if (const auto *B = dyn_cast<BinaryOperator>(F->getInit());
             B && B->getOpcode() == BO_Assign &&
             isReferenceTo(B->getLHS(), L.Var))
      Init = B->getRHS();
    if (!Init || isa<InitListExpr>(Init->IgnoreImplicit()) || !M.isPure(Init) ||
        mentions(Init, L.Var))
      return std::nullopt;
    First = sourceText(Ctx, Init);
  } else if (!isa<WhileStmt>(L.S) && !isa<ForStmt>(L.S)) {
    return std::nullopt;
  }
  std::optional<std::string> End = sourceText(Ctx, Bound);
  // The model's loops count up to their end by a step; the last value is
  // one the loop itself takes, so that no index is computed here that the
  // loop does not compute.
  std::optional<int64_t> Step = L.Step.constantValue();
  const auto *C = dyn_cast_or_null<BinaryOperator>(
      loopCond(L) ? loopCond(L)->IgnoreParenImpCasts() : nullptr);
  if (!First || !End || !Step || *Step <= 0 || !C)
    return std::nullopt;
  bool Inclusive = C->getOpcode() == BO_LE || C->getOpcode() == BO_GE;
  std::string Type =
      VT.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  std::string F = "(" + Type + ")(" + *First + ")";
  std::string E = "(" + Type + ")(" + *End + ")";
  // Counting down by one, the first value is the highest; a condition
  // that decrements (`V-- > E`) gives the body the values one below.
  if (L.Descending && L.DecrementsInCond)
    return std::make_pair(Inclusive ? "(" + E + " - 1)" : E, "(" + F + " - 1)");
  if (L.Descending)
    return std::make_pair(Inclusive ? E : "(" + E + " + 1)", F);
  std::string Last = Inclusive ? E : "(" + E + " - 1)";
  if (*Step != 1)
    Last = "(" + F + " + (" + Last + " - " + F + ") / " +
           std::to_string(*Step) + " * " + std::to_string(*Step) + ")";
  return std::make_pair(F, Last);
}

std::optional<std::pair<std::string, std::string>>
Accumulate::span(const ModelAccess &A, const ModelLoop &L, const LoopScan &Scan,
                 llvm::StringRef First, llvm::StringRef End) const {
  // Read in this loop itself, not in one nested in it.
  int LI = M.loopIndex(L.S);
  if (!L.Var || !A.Index || LI < 0)
    return std::nullopt;
  for (const ModelLoop &Inner : M.loops())
    if (Inner.S != L.S && isWithin(Ctx, Inner.S, L.S) &&
        isWithin(Ctx, A.E, Inner.S))
      return std::nullopt;
  // An index affine in the loop's variable, with every other symbol fixed
  // for the loop: the address moves by the same step each iteration.
  for (const Symbol &S : A.Index->symbols())
    if (S.Kind == Symbol::Opaque)
      return std::nullopt;
  Symbol Var = Symbol::loopVar(LI, L.Var->getName().str());
  if (!A.Index->coefficient(Var))
    return std::nullopt;
  QualType T = A.E->getType();
  if (T.isVolatileQualified() || !fixedBefore(A.E, L, Scan, true) ||
      mayWrap(Ctx, A.E, L.Var))
    return std::nullopt;
  std::optional<std::string> AtFirst = substituted(A.E, L.Var, First);
  std::optional<std::string> AtEnd = substituted(A.E, L.Var, End);
  if (!AtFirst || !AtEnd)
    return std::nullopt;
  return std::make_pair(*AtFirst, *AtEnd);
}

std::string
Accumulate::staleUse(const ModelLoop &L,
                     llvm::ArrayRef<const ModelAccess *> Watched) const {
  // The variables of the loop that hold a watched value, to a fixed point.
  std::vector<const VarDecl *> Tainted;
  auto Holds = [&](const Stmt *S) -> const Stmt * {
    if (!S)
      return nullptr;
    for (const ModelAccess *A : Watched)
      if (A->E == S || isWithin(Ctx, A->E, S))
        return A->E;
    for (const DeclRefExpr *DR : declRefsIn(S))
      if (llvm::is_contained(Tainted, DR->getDecl()))
        return DR;
    return nullptr;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    std::vector<const Stmt *> Work = {L.S};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      const VarDecl *Into = nullptr;
      const Expr *From = nullptr;
      const auto *DS = dyn_cast<DeclStmt>(S);
      if (const auto *V = dyn_cast_or_null<VarDecl>(
              DS && DS->isSingleDecl() ? DS->getSingleDecl() : nullptr)) {
        Into = V;
        From = V->getInit();
      } else if (const auto *B = dyn_cast<BinaryOperator>(S);
                 B && B->isAssignmentOp()) {
        if (const auto *DR =
                dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts()))
          Into = dyn_cast<VarDecl>(DR->getDecl());
        From = B->getRHS();
      }
      if (Into && From && declaredInside(Into) &&
          !llvm::is_contained(Tainted, Into) && Holds(From)) {
        Tainted.push_back(Into);
        Changed = true;
      }
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
  }
  // Addresses of every access of the loop.
  for (const ModelAccess &A : M.accesses()) {
    if (!isWithin(Ctx, A.E, L.S))
      continue;
    const Stmt *Addr = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(A.E))
      Addr = AS->getIdx();
    else if (const auto *U = dyn_cast<UnaryOperator>(A.E))
      Addr = U->getSubExpr();
    const Stmt *Base = nullptr;
    if (const auto *AS = dyn_cast<ArraySubscriptExpr>(A.E))
      Base = AS->getBase();
    for (const Stmt *P : {Addr, Base})
      if (const Stmt *S = Holds(P))
        return "computes the address of " + M.text(A.E) + " from " +
               M.text(cast<Expr>(S));
  }
  // The loop's control and every branch inside it.
  std::vector<const Stmt *> Conds = {loopCond(L), L.StepStmt};
  std::vector<const Stmt *> Work = {L.S};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    if (const auto *I = dyn_cast<IfStmt>(S))
      Conds.push_back(I->getCond());
    else if (const auto *W = dyn_cast<WhileStmt>(S))
      Conds.push_back(W->getCond());
    else if (const auto *D = dyn_cast<DoStmt>(S))
      Conds.push_back(D->getCond());
    else if (const auto *F = dyn_cast<ForStmt>(S); F && F != L.S)
      Conds.push_back(F->getCond()), Conds.push_back(F->getInc());
    else if (const auto *Sw = dyn_cast<SwitchStmt>(S))
      Conds.push_back(Sw->getCond());
    else if (const auto *CO = dyn_cast<ConditionalOperator>(S))
      Conds.push_back(CO->getCond());
    else if (const auto *BO = dyn_cast<BinaryOperator>(S);
             BO && BO->isLogicalOp())
      Conds.push_back(BO->getLHS());
    for (const Stmt *C : S->children())
      Work.push_back(C);
  }
  for (const Stmt *C : Conds)
    if (const Stmt *S = Holds(C))
      return "decides its control flow from " + M.text(cast<Expr>(S));
  return "";
}

std::string Accumulate::plan(const ModelReduction &R) {
  const ModelLoop &L = M.loops()[R.Loop];
  const ModelAccess &Elem = M.accesses()[R.Element];
  std::string At = " at " + M.where(L.S);
  std::string ElemText = M.text(Elem.E);

  // A loop under `#pragma unroll` is replaced with its pragma, which each
  // copy of the loop keeps.
  const Stmt *Whole = L.S;
  auto LoopParents = Ctx.getParents(*L.S);
  if (const auto *Hint = LoopParents.size() == 1
                             ? LoopParents[0].get<AttributedStmt>()
                             : nullptr)
    Whole = Hint;
  std::optional<FileRange> LR = statementRange(Ctx, Whole);
  if (!LR)
    return "the loop" + At + " is not plain text of one file (a macro)";
  Loop = *LR;
  llvm::StringRef Buffer = SM.getBufferData(Loop.File);

  QualType Pointee = Elem.Array.type()->getPointeeType();
  if (Pointee.isNull() || Pointee.isVolatileQualified())
    return "the element " + ElemText + " is volatile";

  LoopScan Scan(M, Loop.Begin, Loop.End);
  Scan.Exempt = setByInit(M, L);
  if (!Scan.scanLoop(L.S))
    return "the loop" + At + " " + Scan.Why;

  // The element's own accesses (the update's target and its read), and
  // the other accesses of the loop.
  std::vector<const ModelAccess *> Own, Others;
  for (const ModelAccess &A : M.accesses()) {
    if (!isWithin(Ctx, A.E, L.S))
      continue;
    bool Same = &A == &Elem ||
                (A.Array == Elem.Array && A.Index && *A.Index == *Elem.Index &&
                 isWithin(Ctx, A.E, R.Update));
    (Same ? Own : Others).push_back(&A);
  }
  std::vector<const ModelAccess *> Watched;
  for (const ModelAccess *A : Others) {
    if (A->Write)
      return "the loop" + At + " also writes " + M.text(A->E);
    if (!A->Shared)
      Watched.push_back(A);
  }
  bool Proven = Elem.Array.isRestrict() || Watched.empty();
  // The run-time test of overlap takes a read's address; a load helper
  // returns the element's value, whose address is the helper's.
  for (const ModelAccess *A : Watched)
    if (!Proven && isa<CallExpr>(A->E))
      return "the loop" + At + " reads " + M.text(A->E) +
             " through a helper, whose address the run-time test of overlap "
             "cannot watch; declare " +
             Elem.Array.name() + " __restrict__";
  // Reads whose addresses all lie between two that can be computed before
  // the loop are tested against the element once, there. When every read
  // is, either the register loop or the original one runs, never both.
  std::vector<std::pair<std::string, std::string>> Spans;
  std::vector<const ModelAccess *> PerRead;
  if (!Proven) {
    std::optional<std::pair<std::string, std::string>> Ends = loopEnds(L, Scan);
    for (const ModelAccess *A : Watched) {
      std::optional<std::pair<std::string, std::string>> S =
          Ends ? span(*A, L, Scan, Ends->first, Ends->second) : std::nullopt;
      if (S)
        Spans.push_back(std::move(*S));
      else
        PerRead.push_back(A);
    }
  }
  bool Once = !Proven && PerRead.empty();
  if (!Proven && !Once) {
    if (Scan.ArrowRead)
      return "the loop" + At +
             " reads through '->', which the run-time "
             "test of overlap does not watch";
    if (Scan.Untracked)
      return "the loop" + At +
             " writes through '->', so it cannot run again "
             "when the element overlaps what it reads; "
             "declare " +
             Elem.Array.name() + " __restrict__";
    if (Scan.Outside)
      return "the loop" + At + " changes '" + Scan.Outside->getName().str() +
             "', declared before it, so it cannot run again when the "
             "element overlaps what it reads; declare " +
             Elem.Array.name() + " __restrict__";
  }

  // A watched read that reaches the element reads a stale value, which
  // may only flow into the sum (thrown away then): never into an address,
  // the loop's control or a branch, where it could fault or never end
  // before the original loop runs again.
  if (!Proven && !Once)
    if (std::string T = staleUse(L, PerRead); !T.empty())
      return "the loop" + At + " " + T + ", which may read the element; " +
             "declare " + Elem.Array.name() + " __restrict__";

  // The element's address is taken before the loop: its text may name
  // only what is declared before.
  for (const DeclRefExpr *DR : declRefsIn(Elem.E))
    if (declaredInside(DR->getDecl()))
      return "the element " + ElemText + " names '" +
             DR->getDecl()->getName().str() + "', declared inside the loop" +
             At;
  if (!M.isPure(Elem.E))
    return "the element " + ElemText + " has side effects";

  // When the loop may run zero times, the new code runs under the loop's
  // condition at its first value.
  std::string Guard;
  const auto *For = dyn_cast<ForStmt>(L.S);
  bool FromState = isa<WhileStmt>(L.S) || (For && !For->getInit());
  if (const Expr *EntryCond = FromState ? loopCond(L) : nullptr;
      EntryCond && (!L.TripCount || *L.TripCount < 1)) {
    // A `while`, or a `for` without an init statement, tests its condition
    // on the state it starts from: when it fails there, the original loop
    // does nothing at all.
    if (!M.isPure(EntryCond))
      return "the loop" + At +
             " may run zero times, and its condition has side effects";
    std::optional<std::string> Text = sourceText(Ctx, EntryCond);
    if (!Text)
      return "the condition of the loop" + At + " is not plain text";
    Guard = *Text;
  } else if (!L.TripCount || *L.TripCount < 1) {
    // A `for` that declares its one variable: when its condition fails at
    // the first value, the original loop does nothing at all.
    // Or one that sets a variable declared before it (`for (k = 0; ...)`).
    const auto *F = dyn_cast<ForStmt>(L.S);
    const auto *DS = F ? dyn_cast_or_null<DeclStmt>(F->getInit()) : nullptr;
    const VarDecl *V = DS && DS->isSingleDecl()
                           ? dyn_cast<VarDecl>(DS->getSingleDecl())
                           : nullptr;
    const Expr *Init = V ? V->getInit() : nullptr;
    if (!DS && (V = setByInit(M, L)))
      Init = cast<BinaryOperator>(F->getInit())->getRHS();
    const auto *Sets =
        F && !DS ? dyn_cast_or_null<BinaryOperator>(F->getInit()) : nullptr;
    if (!V && Sets && Sets->getOpcode() == BO_Assign && L.Var &&
        isReferenceTo(Sets->getLHS(), L.Var) &&
        llvm::any_of(
            referencesTo(M.kernel().getBody(), L.Var),
            [&](const DeclRefExpr *DR) { return !isWithin(Ctx, DR, L.S); }))
      return "the loop" + At + " may run zero times, and '" +
             L.Var->getName().str() +
             "', which it sets first, is read outside it: skipped whole, "
             "it would leave it unset";
    const Expr *Cond = F ? F->getCond() : nullptr;
    if (!V || !Init || !Cond)
      return "the loop" + At +
             " may run zero times and is not a 'for' "
             "that declares or sets its variable";
    if (!M.isPure(Cond) || !M.isPure(Init))
      return "the loop" + At +
             " may run zero times, and its first value "
             "or condition has side effects";
    // The first value as the variable holds it: converted to its type.
    if (const auto *IL = dyn_cast<InitListExpr>(Init->IgnoreImplicit())) {
      if (IL->getNumInits() != 1)
        return "the loop" + At +
               " may run zero times, and its variable's "
               "first value is not one expression";
      Init = IL->getInit(0);
    }
    QualType VT = V->getType();
    if (!VT->isIntegerType() && !VT->isRealFloatingType() &&
        !VT->isPointerType())
      return "the loop" + At +
             " may run zero times, and its variable is "
             "not a number or a pointer";
    std::optional<std::string> Text = sourceText(Ctx, Init);
    std::optional<std::string> First =
        Text ? std::optional<std::string>("(" +
                                          VT.getUnqualifiedType().getAsString(
                                              Ctx.getPrintingPolicy()) +
                                          ")(" + *Text + ")")
             : std::nullopt;
    std::optional<std::string> AtFirst =
        First ? substituted(Cond, V, *First) : std::nullopt;
    if (!AtFirst)
      return "the condition of the loop" + At + " is not plain text";
    Guard = *AtFirst;
  }

  std::string Taken[] = {freshName(M.kernel(), "acc")};
  std::string Acc = Taken[0];
  std::string Ptr = freshName(M.kernel(), "accAt", Taken);
  std::string Hit = freshName(M.kernel(), "accOverlap", {Acc, Ptr});
  std::string Watch = freshName(
      M.kernel(), "watchRead_" + M.kernel().getNameAsString(), {Acc, Ptr, Hit});
  std::string SpanTest =
      freshName(M.kernel(), "spanReaches_" + M.kernel().getNameAsString(),
                {Acc, Ptr, Hit, Watch});
  // The variables the original loop starts from again, and their copies;
  // a `for` that sets its own variable (`for (k = 0; ...)`) sets it again.
  std::vector<std::pair<std::string, std::string>> Saves;
  if (!Proven && !Once) {
    std::vector<std::string> Names = {Acc, Ptr, Hit, Watch};
    const auto *F = dyn_cast<ForStmt>(L.S);
    const auto *Init =
        F ? dyn_cast_or_null<BinaryOperator>(F->getInit()) : nullptr;
    const VarDecl *SetAtStart = nullptr;
    if (Init && Init->getOpcode() == BO_Assign && L.Var &&
        isReferenceTo(Init->getLHS(), L.Var) && M.isPure(Init->getRHS()) &&
        !mentions(Init->getRHS(), L.Var))
      SetAtStart = L.Var;
    for (const VarDecl *V : Scan.Restored) {
      if (V == SetAtStart)
        continue;
      std::string Copy =
          freshName(M.kernel(), V->getName().str() + "Start", Names);
      Names.push_back(Copy);
      Saves.emplace_back(V->getName().str(), Copy);
    }
  }

  // The loop's own edits: the element becomes the register, and each
  // watched read says whether it reached the element.
  std::vector<TextEdit> Inner;
  for (const ModelAccess *A : Own) {
    std::optional<FileRange> AR = rangeOf(Ctx, A->E);
    if (!AR || AR->File != Loop.File)
      return "the element " + ElemText + " is not plain text";
    Inner.push_back({AR->Begin, AR->End - AR->Begin, Acc});
  }
  if (!Proven)
    for (const ModelAccess *A : PerRead) {
      std::optional<FileRange> AR = rangeOf(Ctx, A->E);
      if (!AR || AR->File != Loop.File)
        return "the read " + M.text(A->E) + " is not plain text";
      Inner.push_back({AR->Begin, 0, Watch + "("});
      Inner.push_back(
          {AR->End, 0, ", " + Ptr + ", sizeof(*" + Ptr + "), " + Hit + ")"});
    }
  llvm::StringRef Original = Buffer.slice(Loop.Begin, Loop.End);
  std::string NewLoop =
      editedSlice(Ctx, Loop.File, Loop.Begin, Loop.End, Inner);

  std::string Ind = lineIndent(SM, SM.getFileLoc(L.S->getBeginLoc()));
  // In a block the guard's `if` stands alone; elsewhere (the branch of an
  // `if` with an `else`) it is put in braces, so that no `else` binds to it.
  auto Parents = Ctx.getParents(*Whole);
  bool InBlock = Parents.size() == 1 && Parents[0].get<CompoundStmt>();
  bool Braces = Guard.empty() || !InBlock;
  std::string Open = Braces ? "  " : "";
  std::string In = Open + (Guard.empty() ? "" : "  ");
  std::string T = Braces ? "{\n" : "";
  if (!Guard.empty())
    T += (Braces ? Ind + Open : "") + "if (" + Guard + ") {\n";
  T += Ind + In + "auto *const " + Ptr + " = &" +
       parenthesize(Elem.E, ElemText) + ";\n";
  T += Ind + In + "auto " + Acc + " = *" + Ptr + ";\n";
  if (!Proven) {
    // Whether any read's span reaches the element.
    std::string Test;
    for (const auto &[AtFirst, AtEnd] : Spans)
      Test += (Test.empty() ? "" : " ||\n" + Ind + In + "    ") + SpanTest +
              "(" + AtFirst + ", " + AtEnd + ", " + Ptr + ", sizeof(*" + Ptr +
              "))";
    T += Ind + In + "bool " + Hit + " = " + (Test.empty() ? "false" : Test) +
         ";\n";
  }
  for (const auto &[Var, Copy] : Saves)
    T += Ind + In + "auto " + Copy + " = " + Var + ";\n";
  if (Once) {
    // The register loop when no read can reach the element, else the
    // original loop.
    T += Ind + In + "if (!" + Hit + ") {\n";
    T += Ind + In + "  " + indented(NewLoop, In + "  ") + "\n";
    T += Ind + In + "  *" + Ptr + " = " + Acc + ";\n";
    T += Ind + In + "} else {\n";
    T += Ind + In + "  " + indented(Original, In + "  ") + "\n";
    T += Ind + In + "}\n";
  } else if (!Spans.empty()) {
    // Reads tested once and reads watched: the register loop runs only
    // when none of the first can reach the element, so that only the
    // watched reads can read a stale value.
    T += Ind + In + "if (!" + Hit + ")\n";
    T += Ind + In + "  " + indented(NewLoop, In + "  ") + "\n";
  } else {
    T += Ind + In + indented(NewLoop, In) + "\n";
  }
  if (Proven) {
    T += Ind + In + "*" + Ptr + " = " + Acc + ";\n";
  } else if (!Once) {
    // A read reached the element: the register loop changed no memory, so
    // the original loop runs from the start.
    T += Ind + In + "if (!" + Hit + ")\n";
    T += Ind + In + "  *" + Ptr + " = " + Acc + ";\n";
    if (Saves.empty()) {
      T += Ind + In + "else\n";
      T += Ind + In + "  " + indented(Original, In + "  ") + "\n";
    } else {
      // From the state it started from.
      T += Ind + In + "else {\n";
      for (const auto &[Var, Copy] : Saves)
        T += Ind + In + "  " + Var + " = " + Copy + ";\n";
      T += Ind + In + "  " + indented(Original, In + "  ") + "\n";
      T += Ind + In + "}\n";
    }
  }
  if (!Guard.empty())
    T += Ind + Open + "}" + (Braces ? "\n" : "");
  if (Braces)
    T += Ind + "}";
  Edits.emplace_back(SM, SM.getComposedLoc(Loop.File, Loop.Begin),
                     Loop.End - Loop.Begin, T);

  if (!Proven) {
    // The tests, before the kernel (and before an extern "C" block around
    // it, where a template cannot be).
    const Decl *Outer = &M.kernel();
    const FunctionDecl *Pattern = M.kernel().getTemplateInstantiationPattern();
    if (!Pattern)
      Pattern = &M.kernel();
    if (const FunctionTemplateDecl *FT =
            Pattern->getDescribedFunctionTemplate())
      Outer = FT;
    for (const DeclContext *DC = Outer->getLexicalDeclContext();
         DC && isa<LinkageSpecDecl>(DC); DC = DC->getLexicalParent())
      Outer = cast<LinkageSpecDecl>(DC);
    SourceLocation Begin = SM.getFileLoc(Outer->getBeginLoc());
    if (Begin.isInvalid())
      return "the kernel's declaration is not plain text";
    std::string Helpers;
    if (!Spans.empty())
      Helpers +=
          "// Whether a read between First and Last (every read of a loop "
          "whose\n// address moves by the same step each iteration) may reach "
          "the\n// element kept in a register. Nothing is read here.\n"
          "template <typename T>\n"
          "__device__ __forceinline__ bool " +
          SpanTest +
          "(const T &First, const T &Last, const void *Element, unsigned "
          "long Size) {\n"
          "  unsigned long long A = "
          "reinterpret_cast<unsigned long long>(&First);\n"
          "  unsigned long long B = "
          "reinterpret_cast<unsigned long long>(&Last);\n"
          "  unsigned long long E = "
          "reinterpret_cast<unsigned long long>(Element);\n"
          "  unsigned long long Lo = A < B ? A : B, Hi = A < B ? B : A;\n"
          "  return E < Hi + sizeof(T) && Lo < E + Size;\n"
          "}\n\n";
    if (!PerRead.empty())
      Helpers +=
          "// Whether a read reaches the element kept in a register.\n"
          "template <typename T>\n"
          "__device__ __forceinline__ T &" +
          Watch +
          "(T &Read, const void *Element, unsigned long Size, bool &Hit) "
          "{\n"
          "  // Any byte in common, for reads narrower or wider than it.\n"
          "  unsigned long long R = "
          "reinterpret_cast<unsigned long long>(&Read);\n"
          "  unsigned long long E = "
          "reinterpret_cast<unsigned long long>(Element);\n"
          "  Hit |= R < E + Size && E < R + sizeof(T);\n"
          "  return Read;\n"
          "}\n\n";
    Edits.emplace_back(SM, Begin, 0, Helpers);
  }
  return "";
}

} // namespace

llvm::StringRef RegisterAccumulate::name() const {
  return "register-accumulate";
}

llvm::StringRef RegisterAccumulate::description() const {
  return "keep a global element that a loop accumulates into in a register, "
         "stored once after the loop";
}

bool RegisterAccumulate::precondition(const KernelRecord &K) const {
  return K.Features.get("loops").value_or(0) > 0;
}

static const MetricCondition Stalls[] = {
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
     "ratio",
     ">=", 10},
    {"smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio",
     ">=", 5}};

static constexpr const char *StoreSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum";
static constexpr const char *LoadSectors =
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";

std::vector<std::string> RegisterAccumulate::triggerMetrics() const {
  std::vector<std::string> Names = {StoreSectors, LoadSectors};
  for (const std::string &S : conditionMetrics(Stalls))
    Names.push_back(S);
  return Names;
}

std::optional<std::string>
RegisterAccumulate::trigger(const MetricValues &M) const {
  auto St = M.find(StoreSectors), Ld = M.find(LoadSectors);
  if (St != M.end() && Ld != M.end() && Ld->second > 0 &&
      St->second >= 0.1 * Ld->second)
    return std::string(StoreSectors) + " = " + formatMetricValue(St->second) +
           " >= 0.1 x " + LoadSectors + " = " + formatMetricValue(Ld->second);
  return firstCondition(M, Stalls);
}

Error RegisterAccumulate::apply(const KernelModel &M, FileEdits &Out) const {
  Accumulate A(M);
  if (!A.run())
    return Error::success();
  return addEdits(A.Edits, Out);
}

std::string RegisterAccumulate::explain(const KernelModel &M) const {
  Accumulate A(M);
  return A.run() ? "" : A.Why;
}
