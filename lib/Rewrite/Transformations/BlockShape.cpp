//===- BlockShape.cpp - Other block shapes for a 2-D kernel ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "BlockShape.h"
#include "CoveringLaunch.h"
#include "IndependentThreads.h"
#include "SameThreadsLaunch.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// The variants tried: block shapes as "XxY", then thread coarsening as
/// "N-per-thread".
const char *const Shapes[] = {"32x8", "16x16",        "32x4",
                              "64x4", "2-per-thread", "4-per-thread"};

/// The outputs per thread of a coarsening variant "N-per-thread", or
/// nullopt.
std::optional<int64_t> parseCoarsening(llvm::StringRef Variant) {
  int64_t N;
  if (!Variant.consume_back("-per-thread") || Variant.getAsInteger(10, N) ||
      N < 2)
    return std::nullopt;
  return N;
}

/// The x and y of \p Variant, "XxY".
std::optional<std::pair<int64_t, int64_t>> parseShape(llvm::StringRef Variant) {
  auto [X, Y] = Variant.split('x');
  int64_t BX, BY;
  if (X.getAsInteger(10, BX) || Y.getAsInteger(10, BY) || BX <= 0 || BY <= 0)
    return std::nullopt;
  return std::pair(BX, BY);
}

/// The edits that launch the kernel of \p M with blocks of \p BX x \p BY
/// threads at every launch, or false with the reason in \p Why.
bool reshape(const KernelModel &M, int64_t BX, int64_t BY,
             std::vector<tooling::Replacement> &Edits, std::string &Why) {
  ASTContext &Ctx = M.context();
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return false;
  };
  std::optional<PerIndex2DKernel> K = reshapableKernel(M, Why);
  if (!K)
    return false;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(Why);
  if (!Launches)
    return false;
  const std::string SX = std::to_string(BX), SY = std::to_string(BY);
  bool Changed = false;
  for (const KernelLaunch &L : *Launches) {
    std::optional<LaunchFacts> F = launchFacts(M, *K, L, Why);
    if (!F) {
      std::optional<Dim3> Dims = constantDims(Ctx, L.Block);
      if (Dims && (*Dims)[0] == BX && (*Dims)[1] == BY)
        continue;
      std::optional<tooling::Replacement> Same =
          sameThreadsLaunch(M, L, BX, BY, Why);
      if (!Same)
        return false;
      Edits.push_back(*Same);
      Changed = true;
      continue;
    }
    size_t Before = Edits.size();
    if (!coveringLaunch(M, L, *F, BX, BY, Edits, Why))
      return false;
    Changed |= Edits.size() != Before;
  }
  if (!Changed)
    return Refuse("every launch already has blocks of " + SX + "x" + SY);
  // The kernel reads the block's size as its launches' constant.
  if (!M.blockSizeWhy().empty())
    return Refuse(M.blockSizeWhy());
  return true;
}

