//===- PrivatizeAtomicsSmem.cpp - Per-block copies of atomic counters -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "PrivatizeAtomicsSmem.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "OneDimKernel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ParentMapContext.h"
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
  const auto *Addr =
      dyn_cast<UnaryOperator>(C->getArg(0)->IgnoreParenImpCasts());
  if (!Addr || Addr->getOpcode() != UO_AddrOf)
    return std::nullopt;
  const auto *Sub =
      dyn_cast<ArraySubscriptExpr>(Addr->getSubExpr()->IgnoreParens());
  if (!Sub)
    return std::nullopt;
  const auto *Base =
      dyn_cast<DeclRefExpr>(Sub->getBase()->IgnoreParenImpCasts());
  if (!Base || !isa<ParmVarDecl>(Base->getDecl()))
    return std::nullopt;
  AtomicAdd A;
  A.Call = C;
  A.Base = Base;
  A.Index = Sub->getIdx();
  return A;
}

/// The entries that the index \p X provably stays below, or 0.
int64_t indexBound(const ASTContext &Ctx, const Expr *X) {
  const Expr *E = X->IgnoreParenImpCasts();
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

Error PrivatizeAtomicsSmem::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                                  tooling::Replacements &Out) const {
  std::optional<OneDimKernel> Shape = matchOneDimKernel(Ctx, Kernel);
  if (!Shape)
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
  const auto *Body = cast<CompoundStmt>(Kernel.getBody());
  if (Body->body_empty() || !Body->getRBracLoc().isFileID())
    return Error::success();

  WorkScan Scan;
  for (const Stmt *S : Shape->Work)
    Scan.TraverseStmt(const_cast<Stmt *>(S));
  if (Scan.HasReturn)
    return Error::success();

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
      return Error::success();
    P = Param;
    auto Parents = Ctx.getParents(*C);
    if (Parents.size() != 1 || !Parents[0].get<Stmt>() ||
        isa<Expr>(Parents[0].get<Stmt>()) || A->Index->HasSideEffects(Ctx) ||
        C->getArg(1)->HasSideEffects(Ctx) || !C->getBeginLoc().isFileID() ||
        !C->getEndLoc().isFileID())
      return Error::success();
    A->Bound = indexBound(Ctx, A->Index);
    Adds.push_back(*A);
  }
  if (!P || !isCounterType(P->getType()->getPointeeType()))
    return Error::success();
  for (const DeclRefExpr *DR : Scan.Refs)
    if (DR->getDecl() == P &&
        llvm::none_of(Adds, [&](const AtomicAdd &A) { return A.Base == DR; }))
      return Error::success();
  int64_t Entries = 0;
  bool Unbounded = false;
  for (const AtomicAdd &A : Adds) {
    Entries = std::max(Entries, A.Bound);
    Unbounded |= A.Bound == 0;
  }
  if (Unbounded)
    Entries = MaxEntries;

  // Every launch: an integer grid without side effects and a constant
  // integer block.
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  std::vector<tooling::Replacement> Edits;
  std::string Cap = std::to_string(GridCap);
  for (const KernelLaunch &L : *Launches) {
    auto Block = evaluateInt(L.Block, Ctx);
    if (!L.Block->getType()->isIntegerType() || !Block || *Block <= 0 ||
        !L.Grid->getType()->isIntegerType() || L.Grid->HasSideEffects(Ctx))
      return Error::success();
    auto GridText = sourceText(Ctx, L.Grid);
    if (!GridText)
      return Error::success();
    std::string G = parenthesize(L.Grid, *GridText);
    auto R = replaceExpr(Ctx, L.Grid,
                         "(" + G + " < " + Cap + " ? " + G + " : " + Cap + ")");
    if (!R)
      return Error::success();
    Edits.push_back(*R);
  }

  std::string Copy = freshName(Kernel, P->getNameAsString() + "Block");
  std::string Entry = freshName(Kernel, "E", {Copy});
  std::string T =
      P->getType()->getPointeeType().getUnqualifiedType().getAsString(
          Ctx.getPrintingPolicy());
  std::string NStr = std::to_string(Entries);
  const Stmt *First = Shape->Form == OneDimKernel::GridStride
                          ? Body->body_front()
                          : static_cast<const Stmt *>(Shape->IndexDecl);
  if (!First->getBeginLoc().isFileID())
    return Error::success();
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
  std::string I = Shape->Index->getNameAsString();
  std::string N = Shape->Bound->getNameAsString();
  auto InitText = Shape->Index->getInit()
                      ? sourceText(Ctx, Shape->Index->getInit())
                      : std::nullopt;
  std::string Header;
  if (InitText)
    Header = "for (" +
             Shape->Index->getType().getAsString(Ctx.getPrintingPolicy()) +
             " " + I + " = " + *InitText + "; " + I + " < " + N + ";\n" +
             Indent + "     " + I + " += gridDim.x * blockDim.x)";
  bool CloseLoop = false;
  if (Shape->Form == OneDimKernel::Guarded) {
    if (!InitText || Shape->Guard->getElse())
      return Error::success();
    SourceLocation B = Shape->IndexDecl->getBeginLoc();
    SourceLocation E = Shape->Guard->getRParenLoc().getLocWithOffset(1);
    if (!E.isFileID() || SM.getFileID(B) != SM.getFileID(E))
      return Error::success();
    Edits.push_back(tooling::Replacement(
        SM, B, SM.getFileOffset(E) - SM.getFileOffset(B), Header));
  } else if (Shape->Form == OneDimKernel::EarlyExit) {
    if (!InitText || Shape->Work.empty())
      return Error::success();
    SourceLocation B = Shape->IndexDecl->getBeginLoc();
    SourceLocation W = Shape->Work.front()->getBeginLoc();
    if (!W.isFileID() || SM.getFileID(B) != SM.getFileID(W))
      return Error::success();
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
  }

  // The additions go to the copy; with no static bound, only the indices
  // that fall inside it.
  for (const AtomicAdd &A : Adds) {
    if (A.Bound) {
      auto R = replaceExpr(Ctx, A.Base, Copy);
      if (!R)
        return Error::success();
      Edits.push_back(*R);
      continue;
    }
    auto X = sourceText(Ctx, A.Index);
    auto V = sourceText(Ctx, A.Call->getArg(1));
    if (!X || !V)
      return Error::success();
    auto R = replaceExpr(Ctx, A.Call,
                         "((unsigned long long)(" + *X + ") < " + NStr +
                             " ? atomicAdd(&" + Copy + "[" + *X + "], " + *V +
                             ") : atomicAdd(&" + P->getNameAsString() + "[" +
                             *X + "], " + *V + "))");
    if (!R)
      return Error::success();
    Edits.push_back(*R);
  }

  // The copy's non-zero entries are added to P, before the closing brace's
  // line.
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
  if (Start == 0 || Buffer[Start - 1] != '\n')
    return Error::success();
  Edits.push_back(tooling::Replacement(
      SM, SM.getComposedLoc(SM.getFileID(Body->getRBracLoc()), Start), 0,
      Flush));
  for (const tooling::Replacement &R : Edits)
    if (Error E = Out.add(R))
      return E;
  return Error::success();
}
