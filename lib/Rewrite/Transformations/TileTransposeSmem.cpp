//===- TileTransposeSmem.cpp - Stage a naive transpose in shared memory ---===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TileTransposeSmem.h"
#include "BuiltinReads.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

const VarDecl *refVar(ASTContext &Ctx, const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(stripCasts(Ctx, E));
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

/// `A * S + B` (or `B + A * S`, `S * A + B`) with A, S and B the given
/// variables.
bool isRowMajor(ASTContext &Ctx, const Expr *E, const VarDecl *A,
                const VarDecl *S, const VarDecl *B) {
  const auto *Add = dyn_cast<BinaryOperator>(stripCasts(Ctx, E));
  if (!Add || Add->getOpcode() != BO_Add)
    return false;
  auto IsProduct = [&](const Expr *M) {
    const auto *Mul = dyn_cast<BinaryOperator>(stripCasts(Ctx, M));
    return Mul && Mul->getOpcode() == BO_Mul &&
           ((refVar(Ctx, Mul->getLHS()) == A &&
             refVar(Ctx, Mul->getRHS()) == S) ||
            (refVar(Ctx, Mul->getLHS()) == S &&
             refVar(Ctx, Mul->getRHS()) == A));
  };
  return (IsProduct(Add->getLHS()) && refVar(Ctx, Add->getRHS()) == B) ||
         (IsProduct(Add->getRHS()) && refVar(Ctx, Add->getLHS()) == B);
}

/// `I >= N` (or `N <= I`).
bool isOutOfRange(ASTContext &Ctx, const Expr *E, const VarDecl *I,
                  const VarDecl *N) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  return BO && ((BO->getOpcode() == BO_GE && refVar(Ctx, BO->getLHS()) == I &&
                 refVar(Ctx, BO->getRHS()) == N) ||
                (BO->getOpcode() == BO_LE && refVar(Ctx, BO->getLHS()) == N &&
                 refVar(Ctx, BO->getRHS()) == I));
}

const VarDecl *indexVar(ASTContext &Ctx, const Stmt *S, char F) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!V || !V->getInit() || !V->getType()->isIntegerType() ||
      Ctx.getTypeSize(V->getType()) < 32 || V->isStaticLocal() ||
      !isGlobalIndex(Ctx, V->getInit(), F) || !isUnmodified(Ctx, *V))
    return nullptr;
  return V;
}

const ParmVarDecl *unmodifiedParam(ASTContext &Ctx, const Expr *E) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(refVar(Ctx, E));
  return P && isUnmodified(Ctx, *P) ? P : nullptr;
}

} // namespace

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

