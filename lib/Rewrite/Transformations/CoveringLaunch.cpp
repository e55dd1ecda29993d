//===- CoveringLaunch.cpp - Launches whose grid covers the bounds ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "CoveringLaunch.h"
#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;
using namespace autoprof;

std::optional<PerIndex2DKernel> autoprof::reshapableKernel(const KernelModel &M,
                                                           std::string &Why) {
  if (M.kernel().hasAttr<CUDALaunchBoundsAttr>()) {
    Why = "its __launch_bounds__ fix its block size";
    return std::nullopt;
  }
  if (!M.cooperationWhy(/*CountAtomics=*/false).empty()) {
    Why = "its threads may depend on each other: " + M.cooperationWhy(false);
    return std::nullopt;
  }
  return matchPerIndex2D(M, Why);
}

std::optional<LaunchFacts> autoprof::launchFacts(const KernelModel &M,
                                                 const PerIndex2DKernel &K,
                                                 const KernelLaunch &L,
                                                 std::string &Why) {
  ASTContext &Ctx = M.context();
  std::string At = "the launch at " + M.where(L.Call);
  auto Refuse = [&](std::string Reason) -> std::optional<LaunchFacts> {
    Why = At + Reason;
    return std::nullopt;
  };
  std::optional<Dim3> Dims = constantDims(Ctx, L.Block);
  if (!Dims)
    return Refuse(" has a block whose size is not a compile-time constant");
  if ((*Dims)[2] != 1)
    return Refuse(" has blocks of depth " + std::to_string((*Dims)[2]));
  auto Grid = launchDimExprs(Ctx, L.Grid);
  if (!Grid || !hasDepthOne(Ctx, L.Grid) || !(*Grid)[0] || !(*Grid)[1])
    return Refuse(" does not give its grid an x and a y dimension (and a "
                  "depth of one)");
  for (unsigned D = 0; D < 2; ++D) {
    KernelLaunch Along = L;
    Along.Grid = (*Grid)[D];
    const Polynomial &Bound = D == 0 ? K.BoundX : K.BoundY;
    if (!gridCoversAtLaunch(Ctx, Along, (*Dims)[D], Bound))
      return Refuse(" has a grid that does not provably cover the bound `" +
                    Bound.str() + "` in " + (D == 0 ? "x" : "y"));
  }
  auto NX = textAtLaunch(Ctx, L, K.BoundX, K.BoundXExpr);
  auto NY = textAtLaunch(Ctx, L, K.BoundY, K.BoundYExpr);
  if (!NX || !NY)
    return Refuse(" passes a bound through a macro or with side effects");
  return LaunchFacts{*Dims, *NX, *NY};
}

bool autoprof::coveringLaunch(const KernelModel &M, const KernelLaunch &L,
                              const LaunchFacts &F, int64_t BX, int64_t BY,
                              std::vector<tooling::Replacement> &Edits,
                              std::string &Why) {
  if (F.Block[0] == BX && F.Block[1] == BY)
    return true;
  ASTContext &Ctx = M.context();
  const std::string SX = std::to_string(BX), SY = std::to_string(BY);
  auto B = replaceExpr(Ctx, L.Block, "dim3(" + SX + ", " + SY + ")");
  auto G = replaceExpr(Ctx, L.Grid,
                       "dim3((" + F.NX + " + " + SX + " - 1) / " + SX + ", (" +
                           F.NY + " + " + SY + " - 1) / " + SY + ")");
  if (!B || !G) {
    Why = "the launch at " + M.where(L.Call) +
          " writes its grid or block through a macro";
    return false;
  }
  Edits.push_back(*B);
  Edits.push_back(*G);
  return true;
}
