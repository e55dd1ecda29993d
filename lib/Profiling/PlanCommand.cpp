//===- PlanCommand.cpp - clang-autoprof plan, as a library call -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/PlanCommand.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Profiling/PlanBuilder.h"
#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Tree/Plan.h"

#include "llvm/Support/Path.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

/// The plan's text, or why it cannot be made; \p Status is the sources'
/// (2: nothing could be read, and nothing is planned).
Expected<std::string> planText(const PlanCommandOptions &O,
                               const PlanCommandHooks &H, int &Status) {
  Expected<std::string> TreePath =
      findTree(O.Tree, sys::path::parent_path(O.CatalogPath));
  if (!TreePath)
    return TreePath.takeError();
  ProfilingTree T;
  if (Error E = loadCheckedTree(*TreePath, T))
    return std::move(E);
  Expected<MetricCatalog> Catalog = MetricCatalog::load(O.CatalogPath);
  if (!Catalog)
    return Catalog.takeError();
  std::optional<SampleTable> Samples;
  if (!O.Samples.empty()) {
    Expected<SampleTable> S = loadSamples(O.Samples);
    if (!S)
      return S.takeError();
    Samples = std::move(*S);
  }
  Expected<std::unique_ptr<PassCounter>> Counter = H.LoadCounter();
  if (!Counter)
    return Counter.takeError();
  FeatureReport Report;
  Status = H.Sources(Report);
  if (Status == 2)
    return std::string();
  Expected<Plan> P = buildPlan(T, *TreePath, *Catalog, **Counter, Report,
                               Samples ? &*Samples : nullptr);
  if (!P)
    return P.takeError();
  return O.JSON ? writePlanJSON(*P) : writePlanText(*P);
}

} // namespace

int autoprof::profiling::runPlanCommand(const PlanCommandOptions &O,
                                        const PlanCommandHooks &H) {
  int Status = 0;
  Expected<std::string> Text = planText(O, H, Status);
  if (Text && Status == 2)
    return 1; // The sources' problems were reported.
  if (Error E = Text ? H.Write(O.Output, *Text) : Text.takeError()) {
    H.Error(toString(std::move(E)));
    return 1;
  }
  return Status;
}
