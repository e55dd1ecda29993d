//===- WarpAggregateAtomics.cpp - One atomic addition per warp ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "WarpAggregateAtomics.h"
#include "IndependentThreads.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

class CallScan : public RecursiveASTVisitor<CallScan> {
public:
  bool VisitCallExpr(CallExpr *C) {
    if (const FunctionDecl *F = C->getDirectCallee();
        F && F->getIdentifier() && F->getName() == "atomicAdd")
      Calls.push_back(C);
    return true;
  }
  std::vector<const CallExpr *> Calls;
};

/// Plans the renaming of every uniform `atomicAdd` of the kernel, or says
/// why there is none.
class Aggregator {
public:
  explicit Aggregator(const KernelModel &M)
      : M(M), Ctx(M.context()), SM(Ctx.getSourceManager()) {}

  bool run();

  std::vector<tooling::Replacement> Edits;
  std::string Why;

private:
  bool refuse(std::string Reason) {
    Why = std::move(Reason);
    return false;
  }
  /// Why the call's address may differ between threads, or empty.
  std::string addressWhy(const CallExpr *C) const;

  const KernelModel &M;
  ASTContext &Ctx;
  const SourceManager &SM;
};

std::string Aggregator::addressWhy(const CallExpr *C) const {
  const Expr *Addr = C->getArg(0)->IgnoreParenImpCasts();
  // The pointer the address is reached from, and the offsets added to it:
  // `&P[X]`, `P + X`, `X + P`, `P - X`, nested.
  const Expr *E = Addr;
  std::vector<const Expr *> Offsets;
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && U->getOpcode() == UO_AddrOf) {
      const auto *Sub =
          dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
      if (!Sub)
        return "its address `" + M.text(Addr) +
               "` is not an element of an array";
      Offsets.push_back(Sub->getIdx());
      E = Sub->getBase();
      continue;
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub) &&
        B->getLHS()->getType()->isPointerType() &&
        B->getRHS()->getType()->isIntegerType()) {
      Offsets.push_back(B->getRHS());
      E = B->getLHS();
      continue;
    }
    if (B && B->getOpcode() == BO_Add &&
        B->getRHS()->getType()->isPointerType() &&
        B->getLHS()->getType()->isIntegerType()) {
      Offsets.push_back(B->getLHS());
      E = B->getRHS();
      continue;
    }
    break;
  }
  const auto *Base = dyn_cast<DeclRefExpr>(E);
  const auto *P = Base ? dyn_cast<ParmVarDecl>(Base->getDecl()) : nullptr;
  if (!P || !P->getType()->isPointerType())
    return "its address `" + M.text(Addr) +
           "` is not reached from a pointer parameter";
  if (!isUnmodified(Ctx, *P))
    return "the kernel changes `" + P->getNameAsString() + "`";
  for (const Expr *X : Offsets) {
    ModelValue V = M.value(X);
    if (V &&
        !V.Value->dependsOn([](const Symbol &S) { return !S.isParameter(); }))
      continue;
    return "its index `" + M.text(X) + "` may differ from thread to thread" +
           (V ? std::string() : " (" + V.Why + ")") +
           "; privatize-atomics-smem handles additions into an array";
  }
  return "";
}

