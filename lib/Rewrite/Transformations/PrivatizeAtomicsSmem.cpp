//===- PrivatizeAtomicsSmem.cpp - Per-block copies of atomic counters -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "PrivatizeAtomicsSmem.h"
#include "IndependentThreads.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// The most entries of a block's copy, and the size of the copy when the
/// index has no static bound.
constexpr int64_t MaxEntries = 4096;
/// The most blocks of a launch once the kernel strides over the grid.
constexpr int GridCap = 1024;

class WorkScan : public RecursiveASTVisitor<WorkScan> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    Refs.push_back(DR);
    return true;
  }
  bool VisitCallExpr(CallExpr *C) {
    Calls.push_back(C);
    return true;
  }
  bool VisitReturnStmt(ReturnStmt *) { return HasReturn = true, true; }
  std::vector<const DeclRefExpr *> Refs;
  std::vector<const CallExpr *> Calls;
  bool HasReturn = false;
};

/// One `atomicAdd(&P[X], V)`.
struct AtomicAdd {
  const CallExpr *Call = nullptr;
  const DeclRefExpr *Base = nullptr;
  const Expr *Index = nullptr;
  /// The entries X provably stays below, or 0 when unknown.
  int64_t Bound = 0;
};

/// The parameter P and the parts of `atomicAdd(&P[X], V)`, or nullopt.
std::optional<AtomicAdd> matchAtomicAdd(const CallExpr *C) {
  const auto *F = C->getDirectCallee();
  if (!F || F->getName() != "atomicAdd" || C->getNumArgs() != 2)
    return std::nullopt;
  // The address: `&P[X]` or `P + X`.
  const Expr *Addr = C->getArg(0)->IgnoreParenImpCasts();
  const Expr *BaseE = nullptr, *Index = nullptr;
  if (const auto *U = dyn_cast<UnaryOperator>(Addr);
      U && U->getOpcode() == UO_AddrOf) {
    const auto *Sub =
        dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
    if (!Sub)
      return std::nullopt;
    BaseE = Sub->getBase();
    Index = Sub->getIdx();
  } else if (const auto *B = dyn_cast<BinaryOperator>(Addr);
             B && B->getOpcode() == BO_Add &&
             B->getLHS()->getType()->isPointerType()) {
    BaseE = B->getLHS();
    Index = B->getRHS();
  } else {
    return std::nullopt;
  }
  const auto *Base = dyn_cast<DeclRefExpr>(BaseE->IgnoreParenImpCasts());
  if (!Base || !isa<ParmVarDecl>(Base->getDecl()))
    return std::nullopt;
  AtomicAdd A;
  A.Call = C;
  A.Base = Base;
  A.Index = Index;
  return A;
}

/// The entries that the index \p X provably stays below, or 0. A local
/// that keeps its value stands for its initializer.
int64_t indexBound(ASTContext &Ctx, const Expr *X, unsigned Depth = 0) {
  const Expr *E = X->IgnoreParenImpCasts();
  if (const auto *DR = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        V && Depth < 4 && V->isLocalVarDecl() && V->getInit() &&
        V->getType()->isIntegerType() && isUnmodified(Ctx, *V))
      return indexBound(Ctx, V->getInit(), Depth + 1);
  if (const auto *BT = E->getType().getCanonicalType()->getAs<BuiltinType>())
    if (BT->getKind() == BuiltinType::UChar ||
        BT->getKind() == BuiltinType::Char_U)
      return 256;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return 0;
  auto Constant = [&](const Expr *C) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (!C->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  };
  if (BO->getOpcode() == BO_And) {
    std::optional<int64_t> M = Constant(BO->getRHS());
    if (!M)
      M = Constant(BO->getLHS());
    if (M && *M >= 0 && *M < MaxEntries)
      return *M + 1;
  }
  if (BO->getOpcode() == BO_Rem &&
      BO->getLHS()->getType()->isUnsignedIntegerType())
    if (std::optional<int64_t> C = Constant(BO->getRHS()))
      if (*C >= 1 && *C <= MaxEntries)
        return *C;
  return 0;
}

