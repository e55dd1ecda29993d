//===- LaunchBlockSize.cpp - Blocks of 128 threads at every launch --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchBlockSize.h"
#include "autoprof/KernelModel/LaunchSites.h"
#include "OneDimKernel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

#include <cmath>

using namespace clang;
using namespace autoprof;
using llvm::Error;

StringRef LaunchBlockSize::name() const { return "launch-block-size"; }

StringRef LaunchBlockSize::description() const {
  return "launch a kernel of one thread per index with blocks of 128 threads "
         "and a grid that still covers its bound";
}

bool LaunchBlockSize::precondition(const KernelRecord &K) const {
  return !K.Bounds && hasIndependentThreads(K);
}

std::vector<std::string> LaunchBlockSize::triggerMetrics() const {
  return {"sm__warps_active.avg.pct_of_peak_sustained_active",
          "launch__occupancy_limit_blocks", "launch__occupancy_limit_warps",
          "launch__waves_per_multiprocessor"};
}

std::optional<std::string>
LaunchBlockSize::trigger(const MetricValues &M) const {
  if (auto R = compareMetric(
          M, "sm__warps_active.avg.pct_of_peak_sustained_active", "<", 50))
    return R;
  auto Blocks = M.find("launch__occupancy_limit_blocks");
  auto Warps = M.find("launch__occupancy_limit_warps");
  if (Blocks != M.end() && Warps != M.end() && Blocks->second < Warps->second)
    return "launch__occupancy_limit_blocks = " +
           formatMetricValue(Blocks->second) +
           " < launch__occupancy_limit_warps = " +
           formatMetricValue(Warps->second);
  auto Waves = M.find("launch__waves_per_multiprocessor");
  if (Waves != M.end() && Waves->second > 0) {
    // The share of the slots of all waves that the last one leaves idle.
    double Whole = std::ceil(Waves->second);
    double Idle = (Whole - Waves->second) / Whole;
    if (Idle >= 0.25)
      return "launch__waves_per_multiprocessor = " +
             formatMetricValue(Waves->second) + " leaves " +
             formatMetricValue(std::round(Idle * 100)) +
             " % of the wave slots idle >= 25 %";
  }
  return std::nullopt;
}

Error LaunchBlockSize::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                             tooling::Replacements &Out) const {
  if (Kernel.hasAttr<CUDALaunchBoundsAttr>())
    return Error::success();
  std::optional<OneDimKernel> Shape = matchOneDimKernel(Ctx, Kernel);
  if (!Shape)
    return Error::success();
  auto Launches = findLaunches(Ctx, Kernel);
  if (!Launches || Launches->empty())
    return Error::success();
  const std::string NewBlock = std::to_string(NewBlockSize);
  std::vector<tooling::Replacement> Edits;
  for (const KernelLaunch &L : *Launches) {
    if (!L.Block->getType()->isIntegerType())
      return Error::success();
    auto Block = evaluateInt(L.Block, Ctx);
    if (!Block || *Block < 32 || *Block > 1024 || *Block % 32 != 0 ||
        *Block == NewBlockSize)
      return Error::success();
    std::string NewGrid;
    if (Shape->Form == OneDimKernel::GridStride) {
      // Any grid covers the bound; keep the number of threads when the
      // block shrinks by a whole factor.
      if (*Block > NewBlockSize && *Block % NewBlockSize == 0) {
        auto Text = sourceText(Ctx, L.Grid);
        if (!Text)
          return Error::success();
        NewGrid = parenthesize(L.Grid, *Text) + " * " +
                  std::to_string(*Block / NewBlockSize);
      }
    } else {
      if (Shape->BoundParam >= L.Call->getNumArgs())
        return Error::success();
      const Expr *Bound = L.Call->getArg(Shape->BoundParam);
      auto Text = sourceText(Ctx, Bound);
      if (!Text || !gridCoversBound(Ctx, L.Grid, *Block, Bound))
        return Error::success();
      NewGrid = "(" + *Text + " + " + NewBlock + " - 1) / " + NewBlock;
    }
    auto B = replaceExpr(Ctx, L.Block, NewBlock);
    if (!B)
      return Error::success();
    Edits.push_back(*B);
    if (!NewGrid.empty()) {
      auto G = replaceExpr(Ctx, L.Grid, NewGrid);
      if (!G)
        return Error::success();
      Edits.push_back(*G);
    }
  }
  for (const tooling::Replacement &R : Edits)
    if (Error E = Out.add(R))
      return E;
  return Error::success();
}