/// The edits that make each thread of the kernel of \p M run its body for
/// \p N blocks of the x dimension, the blocks `blockIdx.x * N + c` for c
/// below N, in a lambda called once per block (its copies of the
/// parameters are fresh each time, and its `return` ends one block's
/// work); every launch keeps its block and gets a grid of 1/N the blocks
/// in x. False with the reason in \p Why.
bool coarsen(const KernelModel &M, int64_t N,
             std::vector<tooling::Replacement> &Edits, std::string &Why) {
  ASTContext &Ctx = M.context();
  const SourceManager &SM = Ctx.getSourceManager();
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return false;
  };
  std::optional<PerIndex2DKernel> K = reshapableKernel(M, Why);
  if (!K)
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(M.kernel().getBody());
  if (!Body || Body->getLBracLoc().isMacroID() ||
      Body->getRBracLoc().isMacroID())
    return Refuse("its body is written through a macro");
  const std::string C = freshName(M.kernel(), "c");
  const std::string SN = std::to_string(N);
  const Polynomial BlockX = Polynomial::symbol(Symbol::blockIdx(0));
  const Polynomial X = globalIndex(0);
  llvm::SmallPtrSet<const Expr *, 8> Seen;
  for (const Expr *E : M.builtinUses()) {
    if (!Seen.insert(E).second)
      continue;
    ModelValue V = M.value(E);
    if (!V)
      return Refuse("the thread hierarchy is read at " + M.where(E) +
                    " with a value the model does not see: " + V.Why);
    if (V.Value->dependsOn(Symbol::gridDim(0)))
      return Refuse("it reads gridDim.x at " + M.where(E));
    if (!V.Value->dependsOn(Symbol::blockIdx(0)))
      continue;
    std::optional<tooling::Replacement> R;
    if (*V.Value == BlockX && !isa<CallExpr>(E->IgnoreParenImpCasts()))
      R = replaceExpr(Ctx, E, "(blockIdx.x * " + SN + " + " + C + ")");
    else if (*V.Value == X)
      // A helper's global index, moved to the block the lambda runs.
      if (auto Text = sourceText(Ctx, E))
        R = replaceExpr(Ctx, E,
                        "(" + *Text + " + (blockIdx.x * (" + SN + " - 1) + " +
                            C + ") * blockDim.x)");
    if (!R)
      return Refuse("blockIdx.x is read at " + M.where(E) +
                    " through a macro or a helper whose value is not the "
                    "global index");
    Edits.push_back(*R);
  }
  const std::vector<KernelLaunch> *Launches = M.someLaunches(Why);
  if (!Launches)
    return false;
  for (const KernelLaunch &L : *Launches) {
    std::optional<LaunchFacts> F = launchFacts(M, *K, L, Why);
    if (!F)
      return false;
    // Each thread covers N blocks of the launch's width in x.
    const std::string W = std::to_string(F->Block[0] * N);
    const std::string H = std::to_string(F->Block[1]);
    auto G = replaceExpr(Ctx, L.Grid,
                         "dim3((" + F->NX + " + " + W + " - 1) / " + W + ", (" +
                             F->NY + " + " + H + " - 1) / " + H + ")");
    if (!G)
      return Refuse("the launch at " + M.where(L.Call) +
                    " writes its grid through a macro");
    Edits.push_back(*G);
  }
  Edits.emplace_back(SM, Body->getLBracLoc().getLocWithOffset(1), 0,
                     "\n  for (int " + C + " = 0; " + C + " < " + SN + "; ++" +
                         C + ")\n    [=]() mutable {");
  Edits.emplace_back(SM, Body->getRBracLoc(), 0, "    }();\n");
  return true;
}

} // namespace

StringRef BlockShape::name() const { return "block-shape"; }

StringRef BlockShape::description() const {
  return "launch a 2-D kernel of one thread per index pair with blocks of "
         "another shape, and a grid that still covers its bounds";
}

bool BlockShape::precondition(const KernelRecord &K) const {
  return !K.Bounds && hasIndependentThreads(K);
}

std::vector<std::string> BlockShape::triggerMetrics() const {
  return {"derived__global_excess_sectors_pct",
          "sm__warps_active.avg.pct_of_peak_sustained_active"};
}

std::optional<std::string> BlockShape::trigger(const MetricValues &M) const {
  if (auto R = compareMetric(M, "derived__global_excess_sectors_pct", ">=", 25))
    return R;
  return compareMetric(M, "sm__warps_active.avg.pct_of_peak_sustained_active",
                       "<", 50);
}

std::vector<std::string> BlockShape::variants() const {
  return {std::begin(Shapes), std::end(Shapes)};
}

Error BlockShape::applyVariant(const KernelModel &M, StringRef Variant,
                               FileEdits &Out) const {
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  if (std::optional<int64_t> N = parseCoarsening(Variant)) {
    if (!coarsen(M, *N, Edits, Why))
      return Error::success();
    return addEdits(Edits, Out);
  }
  std::optional<std::pair<int64_t, int64_t>> Shape = parseShape(Variant);
  if (!Shape)
    return llvm::createStringError("unknown block shape '" + Variant + "'");
  if (!reshape(M, Shape->first, Shape->second, Edits, Why))
    return Error::success();
  return addEdits(Edits, Out);
}

Error BlockShape::apply(const KernelModel &M, FileEdits &Out) const {
  return applyVariant(M, Shapes[0], Out);
}

std::string BlockShape::explain(const KernelModel &M) const {
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  // The reason of the first shape; the last shape differs from the first,
  // so a kernel refused for both has a reason of its own.
  if (reshape(M, 32, 8, Edits, Why))
    return "";
  std::string First = Why;
  Edits.clear();
  if (reshape(M, 16, 16, Edits, Why))
    return "";
  Edits.clear();
  return coarsen(M, 2, Edits, Why) ? "" : First;
}
