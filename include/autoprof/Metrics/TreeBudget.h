//===- TreeBudget.h - A tree's metrics and replay cost ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What a profiling tree costs: each root-to-leaf path collects the stage-1
/// samples and the leaf's metrics, and only the range-profiler metrics among
/// them cost replay passes, counted together. These functions check a tree's
/// metrics against the catalog and a chip, and each path against the budget,
/// through a PassCounter (CUPTI's host API, or a fixed table in tests).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_TREEBUDGET_H
#define AUTOPROF_METRICS_TREEBUDGET_H

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace autoprof {

/// Knows which metrics a chip has and what a set of them costs.
class PassCounter {
public:
  virtual ~PassCounter();
  /// Whether \p Metric is a range-profiler metric of \p Chip.
  virtual bool isValid(const std::string &Chip, const std::string &Metric) = 0;
  /// The replay passes collecting \p Metrics together costs on \p Chip.
  virtual llvm::Expected<unsigned>
  passCount(const std::string &Chip,
            const std::vector<std::string> &Metrics) = 0;
  /// Fails when \p Chip is not one this counter knows; a counter that
  /// prices every chip alike accepts any.
  virtual llvm::Error checkChip(const std::string &Chip) {
    (void)Chip;
    return llvm::Error::success();
  }
};

/// The range-profiler metrics a kernel routed to \p Leaf collects: the
/// stage-1 samples, then the leaf's metrics, each once, in that order.
/// Launch, SASS and derived metrics are left out (they cost no pass).
std::vector<std::string> countedMetrics(const ProfilingTree &T,
                                        const TreeNode &Leaf,
                                        const MetricCatalog &C);

/// Appends a problem for each metric of \p T that is not in \p C or not
/// valid on one of the tree's chips, and for each root-to-leaf path whose
/// pass count exceeds the budget. Returns the largest pass count of a path.
unsigned checkMetricsAndBudget(const ProfilingTree &T, const MetricCatalog &C,
                               PassCounter &Counter,
                               std::vector<TreeProblem> &Problems);

} // namespace autoprof

#endif // AUTOPROF_METRICS_TREEBUDGET_H
