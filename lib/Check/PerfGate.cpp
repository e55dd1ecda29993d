//===- PerfGate.cpp - Kernels slower than their baseline ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/PerfGate.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

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

namespace {

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

} // namespace

verify::KernelSignature autoprof::signatureOf(const KernelRecord &K) {
  verify::KernelSignature S;
  S.Name = K.QualifiedName;
  S.MangledName = K.MangledName;
  for (unsigned I = 0; I < K.Params.size(); ++I)
    if (K.Params[I].Pointer)
      S.Pointers[I] = {K.Params[I].Name,
                       verify::elementKindOf(K.Params[I].Type)};
  return S;
}

llvm::Expected<PerfGateRun>
autoprof::timeAndGate(llvm::ArrayRef<GateKernel> Kernels,
                      const std::optional<verify::PerfBaseline> &Baseline,
                      const PerfGateOptions &O, verify::CommandRunner &Runner,
                      llvm::raw_ostream &Log) {
  verify::MeasureOptions M;
  M.RunCommand = O.RunCommand;
  M.InjectLibrary = O.InjectLibrary;
  M.Seeds.clear();
  for (unsigned I = 1; I <= O.Runs; ++I)
    M.Seeds.push_back(I);
  M.RunTimeout = O.Timeout;
  M.WorkDir = O.WorkDir;
  M.DeviceLockFile = O.DeviceLock;
  std::vector<verify::KernelSignature> Signatures;
  std::set<std::string> Compared;
  for (const GateKernel &K : Kernels) {
    Signatures.push_back(K.Signature);
    if (K.Compare)
      Compared.insert(K.Signature.MangledName);
  }
  if (O.Verbose)
    Log << "clang-autoprof: perf gate: timing "
        << plural(Signatures.size(), "kernel", "kernels") << " over " << O.Runs
        << " runs of the program\n";
  llvm::Expected<std::vector<verify::RunOutcome>> Runs =
      verify::measureRuns(Runner, M, Signatures, "perf", /*SaveBuffers=*/false);
  if (!Runs)
    return Runs.takeError();
  for (size_t I = 0; I < Runs->size(); ++I)
    if (std::optional<std::string> F = verify::runFailure((*Runs)[I].Child)) {
      std::string Why =
          verify::tellingLine(verify::measuredRunLog(M.WorkDir, "perf", I));
      return llvm::createStringError(
          "the run command failed (seed " + std::to_string((*Runs)[I].Seed) +
          ", " + *F + ")" + (Why.empty() ? "" : ": " + Why));
    }
  const std::optional<Measurement> &First = Runs->front().Measured;
  if (!First)
    return llvm::createStringError(
        "the run command never used CUDA: no kernel was timed");

  PerfGateRun Out;
  for (const GateKernel &K : Kernels)
    if (std::optional<verify::Timing> T =
            verify::summarizeTiming(*Runs, K.Signature.MangledName))
      Out.Current.Kernels.push_back(
          {K.Signature.Name, K.Signature.MangledName, *T});
  if (Out.Current.Kernels.empty())
    return llvm::createStringError(
        "no kernel of the sources launched when the run command ran" +
        (First->Errors.empty() ? "" : ": " + First->Errors.front()));
  if (O.Record)
    if (llvm::Error E = O.Record(Out.Current))
      return std::move(E);
  if (!Baseline)
    return std::move(Out);

  PerfGateResult G = gatePerf(*Baseline, Out.Current, Compared, O.Tolerance);
  for (const verify::PerfComparison &C : G.Comparisons) {
    if (C.Status == verify::PerfStatus::NotInBaseline) {
      if (O.Warn)
        O.Warn(describePerf(C, O.Tolerance) +
               "; it is not compared (--perf-record records it)");
    } else if (O.Verbose)
      Log << "clang-autoprof: perf gate: " << describePerf(C, O.Tolerance)
          << "\n";
    const GateKernel *K = nullptr;
    for (const GateKernel &X : Kernels)
      if (X.Signature.MangledName == C.MangledName)
        K = &X;
    if (!K)
      continue;
    std::optional<Finding> F = perfFinding(C, K->Where, O.Tolerance);
    if (!F)
      continue;
    if (F->Level == Severity::Warning && K->WarningsAsErrors &&
        K->WarningsAsErrors->contains(F->Check)) {
      F->Level = Severity::Error;
      F->Promoted = true;
    }
    Out.Findings.push_back(std::move(*F));
  }
  Log << "clang-autoprof: perf gate: " << plural(G.Within, "kernel", "kernels")
      << " within tolerance, " << G.Slower << " slower, " << G.NotLaunched
      << " not launched\n";
  return std::move(Out);
}

llvm::Error autoprof::checkGateOptions(const PerfGateOptions &G,
                                       llvm::StringRef Record,
                                       llvm::StringRef Baseline,
                                       llvm::ArrayRef<std::string> Sources) {
  namespace fs = llvm::sys::fs;
  auto Problem = [](const llvm::Twine &Why) {
    return llvm::createStringError(Why);
  };
  if (G.RunCommand.empty())
    return Problem("the performance gate needs the program: give --run "
                   "\"<cmd>\" with --perf-record or --perf-baseline");
  if (G.Runs < 3)
    return Problem("--perf-runs must be at least 3: the noise is "
                   "estimated over runs with different seeds");
  if (!std::isfinite(G.Tolerance) || G.Tolerance < 0)
    return Problem("--perf-tolerance must be a non-negative fraction "
                   "(0.05 allows 5%)");
  if (!Record.empty() && !Baseline.empty() &&
      normalPath(Record) == normalPath(Baseline))
    return Problem("--perf-record '" + Record +
                   "' would replace the baseline it is compared with");
  if (!Record.empty() && fs::exists(Record))
    for (const std::string &In : Sources)
      if (fs::exists(In) && fs::equivalent(Record, In))
        return Problem("--perf-record '" + Record +
                       "' names a source, which the baseline would replace");
  return llvm::Error::success();
}
