//===- ProfilerHost.h - CUPTI Profiler Host API without a GPU ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUPTI Profiler Host API, loaded at run time: which chips CUPTI knows,
/// whether a metric exists on a chip for the range profiler, and the exact
/// number of replay passes a metric set costs. None of this needs a GPU.
///
/// CUPTI is loaded with dlopen so that a missing library is a clear error of
/// the commands that need it, not a failure to start the tool.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_PROFILERHOST_H
#define AUTOPROF_METRICS_PROFILERHOST_H

#include "autoprof/Metrics/TreeBudget.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace autoprof {

/// A loaded CUPTI library.
class ProfilerHost : public PassCounter {
public:
  /// Loads libcupti.so from \p CudaPath (lib64, lib, extras/CUPTI/lib64) or
  /// the system's library path.
  static llvm::Expected<std::unique_ptr<ProfilerHost>>
  load(const std::string &CudaPath);

  /// The chips the range profiler supports ("GH100", ...).
  llvm::Expected<std::vector<std::string>> supportedChips();

  /// The chip of each visible CUDA device, in device order. Needs the CUDA
  /// driver (a clear error when it or a device is missing). The answer is
  /// remembered for this machine's GPUs and driver (DeviceChipCache.h).
  llvm::Expected<std::vector<std::string>> deviceChips();

  /// deviceChips() without the cache: starts the driver and asks CUPTI.
  llvm::Expected<std::vector<std::string>> probeDeviceChips();

  /// Fails with a message listing the supported chips when \p Chip is not
  /// one of them.
  llvm::Error checkChip(const std::string &Chip) override;

  /// The replay passes that collecting \p Metrics together costs on \p Chip.
  /// Fails when a metric is not valid there (validate first).
  llvm::Expected<unsigned>
  passCount(const std::string &Chip,
            const std::vector<std::string> &Metrics) override;

  /// Whether \p Metric is a range-profiler metric of \p Chip. Each check uses
  /// its own host object: one rejected metric spoils the object it was added
  /// to.
  bool isValid(const std::string &Chip, const std::string &Metric) override;

  struct Api;
  ~ProfilerHost() override;

private:
  std::unique_ptr<Api> Fns;
};

} // namespace autoprof

#endif // AUTOPROF_METRICS_PROFILERHOST_H
