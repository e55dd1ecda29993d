//===- UnrollConstantLoops.h - unroll-constant-loops ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `unroll-constant-loops`: puts `#pragma unroll` before each innermost
/// `for` loop of a kernel whose trip count is a compile-time constant.
///
/// Precondition: the features count a constant-trip loop. A loop qualifies
/// when it holds no other loop, has no loop hint yet, has the form
/// `for (i = c0; i <op> c1; ++i | --i | i += c | i -= c)` with constant
/// c0, c1 and c, and its `for` starts a line outside a macro.
///
/// Trigger (dependency stalls or a low issue rate):
/// `smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio`
/// >= 0.5,
/// `smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio`
/// >= 1, or `smsp__issue_active.avg.pct_of_peak_sustained_active` < 40.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_UNROLLCONSTANTLOOPS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_UNROLLCONSTANTLOOPS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class UnrollConstantLoops : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_UNROLLCONSTANTLOOPS_H
