//===- WarpPerRow.cpp - One warp per row of a row reduction ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "WarpPerRow.h"
#include "IndependentThreads.h"
#include "TextEdits.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// Lanes of a warp.
constexpr int WarpSize = 32;

/// Whether __shfl_*_sync carries values of type \p T.
bool isShuffled(QualType T) {
  return !T.isVolatileQualified() && isWordType(T);
}

/// Whether \p E, through parentheses and implicit casts, is an operand that
/// `(...) / 32` can replace without parentheses around it.
bool needsParens(ASTContext &Ctx, const Expr *E) {
  auto Parents = Ctx.getParents(*E);
  const Stmt *P = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
  while (P && isa<ImplicitCastExpr>(P)) {
    auto Up = Ctx.getParents(*P);
    P = Up.size() == 1 ? Up[0].get<Stmt>() : nullptr;
  }
  if (!P)
    return false;
  if (const auto *B = dyn_cast<BinaryOperator>(P))
    return B->isMultiplicativeOp() || B->isShiftOp() || B->isBitwiseOp();
  return isa<UnaryOperator, ExplicitCastExpr, MemberExpr>(P);
}

/// Gives the rows of a thread-per-row kernel to warps: matches the kernel
/// model and gathers the edits, or says why it cannot.
class RowsToWarps {
public:
  explicit RowsToWarps(const KernelModel &M)
      : M(M), Ctx(M.context()), SM(Ctx.getSourceManager()),
        Lane(freshName(M.kernel(), "Lane")),
        Offset(freshName(M.kernel(), "Offset", {Lane})) {}

  /// The edits, or the reason in Why.
  bool run();

  std::vector<tooling::Replacement> Edits;
  std::string Why;

private:
  bool refuse(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }
  bool add(std::optional<tooling::Replacement> R, const Stmt *S) {
    if (!R)
      return refuse("the code at " + M.where(S) +
                    " is written through a macro");
    Edits.push_back(*R);
    return true;
  }
  std::string indentOf(const Stmt *S) const {
    return lineIndent(SM, S->getBeginLoc());
  }
  bool rows();
  bool launches();
  bool work();
  bool reductionLoop(const ModelLoop &L, unsigned Index, size_t Next);
  bool storeLoop(const ModelLoop &L, unsigned Index);
  /// Checks the assignment \p B (`a[e] = v`, `a[e] op= v`) of the loop
  /// \p L's body: a store of one element of the row, another each
  /// iteration.
  bool elementStore(const BinaryOperator *B, const ModelLoop &L,
                    unsigned Index);
  /// Checks that any two accesses of one element, one of them a store, are
  /// made by one lane, or else puts a __syncwarp() between them; refuses
  /// when they are in one loop.
  bool lanesAgree();
  bool stride(const ModelLoop &L);
  /// Whether \p S stores a pure value to memory: `y[r] = v`, `y[r] -= v`,
  /// `*p = v`.
  bool isStore(const Stmt *S) const {
    const auto *B = dyn_cast<BinaryOperator>(S);
    return M.storeTarget(S) && M.isPure(B->getRHS()) && M.isPure(B->getLHS());
  }
  /// Inserts \p Text at \p Loc: before what the rewrite inserts there
  /// already when \p First, else after it.
  void insertAt(SourceLocation Loc, const std::string &Text, bool First);
  /// Where the statement \p S ends: after its `;`, or after its last
  /// token; invalid in a macro.
  SourceLocation endOf(const Stmt *S) const {
    std::optional<FileRange> R = statementRange(Ctx, S);
    return R ? SM.getComposedLoc(R->File, R->End) : SourceLocation();
  }
  /// The shuffles that combine \p Var across the lanes with \p Combine.
  /// `for (int Offset = 16; Offset > 0; Offset /= 2)`, the loop over the
  /// shuffles' distances.
  std::string offsetsLoop() const;
  std::string combineText(const std::string &Var, const std::string &Combine,
                          bool ToAll, const std::string &Indent) const;
  /// Checks the extreme and its position that the loop \p L finds
  /// (\p A), before the loop is split.
  bool argExtreme(const ModelArgExtreme &A, const ModelLoop &L);
  /// The shuffles that combine the extreme and its position of \p A
  /// across the lanes: the greater (lesser) value, and of equal values the
  /// earlier position.
  std::string argCombineText(const ModelArgExtreme &A, bool ToAll,
                             const std::string &Indent);

