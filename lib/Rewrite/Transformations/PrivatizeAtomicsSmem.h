//===- PrivatizeAtomicsSmem.h - privatize-atomics-smem ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `privatize-atomics-smem`: a kernel whose threads add into a small array of
/// global counters (a histogram, a scatter-add onto few outputs) gets a copy
/// of the array in shared memory per block. The threads add into the copy;
/// each block adds its copy's non-zero entries to the global array once. The
/// kernel becomes a grid-stride loop and every launch's grid is capped at
/// 1024 blocks, so that each block's copy absorbs many additions.
///
/// Precondition: the kernel is not a template, issues global atomics, and
/// has no shared arrays, barriers, shuffles, votes or cooperative groups. It
/// is edited only when the kernel model shows one thread per index
/// (PerIndex.h) whose threads do not cooperate but through atomics, its
/// work has no `return`, and every reference to one pointer parameter P is
/// the address `&P[X]` or `P + X` of an `atomicAdd` whose value is not used
/// (X and V without side effects; P of int, unsigned, unsigned long long
/// or float). The copy has 256 entries when every X is an `unsigned char`
/// (directly or through a local that keeps its value), M + 1 when X is
/// `e & M`, C when X is `e % C` of an unsigned `e` (at most 4096);
/// otherwise it has 4096 entries and an X outside them adds to P directly.
/// A guarded index becomes a grid-stride loop: its declaration moves into
/// the loop, and an index written inline becomes the loop's variable.
/// Every launch needs an integer grid without side effects and a constant
/// 1-D block.
///
/// Trigger (global atomics):
/// `l1tex__t_requests_pipe_lsu_mem_global_op_red.sum` > 0 or
/// `l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum` > 0.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_PRIVATIZEATOMICSSMEM_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_PRIVATIZEATOMICSSMEM_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class PrivatizeAtomicsSmem : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_PRIVATIZEATOMICSSMEM_H
