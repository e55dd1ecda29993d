//===- TileMatmulSmem.h - The tile-matmul-smem transformation ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `tile-matmul-smem`: stages the naive matrix product
/// `acc += A[row * K + k] * B[k * N + col]` through T x T `__shared__` tiles
/// of A and B, so that each element loaded from global memory is reused T
/// times; the sum keeps its order, so the results are identical.
///
/// Precondition: the kernel is not a template and has no shared arrays,
/// barriers, shuffles or votes. It is edited only when its body is exactly
/// an optional batch index `blockIdx.z`, the two 2-D indices, the bound
/// check (an early exit or a guarding `if`), optional declarations of the
/// batch's matrices (a pointer parameter plus an offset), the accumulator,
/// the loop over k and the one store, and every launch has the same
/// constant block dim3(T, T) with T 16 or 32.
///
/// Trigger (global memory traffic):
/// `smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio`
/// >= 10, `l1tex__throughput.avg.pct_of_peak_sustained_active` >= 60,
/// `lts__throughput.avg.pct_of_peak_sustained_elapsed` >= 50,
/// `gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed` >= 50,
/// `l1tex__t_sector_hit_rate.pct` < 50, or
/// `derived__global_excess_sectors_pct` > 25.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_TILEMATMULSMEM_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_TILEMATMULSMEM_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class TileMatmulSmem : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  std::string explain(const KernelModel &M) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_TILEMATMULSMEM_H