  const KernelModel &M;
  ASTContext &Ctx;
  const SourceManager &SM;
  const std::string Lane, Offset;
  const std::string W = std::to_string(WarpSize);
  std::vector<std::string> Taken;
  /// The positions in the work of the row loops whose scalars are combined
  /// by shuffles that every lane passes before the next statement.
  std::vector<size_t> Combined;
  /// The row loops of the work, by position: each lane takes a slice.
  std::map<size_t, unsigned> RowLoops;
  /// Stores of an element before the loop that accumulates it, done by
  /// lane 0 only.
  std::vector<const Expr *> PreStores;
  std::vector<const Stmt *> PreStoreStmts;
  /// The stores after the last reduction, each done by lane 0 only.
  std::vector<const Stmt *> StoredByLaneZero;
  /// The work of one row: the statements the guard protects, or the body
  /// of the grid-stride loop over the rows.
  std::vector<const Stmt *> Work;
  /// Whether the threads stride over the rows by the grid's size.
  bool GridStride = false;
  bool Reduced = false, Stores = false, ElementReduced = false;
};

bool RowsToWarps::rows() {
  std::vector<const Expr *> Uncovered;
  std::vector<const Expr *> Rows =
      M.expressionsOfValue(globalIndex(0), Uncovered);
  // A grid-stride loop steps by the grid's warps: each warp's lanes take
  // the same rows.
  if (GridStride) {
    std::vector<const Expr *> Other;
    for (const Expr *Step : M.expressionsOfValue(gridSize(), Other)) {
      llvm::erase_if(Uncovered,
                     [&](const Expr *U) { return isWithin(Ctx, U, Step); });
      auto Text = sourceText(Ctx, Step);
      if (!Text)
        return refuse("the step at " + M.where(Step) +
                      " is written through a macro");
      std::string New = "(" + *Text + ") / " + W;
      if (!add(replaceExpr(Ctx, Step,
                           needsParens(Ctx, Step) ? "(" + New + ")" : New),
               Step))
        return false;
    }
  }
  // A batch index on another axis is the same for a warp's lanes.
  std::string OtherWhy;
  if (!takeOtherAxes(M, Uncovered, /*BlocksOnly=*/false, OtherWhy))
    return refuse(OtherWhy);
  if (!Uncovered.empty())
    return refuse("`" + M.text(Uncovered.front()) + "` at " +
                  M.where(Uncovered.front()) +
                  " is read other than in the thread's global index "
                  "blockIdx.x * blockDim.x + threadIdx.x, the row, or in "
                  "an index of another axis");
  if (Rows.empty())
    return refuse("no row: nothing computes blockIdx.x * blockDim.x + "
                  "threadIdx.x");
  for (const Expr *R : Rows) {
    auto Text = sourceText(Ctx, R);
    if (!Text)
      return refuse("the row at " + M.where(R) + " is written through a macro");
    std::string New = "(" + *Text + ") / " + W;
    if (!add(replaceExpr(Ctx, R, needsParens(Ctx, R) ? "(" + New + ")" : New),
             R))
      return false;
  }
  // The lane: after the declaration of the row when the kernel starts with
  // one, else first.
  const auto *Body = cast<CompoundStmt>(M.kernel().getBody());
  const Stmt *After = nullptr;
  for (const Stmt *S : Body->body()) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      break;
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D); V && V->getInit())
        if (llvm::is_contained(Rows, V->getInit()->IgnoreParenImpCasts()) ||
            llvm::is_contained(Rows, V->getInit()->IgnoreParens()))
          After = S;
    if (After)
      break;
  }
  std::string Decl = "// One warp per row: its lanes split the row.\n";
  std::string LaneDecl = "int " + Lane + " = threadIdx.x % " + W + ";";
  if (After && After->getEndLoc().isFileID()) {
    std::string Ind = indentOf(After);
    Edits.push_back(
        tooling::Replacement(SM, After->getEndLoc().getLocWithOffset(1), 0,
                             "\n" + Ind + Decl + Ind + LaneDecl));
    return true;
  }
  if (Body->body_empty() || !Body->body_front()->getBeginLoc().isFileID())
    return refuse("the kernel's body starts in a macro");
  std::string Ind = indentOf(Body->body_front());
  Edits.push_back(tooling::Replacement(SM, Body->body_front()->getBeginLoc(), 0,
                                       Decl + Ind + LaneDecl + "\n" + Ind));
  return true;
}

