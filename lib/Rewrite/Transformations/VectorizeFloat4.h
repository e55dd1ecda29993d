//===- VectorizeFloat4.h - The vectorize-float4 transformation --*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `vectorize-float4`: makes each thread of an element-wise float kernel
/// handle four consecutive elements with 16-byte float4 loads and stores,
/// when every pointer it vectorises is 16-byte aligned at run time (a scalar
/// path otherwise and for the n % 4 tail), and divides its grid by four at
/// every launch site.
///
/// Precondition: the kernel is not a template, writes global memory, and has
/// no shared arrays, barriers, shuffles, votes, atomics, cooperative groups
/// or vector accesses. It is edited only when the kernel model shows one
/// thread per index behind one guard (PerIndex.h), its threads do not
/// cooperate, every access of its work is element I of a `float *`
/// parameter (only loaded, only stored by top-level assignments after the
/// last load of another pointer, or updated: loaded first, stored last) or
/// a load of an element the same for every thread of a parameter it does
/// not write, the index is read only in those accesses, and every launch
/// has a constant 1-D block size and a grid that provably covers the
/// bound.
///
/// Trigger (memory-bound):
/// `gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed`
/// >= 50 or
/// `smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio`
/// >= 1.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_VECTORIZEFLOAT4_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_VECTORIZEFLOAT4_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class VectorizeFloat4 : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_VECTORIZEFLOAT4_H
