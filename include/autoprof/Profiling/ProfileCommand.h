//===- ProfileCommand.h - `profile` as a library call -----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `clang-autoprof profile` without its command line: the options as a
/// value, checked before anything runs; the request filled from a fixed
/// metric list, a tree or a plan; the device checked; the program run
/// through a command runner; the profile written and summed up; and the
/// exit status, which follows the program's.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_PROFILECOMMAND_H
#define AUTOPROF_PROFILING_PROFILECOMMAND_H

#include "autoprof/Profiling/ProfileProgram.h"

#include "autoprof/Profiling/ClockControl.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace profiling {

/// What `profile` is asked to do.
struct ProfileCommandOptions {
  /// The program and its arguments.
  std::vector<std::string> Program;
  /// Sources whose kernels' static features the tree's first tests read.
  std::vector<std::string> Sources;
  /// How the metrics are chosen: a fixed comma-separated list, a plan
  /// file, or a tree by name or path (the default tree when all are empty).
  std::string Metrics, Plan, Tree;
  /// The kernels profiled: an ECMAScript regular expression (empty: all).
  std::string KernelRegex;
  unsigned LaunchSkip = 0;
  unsigned LaunchCount = 1;
  /// `--cache-control=all`: the L2 cache flushed before each profiled
  /// launch (ProfileRequest::FlushCaches).
  bool FlushCaches = true;
  /// `--clock-control=base`: every GPU's clock locked to base while the
  /// program runs (ClockControl.h).
  bool LockClocks = false;
  /// Seconds before the program is stopped; 0: no limit.
  unsigned Timeout = 0;
  std::string CatalogPath;
  std::string InjectionLibrary;
  /// The profile to write.
  std::string Output;
};

/// What `profile` needs from its caller.
struct ProfileCommandHooks {
  /// Appends the kernels of the sources, with their static features;
  /// false after the sources' problems were reported.
  std::function<bool(std::vector<StaticKernel> &)> SourceKernels;
  /// Checks the request against this machine's GPUs.
  std::function<llvm::Error(const ProfileRequest &, const MetricClasses &)>
      CheckDevice;
  /// The clock-locking calls for LockClocks; null: NVML's (loadNVML()).
  std::function<llvm::Expected<ClockAPI>()> Clocks;
  /// Writes \p Text to \p Path.
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  /// Where errors and warnings go, one line each.
  std::function<void(const std::string &)> Error, Warning;
};

/// Splits the arguments after the first `--` of `profile`: with sources
/// (\p HasSources), a second `--` separates their compiler arguments
/// (\p CompilerArgs) from the program; else all of them are the program.
void splitProgramArguments(
    const std::vector<std::string> &AfterDashDash, bool HasSources,
    std::vector<std::string> &Program,
    std::optional<std::vector<std::string>> &CompilerArgs);

/// The injection library: $AUTOPROF_INJECT_LIBRARY, else
/// lib/libautoprof-inject.so beside the bin/ of the tool \p Argv0 (\p
/// MainAddr: an address in it).
std::string injectionLibraryPath(const char *Argv0, void *MainAddr);

/// Runs `profile`: reports what is wrong with \p O, or profiles its
/// program through \p Runner (progress and the summary line on \p Log) and
/// writes the profile, records collected so far included when the program
/// fails. Returns the exit status: 0; 1 for a bad request, a run that
/// could not be made or a profile with errors; 124 when the program ran
/// past its timeout; else the program's own non-zero status.
int runProfileCommand(const ProfileCommandOptions &O, ProfileCommandHooks &H,
                      verify::CommandRunner &Runner, llvm::raw_ostream &Log);

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_PROFILECOMMAND_H
