//===- RegisterAccumulate.h - Accumulate in a register ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `register-accumulate`: a loop that reads and writes one global element
/// every iteration (`C[row * n + col] += A[..] * B[..]`, `out[i] = out[i] +
/// e`, `m[j] = fmaxf(m[j], e)`) keeps the element in a register and stores
/// it once after the loop:
///
///     {
///       [if (<the loop's condition at its first value>) {]
///       auto *const Elem = &(<element>);
///       auto Acc = *Elem;
///       for (...) { ... Acc += e; ... }
///       *Elem = Acc;
///       [}]
///     }
///
/// What the kernel model must show (a reduction of a global element,
/// ModelReduction::Element): the element's index does not change across
/// the loop and no other access of the loop reaches its array; the loop
/// writes no other memory, calls only math functions and transparent
/// helpers, and leaves only by its condition (no return, break, continue
/// or goto). When the loop may run zero times, the original touches no
/// element, so the new code runs only when the loop's condition holds at
/// its first value (a `for` that declares its variable, with a condition
/// and first value free of side effects); else the loop must have a
/// constant trip count of at least one.
///
/// Other memory the loop reads may be the element itself, through another
/// pointer. That is ruled out when the element's pointer is
/// `__restrict__`, or when the loop reads only `__shared__` arrays besides.
/// Otherwise it is tested at run time: each other read of global memory is
/// watched (its address compared with the element's), and when one reaches
/// the element, the original loop runs again from the start: the register
/// loop changed no memory, and the loop may change no variable declared
/// outside it, so the rerun is the original computation.
///
/// Trigger: global stores are a large share of global traffic
/// (`l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum` at least 10% of
/// `l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum`), or warps wait on
/// their global loads
/// (`smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio`
/// >= 10, `smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio`
/// >= 5).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_REGISTERACCUMULATE_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_REGISTERACCUMULATE_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class RegisterAccumulate : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_REGISTERACCUMULATE_H
