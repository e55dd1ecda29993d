//===- PlanBuilder.h - The plan of a tree for a set of kernels --*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `plan`: each kernel's route through a tree (its static features, and
/// its stage-1 samples when a profile gives them), what it collects at its
/// leaf (or the samples still pending) and the replay passes that costs on
/// the tree's first chip; the plan as text.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_PLANBUILDER_H
#define AUTOPROF_PROFILING_PLANBUILDER_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/TreeBudget.h"
#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Tree/Plan.h"
#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace autoprof {
namespace profiling {

/// The plan of \p T (read from \p TreePath) for the kernels of \p Report
/// that launch (primary templates are left out), in order; \p Samples gives
/// stage-1 values by kernel when not null. Fails when \p Counter cannot
/// price a kernel's metrics on the tree's first chip.
llvm::Expected<Plan> buildPlan(const ProfilingTree &T, llvm::StringRef TreePath,
                               const MetricCatalog &Catalog,
                               PassCounter &Counter,
                               const FeatureReport &Report,
                               const SampleTable *Samples);

/// \p P as readable text: one block per kernel, its route, its leaf or the
/// samples it waits for, its passes.
std::string writePlanText(const Plan &P);

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_PLANBUILDER_H
