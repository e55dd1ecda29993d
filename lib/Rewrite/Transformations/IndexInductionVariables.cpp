//===- IndexInductionVariables.cpp - Walking pointers as indices ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "IndexInductionVariables.h"
#include "TextEdits.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// One variable a loop steps by a fixed amount at the end of its body.
struct Walk {
  const VarDecl *Var = nullptr;
  /// The statement that steps it.
  const Stmt *Step = nullptr;
  /// The amount, or null for one (`++p`, `p--`).
  const Expr *By = nullptr;
  bool Down = false;
  /// For a step inside a statement (`acc += *p++;`): the `p++`, and the
  /// index of its statement in the body. Step is then null.
  const UnaryOperator *Inline = nullptr;
  unsigned StmtIndex = 0;
};

/// The local pointer or integer \p S steps, with the amount and its
/// direction: `p += e`, `p -= e`, `p = p + e`, `p = e + p`, `p = p - e`,
/// `++p`, `p++`, `--p`, `p--`. Null for any other statement.
const VarDecl *steppedVar(const Stmt *S, const Expr *&By, bool &Down) {
  auto VarOf = [](const Expr *E) -> const VarDecl * {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V || !V->hasLocalStorage() || V->getType()->isReferenceType() ||
        V->getType().isVolatileQualified() ||
        !(V->getType()->isPointerType() || V->getType()->isIntegerType()))
      return nullptr;
    return V;
  };
  auto Refers = [](const Expr *E, const VarDecl *V) {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DR && DR->getDecl() == V;
  };
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  By = nullptr;
  Down = false;
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    Down = U->isDecrementOp();
    return U->isIncrementDecrementOp() ? VarOf(U->getSubExpr()) : nullptr;
  }
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E)) {
    if (CA->getOpcode() != BO_AddAssign && CA->getOpcode() != BO_SubAssign)
      return nullptr;
    By = CA->getRHS();
    Down = CA->getOpcode() == BO_SubAssign;
    return VarOf(CA->getLHS());
  }
  const auto *A = dyn_cast<BinaryOperator>(E);
  if (!A || A->getOpcode() != BO_Assign)
    return nullptr;
  const VarDecl *V = VarOf(A->getLHS());
  const auto *Sum =
      dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts());
  if (!V || !Sum)
    return nullptr;
  if (Sum->getOpcode() == BO_Add && Refers(Sum->getLHS(), V))
    By = Sum->getRHS();
  else if (Sum->getOpcode() == BO_Add && Refers(Sum->getRHS(), V))
    By = Sum->getLHS();
  else if (Sum->getOpcode() == BO_Sub && Refers(Sum->getLHS(), V))
    By = Sum->getRHS(), Down = true;
  return By ? V : nullptr;
}

/// Whether \p E is evaluated whenever its enclosing statement \p S of
/// the loop's body is: nothing between them branches (`?:`, `&&`, `||`,
/// `if`, a loop, a `switch`, a lambda).
bool alwaysEvaluated(ASTContext &Ctx, const Stmt *E, const Stmt *S) {
  const Stmt *C = E;
  while (C != S) {
    DynTypedNodeList Parents = Ctx.getParents(*C);
    const Stmt *P = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
    if (!P)
      return false;
    if (const auto *CO = dyn_cast<ConditionalOperator>(P);
        CO && CO->getCond() != C)
      return false;
    if (const auto *B = dyn_cast<BinaryOperator>(P);
        B && (B->isLogicalOp() || B->getOpcode() == BO_Comma) &&
        B->getLHS() != C)
      return false;
    if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
            LambdaExpr, BinaryConditionalOperator>(P))
      return false;
    C = P;
  }
  return true;
}

/// The post-increments and post-decrements (`p++`) of local pointers and
/// integers in \p S, outside the loops inside it.
void postSteps(const Stmt *S, std::vector<const UnaryOperator *> &Out) {
  if (!S || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, LambdaExpr>(S))
    return;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->getOpcode() == UO_PostInc || U->getOpcode() == UO_PostDec)) {
    const Expr *By = nullptr;
    bool Down = false;
    if (steppedVar(U, By, Down))
      Out.push_back(U);
  }
  for (const Stmt *C : S->children())
    postSteps(C, Out);
}

/// Whether \p E reads memory: a subscript, a dereference or a member
/// through a pointer.
bool readsMemory(const Stmt *E) {
  if (!E)
    return false;
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_Deref)
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && ME->isArrow())
    return true;
  for (const Stmt *C : E->children())
    if (readsMemory(C))
      return true;
  return false;
}

/// The variables \p E names.
void namedVars(const Stmt *E, std::vector<const VarDecl *> &Out) {
  if (!E)
    return;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Out.push_back(V);
  for (const Stmt *C : E->children())
    namedVars(C, Out);
}

