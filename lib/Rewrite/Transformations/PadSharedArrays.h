//===- PadSharedArrays.h - pad-shared-arrays --------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `pad-shared-arrays`: pads the inner dimension of two-dimensional
/// `__shared__` tiles `T a[N][M]` (T of 4 bytes, M a multiple of 32) to
/// M + 1, so that a column walk hits 32 different banks.
///
/// Precondition: feature `shared_bank_conflict_risk` > 0. An array of the
/// kernel's body qualifies when it is not `extern` and every use of it is
/// a two-level subscript `a[i][j]`, so that the padding changes no index.
/// Only the inner bound's expression is edited: a literal 32 becomes 33,
/// any other expression E becomes `E + 1`.
///
/// Trigger: `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum` > 0,
/// `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum` > 0, or
/// `derived__shared_bank_conflict_pct` > 5.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_PADSHAREDARRAYS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_PADSHAREDARRAYS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class PadSharedArrays : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_PADSHAREDARRAYS_H