bool RowsToWarps::launches() {
  std::string NoLaunch;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(NoLaunch);
  if (!Launches)
    return refuse(NoLaunch);
  for (const KernelLaunch &KL : *Launches) {
    std::string At = "the launch at " + M.where(KL.Call);
    std::optional<Dim3> Block = constantDims(Ctx, KL.Block);
    if (!Block)
      return refuse(At + " has a block whose size is not a compile-time "
                         "constant");
    if ((*Block)[0] <= 0 || (*Block)[0] % WarpSize != 0)
      return refuse(At + " has blocks of " + std::to_string((*Block)[0]) +
                    " threads in x, not whole warps");
    // A number is scaled as `(g) * F`, evaluated once as before; a dim3's
    // fields are read three times.
    if (KL.Grid->getType()->isRecordType() && !M.isPure(KL.Grid))
      return refuse(At + " computes its grid with side effects");
    auto Text = sourceText(Ctx, KL.Grid);
    if (!Text)
      return refuse(At + " writes its grid through a macro");
    if (!add(replaceExpr(Ctx, KL.Grid, scaledGridText(Ctx, KL.Grid, *Text, W)),
             KL.Call))
      return false;
  }
  return true;
}

std::string RowsToWarps::combineText(const std::string &Var,
                                     const std::string &Combine, bool ToAll,
                                     const std::string &Indent) const {
  std::string Shuffle =
      std::string(ToAll ? "__shfl_xor_sync" : "__shfl_down_sync") +
      "(0xffffffff, " + Var + ", " + Offset + ")";
  std::string Step = Combine == "+" ? Var + " += " + Shuffle + ";"
                                    : Var + " = " + Combine + "(" + Var + ", " +
                                          Shuffle + ");";
  return offsetsLoop() + "\n" + Indent + "  " + Step + "\n" + Indent;
}

std::string RowsToWarps::offsetsLoop() const {
  return "for (int " + Offset + " = " + std::to_string(WarpSize / 2) + "; " +
         Offset + " > 0; " + Offset + " /= 2)";
}

bool RowsToWarps::argExtreme(const ModelArgExtreme &A, const ModelLoop &L) {
  for (const VarDecl *V : {A.Extreme, A.Position})
    if (!isShuffled(V->getType()) || V->getType().isConstQualified())
      return refuse("the loop at " + M.where(L.S) + " finds `" +
                    V->getNameAsString() +
                    "`, of a type the shuffles do not carry");
  if (std::string W = M.splitArgExtremeWhy(A, "lanes"); !W.empty())
    return refuse(W);
  Reduced = true;
  return true;
}

std::string RowsToWarps::argCombineText(const ModelArgExtreme &A, bool ToAll,
                                        const std::string &Indent) {
  std::string X = A.Extreme->getNameAsString(),
              P = A.Position->getNameAsString();
  std::string OX = freshName(M.kernel(), "Other", {Lane, Offset});
  std::string OP = freshName(M.kernel(), "OtherAt", {Lane, Offset, OX});
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  std::string Shuffle =
      ToAll ? "__shfl_xor_sync(0xffffffff, " : "__shfl_down_sync(0xffffffff, ";
  std::string I2 = Indent + "  ", I4 = Indent + "    ";
  return offsetsLoop() + " {\n" + I2 +
         A.Extreme->getType().getUnqualifiedType().getAsString(PP) + " " + OX +
         " = " + Shuffle + X + ", " + Offset + ");\n" + I2 +
         A.Position->getType().getUnqualifiedType().getAsString(PP) + " " + OP +
         " = " + Shuffle + P + ", " + Offset + ");\n" + I2 + "if (" + OX +
         (A.Greatest ? " > " : " < ") + X + " || (" + OX + " == " + X + " && " +
         OP + " < " + P + ")) {\n" + I4 + X + " = " + OX + ";\n" + I4 + P +
         " = " + OP + ";\n" + I2 + "}\n" + Indent + "}\n" + Indent;
}

bool RowsToWarps::stride(const ModelLoop &L) {
  // Each lane's variable takes other values: nothing outside the loop may
  // read it.
  if (const DeclRefExpr *DR = M.counterOutside(L))
    return refuse("`" + L.Var->getNameAsString() +
                  "` is read outside the loop at " + M.where(L.S) + ", at " +
                  M.where(DR));
  std::optional<std::vector<tooling::Replacement>> R =
      strideLoop(Ctx, L, Lane, W);
  if (!R)
    return refuse("the loop at " + M.where(L.S) +
                  " is written through a macro");
  llvm::append_range(Edits, *R);
  return true;
}

