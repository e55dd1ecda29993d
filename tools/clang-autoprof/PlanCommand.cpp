//===- PlanCommand.cpp - clang-autoprof plan ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Profiling/PlanBuilder.h"
#include "autoprof/Tree/Plan.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

enum class PlanFormat { Text, JSON };

struct PlanOptions {
  cl::opt<std::string> Tree{
      "tree", cl::desc("Tree: a name in tree-models/ or a path"),
      cl::value_desc("name|path"), cl::Required, cl::sub(planCommand())};
  cl::opt<std::string> Samples{
      "samples", cl::desc("Profile with the stage-1 samples (a profile JSON)"),
      cl::value_desc("profile.json"), cl::sub(planCommand())};
  cl::opt<std::string> Catalog{
      "catalog", cl::desc("Metric catalog (default: the one shipped)"),
      cl::value_desc("file"), cl::sub(planCommand())};
  cl::opt<PlanFormat> Format{
      "format", cl::desc("Output format"), cl::init(PlanFormat::Text),
      cl::values(clEnumValN(PlanFormat::Text, "text", "readable text"),
                 clEnumValN(PlanFormat::JSON, "json", "JSON")),
      cl::sub(planCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(planCommand())};
};

PlanOptions &planOptions() {
  static PlanOptions O;
  return O;
}

[[maybe_unused]] const PlanOptions &Registered = planOptions();

} // namespace

int autoprof::tool::runPlan(const char *Argv0) {
  PlanOptions &O = planOptions();
  std::string CatalogPath = catalogPath(Argv0, O.Catalog);
  Expected<std::string> TreePath =
      findTree(O.Tree, sys::path::parent_path(CatalogPath));
  if (failed(TreePath))
    return 1;
  ProfilingTree T;
  if (failed(loadCheckedTree(*TreePath, T)))
    return 1;
  Expected<MetricCatalog> Catalog = MetricCatalog::load(CatalogPath);
  if (failed(Catalog))
    return 1;
  std::optional<SampleTable> Samples;
  if (!O.Samples.empty()) {
    Expected<SampleTable> S = loadSamples(O.Samples);
    if (failed(S))
      return 1;
    Samples = std::move(*S);
  }
  Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
  if (failed(Host))
    return 1;
  FeatureReport Report;
  int Status = extractSources(Report);
  if (Status == 2)
    return 1;
  Expected<Plan> P = profiling::buildPlan(
      T, *TreePath, *Catalog, **Host, Report, Samples ? &*Samples : nullptr);
  if (failed(P))
    return 1;
  std::string Text = O.Format == PlanFormat::Text ? profiling::writePlanText(*P)
                                                  : writePlanJSON(*P);
  if (failed(writeOutput(O.Output, Text)))
    return 1;
  return Status;
}
