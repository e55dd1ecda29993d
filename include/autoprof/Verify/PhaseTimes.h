//===- PhaseTimes.h - Where the time of a verification goes -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A CommandRunner that passes every command on to another and adds up,
/// per phase (ChildOptions::Phase), how many commands ran, their wall time
/// and the time they waited for the device lock. `optimize` reports the
/// totals, so that the cost of each kind of run can be told apart.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_PHASETIMES_H
#define AUTOPROF_VERIFY_PHASETIMES_H

#include "autoprof/Verify/Verifier.h"

#include <map>
#include <string>

namespace autoprof {
namespace verify {

/// The commands of one phase.
struct PhaseTime {
  unsigned Count = 0;
  /// Wall seconds from start to end of the commands, waiting excluded.
  double Seconds = 0;
  /// Seconds spent waiting for the device lock before they started.
  double LockWaitSeconds = 0;
};

/// Phase name to its totals; commands with no phase count as "other".
using PhaseTimes = std::map<std::string, PhaseTime>;

/// Runs commands through another runner and times them by phase.
class TimingRunner : public CommandRunner {
public:
  explicit TimingRunner(CommandRunner &Inner) : Inner(Inner) {}
  llvm::Expected<ChildResult> run(const ChildOptions &O) override;
  const PhaseTimes &times() const { return Times; }

private:
  CommandRunner &Inner;
  PhaseTimes Times;
};

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_PHASETIMES_H