bool RowsToWarps::reductionLoop(const ModelLoop &L, unsigned Index,
                                size_t Next) {
  const Stmt *F = L.S;
  std::string At = "the loop at " + M.where(F);
  std::vector<const ModelReduction *> Rs;
  for (const ModelReduction &R : M.reductions())
    if (R.Loop == Index)
      Rs.push_back(&R);
  std::vector<const ModelArgExtreme *> Args;
  for (const ModelArgExtreme &A : M.argExtremes())
    if (A.Loop == Index)
      Args.push_back(&A);
  // The body: declarations of the iteration's own values, the updates and
  // stores of the iteration's element.
  for (const Stmt *S : loopBody(L)) {
    bool IsUpdate =
        llvm::any_of(
            Rs, [&](const ModelReduction *R) { return R->Statement == S; }) ||
        llvm::any_of(
            Args, [&](const ModelArgExtreme *A) { return A->Statement == S; });
    if (IsUpdate || M.isSkip(S, L))
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
      if (!elementStore(B, L, Index))
        return false;
      continue;
    }
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS || !M.isPure(DS))
      return refuse(At + " does more than declare values, accumulate and " +
                    "store elements: the statement at " + M.where(S) +
                    " is none of these");
  }
  for (const ModelReduction *R : Rs) {
    if ((R->Term && !M.isPure(R->Term)) || (R->Factor && !M.isPure(R->Factor)))
      return refuse(At + " accumulates a value with side effects");
    if (R->Guard && !M.isPure(R->Guard))
      return refuse(At + " accumulates under a condition with side effects");
    if (R->Element >= 0) {
      // y[row] += e: the lanes accumulate in a register; lane 0 adds the
      // row's sum to the element once.
      const ModelAccess &A = M.accesses()[R->Element];
      QualType T = A.E->getType().getUnqualifiedType();
      if (!isShuffled(T))
        return refuse(At + " accumulates a type the shuffles do not carry");
      for (const ModelAccess &O : M.accesses()) {
        if (O.Array != A.Array || O.E == A.E ||
            llvm::is_contained(PreStores, O.E))
          continue;
        // The read of the element in `y[i] = y[i] + e` goes with the update.
        bool InUpdate = isWithin(Ctx, O.E, R->Update);
        if (InUpdate && O.Index && *O.Index == *A.Index && !O.Write)
          continue;
        return refuse("`" + A.Array.name() + "` is accessed at " +
                      M.where(O.E) + " as well as accumulated in the loop at " +
                      M.where(F));
      }
      auto Target = sourceText(Ctx, A.E);
      auto TermText =
          R->Term ? sourceText(Ctx, R->Term) : std::optional<std::string>("1");
      auto FactorText = R->Factor ? sourceText(Ctx, R->Factor)
                                  : std::optional<std::string>("");
      if (!Target || !TermText || !FactorText)
        return refuse(At + " is written through a macro");
      std::string Acc = freshName(M.kernel(), "RowAcc", Taken);
      Taken.push_back(Acc);
      std::string Ind = indentOf(F);
      std::string TS = T.getAsString(Ctx.getPrintingPolicy());
      bool Sum = R->Combine == "+";
      // The register's declaration goes before the loop, and before its
      // `#pragma`, on a line of its own; a loop that is not a statement of
      // a block (the body of an `if`) is put in braces with it.
      const Stmt *Whole = F;
      auto Parents = Ctx.getParents(*F);
      if (const auto *Hint =
              Parents.size() == 1 ? Parents[0].get<AttributedStmt>() : nullptr)
        Whole = Hint;
      auto Outer = Ctx.getParents(*Whole);
      bool InBlock = Outer.size() == 1 && Outer[0].get<CompoundStmt>();
      SourceLocation Begin = SM.getFileLoc(F->getBeginLoc());
      if (Whole != F) {
        std::optional<FileRange> HR = rangeOf(Ctx, Whole);
        FileID FF = SM.getFileID(Begin);
        if (!HR || HR->File != FF)
          return refuse(At + " follows a loop hint that is not plain text");
        StringRef Text = SM.getBufferData(FF).take_front(
            std::min<unsigned>(HR->Begin, SM.getFileOffset(Begin)));
        size_t LineStart = Text.rfind('\n');
        Begin = SM.getComposedLoc(
            FF, LineStart == StringRef::npos ? 0 : LineStart + 1);
      }
      std::string Decl = (InBlock ? "" : "{\n" + Ind) + TS + " " + Acc + " = " +
                         (Sum ? std::string("0") : *Target) + ";\n";
      insertAt(Begin, Whole != F ? Ind + Decl : Decl + Ind, /*First=*/false);
      std::string Update =
          !R->Fused.empty() ? Acc + " = " + R->Fused + "(" + *TermText + ", " +
                                  *FactorText + ", " + Acc + ")"
          : Sum ? Acc + (R->Subtract ? " -= " : " += ") + *TermText
                : Acc + " = " + R->Combine + "(" + Acc + ", " + *TermText + ")";
      if (!add(replaceExpr(Ctx, R->Update, Update), R->Update))
        return false;
      std::string Store =
          Sum ? *Target + " += " + Acc + ";" : *Target + " = " + Acc + ";";
      SourceLocation End = endOf(F);
      if (End.isInvalid())
        return refuse(At + " ends in a macro");
      Edits.push_back(tooling::Replacement(
          SM, End, 0,
          "\n" + Ind + combineText(Acc, R->Combine, /*ToAll=*/false, Ind) +
              "if (" + Lane + " == 0)\n" + Ind + "  " + Store +
              (InBlock ? "" : "\n" + Ind + "}")));
      Reduced = ElementReduced = true;
      continue;
    }
    const VarDecl *V = R->Scalar;
    if (!isShuffled(V->getType()) || V->getType().isConstQualified())
      return refuse(At + " accumulates `" + V->getNameAsString() +
                    "`, of a type the shuffles do not carry");
    const Expr *Start = valueOnEntry(Ctx, *V, *F);
    if (R->Combine == "+" && (!Start || !isConstantZero(Ctx, Start)))
      return refuse("the sum `" + V->getNameAsString() +
                    "` does not start at zero before " + At);
    if (!Start)
      return refuse("`" + V->getNameAsString() +
                    "` is not given its value before " + At);
    // Reduced once, by this loop only.
    for (const ModelReduction &O : M.reductions())
      if (O.Scalar == V && &O != R)
        return refuse("`" + V->getNameAsString() +
                      "` is accumulated by more than one statement");
    Reduced = true;
  }
  for (const ModelArgExtreme *A : Args)
    if (!argExtreme(*A, L))
      return false;
  if (!stride(L))
    return false;
  // Combine every scalar: into lane 0 when only a store follows the loop,
  // into every lane otherwise.
  std::vector<const ModelReduction *> Scalars;
  for (const ModelReduction *R : Rs)
    if (R->Scalar)
      Scalars.push_back(R);
  if (Scalars.empty() && Args.empty())
    return true;
  if (Next >= Work.size())
    return refuse(At + " is the last statement: nothing uses its result");
  const Stmt *Before = Work[Next];
  // Only values named and stores to the end: lane 0 does each store, once
  // per row, as the thread did.
  std::vector<const Stmt *> Last;
  bool StoreOnly = true;
  for (size_t I = Next; I < Work.size() && StoreOnly; ++I) {
    if (isStore(Work[I]))
      Last.push_back(Work[I]);
    else
      StoreOnly = isa<DeclStmt>(Work[I]) && M.isPure(Work[I]);
  }
  StoreOnly = StoreOnly && !Last.empty();
  if (!StoreOnly)
    Last.clear();
  std::string Ind = indentOf(Before);
  std::string Text;
  for (const ModelReduction *R : Scalars)
    Text +=
        combineText(R->Scalar->getNameAsString(), R->Combine, !StoreOnly, Ind);
  for (const ModelArgExtreme *A : Args)
    Text += argCombineText(*A, !StoreOnly, Ind);
  if (!Before->getBeginLoc().isFileID())
    return refuse("the statement at " + M.where(Before) +
                  " is written through a macro");
  for (const Stmt *S : Last) {
    if (!S->getBeginLoc().isFileID())
      return refuse("the statement at " + M.where(S) +
                    " is written through a macro");
    std::string LaneZero = "if (" + Lane + " == 0)\n" + indentOf(S) + "  ";
    StoredByLaneZero.push_back(S);
    if (S == Before)
      Text += LaneZero;
    else
      insertAt(S->getBeginLoc(), LaneZero, /*First=*/false);
  }
  insertAt(Before->getBeginLoc(), Text, /*First=*/false);
  Combined.push_back(Next - 1);
  return true;
}

