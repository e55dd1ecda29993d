//===- WarpPerRow.h - The warp-per-row transformation -----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `warp-per-row`: gives each row of a thread-per-row reduction (a GEMV with
/// one thread per row, a scalar CSR SpMV, a layer norm, a softmax) to a
/// warp. The 32 lanes split the
/// row's loop, so that neighbouring lanes read neighbouring elements, add
/// their partial sums with `__shfl_down_sync`, and lane 0 stores the result;
/// the grid is multiplied by 32 at every launch site.
///
/// Precondition: the kernel is not a template, has a loop, and has no shared
/// arrays, barriers, shuffles, votes, atomics or cooperative groups. It is
/// edited only when the kernel model shows a row index, the thread's global
/// index blockIdx.x * blockDim.x + threadIdx.x, read nowhere else, and the
/// work for one row is, in what it computes,
///
///     T S = <init>;
///     for (U L = <lo>; L < <hi>; ++L)    // or L++, L += 1
///       S += <expr>;                     // no side effect, S not read
///     <lvalue> = <value>;                // no other side effect
///
/// with S starting at a constant zero, or is declarations and row loops
/// (a layer norm, a softmax) whose bodies end in a reduction `S += e` or
/// `S = f(S, e)` (f a minimum or maximum) of a variable declared before,
/// or in a store `X[L] = e` with every subscript of the loop exactly L;
/// after each reduction loop `__shfl_xor_sync` leaves the row's value in
/// every lane. Every expression is free of side effects, calling only math
/// functions. T is an arithmetic type the shuffles carry, and every launch has
/// an integer grid and a constant integer block size that is a multiple of 32,
/// so that each row's warp is whole and leaves or stays as one.
///
/// Trigger (uncoalesced or waited-on loads):
/// `l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio`
/// >= 8, `derived__global_excess_sectors_pct` > 25, or
/// `smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio`
/// >= 10.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_WARPPERROW_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_WARPPERROW_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class WarpPerRow : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  std::string explain(const KernelModel &M) const override;
  std::vector<std::string> ownWords() const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_WARPPERROW_H
