//===- Measure.h - The agent's measuring mode -------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The injection library's second mode, for the verifier: it times every
/// launch of the configured kernels from CUPTI activity records, without
/// the range profiler, and saves the buffers of one launch.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_MEASURE_H
#define AUTOPROF_INJECT_MEASURE_H

namespace autoprof {
namespace inject {

/// Starts measuring with the configuration at \p ConfigPath; the
/// measurement is written when the program exits. Returns false, after
/// printing one line, when the configuration is unusable or CUPTI refuses.
bool startMeasuring(const char *ConfigPath);

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_MEASURE_H