bool RowsToWarps::elementStore(const BinaryOperator *B, const ModelLoop &L,
                               unsigned Index) {
  std::string At = "the loop at " + M.where(L.S);
  if (!M.isPure(B->getRHS()) || !M.isPure(B->getLHS()))
    return refuse(At + " stores with side effects");
  const ModelAccess *Write = M.storeTarget(B);
  if (const auto *DR =
          dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParenImpCasts());
      !Write && DR)
    return refuse(At + " sets `" + DR->getDecl()->getNameAsString() +
                  "` each iteration, which is neither a sum, a minimum or a "
                  "maximum over the row nor a store of one element");
  if (!Write || !Write->Array || !Write->Index)
    return refuse(At + " stores to memory the model cannot follow" +
                  (Write && !Write->Why.empty() ? ": " + Write->Why : ""));
  std::optional<Polynomial> Step =
      Write->Index->coefficient(Symbol::loopVar(Index, ""));
  if (!Step || !Step->constantValue() || *Step->constantValue() == 0)
    return refuse(At + " does not store a different element each iteration");
  Stores = true;
  return true;
}

bool RowsToWarps::storeLoop(const ModelLoop &L, unsigned Index) {
  std::string At = "the loop at " + M.where(L.S);
  std::vector<const Stmt *> Body = loopBody(L);
  bool Stored = false;
  for (const Stmt *S : Body) {
    if (const auto *DS = dyn_cast<DeclStmt>(S);
        (DS && M.isPure(DS)) || M.isSkip(S, L))
      continue;
    if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp()) {
      if (!elementStore(B, L, Index))
        return false;
      Stored = true;
      continue;
    }
    if (S != Body.back() || Stored)
      return refuse(At +
                    " does more than declare values and store elements: "
                    "the statement at " +
                    M.where(S) + " is neither");
  }
  if (!Stored)
    return refuse(At + " neither accumulates over the row nor stores one "
                       "element per iteration");
  return stride(L);
}

