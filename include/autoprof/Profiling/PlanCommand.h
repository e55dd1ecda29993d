//===- PlanCommand.h - clang-autoprof plan, as a library call ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `plan`: each kernel of the sources routed through a tree (with the
/// stage-1 samples of a profile, when given), and what it would collect,
/// as text or JSON.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_PLANCOMMAND_H
#define AUTOPROF_PROFILING_PLANCOMMAND_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Metrics/TreeBudget.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>

namespace autoprof {
namespace profiling {

struct PlanCommandOptions {
  /// The tree, by name or path; the catalog (trees are found beside it).
  std::string Tree, CatalogPath;
  /// A profile with the stage-1 samples; empty for none.
  std::string Samples;
  bool JSON = false;
  /// Where the plan goes ("-": stdout).
  std::string Output = "-";
};

struct PlanCommandHooks {
  /// What prices the leaves' metrics (CUPTI's host).
  std::function<llvm::Expected<std::unique_ptr<PassCounter>>()> LoadCounter;
  /// Extracts the sources' kernels into the report: 0, 1 (some sources
  /// failed, the rest is planned) or 2 (nothing could be read), after
  /// reporting why.
  std::function<int(FeatureReport &)> Sources;
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  std::function<void(const std::string &)> Error;
};

/// Runs `plan`; returns 0, or 1 after reporting why (a source that failed
/// leaves the others planned, with status 1).
int runPlanCommand(const PlanCommandOptions &O, const PlanCommandHooks &H);

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_PLANCOMMAND_H