bool Aggregator::run() {
  const FunctionDecl &K = M.kernel();
  if (K.isTemplateInstantiation() || K.getDescribedFunctionTemplate())
    return refuse("the kernel is a template");
  if (std::string W = M.cooperationWhy(/*CountAtomics=*/false); !W.empty())
    return refuse(W);
  CallScan Scan;
  Scan.TraverseStmt(const_cast<Stmt *>(K.getBody()));
  if (Scan.Calls.empty())
    return refuse("it calls no `atomicAdd`");
  std::string Helper = freshName(K, "warpAtomicAdd_" + K.getNameAsString());
  std::string First;
  unsigned Renamed = 0;
  for (const CallExpr *C : Scan.Calls) {
    std::string At = "the `atomicAdd` at " + M.where(C);
    auto Note = [&](std::string Reason) {
      if (First.empty())
        First = At + ": " + Reason;
    };
    if (C->getNumArgs() != 2) {
      Note("it does not take an address and a value");
      continue;
    }
    if (!isDiscardedValue(Ctx, *C)) {
      Note("its result is used");
      continue;
    }
    QualType T = C->getArg(0)->getType();
    if (!T->isPointerType()) {
      Note("its address is not a pointer");
      continue;
    }
    QualType E = T->getPointeeType().getCanonicalType();
    if (E.isVolatileQualified()) {
      Note("it adds into a volatile element");
      continue;
    }
    // Integer additions into one address are combined per warp by the
    // CUDA compiler already.
    if (E->isIntegerType()) {
      Note("it adds integers, which the CUDA compiler already adds once "
           "per warp when the address is the same for the warp");
      continue;
    }
    if (!E->isSpecificBuiltinType(BuiltinType::Float) &&
        !E->isSpecificBuiltinType(BuiltinType::Double)) {
      Note("it adds `" + E.getAsString(Ctx.getPrintingPolicy()) +
           "`, which the shuffles do not carry");
      continue;
    }
    if (std::string W = addressWhy(C); !W.empty()) {
      Note(W);
      continue;
    }
    SourceLocation Callee = C->getCallee()->getBeginLoc();
    if (!Callee.isFileID())
      return refuse(At + " is written through a macro");
    Edits.emplace_back(SM, Callee, static_cast<unsigned>(strlen("atomicAdd")),
                       Helper);
    ++Renamed;
  }
  if (!Renamed)
    return refuse(First);
  // The helper, before the kernel (and before an extern "C" block around
  // it, where a template cannot be).
  const Decl *Outer = &K;
  for (const DeclContext *DC = Outer->getLexicalDeclContext();
       DC && isa<LinkageSpecDecl>(DC); DC = DC->getLexicalParent())
    Outer = cast<LinkageSpecDecl>(DC);
  SourceLocation Begin = SM.getFileLoc(Outer->getBeginLoc());
  if (Begin.isInvalid())
    return refuse("the kernel's declaration is not plain text");
  std::string Text =
      "// Adds Value to *Address once per warp: the lanes that reach the\n"
      "// call together (all adding into the same element) sum their "
      "values\n"
      "// with shuffles, and the lowest of them adds the sum.\n"
      "template <typename T, typename V>\n"
      "__device__ __forceinline__ void " +
      Helper +
      "(T *Address, V Value) {\n"
      "  const unsigned Active = __activemask();\n"
      "  const unsigned Lane =\n"
      "      (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * "
      "threadIdx.z)) % 32;\n"
      "  T Sum = static_cast<T>(Value);\n"
      "  if (Active == 0xffffffffu) {\n"
      "    for (int Offset = 16; Offset > 0; Offset /= 2)\n"
      "      Sum += __shfl_xor_sync(0xffffffffu, Sum, Offset);\n"
      "  } else {\n"
      "    const T Own = Sum;\n"
      "    Sum = T(0);\n"
      "    for (unsigned Rest = Active; Rest != 0; Rest &= Rest - 1)\n"
      "      Sum += __shfl_sync(Active, Own, __ffs(Rest) - 1);\n"
      "  }\n"
      "  if (Lane == static_cast<unsigned>(__ffs(Active) - 1))\n"
      "    atomicAdd(Address, Sum);\n"
      "}\n\n";
  Edits.emplace_back(SM, Begin, 0, Text);
  return true;
}

const MetricCondition Conditions[] = {
    {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", ">", 0},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", ">", 0}};

} // namespace

llvm::StringRef WarpAggregateAtomics::name() const {
  return "warp-aggregate-atomics";
}

llvm::StringRef WarpAggregateAtomics::description() const {
  return "add once per warp where every thread adds into the same global "
         "element: the lanes sum their values with shuffles first";
}

bool WarpAggregateAtomics::precondition(const KernelRecord &K) const {
  return hasIndependentThreads(K) &&
         K.Features.get("atomics_global").value_or(0) > 0;
}

std::vector<std::string> WarpAggregateAtomics::triggerMetrics() const {
  return conditionMetrics(Conditions);
}

std::optional<std::string>
WarpAggregateAtomics::trigger(const MetricValues &M) const {
  return firstCondition(M, Conditions);
}

Error WarpAggregateAtomics::apply(const KernelModel &M, FileEdits &Out) const {
  Aggregator A(M);
  if (!A.run())
    return Error::success();
  return addEdits(A.Edits, Out);
}

std::string WarpAggregateAtomics::explain(const KernelModel &M) const {
  Aggregator A(M);
  return A.run() ? "" : A.Why;
}
