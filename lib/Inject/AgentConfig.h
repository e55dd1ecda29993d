//===- AgentConfig.h - What the tool asks the injection library -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The configuration `clang-autoprof profile` writes for the injection
/// library (a JSON file named by AUTOPROF_PROFILE_CONFIG): which launches to
/// profile, the fixed metric list or the tree to route with, each kernel's
/// static features, and where to write the profile.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_AGENTCONFIG_H
#define AUTOPROF_INJECT_AGENTCONFIG_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Tree/ProfilingTree.h"

#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace autoprof {
namespace inject {

/// A launch the second run profiles, with the stage-1 samples the first run
/// collected for it.
struct SecondRunLaunch {
  unsigned Launch = 0;
  std::map<std::string, double> Samples;
};

struct AgentConfig {
  std::string Output;
  unsigned Run = 1;
  /// Empty: every kernel.
  std::string KernelRegexText;
  std::optional<std::regex> KernelRegex;
  unsigned LaunchSkip = 0;
  unsigned LaunchCount = 1;
  /// Whether the L2 cache is flushed before each profiled launch
  /// (`--cache-control=all`).
  bool FlushCaches = false;
  /// Fixed mode: these metrics for every selected launch.
  std::vector<std::string> Metrics;
  /// Tree mode.
  std::unique_ptr<ProfilingTree> Tree;
  /// Metrics the range profiler collects; every other name is either a
  /// launch attribute (launch__*, sm__maximum_warps_per_active_cycle_pct)
  /// or computed by the tool afterwards.
  std::set<std::string> RangeMetrics;
  /// The inputs of each derived metric, collected with it.
  std::map<std::string, std::vector<std::string>> DerivedInputs;
  /// Static features by mangled name.
  std::map<std::string, KernelFeatures> Features;
  /// Second run only: the launches to profile, by mangled name.
  std::map<std::string, SecondRunLaunch> SecondRun;
};

/// What the tool asks of one run, as the configuration file says it: the
/// writer's side of AgentConfig, with the tree named by its file.
struct AgentRequest {
  std::string Output;
  unsigned Run = 1;
  std::string KernelRegexText;
  unsigned LaunchSkip = 0;
  unsigned LaunchCount = 1;
  bool FlushCaches = false;
  /// Fixed mode (TreeFile empty): these metrics for every selected launch.
  std::vector<std::string> Metrics;
  /// Tree mode: the tree's file.
  std::string TreeFile;
  std::vector<std::string> RangeMetrics;
  std::map<std::string, std::vector<std::string>> DerivedInputs;
  /// Each kernel's mangled name and static features (null: unknown), in
  /// order.
  std::vector<
      std::pair<std::string, std::map<std::string, std::optional<double>>>>
      Kernels;
  /// Second run only.
  std::map<std::string, SecondRunLaunch> SecondRun;
};

/// The configuration file's text for \p R, which loadAgentConfig() reads
/// back (the tree from TreeFile).
std::string writeAgentConfig(const AgentRequest &R);

/// Reads the configuration at \p Path. On failure returns false with a
/// one-line message in \p Error.
bool loadAgentConfig(const std::string &Path, AgentConfig &Out,
                     std::string &Error);

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_AGENTCONFIG_H
