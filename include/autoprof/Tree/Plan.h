//===- Plan.h - The plan `plan --format=json` writes ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A plan: for each kernel of some sources, the route a profiling tree
/// takes with its static features, the leaf (or the stage-1 samples still
/// to collect), the metrics, their pass count, and the features themselves,
/// so that `profile --plan` routes the kernels without the sources. Its
/// JSON is written and read here; docs/profile-format.md documents it.
/// Uses neither LLVM nor Clang.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TREE_PLAN_H
#define AUTOPROF_TREE_PLAN_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autoprof {

/// Version of the plan JSON.
constexpr int PlanFormatVersion = 1;

/// One node a kernel's route tested.
struct PlanStep {
  std::string Node;
  /// Whether the node tests a static feature (else a stage-1 sample).
  bool Feature = true;
  /// The feature or metric tested, its operator and threshold.
  std::string Key;
  std::string Op;
  double Threshold = 0;
  std::optional<double> Value;
  /// "then", "else", or "pending" when the sample is not collected yet.
  std::string Branch;
};

/// The plan of one kernel.
struct PlanKernel {
  std::string Name;
  std::string QualifiedName;
  std::string MangledName;
  std::vector<PlanStep> Route;
  /// The leaf reached; empty while the route is pending.
  std::string Leaf;
  /// The leaf's metrics, or the stage-1 samples to collect while pending.
  std::vector<std::string> Collect;
  std::string Focus;
  unsigned Passes = 0;
  /// Static features in the order written; null for a feature with no
  /// value.
  std::vector<std::pair<std::string, std::optional<double>>> Features;
  /// Where the kernel is defined, for the text; not part of the JSON.
  std::string File;
  unsigned Line = 0;
};

struct Plan {
  /// The tree's name, and the file it was read from when known.
  std::string Tree;
  std::string TreeFile;
  std::string Chip;
  unsigned Budget = 0;
  std::vector<PlanKernel> Kernels;
};

/// Serialises \p P as JSON.
std::string writePlanJSON(const Plan &P);

/// Parses a plan. Needs the version, the tree (`tree` or `tree_file`) and
/// each kernel's name, mangled name and features; the other fields are
/// checked when present. On failure returns false with one line in
/// \p Error: "<json path>: <what>" or the parser's error.
bool parsePlanJSON(const std::string &Text, Plan &Out, std::string &Error);

} // namespace autoprof

#endif // AUTOPROF_TREE_PLAN_H
