//===- Routing.h - Routing a kernel through a profiling tree ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Routes one kernel from the root of a tree to a leaf, with its static
/// features and, where the tree tests them, its stage-1 samples. Clang- and
/// LLVM-free, so that the profiler agent can route inside the program.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TREE_ROUTING_H
#define AUTOPROF_TREE_ROUTING_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Tree/ProfilingTree.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// One node passed on the way to the leaf.
struct RouteStep {
  const TreeNode *Node = nullptr;
  /// The value tested; unset when the sample has not been collected yet, or
  /// the feature has no value (null).
  std::optional<double> Value;
  /// "then", "else", or "pending" when the value is missing.
  std::string Branch;
};

struct Route {
  std::vector<RouteStep> Steps;
  /// The leaf reached; null when routing stopped at a pending test.
  const TreeNode *Leaf = nullptr;
};

/// Routes a kernel with features \p F. \p Samples holds the stage-1 values
/// collected for it (none when not profiled yet). A feature without a value
/// takes the else branch.
Route routeKernel(const ProfilingTree &T, const KernelFeatures &F,
                  const std::map<std::string, double> *Samples);

/// The names of the metrics a kernel routed to \p Leaf is shown: the tree's
/// stage-1 samples (unless \p WithStage1 is false: a record of the leaf's
/// metrics alone) and the leaf's metrics (none when \p Leaf is null), in
/// that order. Profiling completes these metrics of a record; replay
/// (learning) and the rewriter (optimize) read them.
std::vector<std::string> shownMetricNames(const ProfilingTree &T,
                                          const TreeNode *Leaf,
                                          bool WithStage1 = true);

/// shownMetricNames(T, Leaf), each with its value in \p Values when it has
/// one.
std::map<std::string, double>
shownMetrics(const ProfilingTree &T, const TreeNode *Leaf,
             const std::map<std::string, double> &Values);

/// Whether `Value Op Threshold` holds.
bool testHolds(const std::string &Op, double Value, double Threshold);

} // namespace autoprof

#endif // AUTOPROF_TREE_ROUTING_H
