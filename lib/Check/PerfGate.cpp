//===- PerfGate.cpp - Kernels slower than their baseline ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/PerfGate.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

using namespace autoprof;
using namespace autoprof::verify;

namespace {

/// Three significant digits, never in exponent form ("4260 us", "25.4 us").
std::string microseconds(double Ns) {
  double Us = Ns / 1e3;
  int Decimals = Us >= 100 ? 0 : Us >= 10 ? 1 : Us >= 1 ? 2 : 3;
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.*f us", Decimals, Us);
  return S;
}

std::string percent(double Fraction, const char *Format) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format(Format, Fraction * 100) << "%";
  return S;
}

/// "(2.01 us against 1.53 us, tolerance 5%, noise 2.1%)"
std::string against(const PerfComparison &C, double Tolerance) {
  return "(" + microseconds(C.Current->MedianNs) + " against " +
         microseconds(C.Baseline->MedianNs) + ", tolerance " +
         percent(Tolerance, "%g") + ", noise " + percent(C.Noise, "%.1f") + ")";
}

std::string ratio(double R) {
  std::string S;
  llvm::raw_string_ostream(S) << llvm::format("%.2fx", R);
  return S;
}

} // namespace

PerfGateResult autoprof::gatePerf(const PerfBaseline &Baseline,
                                  const PerfBaseline &Current,
                                  const std::set<std::string> &Compared,
                                  double Tolerance) {
  auto Keep = [&](const PerfBaseline &B) {
    PerfBaseline Out;
    for (const BaselineKernel &K : B.Kernels)
      if (Compared.count(K.MangledName))
        Out.Kernels.push_back(K);
    return Out;
  };
  PerfGateResult R;
  R.Comparisons = comparePerf(Keep(Baseline), Keep(Current), Tolerance);
  for (const PerfComparison &C : R.Comparisons) {
    switch (C.Status) {
    case PerfStatus::Within:
      ++R.Within;
      break;
    case PerfStatus::Slower:
      ++R.Slower;
      break;
    case PerfStatus::NotLaunched:
      ++R.NotLaunched;
      break;
    case PerfStatus::NotInBaseline:
      ++R.NotInBaseline;
      break;
    }
  }
  return R;
}

std::string autoprof::describePerf(const PerfComparison &C, double Tolerance) {
  std::string Kernel = "kernel '" + C.Name + "'";
  switch (C.Status) {
  case PerfStatus::Within:
    return Kernel + " is within its baseline: " + ratio(C.Ratio) + " " +
           against(C, Tolerance);
  case PerfStatus::Slower:
    return Kernel + " is " + ratio(C.Ratio) + " slower than its baseline " +
           against(C, Tolerance);
  case PerfStatus::NotLaunched:
    return Kernel + " did not launch when the run command ran (baseline " +
           microseconds(C.Baseline->MedianNs) + ")";
  case PerfStatus::NotInBaseline:
    return Kernel + " is not in the baseline (" +
           microseconds(C.Current->MedianNs) + " over " +
           std::to_string(C.Current->Runs) + " runs)";
  }
  return Kernel;
}

std::optional<Finding> autoprof::perfFinding(const PerfComparison &C,
                                             const FileLocation &Where,
                                             double Tolerance) {
  if (C.Status != PerfStatus::Slower && C.Status != PerfStatus::NotLaunched)
    return std::nullopt;
  Finding F;
  F.Check = PerfRegressionCheckName.str();
  F.Level =
      C.Status == PerfStatus::Slower ? Severity::Error : Severity::Warning;
  F.Message = describePerf(C, Tolerance);
  F.File = Where.File;
  F.Line = Where.Line;
  F.Column = Where.Column;
  F.Offset = Where.Offset;
  return F;
}
