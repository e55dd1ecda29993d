//===- MetricCatalog.h - The metrics the tool may collect -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The metric catalog (tree-models/metric-catalog.json, documented in
/// docs/metric-catalog.md): each metric's source, unit, meaning and the
/// optimisation questions it answers.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_METRICCATALOG_H
#define AUTOPROF_METRICS_METRICCATALOG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace autoprof {

/// Where a metric's value comes from.
enum class MetricSource {
  RangeProfiler, ///< CUPTI range profiler: costs replay passes.
  Launch,        ///< Launch attributes from the driver: no pass.
  Sass,          ///< The SASS metrics API (per instruction, summed).
  Derived,       ///< Computed from other catalog metrics.
};

/// The spelling of \p S in the catalog ("range-profiler", ...).
const char *metricSourceName(MetricSource S);

struct CatalogMetric {
  std::string Name;
  MetricSource Source = MetricSource::RangeProfiler;
  std::string Section;
  std::string Unit;
  std::string Meaning;
  std::vector<std::string> Questions;
  /// For derived metrics only.
  std::string Formula;
  std::vector<std::string> Inputs;
};

/// A validated metric catalog.
class MetricCatalog {
public:
  /// Parses and validates \p Text; \p Path names it in messages, which give
  /// the line and column of malformed JSON or the JSON path of a bad field.
  static llvm::Expected<MetricCatalog> parse(llvm::StringRef Text,
                                             llvm::StringRef Path);
  /// Reads and parses the file at \p Path.
  static llvm::Expected<MetricCatalog> load(llvm::StringRef Path);

  /// The catalog shipped with the tool: <prefix>/share/clang-autoprof/
  /// tree-models/metric-catalog.json beside the installed binary, else the
  /// source tree's tree-models/ (for a build tree).
  static std::string defaultPath(const char *Argv0, void *MainAddr);

  const std::vector<CatalogMetric> &metrics() const { return Metrics; }
  const std::vector<std::string> &chips() const { return Chips; }
  const std::string &name() const { return Name; }
  /// The metric named \p Name, or null.
  const CatalogMetric *find(llvm::StringRef Name) const;

  /// Appends to \p Out those of \p Names that are range-profiler metrics of
  /// the catalog (the ones that cost replay passes), and the range-profiler
  /// inputs of those that are derived, skipping any already in \p Out.
  void appendRangeProfilerMetrics(const std::vector<std::string> &Names,
                                  std::vector<std::string> &Out) const;

private:
  std::string Name;
  std::vector<std::string> Chips;
  std::vector<CatalogMetric> Metrics;
};

} // namespace autoprof

#endif // AUTOPROF_METRICS_METRICCATALOG_H
