//===- PlanCommand.cpp - clang-autoprof plan ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Metrics/TreeBudget.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Tree/Plan.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "autoprof/Tree/Routing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>
#include <map>

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

namespace {

struct KernelPlan {
  const KernelRecord *Kernel;
  Route R;
  std::vector<std::string> Collect; ///< Leaf metrics, or the stage-1 samples.
  unsigned Passes = 0;
};

std::string formatValue(std::optional<double> V) {
  if (!V)
    return "null";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%g", *V);
  return Buf;
}

/// The plan as text, one block per kernel.
std::string planText(const ProfilingTree &T, const std::string &Chip,
                     const std::vector<KernelPlan> &Plans) {
  std::string Text = "tree " + T.Name + " (budget " + std::to_string(T.Budget) +
                     " passes on " + Chip + ")\n";
  for (const KernelPlan &P : Plans) {
    const KernelRecord &K = *P.Kernel;
    Text += "kernel " + K.QualifiedName + " at " + K.File + ":" +
            std::to_string(K.Line) + "\n";
    for (const RouteStep &St : P.R.Steps) {
      const NodeTest &Te = St.Node->Test;
      Text += "  node " + St.Node->Id + ": " +
              (Te.From == NodeTest::Source::Feature ? "feature " : "sample ") +
              Te.Key + " = " +
              (St.Branch == "pending" ? "pending" : formatValue(St.Value)) +
              ", " + Te.Op + " " + formatValue(Te.Threshold) + " -> " +
              St.Branch + "\n";
    }
    if (P.R.Leaf) {
      Text += "  leaf " + P.R.Leaf->Id + ": " + P.R.Leaf->Focus + "\n";
      Text += "  metrics: " + join(P.Collect, " ") + "\n";
    } else {
      Text += "  pending: collect the stage-1 samples first: " +
              join(P.Collect, " ") + "\n";
    }
    Text += "  passes: " + std::to_string(P.Passes) + "\n";
  }
  return Text;
}

/// The plan in its JSON form (lib/Tree's Plan).
Plan planOf(const ProfilingTree &T, const std::string &TreePath,
            const std::string &Chip, const std::vector<KernelPlan> &Plans) {
  Plan Out;
  Out.Tree = T.Name;
  Out.TreeFile = TreePath;
  Out.Chip = Chip;
  Out.Budget = T.Budget;
  for (const KernelPlan &P : Plans) {
    PlanKernel K;
    K.Name = P.Kernel->Name;
    K.QualifiedName = P.Kernel->QualifiedName;
    K.MangledName = P.Kernel->MangledName;
    for (const RouteStep &St : P.R.Steps) {
      const NodeTest &Te = St.Node->Test;
      K.Route.push_back({St.Node->Id, Te.From == NodeTest::Source::Feature,
                         Te.Key, Te.Op, Te.Threshold, St.Value, St.Branch});
    }
    if (P.R.Leaf) {
      K.Leaf = P.R.Leaf->Id;
      K.Focus = P.R.Leaf->Focus;
    }
    K.Collect = P.Collect;
    K.Passes = P.Passes;
    K.Features = P.Kernel->Features.values();
    Out.Kernels.push_back(std::move(K));
  }
  return Out;
}

} // namespace

int autoprof::tool::runPlan(const char *Argv0) {
  PlanOptions &O = planOptions();
  std::string CatalogPath = catalogPath(Argv0, O.Catalog);
  Expected<std::string> TreePath =
      findTree(O.Tree, sys::path::parent_path(CatalogPath));
  if (!TreePath) {
    reportError(toString(TreePath.takeError()));
    return 1;
  }
  ProfilingTree T;
  if (Error E = loadCheckedTree(*TreePath, T)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  Expected<MetricCatalog> Catalog = MetricCatalog::load(CatalogPath);
  if (!Catalog) {
    reportError(toString(Catalog.takeError()));
    return 1;
  }
  std::optional<SampleTable> Samples;
  if (!O.Samples.empty()) {
    Expected<SampleTable> S = loadSamples(O.Samples);
    if (!S) {
      reportError(toString(S.takeError()));
      return 1;
    }
    Samples = std::move(*S);
  }
  Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
  if (!Host) {
    reportError(toString(Host.takeError()));
    return 1;
  }
  const std::string &Chip = T.Chips.front();

  FeatureReport Report;
  int Status = extractSources(Report);
  if (Status == 2)
    return 1;

  std::vector<KernelPlan> Plans;
  for (const KernelRecord &K : Report.Kernels) {
    if (K.Template == TemplateKind::Primary)
      continue; // Only instantiations run.
    KernelPlan P{&K, routeKernel(T, K.Features,
                                 Samples ? Samples->find(K.MangledName, K.Name)
                                         : nullptr)};
    std::vector<std::string> Counted;
    if (P.R.Leaf) {
      P.Collect = P.R.Leaf->Metrics;
      Counted = countedMetrics(T, *P.R.Leaf, *Catalog);
    } else {
      Catalog->appendRangeProfilerMetrics(T.Stage1, Counted);
      P.Collect = T.Stage1;
    }
    Expected<unsigned> N = (*Host)->passCount(Chip, Counted);
    if (!N) {
      reportError(toString(N.takeError()));
      return 1;
    }
    P.Passes = *N;
    Plans.push_back(std::move(P));
  }

  std::string Text = O.Format == PlanFormat::Text
                         ? planText(T, Chip, Plans)
                         : writePlanJSON(planOf(T, *TreePath, Chip, Plans));
  if (Error E = writeOutput(O.Output, Text)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return Status;
}