/// Whether \p S holds a `continue` of its own loop (not of a loop inside
/// it).
bool hasOwnContinue(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return false;
  for (const Stmt *C : S->children())
    if (hasOwnContinue(C))
      return true;
  return false;
}

/// The names the declarations inside \p S declare.
void declaredNames(const Stmt *S, llvm::StringSet<> &Out) {
  if (!S)
    return;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *ND = dyn_cast<NamedDecl>(D))
        Out.insert(ND->getName());
  for (const Stmt *C : S->children())
    declaredNames(C, Out);
}

/// The loops around \p S in the kernel's body, innermost first.
std::vector<const Stmt *> enclosingLoops(ASTContext &Ctx, const Stmt *S) {
  std::vector<const Stmt *> Out;
  DynTypedNodeList Parents = Ctx.getParents(*S);
  while (!Parents.empty()) {
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      break;
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P))
      Out.push_back(P);
    Parents = Ctx.getParents(*P);
  }
  return Out;
}

/// The edits that index the walks of one kernel, or none with the first
/// reason a walk is not indexed in \p Why.
class Planner {
public:
  explicit Planner(const KernelModel &M) : M(M), Ctx(M.context()) {}

  /// The edits of the first loop whose walks are indexed. One loop at a
  /// time: a step of one loop may name a walk of another, whose reads the
  /// other's edits change; the engine prepares the edited kernel again
  /// for the next loop.
  std::vector<tooling::Replacement> plan(std::string &Why) {
    for (const ModelLoop &L : M.loops()) {
      std::string LoopWhy;
      std::vector<tooling::Replacement> R = loopEdits(L, LoopWhy);
      if (!R.empty()) {
        Why.clear();
        return R;
      }
      if (Why.empty())
        Why = LoopWhy;
    }
    return {};
  }

private:
  /// The body of \p L's `for` or `while` loop, or null.
  static const Stmt *bodyOf(const ModelLoop &L) {
    if (const auto *F = dyn_cast<ForStmt>(L.S))
      return F->getBody();
    if (const auto *W = dyn_cast<WhileStmt>(L.S))
      return W->getBody();
    return nullptr;
  }

