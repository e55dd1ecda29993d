//===- LaunchPlanner.h - Which launches to profile, and what ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The injection library's decisions, without CUDA: whether a kernel launch
/// is selected (name, launch skip and count, the second run's launches), what
/// it collects (a fixed list; the tree's stage-1 samples, the leaf's metrics,
/// or both; the inputs of derived metrics), and how the kernel is routed once
/// its stage-1 samples are known.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_LAUNCHPLANNER_H
#define AUTOPROF_INJECT_LAUNCHPLANNER_H

#include "AgentConfig.h"

#include "autoprof/Profile/Profile.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace inject {

/// A launch chosen for profiling.
struct PlannedLaunch {
  /// Kernel, launch index, run, stage, and the route when it is known.
  ProfileRecord Record;
  /// Every metric to collect, derived metrics' inputs included.
  std::vector<std::string> Collect;
  /// The route waits for this launch's stage-1 samples.
  bool RoutesAfter = false;
};

class LaunchPlanner {
public:
  explicit LaunchPlanner(const AgentConfig &C) : C(C) {}

  /// Called for every launch of \p Mangled, in order; counts it, and
  /// returns what to collect when it is selected.
  std::optional<PlannedLaunch> plan(const std::string &Mangled);

  /// Called once the metrics of \p L were collected: routes a kernel on its
  /// stage-1 samples (filling the route of \p L) and updates its state.
  void completed(PlannedLaunch &L, const std::map<std::string, double> &Values);

private:
  struct KernelState {
    unsigned Launches = 0;
    /// Launches whose leaf's metrics (or fixed list) were collected.
    unsigned Profiled = 0;
    /// The stage-1 samples, once known: the next selected launch collects
    /// the leaf's metrics.
    std::optional<std::map<std::string, double>> Samples;
  };
  std::optional<PlannedLaunch> choose(const std::string &Mangled);

  const AgentConfig &C;
  std::map<std::string, KernelState> Kernels;
};

/// The demangled name of \p Mangled without its parameters and return type
/// (`scale<float>`, `ns::k`), or \p Mangled when it does not demangle.
std::string demangledBaseName(const std::string &Mangled);

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_LAUNCHPLANNER_H
