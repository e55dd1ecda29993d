//===- TileMatmulSmem.cpp - Tile a naive matmul in shared memory ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TileMatmulSmem.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "OneDimKernel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
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

/// `A * S + B` (products and sums in either order).
bool isRowMajor(const ASTContext &Ctx, const Expr *E, const VarDecl *A,
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

/// The variable of `T V = blockIdx.F * blockDim.F + threadIdx.F;`, never
/// modified, with F 'x' or 'y' (set in \p F).
const VarDecl *indexVar(ASTContext &Ctx, const Stmt *S, char &F) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS || !DS->isSingleDecl())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!V || !V->getInit() || !V->getType()->isIntegerType() ||
      Ctx.getTypeSize(V->getType()) < 32 || V->isStaticLocal() ||
      !isUnmodified(Ctx, *V))
    return nullptr;
  for (char D : {'x', 'y'})
    if (isGlobalIndex(Ctx, V->getInit(), D)) {
      F = D;
      return V;
    }
  return nullptr;
}

const ParmVarDecl *unmodifiedParam(ASTContext &Ctx, const Expr *E) {
  const auto *P = dyn_cast_or_null<ParmVarDecl>(refVar(Ctx, E));
  return P && isUnmodified(Ctx, *P) ? P : nullptr;
}

/// The integer parameter P of `V >= P` or `P <= V` (\p Out true), or of
/// `V < P` or `P > V` (\p Out false).
const ParmVarDecl *boundOf(ASTContext &Ctx, const Expr *E, const VarDecl *V,
                           bool Out) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO)
    return nullptr;
  BinaryOperatorKind Fwd = Out ? BO_GE : BO_LT, Rev = Out ? BO_LE : BO_GT;
  const Expr *P = nullptr;
  if (BO->getOpcode() == Fwd && refVar(Ctx, BO->getLHS()) == V)
    P = BO->getRHS();
  else if (BO->getOpcode() == Rev && refVar(Ctx, BO->getRHS()) == V)
    P = BO->getLHS();
  const ParmVarDecl *Param = P ? unmodifiedParam(Ctx, P) : nullptr;
  return Param && Param->getType()->isIntegerType() ? Param : nullptr;
}

/// Whether \p S is `T V = blockIdx.z;` with V never modified.
bool isBatchIndex(ASTContext &Ctx, const Stmt *S) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS || !DS->isSingleDecl())
    return false;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  return V && V->getInit() && V->getType()->isIntegerType() &&
         !V->isStaticLocal() && isUnmodified(Ctx, *V) &&
         isBuiltin(Ctx, V->getInit(), "blockIdx", 'z');
}

/// The variable P of `E *P = Param + <offset>;` (or `<offset> + Param`),
/// never modified, with Param an unmodified pointer parameter and the
/// offset an integer without side effects that reads neither \p X nor
/// \p Y.
const VarDecl *offsetMatrix(ASTContext &Ctx, const Stmt *S, const VarDecl *X,
                            const VarDecl *Y) {
  const auto *DS = dyn_cast<DeclStmt>(S);
  if (!DS || !DS->isSingleDecl() || !DS->getBeginLoc().isFileID())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl());
  if (!V || !V->getInit() || !V->getType()->isPointerType() ||
      V->isStaticLocal() || !isUnmodified(Ctx, *V))
    return nullptr;
  const auto *Add =
      dyn_cast<BinaryOperator>(V->getInit()->IgnoreParenImpCasts());
  if (!Add || Add->getOpcode() != BO_Add || Add->HasSideEffects(Ctx) ||
      mentions(Add, X) || mentions(Add, Y))
    return nullptr;
  for (const Expr *Base : {Add->getLHS(), Add->getRHS()})
    if (const ParmVarDecl *P = unmodifiedParam(Ctx, Base))
      if (P->getType()->isPointerType())
        return V;
  return nullptr;
}

/// The pointer parameter \p V is, or that it is declared from.
const VarDecl *baseParam(ASTContext &Ctx, const VarDecl *V) {
  if (isa<ParmVarDecl>(V) || !V->getInit())
    return V;
  const auto *Add = cast<BinaryOperator>(V->getInit()->IgnoreParenImpCasts());
  for (const Expr *Base : {Add->getLHS(), Add->getRHS()})
    if (const ParmVarDecl *P = unmodifiedParam(Ctx, Base))
      if (P->getType()->isPointerType())
        return P;
  return V;
}