bool isCounterType(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT || T.isVolatileQualified())
    return false;
  switch (BT->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
    return true;
  default:
    return false;
  }
}

} // namespace

StringRef PrivatizeAtomicsSmem::name() const {
  return "privatize-atomics-smem";
}

StringRef PrivatizeAtomicsSmem::description() const {
  return "add into a per-block copy of the atomic counters in shared memory "
         "and add each copy to the global counters once, over a grid of at "
         "most 1024 blocks";
}

bool PrivatizeAtomicsSmem::precondition(const KernelRecord &K) const {
  return hasIndependentThreads(K) &&
         K.Features.get("atomics_global").value_or(0) > 0;
}

static const MetricCondition Conditions[] = {
    {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", ">", 0},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", ">", 0}};

std::vector<std::string> PrivatizeAtomicsSmem::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
PrivatizeAtomicsSmem::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

namespace {

/// The edits that make the guarded kernel \p K stride over the grid: its
/// guard becomes the loop `for (T I = <index>; I < N; I += gridDim.x *
/// blockDim.x)` around its work (closed at the end of the body when
/// \p CloseLoop is set), the index's declaration moves into it, and an
/// index written inline becomes the loop's variable.
bool strideOverGrid(const KernelModel &M, const PerIndexKernel &K,
                    const std::string &Indent,
                    std::vector<tooling::Replacement> &Edits, bool &CloseLoop,
                    std::string &Why) {
  ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  const PrintingPolicy &PP = Ctx.getPrintingPolicy();
  const auto *Body = cast<CompoundStmt>(M.kernel().getBody());
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return false;
  };
  const IfStmt *Guard = K.Guard;
  auto GuardAt = llvm::find(Body->body(), static_cast<const Stmt *>(Guard));
  if (GuardAt == Body->body_end())
    return Refuse("its guard at " + M.where(Guard) +
                  " is not a statement of the kernel's body");
  std::string I, T, Init;
  const DeclStmt *IndexDecl = nullptr;
  const Stmt *AfterDecl = nullptr;
  if (K.IndexVar) {
    I = K.IndexVar->getNameAsString();
    T = K.IndexVar->getType().getUnqualifiedType().getAsString(PP);
    if (!K.IndexVar->getInit())
      return Refuse("the index is given its value by an assignment, not by "
                    "its declaration");
    auto Text = sourceText(Ctx, K.IndexVar->getInit());
    if (!Text)
      return Refuse("the index's declaration is written through a macro");
    Init = *Text;
    // Its declaration moves into the loop: nothing between reads it.
    for (auto It = Body->body_begin(); It != GuardAt; ++It) {
      if (IndexDecl) {
        if (mentions(*It, K.IndexVar))
          return Refuse("the statement at " + M.where(*It) +
                        " reads the index before its guard");
        continue;
      }
      const auto *DS = dyn_cast<DeclStmt>(*It);
      if (DS && DS->isSingleDecl() && DS->getSingleDecl() == K.IndexVar) {
        IndexDecl = DS;
        AfterDecl = *std::next(It);
      }
    }
    if (!IndexDecl)
      return Refuse("the index is not declared on its own in the kernel's "
                    "body");
  } else {
    I = freshName(M.kernel(), "i");
    T = K.IndexExprs.front()->getType().getUnqualifiedType().getAsString(PP);
    Init = "blockIdx.x * blockDim.x + threadIdx.x";
    for (const Expr *X : K.IndexExprs) {
      if (llvm::none_of(K.Work,
                        [&](const Stmt *W) { return isWithin(Ctx, X, W); }))
        continue;
      auto R = replaceExpr(Ctx, X, I);
      if (!R)
        return Refuse("the index at " + M.where(X) +
                      " is written through a macro");
      Edits.push_back(*R);
    }
  }
  std::string N = K.Bound.str();
  if (K.BoundExpr) {
    if (auto Text = sourceText(Ctx, K.BoundExpr))
      N = parenthesize(K.BoundExpr, *Text);
  } else if (K.Bound.terms().size() > 1) {
    N = "(" + N + ")";
  }
  // The guard's conditions of the launch end the kernel before the loop.
  std::optional<std::string> Exit = conditionsExit(M);
  if (!Exit)
    return Refuse("a condition of its guard is written through a macro");
  std::string Header = (Exit->empty() ? "" : *Exit + "\n" + Indent) + "for (" +
                       T + " " + I + " = " + Init + "; " + I + " < " + N +
                       ";\n" + Indent + "     " + I +
                       " += gridDim.x * blockDim.x)";
  // The loop's header replaces the declaration and the guard when they
  // are next to each other; else the declaration goes, up to the next
  // statement.
  SourceLocation B = Guard->getBeginLoc();
  if (IndexDecl && AfterDecl == Guard) {
    B = IndexDecl->getBeginLoc();
  } else if (IndexDecl) {
    SourceLocation D = IndexDecl->getBeginLoc(),
                   Next = AfterDecl->getBeginLoc();
    if (!D.isFileID() || !Next.isFileID() ||
        SM.getFileID(D) != SM.getFileID(Next))
      return Refuse("the index's declaration is written through a macro");
    Edits.push_back(tooling::Replacement(
        SM, D, SM.getFileOffset(Next) - SM.getFileOffset(D), ""));
  }
  if (!isReturnOnly(Guard->getThen())) {
    SourceLocation E = Guard->getRParenLoc().getLocWithOffset(1);
    if (!B.isFileID() || !E.isFileID() || SM.getFileID(B) != SM.getFileID(E))
      return Refuse("its guard is written through a macro");
    Edits.push_back(tooling::Replacement(
        SM, B, SM.getFileOffset(E) - SM.getFileOffset(B), Header));
    return true;
  }
  if (K.Work.empty())
    return Refuse("it does nothing after its guard");
  SourceLocation W = K.Work.front()->getBeginLoc();
  if (!B.isFileID() || !W.isFileID() || SM.getFileID(B) != SM.getFileID(W))
    return Refuse("its guard is written through a macro");
  Edits.push_back(
      tooling::Replacement(SM, B, SM.getFileOffset(W) - SM.getFileOffset(B),
                           Header + " {\n" + Indent + "  "));
  // The work's other lines move into the loop.
  StringRef Buffer = SM.getBufferData(SM.getFileID(W));
  unsigned From = SM.getFileOffset(W);
  unsigned To = SM.getFileOffset(Body->getRBracLoc());
  for (unsigned O = From; O < To; ++O)
    if (Buffer[O] == '\n' && O + 1 < To && Buffer[O + 1] != '\n' &&
        !Buffer.substr(O + 1, To - O - 1)
             .take_until([](char C) { return C == '\n'; })
             .trim()
             .empty())
      Edits.push_back(tooling::Replacement(
          SM, SM.getComposedLoc(SM.getFileID(W), O + 1), 0, "  "));
  CloseLoop = true;
  return true;
}