  /// The edits for the walks of \p L; none, with the reason in \p Why when
  /// it has steps that cannot be indexed (empty when it has none).
  std::vector<tooling::Replacement> loopEdits(const ModelLoop &L,
                                              std::string &Why) {
    const Stmt *Body = bodyOf(L);
    if (!Body)
      return {};
    // A `while` loop's step of its variable, its last statement, is not
    // among them.
    std::vector<const Stmt *> Stmts = loopBody(L);
    // The steps at the end of the body, one per variable.
    std::vector<Walk> Walks;
    auto Walked = [&](const VarDecl *V) {
      return llvm::any_of(Walks, [&](const Walk &O) { return O.Var == V; });
    };
    unsigned First = Stmts.size();
    while (First > 1) {
      Walk W;
      W.Step = Stmts[First - 1];
      W.Var = steppedVar(W.Step, W.By, W.Down);
      if (!W.Var || W.Var == L.InitVar || Walked(W.Var))
        break;
      Walks.push_back(W);
      --First;
    }
    // The steps inside the statements before (`acc += *p++;`), each
    // evaluated once per iteration.
    for (unsigned I = 0; I < First; ++I) {
      std::vector<const UnaryOperator *> Posts;
      postSteps(Stmts[I], Posts);
      for (const UnaryOperator *U : Posts) {
        Walk W;
        W.Var = steppedVar(U, W.By, W.Down);
        W.Inline = U;
        W.StmtIndex = I;
        if (W.Var == L.InitVar || Walked(W.Var))
          continue;
        if (!alwaysEvaluated(Ctx, U, Stmts[I])) {
          Why = "the loop at " + M.where(L.S) + " steps `" +
                W.Var->getNameAsString() + "` at " + M.where(U) +
                " only on some iterations";
          return {};
        }
        Walks.push_back(W);
      }
    }
    if (Walks.empty())
      return {};
    std::string At = "the loop at " + M.where(L.S);
    std::string Step = "`" + Walks.front().Var->getNameAsString() + "`";
    if (!L.counted()) {
      Why = At + " steps " + Step + " but is not counted: " + L.Why;
      return {};
    }
    std::optional<int64_t> S = L.Step.constantValue();
    if (!S || *S <= 0) {
      Why = At + " does not step its variable by a constant";
      return {};
    }
    if (hasOwnContinue(Body)) {
      Why = At + " has a `continue`, which skips the step of " + Step;
      return {};
    }
    llvm::StringSet<> Declared;
    declaredNames(Body, Declared);
    std::optional<std::string> Iter = iteration(L, *S, Declared, Why);
    if (!Iter)
      return {};
    if (Declared.count(L.Var->getName())) {
      Why = At + " declares another `" + L.Var->getNameAsString() +
            "` in its body";
      return {};
    }
    for (const Walk &W : Walks)
      if (W.By && (!M.isPure(W.By) || readsMemory(W.By) ||
                   !invariant(W.By, L, Walks, Declared))) {
        Why = At + " steps `" + W.Var->getNameAsString() + "` by `" +
              M.text(W.By) + "`, which is not fixed for the loop";
        return {};
      }
    std::vector<tooling::Replacement> Out;
    for (const Walk &W : Walks) {
      std::string Name = "`" + W.Var->getNameAsString() + "`";
      // Read only, and before the step, in the loop; not read after it.
      std::vector<const DeclRefExpr *> Reads;
      unsigned Until = W.Inline ? W.StmtIndex : First;
      for (const DeclRefExpr *R : referencesTo(L.S, W.Var)) {
        if (isWithin(Ctx, R, W.Inline ? W.Inline : W.Step))
          continue;
        bool Before =
            llvm::any_of(llvm::make_range(Stmts.begin(), Stmts.begin() + Until),
                         [&](const Stmt *B) { return isWithin(Ctx, R, B); });
        if (!Before || !readsOnly(Ctx, W.Var, R)) {
          Why = At + " changes or reads " + Name +
                " other than before its "
                "step at the end of the body";
          return {};
        }
        Reads.push_back(R);
      }
      if (std::string Live = liveAfter(W.Var, L); !Live.empty()) {
        Why = Name + " " + Live;
        return {};
      }
      // The offset: in `long long` for a pointer, else in its own type.
      std::string Offset =
          "(" +
          (W.Var->getType()->isPointerType()
               ? std::string("long long")
               : W.Var->getType().getUnqualifiedType().getAsString(
                     Ctx.getPrintingPolicy())) +
          ")" + *Iter;
      std::optional<llvm::APSInt> ByValue =
          W.By ? W.By->getIntegerConstantExpr(Ctx) : std::nullopt;
      if (W.By && !(ByValue && *ByValue == 1)) {
        std::optional<std::string> ByText = sourceText(Ctx, W.By);
        if (!ByText) {
          Why = At + " steps " + Name + " through a macro";
          return {};
        }
        Offset += " * " + parenthesize(W.By->IgnoreImpCasts(), *ByText);
      }
      if (!W.Var->getType()->isPointerType())
        Offset = "(" +
                 W.Var->getType().getUnqualifiedType().getAsString(
                     Ctx.getPrintingPolicy()) +
                 ")(" + Offset + ")";
      std::string Value = "(" + W.Var->getNameAsString() +
                          (W.Down ? " - " : " + ") + Offset + ")";
      std::vector<const Expr *> Replaced(Reads.begin(), Reads.end());
      // `p++` as a statement of its own goes; inside one, it is the value.
      const Stmt *Dropped = W.Step;
      if (W.Inline && W.Inline == Stmts[W.StmtIndex])
        Dropped = W.Inline;
      else if (W.Inline)
        Replaced.push_back(W.Inline);
      for (const Expr *R : Replaced) {
        std::optional<tooling::Replacement> E = replaceExpr(Ctx, R, Value);
        if (!E) {
          Why = At + " reads " + Name + " through a macro";
          return {};
        }
        Out.push_back(*E);
      }
      if (!Dropped)
        continue;
      std::optional<tooling::Replacement> Drop = dropStatement(Dropped);
      if (!Drop) {
        Why = At + " steps " + Name + " through a macro";
        return {};
      }
      Out.push_back(*Drop);
    }
    return Out;
  }

  /// The number of the iteration at the loop's body, as text: `k`,
  /// `(k - (first))`, divided by a step other than one, or
  /// `((first) - k)` counting down (`((first) - 1 - k)` when the condition
  /// decrements). \p Declared holds the names the body declares.
  std::optional<std::string> iteration(const ModelLoop &L, int64_t Step,
                                       const llvm::StringSet<> &Declared,
                                       std::string &Why) {
    std::string K = L.Var->getNameAsString();
    std::string At = "the loop at " + M.where(L.S);
    std::optional<int64_t> C0 = L.First.constantValue();
    if (!L.Descending && C0 && *C0 == 0)
      return Step == 1 ? K : "(" + K + " / " + std::to_string(Step) + ")";
    const Expr *First = L.FirstExpr;
    std::optional<std::string> Text =
        First ? sourceText(Ctx, First) : std::nullopt;
    if (!Text || !M.isPure(First) || readsMemory(First) ||
        !invariant(First, L, {}, Declared)) {
      Why = At + " starts at a value the loop may change";
      return std::nullopt;
    }
    std::string F = parenthesize(First->IgnoreImpCasts(), *Text);
    if (L.Descending)
      return "(" + F + (L.DecrementsInCond ? " - 1" : "") + " - " + K + ")";
    std::string I = "(" + K + " - " + F + ")";
    if (Step != 1)
      I = "(" + I + " / " + std::to_string(Step) + ")";
    return I;
  }

