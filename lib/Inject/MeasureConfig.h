//===- MeasureConfig.h - What the verifier asks the agent -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The configuration the verifier writes for the injection library when it
/// measures a program (a JSON file named by AUTOPROF_MEASURE_CONFIG): which
/// kernels to time, which of their launches to save, and which of their
/// parameters are pointers whose buffers are saved.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_MEASURECONFIG_H
#define AUTOPROF_INJECT_MEASURECONFIG_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace inject {

struct MeasureConfig {
  /// Where the measurement JSON goes.
  std::string Output;
  /// The folder for the saved buffers; empty saves none.
  std::string SnapshotDir;
  /// The launch of each kernel (0-based) whose buffers are saved.
  unsigned SnapshotLaunch = 0;
  /// The kernels measured, by mangled name, with the indices of their
  /// pointer parameters.
  std::map<std::string, std::vector<unsigned>> Kernels;
  /// The launch (at least 1) before which the bytes that the launch just
  /// before it changed are overwritten with a pseudo-random poison drawn
  /// from PoisonSeed; 0 poisons nothing.
  unsigned PoisonLaunch = 0;
  uint64_t PoisonSeed = 0;
  /// For each kernel, the element kind of each of its pointer parameters,
  /// in the order of Kernels ("f32", "i32", "bytes", ...): the poison is
  /// made of values of that kind.
  std::map<std::string, std::vector<std::string>> PoisonKinds;
};

/// Parses the configuration \p Text read from \p Path. On failure returns
/// false with a one-line message in \p Error.
bool parseMeasureConfig(const std::string &Text, const std::string &Path,
                        MeasureConfig &Out, std::string &Error);

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_MEASURECONFIG_H
