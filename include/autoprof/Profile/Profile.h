//===- Profile.h - The profile that `profile` writes ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The profile format of docs/profile-format.md: one record per profiled
/// kernel launch, with its launch configuration, duration, metric values,
/// the route through the tree and the passes spent. The injection library
/// writes it and the tool reads it back, so this code uses neither LLVM nor
/// Clang.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILE_PROFILE_H
#define AUTOPROF_PROFILE_PROFILE_H

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autoprof {

/// Version of the profile JSON.
constexpr int ProfileFormatVersion = 1;

struct MetricValue {
  double Value = 0;
  std::string Unit;
};

/// One step of the route a kernel took through the tree.
struct ProfileRouteStep {
  std::string Node;
  std::optional<double> Value;
  std::string Branch;
};

/// One profiled kernel launch.
struct ProfileRecord {
  std::string Kernel;
  std::string MangledName;
  /// Which launch of this kernel it was (0 is its first launch).
  unsigned Launch = 0;
  /// Which run of the program (1, or 2 when stage 2 needed a second run).
  unsigned Run = 1;
  int Device = 0;
  std::array<unsigned, 3> Grid = {1, 1, 1};
  std::array<unsigned, 3> Block = {1, 1, 1};
  unsigned DynamicSharedMem = 0;
  /// Kernel duration from CUPTI activity records, in nanoseconds.
  std::optional<double> DurationNs;
  /// "metrics" (a fixed list), "stage1", "leaf" or "stage1+leaf".
  std::string Stage;
  std::vector<std::pair<std::string, MetricValue>> Metrics;
  std::vector<ProfileRouteStep> Route;
  std::string Leaf;
  std::string Focus;
  /// Replay passes the range profiler spent on this launch.
  unsigned Passes = 0;

  /// The value of metric \p Name, or null.
  const MetricValue *find(const std::string &Name) const;
  void set(const std::string &Name, double Value, const std::string &Unit);
};

struct Profile {
  std::string Tree;
  std::string Chip;
  std::vector<ProfileRecord> Records;
  /// Kernels the selection matched that never launched, problems met while
  /// profiling: one line each.
  std::vector<std::string> Warnings;
  std::vector<std::string> Errors;
};

/// Serialises \p P as the JSON of docs/profile-format.md.
std::string writeProfileJSON(const Profile &P);

/// Parses \p Text. On failure returns false with a one-line message in
/// \p Error (the line and column of malformed JSON, or the JSON path of a
/// bad field).
bool parseProfileJSON(const std::string &Text, Profile &Out,
                      std::string &Error);

/// Writes \p Text to \p Path through a temporary file and a rename, so that
/// a reader never sees half a file. Returns false on failure.
bool writeFileAtomically(const std::string &Path, const std::string &Text);

} // namespace autoprof

#endif // AUTOPROF_PROFILE_PROFILE_H
