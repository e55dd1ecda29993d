//===- PlanBuilder.cpp - The plan of a tree for a set of kernels ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/PlanBuilder.h"

#include "autoprof/Tree/Routing.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdio>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

Expected<Plan> profiling::buildPlan(const ProfilingTree &T, StringRef TreePath,
                                    const MetricCatalog &Catalog,
                                    PassCounter &Counter,
                                    const FeatureReport &Report,
                                    const SampleTable *Samples) {
  Plan Out;
  Out.Tree = T.Name;
  Out.TreeFile = TreePath.str();
  Out.Chip = T.Chips.empty() ? "" : T.Chips.front();
  Out.Budget = T.Budget;
  for (const KernelRecord &Rec : Report.Kernels) {
    if (Rec.Template == TemplateKind::Primary)
      continue; // Only instantiations run.
    Route R = routeKernel(T, Rec.Features,
                          Samples ? Samples->find(Rec.MangledName, Rec.Name)
                                  : nullptr);
    PlanKernel K;
    K.Name = Rec.Name;
    K.QualifiedName = Rec.QualifiedName;
    K.MangledName = Rec.MangledName;
    K.File = Rec.File;
    K.Line = Rec.Line;
    for (const RouteStep &St : R.Steps) {
      const NodeTest &Te = St.Node->Test;
      K.Route.push_back({St.Node->Id, Te.From == NodeTest::Source::Feature,
                         Te.Key, Te.Op, Te.Threshold, St.Value, St.Branch});
    }
    // The leaf's metrics, or the stage-1 samples still to collect.
    std::vector<std::string> Counted;
    if (R.Leaf) {
      K.Leaf = R.Leaf->Id;
      K.Focus = R.Leaf->Focus;
      K.Collect = R.Leaf->Metrics;
      Counted = countedMetrics(T, *R.Leaf, Catalog);
    } else {
      Catalog.appendRangeProfilerMetrics(T.Stage1, Counted);
      K.Collect = T.Stage1;
    }
    Expected<unsigned> N = Counter.passCount(Out.Chip, Counted);
    if (!N)
      return N.takeError();
    K.Passes = *N;
    K.Features = Rec.Features.values();
    Out.Kernels.push_back(std::move(K));
  }
  return Out;
}

static std::string formatValue(std::optional<double> V) {
  if (!V)
    return "null";
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%g", *V);
  return Buf;
}

std::string profiling::writePlanText(const Plan &P) {
  std::string Text = "tree " + P.Tree + " (budget " + std::to_string(P.Budget) +
                     " passes on " + P.Chip + ")\n";
  for (const PlanKernel &K : P.Kernels) {
    Text += "kernel " + K.QualifiedName + " at " + K.File + ":" +
            std::to_string(K.Line) + "\n";
    for (const PlanStep &St : K.Route)
      Text += "  node " + St.Node + ": " +
              (St.Feature ? "feature " : "sample ") + St.Key + " = " +
              (St.Branch == "pending" ? "pending" : formatValue(St.Value)) +
              ", " + St.Op + " " + formatValue(St.Threshold) + " -> " +
              St.Branch + "\n";
    if (!K.Leaf.empty()) {
      Text += "  leaf " + K.Leaf + ": " + K.Focus + "\n";
      Text += "  metrics: " + join(K.Collect, " ") + "\n";
    } else {
      Text += "  pending: collect the stage-1 samples first: " +
              join(K.Collect, " ") + "\n";
    }
    Text += "  passes: " + std::to_string(K.Passes) + "\n";
  }
  return Text;
}
