//===- ClockControl.h - Locking the GPUs' clocks while profiling -*- C++
//-*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `profile --clock-control=base`, ncu's meaning: while the program runs,
/// every GPU's graphics clock is locked to its base (rated TDP) frequency,
/// so that durations and rates do not depend on boost and temperature. The
/// lock goes through NVML (libnvidia-ml.so.1, loaded at run time, as the
/// driver installs it), needs root, and is device-wide: other processes on
/// the GPU run at the locked clock meanwhile. It is released when the
/// ClockLock is destroyed.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_CLOCKCONTROL_H
#define AUTOPROF_PROFILING_CLOCKCONTROL_H

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace autoprof {
namespace profiling {

/// The NVML calls the lock makes, by device index; each returns an empty
/// string or NVML's description of its error.
struct ClockAPI {
  std::function<std::string(unsigned &Count)> DeviceCount;
  std::function<std::string(unsigned Device)> LockToBase;
  std::function<std::string(unsigned Device)> Unlock;
  /// Called once, when the last lock is gone.
  std::function<void()> Shutdown;
};

/// NVML's calls, or an error when NVML cannot be loaded or initialised.
llvm::Expected<ClockAPI> loadNVML();

/// Every GPU's clock locked to base, until destroyed.
class ClockLock {
public:
  /// Locks every GPU of \p API; on the first failure, unlocks those locked
  /// and returns one line naming the GPU and NVML's error.
  static llvm::Expected<std::unique_ptr<ClockLock>> lockToBase(ClockAPI API);
  ~ClockLock();
  ClockLock(const ClockLock &) = delete;
  ClockLock &operator=(const ClockLock &) = delete;

private:
  explicit ClockLock(ClockAPI API) : API(std::move(API)) {}
  ClockAPI API;
  std::vector<unsigned> Locked;
};

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_CLOCKCONTROL_H
