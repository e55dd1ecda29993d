//===- MetricsCommand.cpp - clang-autoprof metrics ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Metrics/CatalogListing.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

struct MetricsOptions {
  cl::opt<std::string> Chip{"chip", cl::desc("Chip to check the metrics on"),
                            cl::value_desc("name"), cl::init("GH100"),
                            cl::sub(metricsCommand())};
  cl::opt<std::string> Catalog{
      "catalog", cl::desc("Metric catalog (default: the one shipped)"),
      cl::value_desc("file"), cl::sub(metricsCommand())};
  cl::list<std::string> Check{
      "check",
      cl::desc("Print the combined pass count of these metrics and name "
               "every invalid one"),
      cl::value_desc("m1,m2,..."), cl::CommaSeparated,
      cl::sub(metricsCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(metricsCommand())};
};

MetricsOptions &metricsOptions() {
  static MetricsOptions O;
  return O;
}

[[maybe_unused]] const MetricsOptions &Registered = metricsOptions();

} // namespace

int autoprof::tool::runMetrics(const char *Argv0) {
  MetricsOptions &O = metricsOptions();
  Expected<MetricCatalog> Catalog =
      MetricCatalog::load(catalogPath(Argv0, O.Catalog));
  if (failed(Catalog))
    return 1;
  Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
  if (failed(Host))
    return 1;
  if (failed((*Host)->checkChip(O.Chip)))
    return 1;

  int Status = 0;
  std::vector<std::string> Invalid;
  Expected<std::string> Text =
      O.Check.empty() ? listCatalog(*Catalog, **Host, O.Chip)
                      : checkMetrics(*Catalog, **Host, O.Chip,
                                     std::vector<std::string>(O.Check.begin(),
                                                              O.Check.end()),
                                     Invalid);
  if (failed(Text))
    return 1;
  for (const std::string &Name : Invalid) {
    reportError("metric '" + Name + "' is not valid on " + O.Chip);
    Status = 1;
  }
  if (failed(writeOutput(O.Output, *Text)))
    return 1;
  return Status;
}
