//===- KernelProfilers.h - How optimize profiles the original ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The profilers of `optimize`'s session: the tree, in-process through
/// lib/Profiling (the kernels' static features from the source, the
/// request checked against the device before the program starts), or a
/// profile given as a file. Either may keep a copy of the profile.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_KERNELPROFILERS_H
#define AUTOPROF_OPTIMIZETOOLING_KERNELPROFILERS_H

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Optimize/Session.h"
#include "autoprof/Profiling/ProfileProgram.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/Verifier.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>

namespace autoprof {

/// How the tree profiler profiles.
struct TreeProfilerOptions {
  /// The metric catalog; the tree is found beside it (tree-models/).
  std::string CatalogPath;
  /// The tree, by name or path.
  std::string Tree;
  /// The source whose kernels are profiled, and how it is parsed.
  std::string Source;
  SourceSettings Parse;
  /// The kernels profiled: the filter on the source and the injection
  /// library's regular expression (empty: all).
  KernelFilter Filter;
  std::string KernelRegex;
  std::string InjectLibrary;
  /// The shell command that runs the built program.
  std::string Run;
  /// Seconds a run may take (0: no limit), and the lock every run holds.
  unsigned Timeout = 0;
  std::string DeviceLock;
  /// Where to copy the profile; empty for nowhere.
  std::string KeepProfile;
  /// Checks the request against this machine's GPUs; empty for no check.
  std::function<llvm::Error(const profiling::ProfileRequest &,
                            const profiling::MetricClasses &)>
      CheckDevice;
  /// Where the parse's messages go.
  SourceMessages Messages;
};

/// Profiles the original with the tree: writes \p Dir's profile.json (the
/// program's output in profile.log) and reads the kernels from it.
std::unique_ptr<optimize::KernelProfiler>
newTreeProfiler(TreeProfilerOptions O, verify::CommandRunner &Runner,
                llvm::StringRef Dir);

/// Gives the profile \p P read from \p File, copied to \p KeepProfile
/// (when not empty) each time it is asked for.
std::unique_ptr<optimize::KernelProfiler>
newGivenProfiler(std::string File, optimize::ProfiledKernels P,
                 std::string KeepProfile);

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_KERNELPROFILERS_H
