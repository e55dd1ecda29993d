//===- LaunchBlockSize.h - The launch-block-size transformation -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `launch-block-size`: launches a kernel of one thread per index with
/// blocks of 128, 256 or 512 threads instead of its constant block size B,
/// each a variant of its own (`launch-block-size(256)`) that verification
/// judges, rewriting the grid so that it still covers the bound, at every
/// launch site of the translation unit. A size every launch already has is
/// not proposed.
///
/// Precondition: the kernel is not a template, has no `__launch_bounds__`,
/// no shared arrays, barriers, shuffles, votes or cooperative groups.
/// It is edited only when the kernel model shows one thread per index
/// (PerIndex.h: a guarded global index or a grid-stride loop, the thread
/// hierarchy read nowhere else), its threads do not cooperate but through
/// atomic operations, and every launch in the translation unit has a
/// constant 1-D block size B, a multiple of 32, and (for a guarded index) a
/// grid that provably covers the bound at that launch.
///
/// Trigger (occupancy or tail effect):
/// `sm__warps_active.avg.pct_of_peak_sustained_active` < 50,
/// `launch__occupancy_limit_blocks` < `launch__occupancy_limit_warps`, or a
/// `launch__waves_per_multiprocessor` whose last partial wave leaves at least
/// 25 % of the waves' slots idle.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_LAUNCHBLOCKSIZE_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_LAUNCHBLOCKSIZE_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class LaunchBlockSize : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  std::vector<std::string> variants() const override;
  llvm::Error applyVariant(const KernelModel &M, llvm::StringRef Variant,
                           FileEdits &Out) const override;
  /// The first variant.
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  std::string explain(const KernelModel &M) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_LAUNCHBLOCKSIZE_H
