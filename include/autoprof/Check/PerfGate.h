//===- PerfGate.h - Kernels slower than their baseline ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The performance gate of `check`: the kernels timed in runs of the
/// program, compared with a baseline (autoprof/Verify/PerfBaseline.h), and
/// the findings of `autoprof-perf-regression` that the comparison gives.
/// docs/check.md describes the gate and docs/checks/autoprof-perf-regression.md
/// the finding.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_PERFGATE_H
#define AUTOPROF_CHECK_PERFGATE_H

#include "autoprof/Check/Check.h"
#include "autoprof/Verify/PerfBaseline.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace autoprof {

/// The name of the check whose findings the gate reports.
constexpr llvm::StringLiteral PerfRegressionCheckName =
    "autoprof-perf-regression";

/// What the gate found over the kernels it compares.
struct PerfGateResult {
  /// One per kernel compared: those timed now first, in order, then those
  /// of the baseline that did not launch.
  std::vector<verify::PerfComparison> Comparisons;
  unsigned Within = 0;
  unsigned Slower = 0;
  unsigned NotLaunched = 0;
  unsigned NotInBaseline = 0;
};

/// Compares the kernels of \p Current with \p Baseline (comparePerf),
/// keeping only those whose mangled name \p Compared holds.
///
/// A kernel of the baseline that \p Compared lacks is left out whether or
/// not it launched: it belongs to sources not checked now, or --kernel or
/// --checks deselect it, or it is gone. So is a kernel timed now that
/// \p Compared lacks (recorded, not compared).
PerfGateResult gatePerf(const verify::PerfBaseline &Baseline,
                        const verify::PerfBaseline &Current,
                        const std::set<std::string> &Compared,
                        double Tolerance);

/// One line on \p C for people, its kernel named by \p C.Name:
///
///     kernel 'k' is 1.31x slower than its baseline (2.01 us against 1.53 us,
///     tolerance 5%, noise 2.1%)
///     kernel 'k' is within its baseline: 1.02x (...)
///     kernel 'k' did not launch when the run command ran (baseline 1.53 us)
///     kernel 'k' is not in the baseline (1.55 us over 5 runs)
std::string describePerf(const verify::PerfComparison &C, double Tolerance);

/// The finding of \p C at \p Where: an error when the kernel is slower, a
/// warning when it did not launch, nothing otherwise.
std::optional<Finding> perfFinding(const verify::PerfComparison &C,
                                   const FileLocation &Where, double Tolerance);

} // namespace autoprof

#endif // AUTOPROF_CHECK_PERFGATE_H
