//===- PerfBaseline.h - Kernel timings to compare later ---------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The performance baseline of `check`: each kernel's timing over measured
/// runs of a program (summarizeTiming), written as JSON and compared with a
/// later measurement. A kernel is slower when its median exceeds the
/// baseline's by more than the tolerance plus the noise, the larger relative
/// spread (max - min) / median of the two timings. docs/verify.md documents
/// the JSON.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_PERFBASELINE_H
#define AUTOPROF_VERIFY_PERFBASELINE_H

#include "autoprof/Verify/Judge.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace autoprof {
namespace verify {

/// Version of the baseline JSON.
constexpr int PerfBaselineVersion = 1;

/// One kernel's timing in a baseline.
struct BaselineKernel {
  std::string Name;
  std::string MangledName;
  Timing T;
};

struct PerfBaseline {
  std::vector<BaselineKernel> Kernels;
};

/// Serialises \p B as JSON.
std::string writePerfBaselineJSON(const PerfBaseline &B);

/// Parses \p Text, read from \p Path; the error names the path and the line
/// and column of malformed JSON, or the JSON path of a bad field.
llvm::Expected<PerfBaseline> parsePerfBaselineJSON(llvm::StringRef Text,
                                                   llvm::StringRef Path);

/// Reads the baseline file at \p Path (parsePerfBaselineJSON()); fails
/// with one line when it cannot be read or is malformed.
llvm::Expected<PerfBaseline> readPerfBaselineFile(llvm::StringRef Path);

enum class PerfStatus {
  /// Within the tolerance plus the noise.
  Within,
  Slower,
  /// In the baseline, but no launch of it was timed now.
  NotLaunched,
  /// Timed now, but not in the baseline.
  NotInBaseline,
};

/// The comparison of one kernel.
struct PerfComparison {
  std::string Name;
  std::string MangledName;
  PerfStatus Status = PerfStatus::Within;
  /// Current median over baseline median; 0 when either is missing.
  double Ratio = 0;
  /// The relative spread allowed on top of the tolerance.
  double Noise = 0;
  std::optional<Timing> Baseline;
  std::optional<Timing> Current;
};

/// Compares \p Current (kernels timed now) with \p Baseline: one result per
/// kernel of either, the current kernels first, in order.
std::vector<PerfComparison> comparePerf(const PerfBaseline &Baseline,
                                        const PerfBaseline &Current,
                                        double Tolerance);

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_PERFBASELINE_H