void RowsToWarps::insertAt(SourceLocation Loc, const std::string &Text,
                           bool First) {
  tooling::Replacement Here(SM, Loc, 0, Text);
  auto Same = llvm::find_if(Edits, [&](const tooling::Replacement &R) {
    return R.getFilePath() == Here.getFilePath() &&
           R.getOffset() == Here.getOffset() && R.getLength() == 0;
  });
  if (Same == Edits.end()) {
    Edits.push_back(Here);
    return;
  }
  std::string Old = Same->getReplacementText().str();
  *Same = tooling::Replacement(Same->getFilePath(), Same->getOffset(), 0,
                               First ? Text + Old : Old + Text);
}

bool RowsToWarps::lanesAgree() {
  // An element a loop accumulates in a register: that loop's check allows
  // no other access of its array.
  std::vector<ModelArray> InRegister;
  for (const ModelReduction &R : M.reductions())
    if (R.Element >= 0)
      InRegister.push_back(M.accesses()[R.Element].Array);
  // Each access: the position of its statement in the work (-1 before it),
  // and the row loop that holds it, whose lanes take slices, or -1 for a
  // statement that every lane runs, or lane 0 alone (a store's).
  // In a row loop, its index is Coef * j + Rest for the loop's variable j.
  struct Place {
    const ModelAccess *A;
    long Pos;
    int Loop;
    bool LaneZero;
    std::optional<Polynomial> Coef, Rest;
  };
  std::vector<Place> Places;
  for (const ModelAccess &A : M.accesses()) {
    if (!A.Array || llvm::is_contained(PreStores, A.E) ||
        llvm::is_contained(InRegister, A.Array))
      continue;
    Place P{&A, -1, -1, false, std::nullopt, std::nullopt};
    for (size_t I = 0; I < Work.size(); ++I)
      if (isWithin(Ctx, A.E, Work[I])) {
        P.Pos = static_cast<long>(I);
        auto It = RowLoops.find(I);
        P.Loop = It == RowLoops.end() ? -1 : static_cast<int>(It->second);
        P.LaneZero = llvm::is_contained(StoredByLaneZero, Work[I]) ||
                     llvm::is_contained(PreStoreStmts, Work[I]);
        break;
      }
    if (P.Loop >= 0 && A.Index) {
      Symbol V = Symbol::loopVar(P.Loop, "");
      P.Coef = A.Index->coefficient(V);
      P.Rest = A.Index->substitute(V, Polynomial::constant(0));
    }
    Places.push_back(P);
  }
  // The positions of the statements that all lanes must reach together,
  // in a __syncwarp(), before any goes on.
  std::set<size_t> SyncBefore;
  bool Ordered = false;
  for (size_t I = 0; I < Places.size(); ++I)
    for (size_t J = I + 1; J < Places.size(); ++J) {
      Place X = Places[I], Y = Places[J];
      if (!X.A->Write && !Y.A->Write)
        continue;
      if (Y.Pos < X.Pos)
        std::swap(X, Y);
      // Y's index less X's, iteration for iteration of their loops.
      std::optional<Polynomial> Delta;
      if (X.A->Index && Y.A->Index) {
        std::optional<Polynomial> XI = X.A->Index;
        if (X.Loop >= 0 && Y.Loop >= 0)
          XI = XI->substitute(Symbol::loopVar(X.Loop, ""),
                              Polynomial::symbol(Symbol::loopVar(Y.Loop, "")));
        if (XI)
          Delta = Polynomial::sub(*Y.A->Index, *XI);
      }
      // Another array of the same type may be the one passed twice, when
      // nothing says it is not: an element a fixed distance away may be the
      // same.
      if (X.A->Array != Y.A->Array &&
          (X.A->Array.isRestrict() || Y.A->Array.isRestrict() || !Delta ||
           !Delta->constantValue() ||
           !Ctx.hasSameUnqualifiedType(X.A->E->getType(), Y.A->E->getType())))
        continue;
      // One lane makes both accesses of any element they share: lane 0,
      // in its statements outside the loops, or the lane that runs both
      // iterations of row loops.
      bool SameLane = X.LaneZero && Y.LaneZero;
      if (X.Loop >= 0 && Y.Loop >= 0 && Delta) {
        // X's iteration jx and Y's jy meet when CX * jx + RX = CY * jy + RY;
        // with CX = CY, one lane runs both when jx - FirstX = jy - FirstY,
        // so when RY - RX = C * (FirstX - FirstY).
        std::optional<Polynomial> Shift =
            Polynomial::sub(M.loops()[X.Loop].First, M.loops()[Y.Loop].First);
        if (X.Coef && Y.Coef && *X.Coef == *Y.Coef && X.Coef->constantValue() &&
            *X.Coef->constantValue() != 0 && X.Rest && Y.Rest && Shift) {
          std::optional<Polynomial> Want = Polynomial::mul(*X.Coef, *Shift),
                                    Got = Polynomial::sub(*Y.Rest, *X.Rest);
          SameLane = Want && Got && *Want == *Got;
        }
      }
      if (SameLane) {
        Ordered = Ordered || X.Pos != Y.Pos;
        continue;
      }
      if (X.Pos == Y.Pos) {
        const ModelAccess *Read = X.A->Write ? Y.A : X.A;
        const ModelAccess *Store = X.A->Write ? X.A : Y.A;
        if (X.A->Array == Y.A->Array)
          return refuse("`" + Read->Array.name() + "` is " +
                        (Read->Write ? "stored" : "read") + " at " +
                        M.where(Read->E) +
                        " at another element than the loop stores");
        // The arrays differ only at a fixed distance (above).
        int64_t D = *Delta->constantValue() * (Read == Y.A ? 1 : -1);
        return refuse("`" + M.text(Read->E) + "` at " + M.where(Read->E) + " " +
                      (Read->Write ? "stores" : "reads") + " " +
                      std::to_string(D < 0 ? -D : D) + " element(s) " +
                      (D < 0 ? "before" : "after") +
                      " the one the loop stores: were `" + Read->Array.name() +
                      "` and `" + Store->Array.name() +
                      "` one array, an iteration would reach another's");
      }
      // Else every lane must be done with X before any makes Y: they meet
      // in a __syncwarp() after the last shuffle between, or else before
      // Y's statement.
      size_t At = static_cast<size_t>(Y.Pos);
      for (size_t C : Combined)
        if (static_cast<long>(C) >= X.Pos && static_cast<long>(C) < Y.Pos)
          At = C + 1;
      SyncBefore.insert(At);
      Ordered = true;
    }
  for (size_t P : SyncBefore) {
    const Stmt *S = Work[P];
    if (!S->getBeginLoc().isFileID())
      return refuse("the statement at " + M.where(S) +
                    " is written through a macro");
    // Before what the rewrite inserts there: the shuffles, lane 0's test.
    insertAt(S->getBeginLoc(), "__syncwarp();\n" + indentOf(S),
             /*First=*/true);
  }
  // A warp's next row may reach the elements of this one: its lanes start
  // it when all are done with this one.
  if (GridStride && Ordered) {
    SourceLocation End = endOf(Work.back());
    if (End.isInvalid() || !End.isFileID())
      return refuse("the statement at " + M.where(Work.back()) +
                    " ends in a macro");
    Edits.push_back(tooling::Replacement(
        SM, End, 0, "\n" + indentOf(Work.back()) + "__syncwarp();"));
  }
  return true;
}

