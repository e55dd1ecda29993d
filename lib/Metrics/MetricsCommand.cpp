//===- MetricsCommand.cpp - clang-autoprof metrics, as a call -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/MetricsCommand.h"
#include "autoprof/Metrics/CatalogListing.h"
#include "autoprof/Metrics/MetricCatalog.h"

using namespace llvm;
using namespace autoprof;

namespace {

/// The listing, or the check of O.Check with each invalid metric in
/// \p Invalid.
Expected<std::string> metricsText(const MetricsCommandOptions &O,
                                  const MetricsCommandHooks &H,
                                  std::vector<std::string> &Invalid) {
  Expected<MetricCatalog> Catalog = MetricCatalog::load(O.CatalogPath);
  if (!Catalog)
    return Catalog.takeError();
  Expected<std::unique_ptr<PassCounter>> Counter = H.LoadCounter();
  if (!Counter)
    return Counter.takeError();
  if (Error E = (*Counter)->checkChip(O.Chip))
    return std::move(E);
  if (O.Check.empty())
    return listCatalog(*Catalog, **Counter, O.Chip);
  return checkMetrics(*Catalog, **Counter, O.Chip, O.Check, Invalid);
}

} // namespace

int autoprof::runMetricsCommand(const MetricsCommandOptions &O,
                                const MetricsCommandHooks &H) {
  std::vector<std::string> Invalid;
  Expected<std::string> Text = metricsText(O, H, Invalid);
  if (!Text) {
    H.Error(toString(Text.takeError()));
    return 1;
  }
  for (const std::string &Name : Invalid)
    H.Error("metric '" + Name + "' is not valid on " + O.Chip);
  if (Error E = H.Write(O.Output, *Text)) {
    H.Error(toString(std::move(E)));
    return 1;
  }
  return Invalid.empty() ? 0 : 1;
}
