//===- TreeBudget.cpp - A tree's metrics and replay cost ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/TreeBudget.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <set>

using namespace autoprof;

PassCounter::~PassCounter() = default;

std::vector<std::string> autoprof::countedMetrics(const ProfilingTree &T,
                                                  const TreeNode &Leaf,
                                                  const MetricCatalog &C) {
  std::vector<std::string> Set;
  C.appendRangeProfilerMetrics(T.Stage1, Set);
  C.appendRangeProfilerMetrics(Leaf.Metrics, Set);
  return Set;
}

unsigned autoprof::checkMetricsAndBudget(const ProfilingTree &T,
                                         const MetricCatalog &C,
                                         PassCounter &Counter,
                                         std::vector<TreeProblem> &P) {
  unsigned MaxPasses = 0;
  std::set<std::string> Bad;
  auto CheckMetric = [&](const std::string &M, const std::string &Where) {
    const CatalogMetric *CM = C.find(M);
    if (!CM) {
      P.push_back({Where, "unknown metric '" + M + "' (not in the catalog)"});
      Bad.insert(M);
      return;
    }
    if (CM->Source != MetricSource::RangeProfiler)
      return;
    for (const std::string &Chip : T.Chips)
      if (!Counter.isValid(Chip, M)) {
        P.push_back({Where, "metric '" + M + "' is not valid on " + Chip});
        Bad.insert(M);
      }
  };
  for (size_t I = 0; I < T.Stage1.size(); ++I)
    CheckMetric(T.Stage1[I], "$.stage1[" + std::to_string(I) + "]");
  for (const TreeNode &N : T.Nodes)
    for (size_t I = 0; I < N.Metrics.size(); ++I)
      CheckMetric(N.Metrics[I],
                  N.Path + ".leaf.metrics[" + std::to_string(I) + "]");

  for (const auto &Path : leafPaths(T)) {
    const TreeNode *Leaf = Path.back();
    std::vector<std::string> Set = countedMetrics(T, *Leaf, C);
    // Metrics already reported invalid would make CUPTI refuse the set.
    llvm::erase_if(Set, [&](const std::string &M) { return Bad.count(M); });
    for (const std::string &Chip : T.Chips) {
      llvm::Expected<unsigned> N = Counter.passCount(Chip, Set);
      if (!N) {
        P.push_back({Leaf->Path, llvm::toString(N.takeError())});
        continue;
      }
      MaxPasses = std::max(MaxPasses, *N);
      if (*N > T.Budget)
        P.push_back({Leaf->Path, "path to leaf '" + Leaf->Id + "' costs " +
                                     std::to_string(*N) + " passes on " + Chip +
                                     ", over the budget of " +
                                     std::to_string(T.Budget)});
    }
  }
  return MaxPasses;
}
