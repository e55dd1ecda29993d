//===- TileTransposeSmem.cpp - Stage a naive transpose in shared memory ---===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TileTransposeSmem.h"
#include "IndependentThreads.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/MathExtras.h"

#include <functional>

using namespace clang;
using namespace autoprof;
using llvm::Error;

StringRef TileTransposeSmem::name() const { return "tile-transpose-smem"; }

StringRef TileTransposeSmem::description() const {
  return "stage the naive transpose out[x * rows + y] = in[y * cols + x] "
         "through a padded __shared__ tile";
}

bool TileTransposeSmem::precondition(const KernelRecord &K) const {
  return hasIndependentThreads(K);
}

static const MetricCondition Conditions[] = {
    {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio",
     ">", 8},
    {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio",
     ">", 8},
    {"derived__global_excess_sectors_pct", ">", 25},
    // Warps wait on their global loads (one pass to collect).
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active."
     "ratio",
     ">=", 10}};

std::vector<std::string> TileTransposeSmem::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
TileTransposeSmem::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

namespace {

/// The columns added to each row of a BY x BX tile of 4-byte elements so
/// that each warp's transposed reads, Tile[Lin % BY][Lin / BY] for Lin in
/// [32w, 32w + 32), fall in 32 distinct banks: 32 / BY when that does (it
/// always does for BX a multiple of 32), else the least that does.
int64_t tilePadding(int64_t BX, int64_t BY) {
  auto ConflictFree = [&](int64_t Pad) {
    for (int64_t W = 0; W < BX * BY; W += 32) {
      llvm::SmallBitVector Banks(32);
      for (int64_t Lin = W; Lin < W + 32; ++Lin) {
        int64_t Bank = ((Lin % BY) * (BX + Pad) + Lin / BY) % 32;
        if (Banks.test(Bank))
          return false;
        Banks.set(Bank);
      }
    }
    return true;
  };
  int64_t Pad = std::max<int64_t>(1, 32 / BY);
  if (ConflictFree(Pad))
    return Pad;
  for (int64_t P = 1; P <= 32; ++P)
    if (ConflictFree(P))
      return P;
  return Pad;
}

/// The edit that stages the naive transpose of \p M through a shared tile,
/// or false with the reason in \p Why.
bool tileTranspose(const KernelModel &M,
                   std::vector<tooling::Replacement> &Edits, std::string &Why) {
  ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl &Kernel = M.kernel();
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return false;
  };
  if (!M.cooperationWhy().empty())
    return Refuse("its threads may depend on each other: " +
                  M.cooperationWhy());
  const Polynomial GX = globalIndex(0), GY = globalIndex(1);
  // The thread's column and row, held in locals or written inline; the
  // thread hierarchy read nowhere else.
  const VarDecl *X = localOfValue(M, GX), *Y = localOfValue(M, GY);
  std::vector<const Expr *> UX, UY;
  std::vector<const Expr *> FX = M.expressionsOfValue(GX, UX);
  std::vector<const Expr *> FY = M.expressionsOfValue(GY, UY);
  for (const Expr *U : UX)
    if (llvm::is_contained(UY, U))
      return Refuse("`" + M.text(U) + "` at " + M.where(U) +
                    " is read other than in the thread's column and row");
  if ((!X && FX.empty()) || (!Y && FY.empty()))
    return Refuse(std::string("it does not read its ") +
                  (!X && FX.empty() ? "column" : "row") + " index");
  // The guard: the column below Cols and the row below Rows, in one
  // statement or several with nothing between them but the next.
  if (!M.guardWhy().empty())
    return Refuse(M.guardWhy());
  if (M.guardStatements().empty())
    return Refuse("it has no guard bounding the column and the row");
  unsigned GuardBegin =
      SM.getFileOffset(M.guardStatements().front()->getBeginLoc());
  for (const Stmt *P : M.prologue())
    if (SM.getFileOffset(P->getBeginLoc()) > GuardBegin)
      return Refuse("the declaration at " + M.where(P) +
                    " lies between the statements of its guard");
  std::optional<Polynomial> Cols, Rows;
  for (const GuardBound &B : M.guard()) {
    if (alwaysHolds(B, GX) || alwaysHolds(B, GY))
      continue;
    auto &Slot = B.Lhs == GX ? Cols : B.Lhs == GY ? Rows : Cols;
    if ((B.Lhs != GX && B.Lhs != GY) || Slot)
      return Refuse("its guard at " + M.where(B.Cond) +
                    " bounds more than the column and the row");
    Slot = exclusiveBound(B);
    if (!Slot)
      return Refuse("its guard at " + M.where(B.Cond) + " overflows");
  }
  if (!Cols || !Rows || !isOfParameters(*Cols) || !isOfParameters(*Rows))
    return Refuse("its guard does not bound the column and the row by "
                  "values of parameters and constants");
  // The work: locals that keep their values, then one assignment of
  // element X * Rows + Y of one parameter from element Y * Cols + X of
  // another.
  if (M.work().empty())
    return Refuse("it has no work");
  std::vector<const DeclStmt *> Decls;
  std::vector<const VarDecl *> WorkVars;
  for (const Stmt *S : M.work().drop_back()) {
    const auto *DS = dyn_cast<DeclStmt>(S);
    if (!DS)
      return Refuse("its work at " + M.where(S) +
                    " is neither a declaration nor its last statement");
    for (const Decl *D : DS->decls()) {
      const auto *V = dyn_cast<VarDecl>(D);
      if (!V || !V->isLocalVarDecl() || V->isStaticLocal() || !V->getInit() ||
          !V->getType()->isScalarType() || !isUnmodified(Ctx, *V))
        return Refuse("its work at " + M.where(S) +
                      " declares other than locals that keep their values");
      WorkVars.push_back(V);
    }
    Decls.push_back(DS);
  }
  const auto *Assign = dyn_cast<BinaryOperator>(M.work().back());
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return Refuse("its work at " + M.where(M.work().back()) +
                  " does not end in one assignment");
  auto InWork = [&](const Stmt *E) {
    return llvm::any_of(M.work(),
                        [&](const Stmt *S) { return isWithin(Ctx, E, S); });
  };
  const ModelAccess *Store = nullptr, *Load = nullptr;
  for (const ModelAccess &A : M.accesses()) {
    if (!InWork(A.E))
      continue;
    if (!A.Array || !A.Index || A.Shared || !isa<ParmVarDecl>(A.Array.var()))
      return Refuse("`" + M.text(A.E) + "` at " + M.where(A.E) +
                    " is not an element of a parameter the model can name");
    const ModelAccess *&Slot = A.Write ? Store : Load;
    if (Slot || (A.Write && A.Read))
      return Refuse("its work reaches memory other than by one load and "
                    "one store");
    Slot = &A;
  }
  if (!Store || !Load || Store->E != Assign->getLHS()->IgnoreParens())
    return Refuse("its work does not store an element it loads");
  auto StoreAt = Polynomial::mul(GX, *Rows),
       LoadAt = Polynomial::mul(GY, *Cols);
  if (StoreAt)
    StoreAt = Polynomial::add(*StoreAt, GY);
  if (LoadAt)
    LoadAt = Polynomial::add(*LoadAt, GX);
  if (!StoreAt || !LoadAt || *Store->Index != *StoreAt ||
      *Load->Index != *LoadAt)
    return Refuse("it does not store element column * rows + row of what it "
                  "loads from element row * cols + column");
  if (Store->Array == Load->Array)
    return Refuse("it transposes an array in place");
  QualType Elem = Load->E->getType();
  if (Elem.getCanonicalType().getUnqualifiedType() !=
          Store->E->getType().getCanonicalType().getUnqualifiedType() ||
      !Elem->isScalarType() || Ctx.getTypeSizeInChars(Elem).getQuantity() != 4)
    return Refuse("its elements are not of one 4-byte scalar type");