bool RowsToWarps::work() {
  if (Work.empty())
    return refuse("the kernel does no work after its guard");
  for (size_t I = 0; I < Work.size(); ++I) {
    const Stmt *S = Work[I];
    if (llvm::is_contained(StoredByLaneZero, S) ||
        llvm::is_contained(PreStoreStmts, S))
      continue;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (!M.isPure(DS))
        return refuse("the declaration at " + M.where(S) + " has side effects");
      continue;
    }
    if (M.isLocalSet(S))
      continue;
    int LI = M.loopIndex(S);
    if (LI < 0) {
      // `y[i] = v;` before a loop that accumulates into y[i]: lane 0's.
      const auto *B = dyn_cast<BinaryOperator>(S);
      const ModelAccess *Pre = M.storeTarget(S);
      bool Later = false;
      if (Pre && Pre->Index && Pre->Array && B->getOpcode() == BO_Assign &&
          M.isPure(B->getRHS()))
        for (const ModelReduction &R : M.reductions())
          if (R.Element >= 0 && M.accesses()[R.Element].Array == Pre->Array &&
              *M.accesses()[R.Element].Index == *Pre->Index &&
              SM.isBeforeInTranslationUnit(S->getBeginLoc(),
                                           R.Update->getBeginLoc()))
            Later = true;
      // Another store, between the loops: lane 0 does it, once per row.
      bool Stored = !Later && isStore(S);
      if ((!Later && !Stored) || !S->getBeginLoc().isFileID())
        return refuse("the statement at " + M.where(S) +
                      " is neither a declaration, a loop over the row nor "
                      "a store");
      if (Later) {
        PreStores.push_back(Pre->E);
        PreStoreStmts.push_back(S);
      } else {
        StoredByLaneZero.push_back(S);
      }
      std::string Ind = indentOf(S);
      insertAt(S->getBeginLoc(), "if (" + Lane + " == 0)\n" + Ind + "  ",
               /*First=*/false);
      continue;
    }
    const ModelLoop &L = M.loops()[LI];
    if (!L.counted())
      return refuse(L.Why);
    if (L.Step != Polynomial::constant(1))
      return refuse("the loop at " + M.where(L.S) + " steps by " +
                    L.Step.str() + ", not 1");
    const Stmt *F = L.S;
    // A condition that decrements (`k-- > lo`) is written anew.
    bool Rewritten = L.DecrementsInCond && (!L.LowExpr || M.isPure(L.LowExpr));
    if (!Rewritten && !M.isPure(loopCond(L)))
      return refuse("the loop at " + M.where(F) +
                    " has side effects in its condition");
    for (const ModelLoop &Inner : M.loops())
      if (Inner.Parent == LI)
        return refuse("the loop at " + M.where(F) + " holds another loop, at " +
                      M.where(Inner.S));
    bool Reduces = llvm::any_of(M.reductions(),
                                [&](const ModelReduction &R) {
                                  return R.Loop == static_cast<unsigned>(LI);
                                }) ||
                   llvm::any_of(M.argExtremes(), [&](const ModelArgExtreme &A) {
                     return A.Loop == static_cast<unsigned>(LI);
                   });
    RowLoops[I] = LI;
    if (!(Reduces ? reductionLoop(L, LI, I + 1) : storeLoop(L, LI)))
      return false;
  }
  if (!Reduced)
    return refuse("no loop accumulates a sum, a minimum or a maximum over "
                  "the row");
  std::vector<unsigned> Split;
  for (const auto &[Stmt, Loop] : RowLoops)
    Split.push_back(Loop);
  if (std::string W = M.fewerIterationsWhy(Split, 32); !W.empty())
    return refuse(W);
  if (!Stores && StoredByLaneZero.empty() && !ElementReduced)
    return refuse("nothing stores the row's result");
  return lanesAgree();
}

