//===- LaunchAttributes.h - Launch metrics from the driver ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `launch__*` metrics and the theoretical occupancy of one kernel
/// launch, from the CUDA driver (function and device attributes and its
/// occupancy calculator) rather than from the range profiler.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_LAUNCHATTRIBUTES_H
#define AUTOPROF_INJECT_LAUNCHATTRIBUTES_H

#include <cuda.h>

#include <array>
#include <map>
#include <string>

namespace autoprof {
namespace inject {

struct LaunchConfig {
  CUfunction Function = nullptr;
  std::array<unsigned, 3> Grid = {1, 1, 1};
  std::array<unsigned, 3> Block = {1, 1, 1};
  unsigned DynamicSharedMem = 0;
  CUstream Stream = nullptr;
};

/// Whether \p Metric is computed here rather than by the range profiler.
bool isLaunchMetric(const std::string &Metric);

/// Every launch metric of \p L on \p Device, keyed by metric name.
std::map<std::string, double> launchMetrics(const LaunchConfig &L,
                                            CUdevice Device);

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_LAUNCHATTRIBUTES_H