bool isReturnOnly(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return CS->size() == 1 && isReturnOnly(CS->body_front());
  const auto *R = dyn_cast_or_null<ReturnStmt>(S);
  return R && !R->getRetValue();
}

/// \p S itself, or the only statement of a compound \p S.
const Stmt *onlyStmt(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return CS->size() == 1 ? CS->body_front() : nullptr;
  return S;
}

/// The naive product, matched.
struct Matmul {
  const VarDecl *Row = nullptr, *Col = nullptr;
  char RowDim = 'y', ColDim = 'x';
  const ParmVarDecl *M = nullptr, *N = nullptr, *K = nullptr;
  /// The matrices: pointer parameters, or pointers declared from one plus
  /// an offset (a batch's matrices).
  const VarDecl *A = nullptr, *B = nullptr, *C = nullptr;
  const VarDecl *Acc = nullptr, *I = nullptr;
  /// Whether the product is written `B[...] * A[...]`.
  bool BFirst = false;
  /// The types of the indices of A and B as written.
  QualType AIdx, BIdx;
  QualType Elem;
};

/// Matches `T Acc = 0; for (T I = 0; I < K; ++I) Acc += A[Row * K + I] *
/// B[I * N + Col]; C[Row * N + Col] = Acc;` in \p S, with Row and Col the
/// two index variables in either role.
bool matchProduct(ASTContext &Ctx, llvm::ArrayRef<const Stmt *> S,
                  const VarDecl *X, const VarDecl *Y,
                  llvm::ArrayRef<const VarDecl *> Offset, Matmul &Mm) {
  // A matrix: an unmodified pointer parameter, or one of \p Offset.
  auto Matrix = [&](const Expr *E) -> const VarDecl * {
    if (const ParmVarDecl *P = unmodifiedParam(Ctx, E))
      return P;
    const VarDecl *V = refVar(Ctx, E);
    return V && llvm::is_contained(Offset, V) ? V : nullptr;
  };
  if (S.size() != 3)
    return false;
  const auto *AccDecl = dyn_cast<DeclStmt>(S[0]);
  if (!AccDecl || !AccDecl->isSingleDecl())
    return false;
  Mm.Acc = dyn_cast<VarDecl>(AccDecl->getSingleDecl());
  if (!Mm.Acc || !Mm.Acc->getInit() ||
      !isConstantZero(Ctx, Mm.Acc->getInit()) || Mm.Acc->isStaticLocal())
    return false;
  Mm.Elem = Mm.Acc->getType().getCanonicalType();
  if (Mm.Elem != Ctx.FloatTy && Mm.Elem != Ctx.DoubleTy)
    return false;

  const auto *Loop = dyn_cast<ForStmt>(S[1]);
  if (!Loop || Loop->getConditionVariable())
    return false;
  const auto *Init = dyn_cast_or_null<DeclStmt>(Loop->getInit());
  if (!Init || !Init->isSingleDecl())
    return false;
  Mm.I = dyn_cast<VarDecl>(Init->getSingleDecl());
  if (!Mm.I || !Mm.I->getInit() || !Mm.I->getType()->isIntegerType() ||
      Ctx.getTypeSize(Mm.I->getType()) < 32 ||
      evaluateInt(Mm.I->getInit()->IgnoreParenImpCasts(), Ctx) != 0 ||
      !isUnitIncrement(Ctx, Loop->getInc(), Mm.I))
    return false;
  const auto *Cond =
      dyn_cast_or_null<BinaryOperator>(Loop->getCond()->IgnoreParenImpCasts());
  if (!Cond || Cond->getOpcode() != BO_LT ||
      refVar(Ctx, Cond->getLHS()) != Mm.I)
    return false;
  Mm.K = unmodifiedParam(Ctx, Cond->getRHS());
  if (!Mm.K || !Mm.K->getType()->isIntegerType())
    return false;
  const auto *Add =
      dyn_cast_or_null<CompoundAssignOperator>(onlyStmt(Loop->getBody()));
  if (!Add || Add->getOpcode() != BO_AddAssign ||
      refVar(Ctx, Add->getLHS()) != Mm.Acc)
    return false;
  const auto *Mul =
      dyn_cast<BinaryOperator>(Add->getRHS()->IgnoreParenImpCasts());
  if (!Mul || Mul->getOpcode() != BO_Mul)
    return false;
  const auto *L =
      dyn_cast<ArraySubscriptExpr>(Mul->getLHS()->IgnoreParenImpCasts());
  const auto *R =
      dyn_cast<ArraySubscriptExpr>(Mul->getRHS()->IgnoreParenImpCasts());
  if (!L || !R)
    return false;
  // A[Row * K + I] and B[I * N + Col]: find which of X and Y is the row.
  auto MatchAB = [&](const ArraySubscriptExpr *AL, const ArraySubscriptExpr *BL,
                     const VarDecl *Row, const VarDecl *Col) {
    Mm.A = Matrix(AL->getBase());
    Mm.B = Matrix(BL->getBase());
    if (!Mm.A || !Mm.B || !isRowMajor(Ctx, AL->getIdx(), Row, Mm.K, Mm.I))
      return false;
    // The column stride N: the other factor of I in B's index.
    const auto *BAdd = dyn_cast<BinaryOperator>(stripCasts(Ctx, BL->getIdx()));
    if (!BAdd || BAdd->getOpcode() != BO_Add)
      return false;
    for (const Expr *Term : {BAdd->getLHS(), BAdd->getRHS()}) {
      const auto *P = dyn_cast<BinaryOperator>(stripCasts(Ctx, Term));
      if (!P || P->getOpcode() != BO_Mul)
        continue;
      for (const Expr *F : {P->getLHS(), P->getRHS()})
        if (const ParmVarDecl *N = unmodifiedParam(Ctx, F))
          if (N->getType()->isIntegerType() &&
              isRowMajor(Ctx, BL->getIdx(), Mm.I, N, Col))
            Mm.N = N;
    }
    Mm.Row = Row;
    Mm.Col = Col;
    Mm.AIdx = AL->getIdx()->getType();
    Mm.BIdx = BL->getIdx()->getType();
    return Mm.N != nullptr;
  };
  bool Found = false;
  for (bool BFirst : {false, true}) {
    const ArraySubscriptExpr *AL = BFirst ? R : L, *BL = BFirst ? L : R;
    if (MatchAB(AL, BL, Y, X) || MatchAB(AL, BL, X, Y)) {
      Mm.BFirst = BFirst;
      Found = true;
      break;
    }
  }
  if (!Found)
    return false;

  // C[Row * N + Col] = Acc;
  const auto *Store = dyn_cast<BinaryOperator>(S[2]);
  if (!Store || Store->getOpcode() != BO_Assign ||
      refVar(Ctx, Store->getRHS()) != Mm.Acc)
    return false;
  const auto *CL =
      dyn_cast<ArraySubscriptExpr>(Store->getLHS()->IgnoreParens());
  if (!CL)
    return false;
  Mm.C = Matrix(CL->getBase());
  if (!Mm.C || Mm.C == Mm.A || Mm.C == Mm.B ||
      !isRowMajor(Ctx, CL->getIdx(), Mm.Row, Mm.N, Mm.Col))
    return false;
  for (const VarDecl *P : {Mm.A, Mm.B, Mm.C}) {
    const auto *PT = P->getType()->getAs<PointerType>();
    if (!PT || PT->getPointeeType().isVolatileQualified() ||
        PT->getPointeeType().getCanonicalType().getUnqualifiedType() != Mm.Elem)
      return false;
  }
  Mm.RowDim = Mm.Row == X ? 'x' : 'y';
  Mm.ColDim = Mm.Col == X ? 'x' : 'y';
  return true;
}

} // namespace

