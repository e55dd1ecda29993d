//===- LaunchBlockSize.cpp - Another block size at every launch ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchBlockSize.h"
#include "IndependentThreads.h"
#include "SameThreadsLaunch.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace clang;
using namespace autoprof;
using llvm::Error;

StringRef LaunchBlockSize::name() const { return "launch-block-size"; }

StringRef LaunchBlockSize::description() const {
  return "launch a kernel of one thread per index with blocks of another "
         "size and a grid that still covers its bound";
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

namespace {

/// The block sizes tried, in the order they are proposed.
constexpr int64_t Sizes[] = {128, 256, 512};

/// The edits that give every launch of the kernel of \p M blocks of
/// \p NewBlockSize threads, or false with the reason in \p Why; \p Already
/// tells that the reason is only that every launch has that size.
bool resizeBlocks(const KernelModel &M, int64_t NewBlockSize,
                  std::vector<tooling::Replacement> &Edits, std::string &Why,
                  bool &Already) {
  Already = false;
  ASTContext &Ctx = M.context();
  auto Refuse = [&](std::string Reason) {
    Why = std::move(Reason);
    return false;
  };
  if (M.kernel().hasAttr<CUDALaunchBoundsAttr>())
    return Refuse("its __launch_bounds__ fix its block size");
  // Atomic operations stay as they are, done by the same index's thread.
  if (!M.cooperationWhy(/*CountAtomics=*/false).empty())
    return Refuse("its threads may depend on each other: " +
                  M.cooperationWhy(false));
  // A batch index on y (`blockIdx.y`) stays as it is: only x changes.
  std::optional<PerIndexKernel> K = matchPerIndex(M, Why, /*OtherAxes=*/true);
  if (!K)
    return false;
  std::string NoLaunch;
  const std::vector<KernelLaunch> *Launches = M.someLaunches(NoLaunch);
  if (!Launches)
    return Refuse(NoLaunch);
  const std::string NewBlock = std::to_string(NewBlockSize);
  bool Changed = false;
  for (const KernelLaunch &L : *Launches) {
    std::string At = "the launch at " + M.where(L.Call);
    std::optional<Dim3> Dims = constantDims(Ctx, L.Block);
    if (!Dims)
      return Refuse(At + " has a block whose size is not a compile-time "
                         "constant");
    int64_t Block = (*Dims)[0];
    if ((*Dims)[1] != 1 || (*Dims)[2] != 1)
      return Refuse(At + " has blocks of more than one dimension");
    if (Block < 32 || Block > 1024 || Block % 32 != 0)
      return Refuse(At + " has blocks of " + std::to_string(Block) +
                    " threads, not whole warps");
    std::string NewGrid;
    if (K->Form == PerIndexKernel::GridStride) {
      // Any grid covers the bound; keep the number of threads when the
      // block shrinks by a whole factor.
      if (Block > NewBlockSize && Block % NewBlockSize == 0) {
        auto Text = sourceText(Ctx, L.Grid);
        if (!Text || !M.isPure(L.Grid))
          return Refuse(At + " writes its grid through a macro or with side "
                             "effects");
        NewGrid = scaledGridText(Ctx, L.Grid, *Text,
                                 std::to_string(Block / NewBlockSize));
      }
    } else {
      auto Bound = textAtLaunch(Ctx, L, K->Bound, K->BoundExpr);
      std::string Uncovered;
      if (!Bound)
        Uncovered = At + " passes the bound `" + K->Bound.str() +
                    "` through a macro or with side effects";
      else if (!gridCoversAtLaunch(Ctx, L, Block, K->Bound))
        Uncovered = At + " has a grid that does not provably cover the " +
                    "bound `" + K->Bound.str() + "` with blocks of " +
                    std::to_string(Block);
      if (!Uncovered.empty()) {
        // The same threads in blocks of the new size, where they divide.
        if (Block == NewBlockSize)
          continue;
        std::string SameWhy = Uncovered;
        auto Same = sameThreadsLaunch(M, L, NewBlockSize, 1, SameWhy);
        if (!Same)
          return Refuse(SameWhy);
        Edits.push_back(*Same);
        Changed = true;
        continue;
      }
      std::optional<std::string> G = gridWithNewX(
          Ctx, L.Grid, "(" + *Bound + " + " + NewBlock + " - 1) / " + NewBlock);
      if (!G)
        return Refuse(At + " writes its grid through a macro");
      NewGrid = *G;
    }
    if (Block == NewBlockSize)
      continue;
    auto B = replaceExpr(Ctx, L.Block, NewBlock);
    if (!B)
      return Refuse(At + " writes its block through a macro");
    Edits.push_back(*B);
    if (!NewGrid.empty()) {
      auto G = replaceExpr(Ctx, L.Grid, NewGrid);
      if (!G)
        return Refuse(At + " writes its grid through a macro");
      Edits.push_back(*G);
    }
    Changed = true;
  }
  if (!Changed) {
    Already = true;
    return Refuse("every launch already has blocks of " + NewBlock +
                  " threads");
  }
  // The kernel reads the block's size as its launches' constant.
  if (!M.blockSizeWhy().empty())
    return Refuse(M.blockSizeWhy());
  return true;
}

} // namespace

std::vector<std::string> LaunchBlockSize::variants() const {
  std::vector<std::string> Out;
  for (int64_t Size : Sizes)
    Out.push_back(std::to_string(Size));
  return Out;
}

Error LaunchBlockSize::applyVariant(const KernelModel &M, StringRef Variant,
                                    FileEdits &Out) const {
  int64_t Size;
  if (Variant.getAsInteger(10, Size) || !llvm::is_contained(Sizes, Size))
    return llvm::createStringError("unknown block size '" + Variant + "'");
  std::vector<tooling::Replacement> Edits;
  std::string Why;
  bool Already = false;
  if (!resizeBlocks(M, Size, Edits, Why, Already))
    return Error::success();
  return addEdits(Edits, Out);
}

Error LaunchBlockSize::apply(const KernelModel &M, FileEdits &Out) const {
  return applyVariant(M, std::to_string(Sizes[0]), Out);
}

std::string LaunchBlockSize::explain(const KernelModel &M) const {
  // The reason of the first size, unless only that size was refused
  // because every launch has it already.
  std::vector<tooling::Replacement> Edits;
  std::string First, FirstOther;
  for (int64_t Size : Sizes) {
    std::string Why;
    bool Already = false;
    Edits.clear();
    if (resizeBlocks(M, Size, Edits, Why, Already))
      return "";
    if (First.empty())
      First = Why;
    if (!Already && FirstOther.empty())
      FirstOther = Why;
  }
  return FirstOther.empty() ? First : FirstOther;
}
