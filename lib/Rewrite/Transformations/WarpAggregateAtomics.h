//===- WarpAggregateAtomics.h - warp-aggregate-atomics ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `warp-aggregate-atomics`: a kernel whose threads all add into one global
/// element (`atomicAdd(result, x[i] * y[i])`, `atomicAdd(&sums[0], v)`)
/// makes as many atomic operations on one address as it has threads, and
/// the memory system performs them one after the other. After the rewrite
/// each warp adds once: the lanes that reach the addition together sum
/// their values with shuffles, and the lowest of them adds the sum.
///
/// Precondition: the kernel is not a template, issues global atomics, and
/// has no shared arrays, barriers, shuffles, votes or cooperative groups.
/// It is edited when its threads do not cooperate but through atomics, and
/// an `atomicAdd(A, V)` in its body has its value unused, an element of
/// `float` or `double` (the CUDA compiler already combines integer
/// additions into one address per warp), and an
/// address A that is the same for every thread of the launch: a pointer
/// parameter that the kernel never changes, `P`, `&P[X]` or `P + X`, with X
/// a value of parameters and constants (the kernel model's `value()`), so
/// that every lane active at the call adds into the same element. Each such
/// call is renamed to a helper defined before the kernel, which takes the
/// same arguments, evaluated once as before.
///
/// Why it is equivalent: the element receives the same values, summed in
/// another order, so rounded otherwise (the original's order already
/// varies from run to run; the verifier allows for the original's own
/// spread, `--order-slack`).
///
/// Trigger (global atomics):
/// `l1tex__t_requests_pipe_lsu_mem_global_op_red.sum` > 0 or
/// `l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum` > 0.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_WARPAGGREGATEATOMICS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_WARPAGGREGATEATOMICS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class WarpAggregateAtomics : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_WARPAGGREGATEATOMICS_H