/// The edits that privatize the atomic additions of the kernel of \p M, or
/// false with the reason in \p Why.
bool privatize(const KernelModel &M, std::vector<tooling::Replacement> &Edits,
               std::string &Why) {
  ASTContext &Ctx = M.context();
  const FunctionDecl &Kernel = M.kernel();
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return false;
  };
  // Atomic operations are what it rewrites; nothing else may tie threads.
  if (!M.cooperationWhy(/*CountAtomics=*/false).empty())
    return Refuse("its threads may depend on each other: " +
                  M.cooperationWhy(false));
  std::optional<PerIndexKernel> Shape = matchPerIndex(M, Why);
  if (!Shape)
    return false;
  if (!Shape->LowerBounds.empty())
    return Refuse("its guard at " + M.where(Shape->Guard) +
                  " also bounds the index from below");
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  if (Body->body_empty() || !Body->getRBracLoc().isFileID())
    return Refuse("the kernel's body ends in a macro");

  WorkScan Scan;
  for (const Stmt *S : Shape->Work)
    Scan.TraverseStmt(const_cast<Stmt *>(S));
  if (Scan.HasReturn)
    return Refuse("its work returns, which would leave the grid-stride loop");

  // The atomic additions into one pointer parameter P, whose values are not
  // used; P is referred to by nothing else.
  std::vector<AtomicAdd> Adds;
  const ParmVarDecl *P = nullptr;
  for (const CallExpr *C : Scan.Calls) {
    std::optional<AtomicAdd> A = matchAtomicAdd(C);
    if (!A)
      continue;
    const auto *Param = cast<ParmVarDecl>(A->Base->getDecl());
    if (P && Param != P)
      return Refuse("it adds atomically into more than one parameter");
    P = Param;
    if (!isDiscardedValue(Ctx, *C) || !M.isPure(A->Index) ||
        !M.isPure(C->getArg(1)) || !C->getBeginLoc().isFileID() ||
        !C->getEndLoc().isFileID())
      return Refuse("the atomic addition at " + M.where(C) +
                    " is used as a value, has side effects or is written "
                    "through a macro");
    A->Bound = indexBound(Ctx, A->Index);
    Adds.push_back(*A);
  }
  if (!P)
    return Refuse("it has no `atomicAdd(&p[x], v)` into a parameter");
  if (!isCounterType(P->getType()->getPointeeType()))
    return Refuse("`" + P->getNameAsString() +
                  "` holds counters of a type other than int, unsigned, "
                  "unsigned long long or float");
  for (const DeclRefExpr *DR : Scan.Refs)
    if (DR->getDecl() == P &&
        llvm::none_of(Adds, [&](const AtomicAdd &A) { return A.Base == DR; }))
      return Refuse("`" + P->getNameAsString() + "` at " + M.where(DR) +
                    " is used other than by an atomic addition");
  int64_t Entries = 0;
  bool Unbounded = false;
  for (const AtomicAdd &A : Adds) {
    Entries = std::max(Entries, A.Bound);
    Unbounded |= A.Bound == 0;
  }
  if (Unbounded)
    Entries = MaxEntries;

  // Every launch: a 1-D grid without side effects and a constant 1-D
  // block.
  std::string NoLaunch;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(NoLaunch);
  if (!Launches)
    return Refuse(NoLaunch);
  std::string Cap = std::to_string(GridCap);
  for (const KernelLaunch &L : *Launches) {
    std::string At = "the launch at " + M.where(L.Call);
    std::optional<Dim3> Block = constantDims(Ctx, L.Block);
    if (!Block || (*Block)[0] <= 0 || (*Block)[1] != 1 || (*Block)[2] != 1)
      return Refuse(At + " has a block that is not a constant number of "
                         "threads in x");
    // A number of blocks (an integer, or a floating value the launch
    // converts: `ceil(n / 256.0)`), or a dim3 of one dimension.
    QualType GT = L.Grid->getType();
    bool Dim3Grid = GT->isRecordType();
    if (!GT->isIntegerType() && !GT->isRealFloatingType() &&
        !(Dim3Grid && launchGridX(Ctx, L.Grid)))
      return Refuse(At + " has a grid that is neither a number of blocks "
                         "nor a dim3 of one dimension");
    auto GridText = sourceText(Ctx, L.Grid);
    if (!GridText)
      return Refuse(At + " writes its grid through a macro");
    std::string G = parenthesize(L.Grid, *GridText);
    std::string Capped = "(" + G + " < " + Cap + " ? " + G + " : " + Cap + ")";
    // A grid with side effects (a call: `cdiv(n, 256)`) is evaluated once,
    // as it was, into a name it does not mention; so is a dim3, whose x
    // is capped.
    if (L.Grid->HasSideEffects(Ctx) || Dim3Grid) {
      std::string V = "Grid";
      while (GridText->find(V) != std::string::npos)
        V += "_";
      Capped = Dim3Grid ? "[&] { dim3 " + V + " = " + G + "; " + V +
                              ".x = " + V + ".x < " + Cap + " ? " + V +
                              ".x : " + Cap + "; return " + V + "; }()"
                        : "[&] { auto " + V + " = " + G + "; return " + V +
                              " < " + Cap + " ? " + V + " : " + Cap + "; }()";
    }
    auto R = replaceExpr(Ctx, L.Grid, Capped);
    if (!R)
      return Refuse(At + " writes its grid through a macro");
    Edits.push_back(*R);
  }

  std::string Copy = freshName(Kernel, P->getNameAsString() + "Block");
  std::string Entry = freshName(Kernel, "E", {Copy});
  std::string T =
      P->getType()->getPointeeType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy());
  std::string NStr = std::to_string(Entries);
  const Stmt *First = Body->body_front();
  if (!First->getBeginLoc().isFileID())
    return Refuse("the kernel's body starts in a macro");
  std::string Indent(SM.getSpellingColumnNumber(First->getBeginLoc()) - 1, ' ');
  std::string EachEntry = "for (int " + Entry + " = threadIdx.x; " + Entry +
                          " < " + NStr + "; " + Entry + " += blockDim.x)\n";

  // The block's copy, cleared.
  Edits.push_back(tooling::Replacement(
      SM, First->getBeginLoc(), 0,
      "// Each block adds into its own copy of " + P->getNameAsString() +
          " in shared memory\n" + Indent +
          "// and adds the copy to it once, at the end.\n" + Indent +
          "__shared__ " + T + " " + Copy + "[" + NStr + "];\n" + Indent +
          EachEntry + Indent + "  " + Copy + "[" + Entry + "] = 0;\n" + Indent +
          "__syncthreads();\n" + Indent));

  // One index per thread becomes a stride over the grid.
  bool CloseLoop = false;
  if (Shape->Form == PerIndexKernel::Guarded &&
      !strideOverGrid(M, *Shape, Indent, Edits, CloseLoop, Why))
    return false;

  // The additions go to the copy; with no static bound, only the indices
  // that fall inside it.
  for (const AtomicAdd &A : Adds) {
    if (A.Bound) {
      auto R = replaceExpr(Ctx, A.Base, Copy);
      if (!R)
        return Refuse("the atomic addition at " + M.where(A.Call) +
                      " is written through a macro");
      Edits.push_back(*R);
      continue;
    }
    auto X = sourceText(Ctx, A.Index);
    auto V = sourceText(Ctx, A.Call->getArg(1));
    if (!X || !V)
      return Refuse("the atomic addition at " + M.where(A.Call) +
                    " is written through a macro");
    auto R = replaceExpr(Ctx, A.Call,
                         "((unsigned long long)(" + *X + ") < " + NStr +
                             " ? atomicAdd(&" + Copy + "[" + *X + "], " + *V +
                             ") : atomicAdd(&" + P->getNameAsString() + "[" +
                             *X + "], " + *V + "))");
    if (!R)
      return Refuse("the atomic addition at " + M.where(A.Call) +
                    " is written through a macro");
    Edits.push_back(*R);
  }

  // The copy's non-zero entries are added to P, before the closing brace's
  // line (or, when code comes first on that line, on lines of their own
  // before the brace).
  std::string Flush;
  if (CloseLoop)
    Flush += Indent + "}\n";
  Flush += Indent + "__syncthreads();\n" + Indent + EachEntry + Indent +
           "  if (" + Copy + "[" + Entry + "] != 0)\n" + Indent +
           "    atomicAdd(&" + P->getNameAsString() + "[" + Entry + "], " +
           Copy + "[" + Entry + "]);\n";
  StringRef Buffer = SM.getBufferData(SM.getFileID(Body->getRBracLoc()));
  unsigned Start = SM.getFileOffset(Body->getRBracLoc());
  while (Start > 0 && (Buffer[Start - 1] == ' ' || Buffer[Start - 1] == '\t'))
    --Start;
  if (Start == 0 || Buffer[Start - 1] != '\n') {
    Start = SM.getFileOffset(Body->getRBracLoc());
    Flush = "\n" + Flush;
  }
  Edits.push_back(tooling::Replacement(
      SM, SM.getComposedLoc(SM.getFileID(Body->getRBracLoc()), Start), 0,
      Flush));
  return true;
}

} // namespace

Error PrivatizeAtomicsSmem::apply(const KernelModel &M, FileEdits &Out) const {
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  if (!privatize(M, Edits, Why))
    return Error::success();
  return addEdits(Edits, Out);
}

std::string PrivatizeAtomicsSmem::explain(const KernelModel &M) const {
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  return privatize(M, Edits, Why) ? "" : Why;
}
