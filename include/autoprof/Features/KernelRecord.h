//===- KernelRecord.h - Static description of CUDA kernels ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The static features of CUDA kernels and their launch sites, as plain data.
///
/// This header is the boundary between the Clang-dependent extractor and the
/// Clang-free layers (tree routing, the profiler agent): it depends on neither
/// Clang nor LLVM. docs/features.md defines every feature.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_FEATURES_KERNELRECORD_H
#define AUTOPROF_FEATURES_KERNELRECORD_H

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autoprof {

/// One parameter of a kernel.
struct KernelParam {
  std::string Name;
  std::string Type;
  bool Pointer = false;
  /// For a pointer, whether the pointee is const; otherwise whether the
  /// parameter itself is.
  bool Const = false;
  bool Restrict = false;
};

/// `__launch_bounds__(MaxThreads, MinBlocks, MaxBlocks)`.
struct LaunchBounds {
  std::optional<int64_t> MaxThreadsPerBlock;
  std::optional<int64_t> MinBlocksPerMultiprocessor;
  std::optional<int64_t> MaxBlocksPerCluster;
};

/// Whether a kernel is a plain function, a template or an instantiation.
enum class TemplateKind { None, Primary, Instantiation };

/// The names of all features, in output order. Each is a key of
/// KernelFeatures::values().
const std::vector<std::string> &featureNames();

/// Numeric static features of one kernel, keyed by the names in
/// featureNames(). Counts are integers; arithmetic_intensity_estimate is
/// fractional and absent when the kernel has no global access.
class KernelFeatures {
public:
  KernelFeatures();
  /// Sets feature \p Name; asserts that the name is known.
  void set(const std::string &Name, double Value);
  /// Adds \p Delta to feature \p Name.
  void add(const std::string &Name, double Delta);
  /// The value of \p Name, or nullopt when it has none.
  std::optional<double> get(const std::string &Name) const;
  /// Removes the value of \p Name (it prints as null).
  void clear(const std::string &Name);
  /// All features in featureNames() order.
  const std::vector<std::pair<std::string, std::optional<double>>> &
  values() const {
    return Values;
  }

private:
  std::vector<std::pair<std::string, std::optional<double>>> Values;
};

/// Everything `features` reports about one kernel.
struct KernelRecord {
  std::string Name;
  std::string QualifiedName;
  std::string MangledName;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  TemplateKind Template = TemplateKind::None;
  std::vector<std::string> TemplateArgs;
  std::vector<KernelParam> Params;
  std::optional<LaunchBounds> Bounds;
  KernelFeatures Features;
};

/// One `kernel<<<grid, block, shared, stream>>>(...)` expression.
struct LaunchSite {
  std::string Kernel;
  std::string QualifiedKernel;
  std::string Caller;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Grid;
  std::string Block;
  /// Source text of the optional arguments; nullopt when omitted.
  std::optional<std::string> SharedMem;
  std::optional<std::string> Stream;
  /// Threads per block when the block argument is a compile-time constant.
  std::optional<int64_t> BlockSize;
};

/// The result of analysing one or more translation units.
struct FeatureReport {
  std::vector<KernelRecord> Kernels;
  std::vector<LaunchSite> LaunchSites;
};

/// Version of the JSON format written by writeFeaturesJSON.
constexpr int FeaturesFormatVersion = 1;

/// Serialises \p Report as the JSON documented in docs/features.md.
std::string writeFeaturesJSON(const FeatureReport &Report);

/// Serialises \p Report as stable, line-oriented text for people and
/// FileCheck.
std::string writeFeaturesText(const FeatureReport &Report);

} // namespace autoprof

#endif // AUTOPROF_FEATURES_KERNELRECORD_H
