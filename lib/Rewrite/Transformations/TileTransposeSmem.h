//===- TileTransposeSmem.h - The tile-transpose-smem transformation -*- C++
//-*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `tile-transpose-smem`: stages the naive transpose
/// `out[x * rows + y] = in[y * cols + x]` through a padded shared tile, so
/// that both its loads and its stores are coalesced.
///
/// Precondition: the kernel is not a template and has no shared arrays,
/// barriers, shuffles or votes. It is edited only when the kernel model
/// shows the thread's column X and row Y (its 2-D global indices, held in
/// locals and the thread hierarchy read nowhere else), one guard bounding X
/// below Cols and Y below Rows (values of parameters and constants), and a
/// work of one assignment that stores element X * Rows + Y of one
/// parameter from a value of element Y * Cols + X of another (4-byte
/// scalars), and every launch has the same constant block dim3(32, BY)
/// with BY dividing 32 and a grid of depth 1.
///
/// Trigger (uncoalesced or waited-on global accesses):
/// `l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio` >
/// 8, `l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio`
/// > 8, `derived__global_excess_sectors_pct` > 25, or
/// `smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio`
/// >= 10.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_TILETRANSPOSESMEM_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_TILETRANSPOSESMEM_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class TileTransposeSmem : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_TILETRANSPOSESMEM_H
