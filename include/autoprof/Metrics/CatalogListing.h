//===- CatalogListing.h - What `metrics` prints -----------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The catalog listed with each metric's validity and pass cost on a chip,
/// and the check of a list of metrics: what `clang-autoprof metrics` prints.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_CATALOGLISTING_H
#define AUTOPROF_METRICS_CATALOGLISTING_H

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/TreeBudget.h"

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace autoprof {

/// Every metric of \p C on its own line: its source, unit and, for a
/// range-profiler metric, whether it is valid on \p Chip and the passes it
/// costs alone; then the passes of all valid ones together.
llvm::Expected<std::string>
listCatalog(const MetricCatalog &C, PassCounter &Host, const std::string &Chip);

/// Each of \p Names on its own line: how a catalog metric that costs no
/// pass is collected, or the passes a range-profiler metric (in the
/// catalog or not) costs alone on \p Chip; then the passes of those
/// together. \p Invalid receives the names not valid on \p Chip, which are
/// not listed.
llvm::Expected<std::string> checkMetrics(const MetricCatalog &C,
                                         PassCounter &Host,
                                         const std::string &Chip,
                                         const std::vector<std::string> &Names,
                                         std::vector<std::string> &Invalid);

} // namespace autoprof

#endif // AUTOPROF_METRICS_CATALOGLISTING_H
