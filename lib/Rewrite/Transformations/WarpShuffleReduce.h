//===- WarpShuffleReduce.h - Finish reductions with shuffles ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `warp-shuffle-reduce`: turns a block's shared-memory tree reduction
/// (interleaved `if (tid % (2 * s) == 0)`, strided `i = 2 * s * tid` or
/// sequential `if (tid < s)`) into sequential addressing down to 64 values,
/// then finishes it in warp 0 with `__shfl_down_sync`, without barriers.
///
/// Precondition: the kernel is not a template's pattern and has shared arrays
/// and barriers. It is edited only for a top-level loop that the kernel model
/// sees as geometric (its variable doubled from 1 while below the block's
/// size, or halved from half the block's size down to 1, however the step,
/// the bounds and the block size are spelled), whose body is one update of a
/// `__shared__` array of float, double, int or unsigned (a sum, or fmaxf,
/// fminf, fmax, fmin, max or min of the element and its partner `s` away)
/// under a guard that equals, by value, one of the three trees' guards, and
/// a barrier; after a barrier, when every launch has a constant 1-D block of
/// a power of two in [64, 1024] and nothing after the loop reads another
/// element than the first before each thread stores its own element again.
/// Otherwise explain() gives the first condition that failed.
///
/// Trigger (barrier stalls, divergence or strided bank conflicts):
/// `smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio` >= 1,
/// `derived__branch_uniformity_pct` < 90,
/// `smsp__average_thread_inst_executed_per_inst_executed.ratio` < 24, or
/// `derived__shared_bank_conflict_pct` > 5.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_WARPSHUFFLEREDUCE_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_WARPSHUFFLEREDUCE_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class WarpShuffleReduce : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_WARPSHUFFLEREDUCE_H
