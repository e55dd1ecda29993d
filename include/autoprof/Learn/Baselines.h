//===- Baselines.h - What a learned tree is compared with ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Fixed profiling configurations held to a budget, and the curve of what
/// collecting more metrics gives.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_BASELINES_H
#define AUTOPROF_LEARN_BASELINES_H

#include "autoprof/Learn/Replay.h"

#include <cstdint>
#include <vector>

namespace autoprof {
namespace learn {

/// \p T held to \p Budget passes: the stage-1 samples, then each leaf's
/// metrics, are taken in their order and each is kept when the path still
/// fits (first fit), so a metric list that fits is kept whole.
llvm::Expected<ProfilingTree> fitToBudget(const ProfilingTree &T,
                                          unsigned Budget, PassPricer &Pricer);

/// One point of the curve: every kernel shown the same \p Count metrics.
struct CurvePoint {
  unsigned Count = 0;
  /// Means over the orders.
  double Passes = 0, GeoMean = 1, Fast1 = 0;
  /// The lowest and highest geometric mean over the orders.
  double Lowest = 1, Highest = 1;
  /// The orders in which the metric added here lowered the geometric mean.
  unsigned Drops = 0;
};

/// For \p Orders random orders of \p Pool (seeded by \p Seed), the replay
/// of one-leaf trees with the first 0, 1, ..., |Pool| metrics of each order.
llvm::Expected<std::vector<CurvePoint>>
metricCurve(llvm::ArrayRef<const DatasetKernel *> Kernels,
            std::vector<std::string> Pool, unsigned Orders, uint64_t Seed,
            const TriggerRewriter &Rewriter, PassPricer &Pricer);

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_BASELINES_H
