//===- OptimizeReport.h - The report `optimize` writes ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The report of `optimize --report`: per kernel, the route the tree took
/// and the metrics it collected, every attempted rewrite with the metrics
/// that triggered it, its verdict, the reason and the speedup with its
/// spread, and the rewrite kept. docs/optimize-report.md documents it.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_OPTIMIZEREPORT_H
#define AUTOPROF_VERIFY_OPTIMIZEREPORT_H

#include "autoprof/Verify/Judge.h"
#include "autoprof/Verify/PhaseTimes.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace autoprof {
namespace verify {

/// Version of the report JSON.
constexpr int OptimizeReportVersion = 1;

struct AttemptReport {
  std::string Transformation;
  /// Why its trigger fired, e.g. "derived__shared_bank_conflict_pct = 48 >=
  /// 10"; empty when it did not (a rewrite verified by --try-all).
  std::string Trigger;
  Judgement Result;
};

struct KernelReport {
  std::string Name;
  std::string MangledName;
  std::string Leaf;
  /// "node:branch" steps.
  std::vector<std::string> Route;
  std::map<std::string, double> Metrics;
  std::vector<AttemptReport> Attempts;
  /// The transformation kept, empty for none.
  std::string Kept;
  std::optional<double> Speedup;
};

struct OptimizeReport {
  std::string Source;
  std::string Tree;
  std::string Rewriter = "builtin";
  std::vector<uint64_t> Seeds;
  std::vector<KernelReport> Kernels;
  /// The transformations of the result, when several kernels kept one and
  /// they were verified together.
  std::optional<AttemptReport> Combined;
  /// "rewritten" (written in place), "verified" (a rewrite was kept but the
  /// source left alone), or "no rewrite".
  std::string Outcome;
  /// Whether the original's saved inputs differ between seeds; false when
  /// they are the same with every seed (verification rests on one input),
  /// nullopt when unknown.
  std::optional<bool> InputsVary;
  /// Why no later launch was checked from poisoned outputs; empty when one
  /// was.
  std::string LaterLaunchUnchecked;
  /// Wall seconds of the whole run.
  double Seconds = 0;
  /// The commands it ran, by phase.
  PhaseTimes Timings;
};

/// Serialises \p R as JSON.
std::string writeOptimizeReportJSON(const OptimizeReport &R);

/// Reads a report written by writeOptimizeReportJSON(): everything but
/// the attempts' timings (`original`, `candidate`, `other_kernels`) and
/// the phase times. Fails with the JSON path of the first bad field.
llvm::Expected<OptimizeReport> readOptimizeReportJSON(llvm::StringRef Text);

/// Renders \p R as `optimize` prints it: per kernel its attempts, each
/// with its verdict and trigger, and what was kept; then the kept rewrites
/// together, the notes on the inputs, and the outcome. With
/// \p SourceUnchanged, the outcome says the source was left as it was.
std::string renderOptimizeReportText(const OptimizeReport &R,
                                     bool SourceUnchanged);

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_OPTIMIZEREPORT_H