StringRef TileMatmulSmem::name() const { return "tile-matmul-smem"; }

StringRef TileMatmulSmem::description() const {
  return "stage the naive product acc += A[row * K + k] * B[k * N + col] "
         "through T x T __shared__ tiles of A and B";
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

Error TileMatmulSmem::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                            tooling::Replacements &Out) const {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Kernel.getBody());
  if (!Body)
    return Error::success();
  std::vector<const Stmt *> S(Body->body_begin(), Body->body_end());
  // A batched product starts with `T Batch = blockIdx.z;`, which stays.
  if (!S.empty() && isBatchIndex(Ctx, S[0]))
    S.erase(S.begin());
  if (S.size() < 3)
    return Error::success();
  // T X = <index x>; T Y = <index y>; (in either order)
  char F0 = 0, F1 = 0;
  const VarDecl *V0 = indexVar(Ctx, S[0], F0);
  const VarDecl *V1 = indexVar(Ctx, S[1], F1);
  if (!V0 || !V1 || F0 == F1)
    return Error::success();
  const VarDecl *X = F0 == 'x' ? V0 : V1, *Y = F0 == 'x' ? V1 : V0;

  // if (Row >= M || Col >= N) return; ... or if (Row < M && Col < N) {...}
  const auto *If = dyn_cast<IfStmt>(S[2]);
  if (!If || If->getInit() || If->getConditionVariable() || If->getElse() ||
      If->isConstexpr())
    return Error::success();
  bool EarlyExit = isReturnOnly(If->getThen());
  llvm::ArrayRef<const Stmt *> Work;
  if (EarlyExit) {
    Work = llvm::ArrayRef(S).drop_front(3);
  } else {
    const auto *Then = dyn_cast<CompoundStmt>(If->getThen());
    if (!Then || S.size() != 3)
      return Error::success();
    Work = llvm::ArrayRef(Then->body_begin(), Then->body_end());
  }
  // The matrices of a batch: `E *P = Param + <offset>;` before the product.
  std::vector<const VarDecl *> Offset;
  std::vector<const DeclStmt *> OffsetDecls;
  while (Work.size() > 3) {
    const VarDecl *V = offsetMatrix(Ctx, Work.front(), X, Y);
    if (!V)
      return Error::success();
    Offset.push_back(V);
    OffsetDecls.push_back(cast<DeclStmt>(Work.front()));
    Work = Work.drop_front();
  }
  Matmul Mm;
  if (!matchProduct(Ctx, Work, X, Y, Offset, Mm) ||
      baseParam(Ctx, Mm.C) == baseParam(Ctx, Mm.A) ||
      baseParam(Ctx, Mm.C) == baseParam(Ctx, Mm.B))
    return Error::success();
  // The accumulator and the batch's matrices move out of the guarded
  // block: their names must not be those of parameters or indices.
  if (!EarlyExit) {
    std::vector<const VarDecl *> Moved = Offset;
    Moved.push_back(Mm.Acc);
    for (const VarDecl *V : Moved) {
      for (const ParmVarDecl *P : Kernel.parameters())
        if (P->getName() == V->getName())
          return Error::success();
      if (X->getName() == V->getName() || Y->getName() == V->getName())
        return Error::success();
    }
  }
  const auto *Both = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
  if (!Both || Both->getOpcode() != (EarlyExit ? BO_LOr : BO_LAnd))
    return Error::success();
  auto Bounds = [&](const Expr *CR, const Expr *CC) {
    return boundOf(Ctx, CR, Mm.Row, EarlyExit) &&
           boundOf(Ctx, CC, Mm.Col, EarlyExit) == Mm.N;
  };
  if (Bounds(Both->getLHS(), Both->getRHS()))
    Mm.M = boundOf(Ctx, Both->getLHS(), Mm.Row, EarlyExit);
  else if (Bounds(Both->getRHS(), Both->getLHS()))
    Mm.M = boundOf(Ctx, Both->getRHS(), Mm.Row, EarlyExit);
  else
    return Error::success();

  // Every launch: the same block dim3(T, T) with T 16 or 32.
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  std::optional<int64_t> T;
  for (const KernelLaunch &L : *Launches) {
    auto B = constantDims(Ctx, L.Block);
    if (!B || (*B)[0] != (*B)[1] || (*B)[2] != 1 ||
        ((*B)[0] != 16 && (*B)[0] != 32) || (T && *T != (*B)[0]))
      return Error::success();
    T = (*B)[0];
  }

  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Store = cast<BinaryOperator>(Work[2]);
  auto Guard = sourceText(Ctx, If->getCond());
  auto StoreText = sourceText(Ctx, Store);
  auto AccInit = sourceText(Ctx, Mm.Acc->getInit());
  if (!Guard || !StoreText || !AccInit || !S[2]->getBeginLoc().isFileID())
    return Error::success();

  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  std::string Ind(SM.getSpellingColumnNumber(S[2]->getBeginLoc()) - 1, ' ');
  std::string In2 = Ind + "  ";
  std::string TS = std::to_string(*T);
  std::string E = Mm.Elem.getAsString(PP);
  std::string Zero = Mm.Elem == Ctx.FloatTy ? "0.0f" : "0.0";
  std::string RT = Mm.Row->getType().getAsString(PP);
  std::string CT = Mm.Col->getType().getAsString(PP);
  std::string IT = Mm.I->getType().getAsString(PP);
  std::string As = freshName(Kernel, "As"), Bs = freshName(Kernel, "Bs");
  std::string K0 = freshName(Kernel, "K0"), ARow = freshName(Kernel, "ARow");
  std::string AK = freshName(Kernel, "AK"), BK = freshName(Kernel, "BK");
  std::string BCol = freshName(Kernel, "BCol");
  std::string Acc = Mm.Acc->getNameAsString(), I = Mm.I->getNameAsString();
  std::string M = Mm.M->getNameAsString(), N = Mm.N->getNameAsString();
  std::string K = Mm.K->getNameAsString();
  std::string A = Mm.A->getNameAsString(), B = Mm.B->getNameAsString();
  // A row of As is read across a warp when rows follow threadIdx.x: pad it.
  std::string APad = Mm.RowDim == 'x' ? TS + " + 1" : TS;
  std::string ARead = As + "[threadIdx." + Mm.RowDim + "][" + I + "]";
  std::string BRead = Bs + "[" + I + "][threadIdx." + Mm.ColDim + "]";
  // An index computed in a wider type than its variables (a cast of the
  // row) keeps that type.
  auto CastTo = [&](QualType Idx) {
    return Ctx.getTypeSize(Idx) > 32 ? "(" + Idx.getAsString(PP) + ")"
                                     : std::string();
  };
  std::string ACast = CastTo(Mm.AIdx), BCast = CastTo(Mm.BIdx);

  std::string Txt;
  for (const DeclStmt *D : OffsetDecls) {
    CharSourceRange R = Lexer::makeFileCharRange(
        CharSourceRange::getTokenRange(D->getSourceRange()), SM,
        Ctx.getLangOpts());
    if (R.isInvalid())
      return Error::success();
    Txt += Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str() + "\n" + Ind;
  }
  Txt += "// " + TS + " x " + TS +
         " tiles of A and B in shared memory: each thread loads one\n";
  Txt += Ind + "// element of each (zero outside the matrices) and every "
               "thread reaches\n";
  Txt += Ind + "// the barriers; the sum keeps the order of k.\n";
  Txt += Ind + "__shared__ " + E + " " + As + "[" + TS + "][" + APad + "];\n";
  Txt += Ind + "__shared__ " + E + " " + Bs + "[" + TS + "][" + TS + "];\n";
  Txt += Ind + E + " " + Acc + " = " + *AccInit + ";\n";
  Txt += Ind + "for (" + IT + " " + K0 + " = 0; " + K0 + " < " + K + "; " + K0 +
         " += " + TS + ") {\n";
  Txt += In2 + RT + " " + ARow + " = blockIdx." + Mm.RowDim + " * " + TS +
         " + threadIdx.y;\n";
  Txt += In2 + IT + " " + AK + " = " + K0 + " + threadIdx.x;\n";
  Txt += In2 + IT + " " + BK + " = " + K0 + " + threadIdx.y;\n";
  Txt += In2 + CT + " " + BCol + " = blockIdx." + Mm.ColDim + " * " + TS +
         " + threadIdx.x;\n";
  Txt += In2 + As + "[threadIdx.y][threadIdx.x] =\n";
  Txt += In2 + "    " + ARow + " < " + M + " && " + AK + " < " + K + " ? " + A +
         "[" + ACast + ARow + " * " + K + " + " + AK + "] : " + Zero + ";\n";
  Txt += In2 + Bs + "[threadIdx.y][threadIdx.x] =\n";
  Txt += In2 + "    " + BK + " < " + K + " && " + BCol + " < " + N + " ? " + B +
         "[" + BCast + BK + " * " + N + " + " + BCol + "] : " + Zero + ";\n";
  Txt += In2 + "__syncthreads();\n";
  Txt += In2 + "for (" + IT + " " + I + " = 0; " + I + " < " + TS + " && " +
         K0 + " + " + I + " < " + K + "; ++" + I + ")\n";
  Txt += In2 + "  " + Acc +
         " += " + (Mm.BFirst ? BRead + " * " + ARead : ARead + " * " + BRead) +
         ";\n";
  Txt += In2 + "__syncthreads();\n";
  Txt += Ind + "}\n";
  Txt +=
      Ind + (EarlyExit ? "if (!(" + *Guard + "))\n" : "if (" + *Guard + ")\n");
  Txt += In2 + *StoreText + ";";

  unsigned Begin = SM.getFileOffset(S[2]->getBeginLoc());
  unsigned End = SM.getFileOffset(Body->getRBracLoc());
  StringRef Buffer = SM.getBufferData(SM.getFileID(S[2]->getBeginLoc()));
  StringRef Between = Buffer.substr(Begin, End - Begin).rtrim();
  return Out.add(
      tooling::Replacement(SM, S[2]->getBeginLoc(), Between.size(), Txt));
}
