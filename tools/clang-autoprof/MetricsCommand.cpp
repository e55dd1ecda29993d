//===- MetricsCommand.cpp - clang-autoprof metrics ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "llvm/Support/Format.h"
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

int autoprof::tool::runMetrics(const char *Argv0) {
  MetricsOptions &O = metricsOptions();
  Expected<MetricCatalog> Catalog =
      MetricCatalog::load(catalogPath(Argv0, O.Catalog));
  if (!Catalog) {
    reportError(toString(Catalog.takeError()));
    return 1;
  }
  Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
  if (!Host) {
    reportError(toString(Host.takeError()));
    return 1;
  }
  if (Error E = (*Host)->checkChip(O.Chip)) {
    reportError(toString(std::move(E)));
    return 1;
  }

  std::string Text;
  raw_string_ostream OS(Text);
  int Status = 0;
  if (O.Check.empty()) {
    OS << "catalog " << Catalog->name() << ": " << Catalog->metrics().size()
       << " metrics, chip " << O.Chip << "\n";
    std::vector<std::string> Valid;
    unsigned Invalid = 0;
    for (const CatalogMetric &M : Catalog->metrics()) {
      OS << M.Name << "  " << metricSourceName(M.Source) << "  " << M.Unit
         << "  ";
      if (M.Source != MetricSource::RangeProfiler) {
        OS << "passes=0 (" << collectedBy(M.Source) << ")\n";
        continue;
      }
      Expected<unsigned> N = (*Host)->passCount(O.Chip, {M.Name});
      if (!N) {
        consumeError(N.takeError());
        OS << "invalid on " << O.Chip << "\n";
        ++Invalid;
        continue;
      }
      OS << "valid passes=" << *N << "\n";
      Valid.push_back(M.Name);
    }
    Expected<unsigned> All = (*Host)->passCount(O.Chip, Valid);
    if (!All) {
      reportError(toString(All.takeError()));
      return 1;
    }
    OS << "range-profiler metrics: " << Valid.size() << " valid, " << Invalid
       << " invalid; all valid ones together: " << *All << " passes\n";
  } else {
    std::vector<std::string> Counted;
    for (const std::string &Name : O.Check) {
      const CatalogMetric *M = Catalog->find(Name);
      if (M && M->Source != MetricSource::RangeProfiler) {
        OS << Name << ": " << metricSourceName(M->Source) << " ("
           << collectedBy(M->Source) << ")\n";
        continue;
      }
      Expected<unsigned> N = (*Host)->passCount(O.Chip, {Name});
      if (!N) {
        consumeError(N.takeError());
        reportError("metric '" + Name + "' is not valid on " + O.Chip);
        Status = 1;
        continue;
      }
      OS << Name << ": valid, passes alone=" << *N
         << (M ? "" : " (not in the catalog)") << "\n";
      Counted.push_back(Name);
    }
    Expected<unsigned> All = (*Host)->passCount(O.Chip, Counted);
    if (!All) {
      reportError(toString(All.takeError()));
      return 1;
    }
    OS << "passes: " << *All << " for " << Counted.size()
       << " range-profiler metrics on " << O.Chip << "\n";
  }
  OS.flush();
  if (Error E = writeOutput(O.Output, Text)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return Status;
}
