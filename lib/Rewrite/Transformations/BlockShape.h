//===- BlockShape.h - The block-shape transformation ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `block-shape`: launches a 2-D kernel of one thread per index pair with
/// other block shapes, 32x8, 16x16, 32x4 and 64x4, or with each thread
/// computing 2 or 4 outputs along x (`2-per-thread`: the body runs for N
/// blocks of x in turn, in a lambda that copies the parameters afresh),
/// each a variant of its own (`block-shape(32x8)`) that verification
/// judges: the shape decides which outputs a warp covers, so how many
/// sectors its loads touch, and how many blocks fit on a multiprocessor.
/// The grid is rewritten to cover the kernel's bounds with the new blocks,
/// at every launch.
///
/// Precondition: the kernel is not a template, has no `__launch_bounds__`,
/// no shared arrays, barriers, shuffles, votes or cooperative groups.
/// It is edited only when the kernel model shows one thread per index pair
/// (PerIndex.h: its guard bounds the x and y global indices by values of
/// parameters and constants, and the thread hierarchy is read nowhere
/// else), its threads do not cooperate but through atomic operations, and
/// every launch in the translation unit has a constant block of depth 1, a
/// grid of depth 1 that provably covers both bounds with it, and is
/// written without macros. A variant equal to the launch's shape is not
/// proposed. Coarsening also needs every read of blockIdx.x in the body
/// (or of a helper's global index x) to be one it can move, and no read
/// of gridDim.x.
///
/// Trigger (access pattern or occupancy):
/// `derived__global_excess_sectors_pct` >= 25, or
/// `sm__warps_active.avg.pct_of_peak_sustained_active` < 50.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_BLOCKSHAPE_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_BLOCKSHAPE_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class BlockShape : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_BLOCKSHAPE_H
