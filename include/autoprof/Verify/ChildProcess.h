//===- ChildProcess.h - Running the user's program --------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs the profiled program as a child with extra environment variables,
/// its standard streams passed through (or discarded), and a timeout. Unlike
/// llvm::sys::ExecuteAndWait this keeps the signal that ended the child, so
/// the tool can pass on the status a shell would report (128 + signal).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_CHILDPROCESS_H
#define AUTOPROF_VERIFY_CHILDPROCESS_H

#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace autoprof {
namespace verify {

struct ChildResult {
  /// The exit status, or 128 + the signal that ended it.
  int Status = 0;
  /// The signal that ended the child, 0 when it exited.
  int Signal = 0;
  bool TimedOut = false;
  /// The tool was asked to stop (SIGINT or SIGTERM) while the child ran in
  /// its own process group, which was then killed.
  bool Interrupted = false;
  double WallSeconds = 0;
  /// Seconds spent waiting for ChildOptions::DeviceLock before the start.
  double LockWaitSeconds = 0;
};

struct ChildOptions {
  std::vector<std::string> Argv;
  std::map<std::string, std::string> Env;
  /// Seconds; 0 waits for ever.
  unsigned Timeout = 0;
  /// Sends the child's stdout and stderr to /dev/null.
  bool Quiet = false;
  /// Sends the child's stdout and stderr to this file instead.
  std::string OutputFile;
  /// Starts the child in a process group of its own, so that a timeout or
  /// an interruption of the tool kills everything it started (a shell and
  /// its commands), not just the child.
  bool NewProcessGroup = false;
  /// What the run is for ("build", "run", "poisoned-run", "profile"), for
  /// the report's timings.
  std::string Phase;
  /// A lock file the runner holds while the child runs (DeviceLock), so
  /// that runs which time or profile kernels take turns; empty for none.
  std::string DeviceLock;
};

/// Runs the program; fails only when it cannot be started.
llvm::Expected<ChildResult> runChild(const ChildOptions &O);

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_CHILDPROCESS_H
