//===- MetricsCommand.cpp - clang-autoprof metrics ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Metrics/MetricsCommand.h"

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
  MetricsCommandOptions M;
  M.Chip = O.Chip;
  M.CatalogPath = catalogPath(Argv0, O.Catalog);
  M.Check.assign(O.Check.begin(), O.Check.end());
  M.Output = O.Output;
  MetricsCommandHooks H;
  H.LoadCounter = []() -> Expected<std::unique_ptr<PassCounter>> {
    return loadProfilerHost();
  };
  H.Write = writeOutput;
  H.Error = [](const std::string &E) { reportError(E); };
  return runMetricsCommand(M, H);
}
