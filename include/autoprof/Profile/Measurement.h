//===- Measurement.h - What a measured run of a program records -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The record the injection library writes when it measures a program for
/// the verifier instead of profiling it: for each selected kernel, how many
/// times it launched and the duration of each launch (CUPTI activity), and
/// for one chosen launch, the device buffers its pointer arguments point
/// into, saved after the launch together with whether the launch changed
/// them. docs/verify.md documents the JSON. Like the profile, this code
/// uses neither LLVM nor Clang.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILE_MEASUREMENT_H
#define AUTOPROF_PROFILE_MEASUREMENT_H

#include <cstdint>
#include <string>
#include <vector>

namespace autoprof {

/// Version of the measurement JSON.
constexpr int MeasurementFormatVersion = 1;

/// One device allocation that pointer arguments of the snapshot launch
/// point into, saved to a file after the launch.
struct BufferSnapshot {
  /// The kernel's parameters (0-based) that point into the allocation.
  std::vector<unsigned> Params;
  uint64_t Bytes = 0;
  /// How many bytes of the allocation the launch changed: a lower bound of
  /// what it wrote.
  uint64_t ChangedBytes = 0;
  /// The file holding the allocation's bytes after the launch.
  std::string File;
};

/// What one run recorded of one kernel.
struct KernelMeasurement {
  std::string MangledName;
  unsigned Launches = 0;
  /// Durations of the launches whose activity records arrived, in launch
  /// order, in nanoseconds.
  std::vector<double> DurationsNs;
  /// Which launch was saved (0-based); meaningful when Snapshots is not
  /// empty.
  unsigned SnapshotLaunch = 0;
  std::vector<BufferSnapshot> Snapshots;
  /// Bytes of the saved launch's buffers overwritten with a pseudo-random
  /// poison just before it (the bytes an earlier launch changed), so that
  /// its outputs cannot be answered from that launch; 0 when none were.
  uint64_t PoisonedBytes = 0;
  /// How many of the program's other device allocations (none of the saved
  /// launch's pointer arguments points into them) were watched across the
  /// saved launch, and the size of each that it changed: memory written
  /// outside its arguments.
  unsigned OutsideWatched = 0;
  std::vector<uint64_t> OutsideChanged;
  /// A kernel the program launched that was not selected: only its
  /// launches and durations are recorded (the whole program's GPU time).
  bool Other = false;
};

struct Measurement {
  /// Peak DRAM bandwidth of the device, from the driver's memory clock and
  /// bus width, in bytes per second; 0 when unknown.
  double DramBytesPerSecond = 0;
  /// Size of the device's L2 cache in bytes; 0 when unknown.
  double L2Bytes = 0;
  std::vector<KernelMeasurement> Kernels;
  /// Problems met while measuring, one line each.
  std::vector<std::string> Errors;

  /// The kernel called \p MangledName, or null.
  const KernelMeasurement *find(const std::string &MangledName) const;
};

/// Serialises \p M as JSON.
std::string writeMeasurementJSON(const Measurement &M);

/// Parses \p Text. On failure returns false with a one-line message in
/// \p Error (the line and column of malformed JSON, or the JSON path of a
/// bad field).
bool parseMeasurementJSON(const std::string &Text, Measurement &Out,
                          std::string &Error);

} // namespace autoprof

#endif // AUTOPROF_PROFILE_MEASUREMENT_H
