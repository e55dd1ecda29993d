//===- ProfileProgram.h - Profile a user's program --------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Profiling a user's unchanged program: the program runs with the injection
/// library loaded (CUDA_INJECTION64_PATH), which collects the tree's stage-1
/// samples and the leaf's metrics of each selected kernel launch, or a fixed
/// metric list. Everything that can be wrong with the request is checked
/// before the program starts (classifyMetrics, checkDevice). Afterwards
/// profileProgram() adds units and derived metrics, and runs the program a
/// second time when a kernel launched only once before its leaf's metrics
/// could be collected.
///
/// The program runs through a verify::CommandRunner, so that a test can
/// stand in for the program and the injection library, and so that
/// `optimize` profiles in-process under its device lock and phase timings.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_PROFILEPROGRAM_H
#define AUTOPROF_PROFILING_PROFILEPROGRAM_H

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/TreeBudget.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "autoprof/Verify/Verifier.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace autoprof {
namespace profiling {

/// A kernel the sources or a plan showed, with its static features (null:
/// unknown), which the tree's stage-1 tests may read.
struct StaticKernel {
  std::string Name;
  std::string QualifiedName;
  std::string MangledName;
  std::map<std::string, std::optional<double>> Features;
};

/// What to profile and how.
struct ProfileRequest {
  /// The program and its arguments.
  std::vector<std::string> Program;
  /// Added to the program's environment.
  std::map<std::string, std::string> Env;
  /// A fixed metric list for every selected launch; empty: route with Tree.
  std::vector<std::string> Metrics;
  /// Tree mode: the tree and its file (the injection library loads it).
  ProfilingTree Tree;
  std::string TreePath;
  /// Kernels the sources or a plan showed. Selected kernels among them that
  /// never launch are named in a warning.
  std::vector<StaticKernel> Kernels;
  /// Selects kernels by name (the injection library's syntax: ECMAScript);
  /// empty: every kernel.
  std::string KernelRegex;
  unsigned LaunchSkip = 0;
  unsigned LaunchCount = 1;
  /// Flush the L2 cache before each profiled launch, as ncu's
  /// `--cache-control all` does; false: the launch finds the cache as the
  /// program left it.
  bool FlushCaches = false;
  /// Seconds before the program is stopped; 0: no limit.
  unsigned Timeout = 0;
  /// The injection library to load.
  std::string InjectionLibrary;
  /// Where the first run's output goes: empty for the tool's own stdout and
  /// stderr, else this file. The second run's output is always discarded.
  std::string OutputFile;
  /// Passed on to every run (verify::ChildOptions).
  bool NewProcessGroup = false;
  std::string DeviceLock;

  bool fixedMetrics() const { return !Metrics.empty(); }
};

/// How each requested metric is obtained.
struct MetricClasses {
  /// Collected by the range profiler, each once, sorted.
  std::vector<std::string> Range;
  /// Derived metrics, with their formulas' inputs.
  std::map<std::string, std::vector<std::string>> Derived;
  /// Needing the SASS metrics API, which the injection library does not
  /// drive.
  std::set<std::string> Sass;
};

/// Sorts the metrics \p R asks for (its fixed list, or every metric of its
/// tree) by how they are obtained. In fixed mode, a metric needing the SASS
/// metrics API or a launch__ name the catalog lacks is an error (one per
/// metric, joined); a tree's SASS metrics are left out with a warning when
/// the profile is made.
llvm::Expected<MetricClasses> classifyMetrics(const ProfileRequest &R,
                                              const MetricCatalog &C);

/// Checks, before the program starts, that the tree is for the chips of
/// this machine's GPUs (\p Chips) and that every range metric is valid on
/// each: one error per bad metric, joined.
llvm::Error checkDevice(const ProfileRequest &R, const MetricClasses &Classes,
                        llvm::ArrayRef<std::string> Chips, PassCounter &Host);

/// The metrics \p Rec's kernel asked for: the fixed list, or the tree's
/// stage-1 samples and its leaf's metrics, as far as its stage reached.
std::vector<std::string> wantedMetrics(const ProfileRequest &R,
                                       const ProfileRecord &Rec);

/// What profiling made.
struct ProfileRun {
  /// The records of both runs, completed, with warnings and errors.
  Profile P;
  /// How the (first) run of the program ended.
  verify::ChildResult First;
  /// 1, or 2 when the program ran a second time.
  unsigned Runs = 1;
};

/// Runs the program of \p R through \p Runner with the injection library,
/// once or twice, and returns the completed profile. Fails when the
/// program could not be started, the injection library wrote a bad
/// profile, or a file in a temporary directory could not be written; a
/// program that fails or times out is not an error (see ProfileRun::First).
/// Progress lines go to \p Log.
llvm::Expected<ProfileRun> profileProgram(const ProfileRequest &R,
                                          const MetricCatalog &C,
                                          const MetricClasses &Classes,
                                          verify::CommandRunner &Runner,
                                          llvm::raw_ostream &Log);

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_PROFILEPROGRAM_H