  /// Whether nothing \p E names changes in the loop \p L or is a walk of
  /// it, and the loop's body declares none of those names.
  bool invariant(const Expr *E, const ModelLoop &L, llvm::ArrayRef<Walk> Walks,
                 const llvm::StringSet<> &Declared) {
    std::vector<const VarDecl *> Names;
    namedVars(E, Names);
    for (const VarDecl *V : Names) {
      if (V == L.Var || Declared.count(V->getName()) ||
          llvm::any_of(Walks, [&](const Walk &W) { return W.Var == V; }))
        return false;
      for (const DeclRefExpr *R : referencesTo(L.S, V))
        if (!readsOnly(Ctx, V, R))
          return false;
    }
    return true;
  }

  /// Why \p V may be read after the loop \p L ("is read at line N, after
  /// the loop at line M"), or empty when it is not.
  std::string liveAfter(const VarDecl *V, const ModelLoop &L) {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation Begin = SM.getFileLoc(L.S->getBeginLoc());
    for (const DeclRefExpr *R : referencesTo(M.kernel().getBody(), V)) {
      if (isWithin(Ctx, R, L.S))
        continue;
      SourceLocation At = SM.getFileLoc(R->getBeginLoc());
      if (!SM.isBeforeInTranslationUnit(At, Begin))
        return "is read at " + M.where(R) + ", after the loop at " +
               M.where(L.S);
    }
    // A loop around that does not declare it carries its value from one
    // iteration to the next.
    for (const Stmt *Outer : enclosingLoops(Ctx, L.S))
      if (isa<ParmVarDecl>(V) || !isWithinDecl(V, Outer))
        return "keeps its value from one iteration of the loop at " +
               M.where(Outer) + " to the next";
    return "";
  }

  /// Whether the declaration of \p V lies inside \p S.
  bool isWithinDecl(const VarDecl *V, const Stmt *S) {
    const SourceManager &SM = Ctx.getSourceManager();
    SourceRange R = S->getSourceRange();
    SourceLocation L = V->getLocation();
    return SM.isBeforeInTranslationUnit(R.getBegin(), L) &&
           SM.isBeforeInTranslationUnit(L, R.getEnd());
  }

  /// A replacement that removes \p S with its `;`, and its line when
  /// nothing else is on it.
  std::optional<tooling::Replacement> dropStatement(const Stmt *S) {
    std::optional<FileRange> R = statementRange(Ctx, S);
    if (!R)
      return std::nullopt;
    const SourceManager &SM = Ctx.getSourceManager();
    StringRef Text = SM.getBufferData(R->File);
    unsigned Begin = R->Begin, End = R->End;
    unsigned LineBegin = Begin;
    while (LineBegin > 0 &&
           (Text[LineBegin - 1] == ' ' || Text[LineBegin - 1] == '\t'))
      --LineBegin;
    unsigned LineEnd = End;
    while (LineEnd < Text.size() &&
           (Text[LineEnd] == ' ' || Text[LineEnd] == '\t'))
      ++LineEnd;
    if ((LineBegin == 0 || Text[LineBegin - 1] == '\n') &&
        LineEnd < Text.size() && Text[LineEnd] == '\n') {
      Begin = LineBegin;
      End = LineEnd + 1;
    }
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(R->File);
    if (!FE)
      return std::nullopt;
    return tooling::Replacement(FE->getName(), Begin, End - Begin, "");
  }

  const KernelModel &M;
  ASTContext &Ctx;
};

} // namespace

StringRef IndexInductionVariables::name() const {
  return "index-induction-variables";
}

StringRef IndexInductionVariables::description() const {
  return "write each pointer or offset a loop steps by a fixed amount as its "
         "first value plus the iteration's multiple of the step, for the "
         "other rewrites";
}

Error IndexInductionVariables::apply(const KernelModel &M,
                                     FileEdits &Out) const {
  std::string Why;
  for (const tooling::Replacement &R : Planner(M).plan(Why))
    if (Error Err = addEdit(R, Out))
      return Err;
  return Error::success();
}

std::string IndexInductionVariables::explain(const KernelModel &M) const {
  std::string Why;
  Planner(M).plan(Why);
  return Why;
}
