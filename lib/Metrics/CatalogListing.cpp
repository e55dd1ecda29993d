//===- CatalogListing.cpp - What `metrics` prints -------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/CatalogListing.h"

#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof;

namespace {

/// How a metric that costs no range-profiler pass is collected.
const char *collectedBy(MetricSource S) {
  switch (S) {
  case MetricSource::Launch:
    return "launch attribute, no pass";
  case MetricSource::Sass:
    return "SASS metrics API, no range-profiler pass";
  case MetricSource::Derived:
    return "derived from its inputs";
  case MetricSource::RangeProfiler:
    break;
  }
  return "";
}

} // namespace

Expected<std::string> autoprof::listCatalog(const MetricCatalog &C,
                                            PassCounter &Host,
                                            const std::string &Chip) {
  std::string Text;
  raw_string_ostream OS(Text);
  OS << "catalog " << C.name() << ": " << C.metrics().size()
     << " metrics, chip " << Chip << "\n";
  std::vector<std::string> Valid;
  unsigned Invalid = 0;
  for (const CatalogMetric &M : C.metrics()) {
    OS << M.Name << "  " << metricSourceName(M.Source) << "  " << M.Unit
       << "  ";
    if (M.Source != MetricSource::RangeProfiler) {
      OS << "passes=0 (" << collectedBy(M.Source) << ")\n";
      continue;
    }
    Expected<unsigned> N = Host.passCount(Chip, {M.Name});
    if (!N) {
      consumeError(N.takeError());
      OS << "invalid on " << Chip << "\n";
      ++Invalid;
      continue;
    }
    OS << "valid passes=" << *N << "\n";
    Valid.push_back(M.Name);
  }
  Expected<unsigned> All = Host.passCount(Chip, Valid);
  if (!All)
    return All.takeError();
  OS << "range-profiler metrics: " << Valid.size() << " valid, " << Invalid
     << " invalid; all valid ones together: " << *All << " passes\n";
  return Text;
}

Expected<std::string> autoprof::checkMetrics(
    const MetricCatalog &C, PassCounter &Host, const std::string &Chip,
    const std::vector<std::string> &Names, std::vector<std::string> &Invalid) {
  std::string Text;
  raw_string_ostream OS(Text);
  std::vector<std::string> Counted;
  for (const std::string &Name : Names) {
    const CatalogMetric *M = C.find(Name);
    if (M && M->Source != MetricSource::RangeProfiler) {
      OS << Name << ": " << metricSourceName(M->Source) << " ("
         << collectedBy(M->Source) << ")\n";
      continue;
    }
    Expected<unsigned> N = Host.passCount(Chip, {Name});
    if (!N) {
      consumeError(N.takeError());
      Invalid.push_back(Name);
      continue;
    }
    OS << Name << ": valid, passes alone=" << *N
       << (M ? "" : " (not in the catalog)") << "\n";
    Counted.push_back(Name);
  }
  Expected<unsigned> All = Host.passCount(Chip, Counted);
  if (!All)
    return All.takeError();
  OS << "passes: " << *All << " for " << Counted.size()
     << " range-profiler metrics on " << Chip << "\n";
  return Text;
}