Error TileTransposeSmem::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                               tooling::Replacements &Out) const {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body || Body->size() != 4)
    return Error::success();
  std::vector<const Stmt *> S(Body->body_begin(), Body->body_end());
  // T X = <index x>; T Y = <index y>;
  const VarDecl *X = indexVar(Ctx, S[0], 'x');
  const VarDecl *Y = indexVar(Ctx, S[1], 'y');
  if (!X || !Y)
    return Error::success();
  // if (X >= Cols || Y >= Rows) return;
  const auto *If = dyn_cast<IfStmt>(S[2]);
  if (!If || If->getInit() || If->getConditionVariable() || If->getElse() ||
      !isReturnOnly(If->getThen()))
    return Error::success();
  const auto *Or = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
  if (!Or || Or->getOpcode() != BO_LOr)
    return Error::success();
  const Expr *CX = Or->getLHS(), *CY = Or->getRHS();
  auto BoundOf = [&](const Expr *C, const VarDecl *I) -> const ParmVarDecl * {
    const auto *BO = dyn_cast<BinaryOperator>(C->IgnoreParenImpCasts());
    if (!BO)
      return nullptr;
    const Expr *N = BO->getOpcode() == BO_GE ? BO->getRHS() : BO->getLHS();
    const auto *P = unmodifiedParam(Ctx, N);
    return P && P->getType()->isIntegerType() && isOutOfRange(Ctx, C, I, P)
               ? P
               : nullptr;
  };
  const ParmVarDecl *Cols = BoundOf(CX, X), *Rows = BoundOf(CY, Y);
  if (!Cols || !Rows) {
    Cols = BoundOf(CY, X);
    Rows = BoundOf(CX, Y);
  }
  if (!Cols || !Rows || Cols == Rows)
    return Error::success();
  // Out[X * Rows + Y] = In[Y * Cols + X];
  const auto *Assign = dyn_cast<BinaryOperator>(S[3]);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return Error::success();
  const auto *Store =
      dyn_cast<ArraySubscriptExpr>(Assign->getLHS()->IgnoreParens());
  const auto *Load =
      dyn_cast<ArraySubscriptExpr>(Assign->getRHS()->IgnoreParenImpCasts());
  if (!Store || !Load)
    return Error::success();
  const auto *OutP = unmodifiedParam(Ctx, Store->getBase());
  const auto *InP = unmodifiedParam(Ctx, Load->getBase());
  if (!OutP || !InP || OutP == InP ||
      !isRowMajor(Ctx, Store->getIdx(), X, Rows, Y) ||
      !isRowMajor(Ctx, Load->getIdx(), Y, Cols, X))
    return Error::success();
  QualType Elem = Load->getType();
  if (Elem.getCanonicalType().getUnqualifiedType() !=
          Store->getType().getCanonicalType().getUnqualifiedType() ||
      !Elem->isScalarType() || Ctx.getTypeSizeInChars(Elem).getQuantity() != 4)
    return Error::success();

  // Every launch: the same block dim3(32, BY) with BY dividing 32, a grid
  // of depth 1.
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  std::optional<int64_t> BY;
  for (const KernelLaunch &L : *Launches) {
    auto B = constantDims(Ctx, L.Block);
    auto G = constantDims(Ctx, L.Grid);
    bool GridDepthOne =
        L.Grid->getType()->isIntegerType() || (G && (*G)[2] == 1);
    if (!GridDepthOne) {
      // A runtime dim3(a, b): its third argument must still be 1.
      const auto *CE = dyn_cast<CXXConstructExpr>(L.Grid->IgnoreImplicit());
      GridDepthOne =
          CE && CE->getNumArgs() == 3 && isa<CXXDefaultArgExpr>(CE->getArg(2));
    }
    if (!B || (*B)[0] != 32 || (*B)[2] != 1 || (*B)[1] < 1 || 32 % (*B)[1] ||
        !GridDepthOne || (BY && *BY != (*B)[1]))
      return Error::success();
    BY = (*B)[1];
  }

  // The new body after the two index declarations.
  const SourceManager &SM = Ctx.getSourceManager();
  auto Guard = sourceText(Ctx, If->getCond());
  auto StoreIdx = sourceText(Ctx, Store->getIdx());
  auto LoadText = sourceText(Ctx, Assign->getRHS());
  auto OutText = sourceText(Ctx, Store->getBase());
  if (!Guard || !StoreIdx || !LoadText || !OutText ||
      !S[2]->getBeginLoc().isFileID())
    return Error::success();
  std::string Indent(SM.getSpellingColumnNumber(S[2]->getBeginLoc()) - 1, ' ');
  std::string In2 = Indent + "  ";
  std::string E =
      Elem.getUnqualifiedType().getAsString(Ctx.getPrintingPolicy());
  std::string B = std::to_string(*BY);
  std::string Pad = std::to_string(32 + 32 / *BY);
  std::string T = X->getType().getAsString(Ctx.getPrintingPolicy());
  std::string TY = Y->getType().getAsString(Ctx.getPrintingPolicy());
  std::string XN = X->getNameAsString(), YN = Y->getNameAsString();
  std::string Tile = "Tile", Lin = "Lin";
  for (const auto *P : Kernel.parameters()) {
    if (P->getName() == Tile)
      Tile += "_";
    if (P->getName() == Lin)
      Lin += "_";
  }
  for (const VarDecl *V : {X, Y}) {
    if (V->getName() == Tile)
      Tile += "_";
    if (V->getName() == Lin)
      Lin += "_";
  }
  std::string N;
  N += "// The block's " + B + " x 32 tile of the input, padded to " + Pad +
       " columns so that\n";
  N += Indent + "// the transposed reads hit distinct banks.\n";
  N += Indent + "__shared__ " + E + " " + Tile + "[" + B + "][" + Pad + "];\n";
  N += Indent + "if (!(" + *Guard + "))\n";
  N += In2 + Tile + "[threadIdx.y][threadIdx.x] = " + *LoadText + ";\n";
  N += Indent + "__syncthreads();\n";
  N += Indent + "// Thread " + Lin + " writes row " + Lin + " / " + B +
       " and column " + Lin + " % " + B + " of the block's\n";
  N += Indent + "// 32 x " + B + " tile of the output.\n";
  N += Indent + "{\n";
  N += In2 + "int " + Lin + " = threadIdx.y * 32 + threadIdx.x;\n";
  N += In2 + T + " " + XN + " = blockIdx.x * 32 + " + Lin + " / " + B + ";\n";
  N += In2 + TY + " " + YN + " = blockIdx.y * " + B + " + " + Lin + " % " + B +
       ";\n";
  N += In2 + "if (!(" + *Guard + "))\n";
  N += In2 + "  " + *OutText + "[" + *StoreIdx + "] = " + Tile + "[" + Lin +
       " % " + B + "][" + Lin + " / " + B + "];\n";
  N += Indent + "}";
  unsigned Begin = SM.getFileOffset(S[2]->getBeginLoc());
  unsigned End = SM.getFileOffset(Body->getRBracLoc());
  // Up to the end of the last statement's line.
  StringRef Buffer = SM.getBufferData(SM.getFileID(S[2]->getBeginLoc()));
  StringRef Between = Buffer.substr(Begin, End - Begin).rtrim();
  return Out.add(
      tooling::Replacement(SM, S[2]->getBeginLoc(), Between.size(), N));
}
