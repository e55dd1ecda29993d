//===- RangeProfiler.h - One kernel launch under the range profiler -*- C++
//-*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The CUPTI Range Profiler (cupti_range_profiler.h) on one CUDA context,
/// with auto ranges and kernel replay: begin() configures a metric set
/// before a launch, end() after it decodes the counters and evaluates each
/// metric with the Profiler Host API.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_RANGEPROFILER_H
#define AUTOPROF_INJECT_RANGEPROFILER_H

#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_range_profiler.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace autoprof {
namespace inject {

/// CUPTI's description of \p R, with the fix for the errors users can fix.
std::string describeCuptiError(CUptiResult R);

class RangeProfiler {
public:
  ~RangeProfiler();
  /// Enables the range profiler on \p Ctx, the current context, of device
  /// \p Device. Returns false with a message.
  bool enable(CUcontext Ctx, int Device, std::string &Error);
  /// Configures \p Metrics for the next launch and starts profiling.
  bool begin(const std::vector<std::string> &Metrics, std::string &Error);
  /// Stops profiling after the launch and evaluates the metrics.
  bool end(std::map<std::string, double> &Values, std::string &Error);
  /// Disables the range profiler before its context goes away.
  void disable();
  /// Replay passes of the configuration of the last begin().
  unsigned passes() const { return Passes; }
  const std::string &chip() const { return Chip; }

private:
  bool configure(const std::vector<std::string> &Metrics, std::string &Error);

  CUcontext Ctx = nullptr;
  CUpti_RangeProfiler_Object *Object = nullptr;
  CUpti_Profiler_Host_Object *Host = nullptr;
  std::string Chip;
  std::vector<uint8_t> Availability;
  std::vector<std::string> Metrics;
  std::vector<uint8_t> ConfigImage;
  std::vector<uint8_t> CounterData;
  unsigned Passes = 0;
};

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_RANGEPROFILER_H