  // The guard and the store are written again for the threads of the
  // output: they may see the thread only through the column and the row,
  // which are declared again (X and Y, or fresh names for the expressions
  // written inline).
  std::function<const Expr *(const Stmt *)> ThreadRead =
      [&](const Stmt *S) -> const Expr * {
    if (!S || llvm::is_contained(FX, S) || llvm::is_contained(FY, S))
      return nullptr;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
      const auto *V = dyn_cast<VarDecl>(DR->getDecl());
      if (V && V != X && V != Y && V->isLocalVarDecl() &&
          !llvm::is_contained(WorkVars, V)) {
        ModelValue Val = V->getInit() ? M.value(V->getInit()) : ModelValue();
        if (!Val || Val.Value->dependsOn(
                        [](const Symbol &Sym) { return Sym.isBuiltin(); }))
          return DR;
      }
    }
    for (const Expr *U : M.builtinUses())
      if (U == S)
        return U;
    for (const Stmt *C : S->children())
      if (const Expr *Found = ThreadRead(C))
        return Found;
    return nullptr;
  };
  std::vector<const Stmt *> Rewritten = {Assign->getLHS(), Assign->getRHS()};
  for (const IfStmt *G : M.guardStatements())
    Rewritten.push_back(G->getCond());
  for (const VarDecl *V : WorkVars)
    Rewritten.push_back(V->getInit());
  for (const Stmt *S : Rewritten) {
    const Expr *Found = ThreadRead(S);
    if (Found && !isWithin(Ctx, Found, Load->E))
      return Refuse("`" + M.text(Found) + "` at " + M.where(Found) +
                    " reads the thread other than through its column and "
                    "row");
  }

  // Every launch: the same block dim3(BX, BY) of whole warps, BX and BY
  // powers of two, BX at least 8, and a grid of depth 1.
  std::string NoLaunch;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(NoLaunch);
  if (!Launches)
    return Refuse(NoLaunch);
  std::optional<int64_t> BX, BY;
  for (const KernelLaunch &L : *Launches) {
    auto B = constantDims(Ctx, L.Block);
    bool GridDepthOne = hasDepthOne(Ctx, L.Grid);
    std::string At = "the launch at " + M.where(L.Call);
    if (!B || (*B)[2] != 1 || (*B)[0] < 8 || (*B)[1] < 1 ||
        !llvm::isPowerOf2_64((*B)[0]) || !llvm::isPowerOf2_64((*B)[1]) ||
        ((*B)[0] * (*B)[1]) % 32 != 0)
      return Refuse(At + " does not have constant blocks of BX x BY "
                         "threads, powers of two, BX at least 8, in whole "
                         "warps");
    if (!GridDepthOne)
      return Refuse(At + " does not have a grid of depth 1");
    if ((BX && *BX != (*B)[0]) || (BY && *BY != (*B)[1]))
      return Refuse(At + " has blocks of another shape than the others");
    BX = (*B)[0];
    BY = (*B)[1];
  }

  // From the guard to the end of the body: the tile, filled by the load's
  // threads and written out by the store's.
  const IfStmt *If = M.guardStatements().front();
  auto LoadText = sourceText(Ctx, Load->E);
  if (!LoadText || !If->getBeginLoc().isFileID())
    return Refuse("its guard or its work is written through a macro");
  std::string Tile = freshName(Kernel, "Tile");
  std::string Lin = freshName(Kernel, "Lin", {Tile});
  std::string XN =
      X ? X->getNameAsString() : freshName(Kernel, "col", {Tile, Lin});
  std::string YN =
      Y ? Y->getNameAsString() : freshName(Kernel, "row", {Tile, Lin, XN});
  std::string B = std::to_string(*BY), BXText = std::to_string(*BX);
  std::string Read =
      Tile + "[" + Lin + " % " + B + "][" + Lin + " / " + B + "]";
  // The text of \p S for the output's threads: the load, when S holds it,
  // read from the tile, and the column and the row written inline named
  // XN and YN.
  auto ForOutput = [&](const Stmt *S) -> std::optional<std::string> {
    auto Text = sourceText(Ctx, S);
    if (!Text)
      return std::nullopt;
    auto Range = [&](const Stmt *E) {
      return Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(E->getSourceRange()), SM,
          Ctx.getLangOpts());
    };
    CharSourceRange SR = Range(S);
    if (SR.isInvalid())
      return std::nullopt;
    unsigned SB = SM.getFileOffset(SR.getBegin());
    // (offset in S, length, new text), the load first.
    std::vector<std::tuple<unsigned, unsigned, std::string>> Parts;
    auto Add = [&](const Stmt *E, const std::string &New) {
      if (!isWithin(Ctx, E, S))
        return true;
      if (E != Load->E && isWithin(Ctx, E, Load->E))
        return true;
      CharSourceRange R = Range(E);
      if (R.isInvalid())
        return false;
      unsigned EB = SM.getFileOffset(R.getBegin()),
               EE = SM.getFileOffset(R.getEnd());
      if (EB < SB || EE < EB || EE - SB > Text->size())
        return false;
      Parts.emplace_back(EB - SB, EE - EB, New);
      return true;
    };
    bool Ok = Add(Load->E, Read);
    for (const Expr *E : FX)
      Ok &= Add(E, XN);
    for (const Expr *E : FY)
      Ok &= Add(E, YN);
    if (!Ok)
      return std::nullopt;
    llvm::sort(Parts, [](const auto &L, const auto &R) {
      return std::get<0>(L) > std::get<0>(R);
    });
    for (const auto &[Off, Len, New] : Parts)
      Text->replace(Off, Len, New);
    return Text;
  };
  // The guard as one condition, for the input's threads and for the
  // output's: the conjunction of its statements' conditions, negated for
  // early returns.
  std::optional<std::string> Guard1 = std::string(), Guard2 = std::string();
  for (const IfStmt *G : M.guardStatements()) {
    auto C1 = sourceText(Ctx, G->getCond());
    auto C2 = ForOutput(G->getCond());
    if (!C1 || !C2 || !Guard1 || !Guard2)
      return Refuse("its guard is written through a macro");
    bool EarlyExit = isReturnOnly(G->getThen());
    bool One = M.guardStatements().size() == 1;
    auto Term = [&](const std::string &C) {
      return EarlyExit ? "!(" + C + ")" : One ? C : "(" + C + ")";
    };
    *Guard1 += (Guard1->empty() ? "" : " && ") + Term(*C1);
    *Guard2 += (Guard2->empty() ? "" : " && ") + Term(*C2);
  }
  auto RHS = ForOutput(Assign->getRHS());
  auto Store2 = ForOutput(Assign->getLHS());
  if (!RHS || !Store2)
    return Refuse("its work is written through a macro");
  // The work's declarations, each ending in `;`: for the output's threads
  // all of them, for the input's those before the load.
  std::vector<std::string> DeclTexts, DeclsBeforeLoad;
  for (const DeclStmt *DS : Decls) {
    auto Text = ForOutput(DS);
    auto Orig = sourceText(Ctx, DS);
    if (!Text || !Orig)
      return Refuse("its work is written through a macro");
    for (std::string *T : {&*Text, &*Orig})
      if (!StringRef(*T).rtrim().ends_with(";"))
        *T += ";";
    if (!isWithin(Ctx, Load->E, DS) &&
        DeclTexts.size() == DeclsBeforeLoad.size())
      DeclsBeforeLoad.push_back(*Orig);
    DeclTexts.push_back(*Text);
  }
  std::string Indent = lineIndent(SM, If->getBeginLoc());
  std::string In2 = Indent + "  ";
  std::string E = spelledType(Ctx, Elem);
  std::string Pad = std::to_string(*BX + tilePadding(*BX, *BY));
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  std::string T = (X ? X->getType() : FX.front()->getType())
                      .getUnqualifiedType()
                      .getAsString(PP);
  std::string TY = (Y ? Y->getType() : FY.front()->getType())
                       .getUnqualifiedType()
                       .getAsString(PP);
  std::string Value = *RHS;
  // Statements under a guard: one alone, several in braces.
  auto Guarded = [&](const std::vector<std::string> &Lines,
                     const std::string &Guard, const std::string &In) {
    std::string G = In + "if (" + Guard + ")";
    if (Lines.size() == 1)
      return G + "\n" + In + "  " + Lines.front() + "\n";
    G += " {\n";
    for (const std::string &L : Lines)
      G += In + "  " + L + "\n";
    return G + In + "}\n";
  };
  std::vector<std::string> First = DeclsBeforeLoad, Second = DeclTexts;
  First.push_back(Tile + "[threadIdx.y][threadIdx.x] = " + *LoadText + ";");
  Second.push_back(*Store2 + " = " + Value + ";");
  std::string N;
  N += "// The block's " + B + " x " + BXText +
       " tile of the input, padded to " + Pad + " columns so that\n";
  N += Indent + "// the transposed reads hit distinct banks.\n";
  N += Indent + "__shared__ " + E + " " + Tile + "[" + B + "][" + Pad + "];\n";
  N += Guarded(First, *Guard1, Indent);
  N += Indent + "__syncthreads();\n";
  N += Indent + "// Thread " + Lin + " writes row " + Lin + " / " + B +
       " and column " + Lin + " % " + B + " of the block's\n";
  N += Indent + "// " + BXText + " x " + B + " tile of the output.\n";
  N += Indent + "{\n";
  N += In2 + "int " + Lin + " = threadIdx.y * " + BXText + " + threadIdx.x;\n";
  N += In2 + T + " " + XN + " = blockIdx.x * " + BXText + " + " + Lin + " / " +
       B + ";\n";
  N += In2 + TY + " " + YN + " = blockIdx.y * " + B + " + " + Lin + " % " + B +
       ";\n";
  N += Guarded(Second, *Guard2, In2);
  N += Indent + "}";
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  if (!llvm::is_contained(Body->body(), static_cast<const Stmt *>(If)))
    return Refuse("its guard is not a statement of the kernel's body");
  unsigned Begin = SM.getFileOffset(If->getBeginLoc());
  unsigned End = SM.getFileOffset(Body->getRBracLoc());
  if (SM.getFileID(If->getBeginLoc()) != SM.getFileID(Body->getRBracLoc()) ||
      End < Begin)
    return Refuse("its body is written through a macro");
  // Up to the end of the last statement's line.
  StringRef Buffer = SM.getBufferData(SM.getFileID(If->getBeginLoc()));
  StringRef Between = Buffer.substr(Begin, End - Begin).rtrim();
  Edits.push_back(
      tooling::Replacement(SM, If->getBeginLoc(), Between.size(), N));
  return true;
}

} // namespace

Error TileTransposeSmem::apply(const KernelModel &M, FileEdits &Out) const {
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  if (!tileTranspose(M, Edits, Why))
    return Error::success();
  return addEdits(Edits, Out);
}

std::string TileTransposeSmem::explain(const KernelModel &M) const {
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  return tileTranspose(M, Edits, Why) ? "" : Why;
}