bool RowsToWarps::run() {
  if (!M.cooperationWhy().empty())
    return refuse("its threads may depend on each other: " +
                  M.cooperationWhy());
  // A row per thread, or rows in steps of the grid's size: the work of a
  // row is then the loop's body.
  std::string NotPerIndex;
  std::optional<PerIndexKernel> PI = matchPerIndex(M, NotPerIndex);
  GridStride = PI && PI->Form == PerIndexKernel::GridStride;
  if (GridStride)
    Work = PI->Work;
  else
    Work.assign(M.work().begin(), M.work().end());
  return rows() && work() && launches();
}

} // namespace

StringRef WarpPerRow::name() const { return "warp-per-row"; }

StringRef WarpPerRow::description() const {
  return "give each row of a thread-per-row kernel to a warp whose lanes "
         "split the row's loops and combine their sums, minima or maxima "
         "(and where those are) with shuffles, and multiply the grid by 32";
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

Error WarpPerRow::apply(const KernelModel &M, FileEdits &Out) const {
  RowsToWarps R(M);
  if (!R.run())
    return Error::success();
  return addEdits(R.Edits, Out);
}

std::vector<std::string> WarpPerRow::ownWords() const {
  // The warp's width, the shuffles' first offset, their halving, lane 0,
  // a sum's start and the full mask.
  return {std::to_string(WarpSize), std::to_string(WarpSize / 2), "2", "0",
          "0xffffffff"};
}

std::string WarpPerRow::explain(const KernelModel &M) const {
  RowsToWarps R(M);
  return R.run() ? "" : R.Why;
}
