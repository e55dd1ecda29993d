//===- Judge.cpp - Whether a candidate is correct and faster --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/Judge.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

namespace {

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

std::string formatDouble(double V, unsigned Digits = 3) {
  std::string S;
  raw_string_ostream OS(S);
  OS << format(("%." + std::to_string(Digits) + "g").c_str(), V);
  return OS.str();
}

std::string microseconds(double Ns) { return formatDouble(Ns / 1e3) + " us"; }

const BufferSnapshot *findBuffer(const KernelMeasurement &K, unsigned Param) {
  for (const BufferSnapshot &S : K.Snapshots)
    if (std::find(S.Params.begin(), S.Params.end(), Param) != S.Params.end())
      return &S;
  return nullptr;
}

uint64_t changedBytes(const KernelMeasurement &K) {
  uint64_t N = 0;
  for (const BufferSnapshot &S : K.Snapshots)
    N += S.ChangedBytes;
  return N;
}

Judgement verdict(Verdict V, const Twine &Reason) {
  Judgement J;
  J.V = V;
  J.Reason = Reason.str();
  return J;
}

/// The most that two runs of the original with the same input may differ
/// in a floating-point buffer, as a part of its largest magnitude, for the
/// difference to be taken for rounding in another order.
constexpr double OrderLimit = 1e-2;

/// Per parameter, how far two runs of the original with the same input
/// lie apart in its saved buffer (largestDifference()): nullopt when they
/// differ in integers or bytes; absent when they agree or were not saved.
using Spreads = std::map<unsigned, std::optional<double>>;

/// The spreads between \p Orig and \p Repeat, a second run of the original
/// with the same input (null: none).
Spreads spreadsOf(const KernelSignature &K, const KernelMeasurement &Orig,
                  const KernelMeasurement *Repeat) {
  Spreads Out;
  if (!Repeat)
    return Out;
  for (const BufferSnapshot &S : Orig.Snapshots) {
    unsigned Param = S.Params.front();
    const BufferSnapshot *R = findBuffer(*Repeat, Param);
    if (!R)
      continue;
    auto A = MemoryBuffer::getFile(S.File, /*IsText=*/false);
    auto B = MemoryBuffer::getFile(R->File, /*IsText=*/false);
    if (!A || !B)
      continue;
    auto P = K.Pointers.find(Param);
    ElementKind Kind =
        P != K.Pointers.end() ? P->second.Kind : ElementKind::Bytes;
    std::optional<double> D =
        largestDifference(Kind, (*A)->getBuffer(), (*B)->getBuffer());
    // Rounding in another order moves a result by a small part of the
    // values; more is another kind of difference (memory read before it
    // was written, a race), which no tolerance can judge.
    if (D && *D > OrderLimit * largestMagnitude(Kind, (*A)->getBuffer()))
      D = std::nullopt;
    if (!D || *D > 0)
      Out[Param] = D;
  }
  return Out;
}

/// The first difference of the saved outputs, or nullopt; \p Order holds
/// the original's own spreads with the same input.
std::optional<std::string> compareOutputs(const KernelSignature &K,
                                          const KernelMeasurement &Orig,
                                          const KernelMeasurement &Cand,
                                          const JudgeOptions &O,
                                          const Spreads &Order) {
  for (const BufferSnapshot &S : Orig.Snapshots) {
    unsigned Param = S.Params.front();
    auto P = K.Pointers.find(Param);
    std::string Name = P != K.Pointers.end() && !P->second.Name.empty()
                           ? "'" + P->second.Name + "'"
                           : "argument " + std::to_string(Param);
    ElementKind Kind =
        P != K.Pointers.end() ? P->second.Kind : ElementKind::Bytes;
    const BufferSnapshot *C = findBuffer(Cand, Param);
    if (!C)
      return "the buffer of " + Name + " was not saved for the candidate";
    auto A = MemoryBuffer::getFile(S.File, /*IsText=*/false);
    auto B = MemoryBuffer::getFile(C->File, /*IsText=*/false);
    if (!A || !B)
      return "cannot read the saved buffer of " + Name;
    double Slack = 0, Spread = 0;
    if (auto It = Order.find(Param); It != Order.end()) {
      if (!It->second)
        return Name +
               " differs between two runs of the original with the "
               "same input, in " +
               elementKindName(Kind).str() + " elements" +
               (isFloatingPoint(Kind) ? " by more than rounding" : "") +
               ": it depends on the order of the threads, and no "
               "tolerance tells a right order from a wrong result";
      Spread = *It->second;
      Slack = O.OrderSlack * Spread;
    }
    BufferDifference D = compareBuffers(
        Kind, (*A)->getBuffer(), (*B)->getBuffer(), O.RTol, O.ATol + Slack);
    if (D.SizeDiffers)
      return "the buffer of " + Name + " has " +
             std::to_string((*B)->getBufferSize()) + " bytes, the original " +
             std::to_string((*A)->getBufferSize());
    if (!D.equal())
      return Name + " differs in " + std::to_string(D.Mismatches) + " of " +
             std::to_string(D.Elements) + " " + elementKindName(Kind).str() +
             " elements; first at [" + std::to_string(D.FirstIndex) +
             "]: " + formatDouble(D.Actual, 7) + ", expected " +
             formatDouble(D.Expected, 7) +
             (Spread > 0 ? " (the original's runs with the same input lie " +
                               formatDouble(Spread, 3) + " apart)"
                         : "");
  }
  return std::nullopt;
}

/// The program's other kernels in one run: for each (by the original's
/// name), its total time in nanoseconds.
std::map<std::string, double>
otherKernels(const Measurement &M, const std::string &Judged,
             const std::map<std::string, std::string> &Renamed) {
  std::map<std::string, double> Out;
  for (const KernelMeasurement &K : M.Kernels) {
    if (K.MangledName == Judged || !K.Launches)
      continue;
    auto R = Renamed.find(K.MangledName);
    double &T = Out[R == Renamed.end() ? K.MangledName : R->second];
    for (double D : K.DurationsNs)
      T += D;
  }
  return Out;
}

double total(const std::map<std::string, double> &Ks) {
  double T = 0;
  for (const auto &[Name, Ns] : Ks)
    T += Ns;
  return T;
}

/// The time of every kernel of one run together, in nanoseconds.
double programKernelsNs(const Measurement &M) {
  double T = 0;
  for (const KernelMeasurement &K : M.Kernels)
    for (double D : K.DurationsNs)
      T += D;
  return T;
}

/// Why the candidate's other kernels show moved work, or nullopt; fills
/// \p J's totals. Other kernels that take longer are moved work unless
/// all the program's kernels together are faster by the same rule as the
/// kernel (runs that do not overlap, the median at least MinSpeedup): a
/// faster kernel may leave the others less of what they found in L2.
/// The others' extra time is then charged to the kernel, \p ChargeNs per
/// launch, and \p Note tells so, for the verdict's reason.
std::optional<std::string> movedWork(const KernelSignature &K,
                                     ArrayRef<RunOutcome> Original,
                                     ArrayRef<RunOutcome> Candidate,
                                     const JudgeOptions &O, Judgement &J,
                                     double &ChargeNs, std::string &Note) {
  std::vector<double> A, B;
  std::set<std::string> Known;
  for (const RunOutcome &R : Original)
    if (R.Measured) {
      auto Ks = otherKernels(*R.Measured, K.MangledName, {});
      for (const auto &[Name, Ns] : Ks)
        Known.insert(Name);
      A.push_back(total(Ks));
    }
  for (const RunOutcome &R : Candidate)
    if (R.Measured) {
      auto Ks = otherKernels(*R.Measured, K.candidateName(), O.Renamed);
      for (const auto &[Name, Ns] : Ks)
        if (!Known.count(Name))
          return "the candidate launches the kernel '" + Name +
                 "', which the original does not (seed " +
                 std::to_string(R.Seed) + ")";
      B.push_back(total(Ks));
    }
  if (A.empty() || B.empty() || Known.empty())
    return std::nullopt;
  J.OtherOriginalNs = median(A);
  J.OtherCandidateNs = median(B);
  double Slowest = *std::max_element(A.begin(), A.end());
  double Fastest = *std::min_element(B.begin(), B.end());
  if (Fastest <= Slowest * (1 + O.OtherSlack) + O.OtherSlackNs)
    return std::nullopt;
  std::vector<double> PA, PB;
  for (const RunOutcome &R : Original)
    if (R.Measured)
      PA.push_back(programKernelsNs(*R.Measured));
  for (const RunOutcome &R : Candidate)
    if (R.Measured)
      PB.push_back(programKernelsNs(*R.Measured));
  double AllOriginal = median(PA), AllCandidate = median(PB);
  bool Faster = *std::min_element(PA.begin(), PA.end()) >
                    *std::max_element(PB.begin(), PB.end()) &&
                AllCandidate > 0 && AllOriginal / AllCandidate >= O.MinSpeedup;
  std::string Totals = "all kernels together take " +
                       microseconds(AllCandidate) + " against " +
                       microseconds(AllOriginal);
  unsigned Launches = 0;
  for (const RunOutcome &R : Candidate)
    if (const KernelMeasurement *KM =
            R.Measured ? R.Measured->find(K.candidateName()) : nullptr;
        KM && !Launches)
      Launches = KM->Launches;
  if (Faster && Launches) {
    ChargeNs = (*J.OtherCandidateNs - *J.OtherOriginalNs) / Launches;
    Note = "; the other kernels take " + microseconds(*J.OtherCandidateNs) +
           " against " + microseconds(*J.OtherOriginalNs) + ", " +
           microseconds(ChargeNs) + " per launch charged to the kernel; " +
           Totals;
    return std::nullopt;
  }
  return "the program's other kernels take " + microseconds(Fastest) +
         " in the candidate's fastest run against " + microseconds(Slowest) +
         " in the original's slowest, and " + Totals +
         ": work moved out of the kernel is not a speedup";
}

/// The verdict on the poisoned runs, or nullopt when they agree (or there
/// are none); \p Order holds the original's own spreads in its first
/// launch with the same input.
std::optional<Judgement> judgeLaterLaunch(const KernelSignature &K,
                                          PoisonedRuns P, const JudgeOptions &O,
                                          const Spreads &Order) {
  if (!P.Original || !P.Candidate || !P.Original->Measured)
    return std::nullopt;
  const KernelMeasurement *A = P.Original->Measured->find(K.MangledName);
  if (!A || A->Snapshots.empty() || !A->PoisonedBytes)
    return std::nullopt;
  std::string Where = "launch " + std::to_string(A->SnapshotLaunch) +
                      ", started from outputs overwritten with poison";
  const RunOutcome &R = *P.Candidate;
  // Its own check may fail on poisoned data, as the original's may; a
  // crash or a hang the original did not have is the candidate's.
  if (R.Child.TimedOut || R.Child.Interrupted)
    return verdict(Verdict::TimedOut, "the program timed out in the run "
                                      "whose " +
                                          Where);
  if (R.Child.Signal && !P.Original->Child.Signal)
    return verdict(Verdict::Crashed, "the program was " + *runFailure(R.Child) +
                                         " in the run whose " + Where);
  const KernelMeasurement *B =
      R.Measured ? R.Measured->find(K.candidateName()) : nullptr;
  if (!B || B->Snapshots.empty())
    return verdict(Verdict::ReusedResults,
                   Where + ": the candidate's launch was not saved");
  if (std::optional<std::string> Diff = compareOutputs(K, *A, *B, O, Order))
    return verdict(Verdict::ReusedResults, Where + ": " + *Diff);
  return std::nullopt;
}

} // namespace

std::optional<Timing>
autoprof::verify::summarizeTiming(ArrayRef<RunOutcome> Runs,
                                  StringRef MangledName) {
  std::vector<double> PerRun;
  for (const RunOutcome &R : Runs) {
    if (!R.Measured)
      continue;
    const KernelMeasurement *K = R.Measured->find(MangledName.str());
    if (!K || K->DurationsNs.empty())
      continue;
    std::vector<double> D = K->DurationsNs;
    // The first launch pays for loading the module and cold caches.
    if (D.size() > 1)
      D.erase(D.begin());
    PerRun.push_back(median(D));
  }
  if (PerRun.empty())
    return std::nullopt;
  Timing T;
  T.Runs = PerRun.size();
  T.MedianNs = median(PerRun);
  T.MinNs = *std::min_element(PerRun.begin(), PerRun.end());
  T.MaxNs = *std::max_element(PerRun.begin(), PerRun.end());
  return T;
}

StringRef autoprof::verify::verdictName(Verdict V) {
  switch (V) {
  case Verdict::Faster:
    return "faster";
  case Verdict::NotFaster:
    return "not-faster";
  case Verdict::Slower:
    return "slower";
  case Verdict::BuildFailed:
    return "build-failed";
  case Verdict::CheckFailed:
    return "check-failed";
  case Verdict::Crashed:
    return "crashed";
  case Verdict::TimedOut:
    return "timeout";
  case Verdict::WrongOutput:
    return "wrong-output";
  case Verdict::FewerLaunches:
    return "fewer-launches";
  case Verdict::WritesNothing:
    return "writes-nothing";
  case Verdict::ImpossibleTime:
    return "impossible-time";
  case Verdict::NotMeasured:
    return "not-measured";
  case Verdict::NoCodeBlock:
    return "no-code-block";
  case Verdict::SignatureChanged:
    return "signature-changed";
  case Verdict::CompileError:
    return "compile-error";
  case Verdict::ReplyRejected:
    return "reply-rejected";
  case Verdict::HiddenState:
    return "hidden-state";
  case Verdict::OtherKernels:
    return "other-kernels";
  case Verdict::WritesOutside:
    return "writes-outside";
  case Verdict::ReusedResults:
    return "reused-results";
  }
  return "not-measured";
}

std::optional<Verdict> autoprof::verify::verdictFromName(StringRef Name) {
  for (int I = 0; I <= int(Verdict::ReusedResults); ++I)
    if (verdictName(Verdict(I)) == Name)
      return Verdict(I);
  return std::nullopt;
}

std::optional<std::string> autoprof::verify::runFailure(const ChildResult &R) {
  if (R.TimedOut)
    return std::string("timed out");
  if (R.Interrupted)
    return std::string("interrupted");
  if (R.Signal)
    return "killed by signal " + std::to_string(R.Signal) + " (" +
           strsignal(R.Signal) + ")";
  if (R.Status != 0)
    return "exit status " + std::to_string(R.Status);
  return std::nullopt;
}

Judgement autoprof::verify::judge(const KernelSignature &K,
                                  ArrayRef<RunOutcome> Original,
                                  ArrayRef<RunOutcome> Candidate,
                                  const JudgeOptions &O, PoisonedRuns Poisoned,
                                  ArrayRef<RunOutcome> Repeats) {
  // The program's own verdict comes first.
  for (const RunOutcome &R : Candidate) {
    std::optional<std::string> Failure = runFailure(R.Child);
    if (!Failure)
      continue;
    std::string Seed = " (seed " + std::to_string(R.Seed) + ")";
    if (R.Child.TimedOut || R.Child.Interrupted)
      return verdict(Verdict::TimedOut, "the program " + *Failure + Seed);
    if (R.Child.Signal)
      return verdict(Verdict::Crashed, "the program was " + *Failure + Seed);
    return verdict(Verdict::CheckFailed,
                   "the program's own check failed: " + *Failure + Seed);
  }
  if (Original.empty() || Candidate.empty() || !Original[0].Measured ||
      !Candidate[0].Measured)
    return verdict(Verdict::NotMeasured, "no measurement of the kernel");

  // Launches, seed by seed.
  for (size_t I = 0; I < Original.size() && I < Candidate.size(); ++I) {
    if (!Original[I].Measured || !Candidate[I].Measured)
      continue;
    const KernelMeasurement *A = Original[I].Measured->find(K.MangledName);
    const KernelMeasurement *B = Candidate[I].Measured->find(K.candidateName());
    unsigned NA = A ? A->Launches : 0, NB = B ? B->Launches : 0;
    if (NB < NA)
      return verdict(Verdict::FewerLaunches,
                     "the kernel launched " + Twine(NB) +
                         " times, the "
                         "original " +
                         Twine(NA) + " (seed " + Twine(Original[I].Seed) + ")");
  }

  // Outputs of the saved launch.
  const KernelMeasurement *OrigK = Original[0].Measured->find(K.MangledName);
  const KernelMeasurement *CandK =
      Candidate[0].Measured->find(K.candidateName());
  if (!OrigK || !CandK)
    return verdict(Verdict::NotMeasured, "the kernel never launched");
  if (!OrigK->Snapshots.empty() && changedBytes(*OrigK) > 0 &&
      changedBytes(*CandK) == 0 && !CandK->Snapshots.empty())
    return verdict(Verdict::WritesNothing,
                   "launch " + Twine(CandK->SnapshotLaunch) +
                       " changed none of its buffers; the original's "
                       "changed " +
                       Twine(changedBytes(*OrigK)) + " bytes");
  // Every seed's outputs, where both runs saved them: a candidate right on
  // one input only is wrong.
  Spreads FirstOrder;
  for (size_t I = 0; I < Original.size() && I < Candidate.size(); ++I) {
    if (!Original[I].Measured || !Candidate[I].Measured)
      continue;
    const KernelMeasurement *A = Original[I].Measured->find(K.MangledName);
    const KernelMeasurement *B = Candidate[I].Measured->find(K.candidateName());
    if (!A || !B || A->Snapshots.empty() || (I > 0 && B->Snapshots.empty()))
      continue;
    const KernelMeasurement *Again = nullptr;
    for (const RunOutcome &R : Repeats)
      if (R.Seed == Original[I].Seed && R.Measured && !Again)
        Again = R.Measured->find(K.MangledName);
    Spreads Order = spreadsOf(K, *A, Again);
    if (I == 0)
      FirstOrder = Order;
    if (std::optional<std::string> Diff = compareOutputs(K, *A, *B, O, Order))
      return verdict(
          Verdict::WrongOutput,
          "launch " + Twine(A->SnapshotLaunch) + ": " + *Diff +
              (I == 0 ? std::string()
                      : " (seed " + std::to_string(Original[I].Seed) + ")"));
  }

  // Memory outside the arguments, seed by seed.
  for (size_t I = 0; I < Original.size() && I < Candidate.size(); ++I) {
    if (!Original[I].Measured || !Candidate[I].Measured)
      continue;
    const KernelMeasurement *A = Original[I].Measured->find(K.MangledName);
    const KernelMeasurement *B = Candidate[I].Measured->find(K.candidateName());
    if (!A || !B || A->Snapshots.empty() || B->Snapshots.empty() ||
        !A->OutsideChanged.empty() || B->OutsideChanged.empty())
      continue;
    uint64_t Bytes = 0;
    for (uint64_t N : B->OutsideChanged)
      Bytes += N;
    return verdict(
        Verdict::WritesOutside,
        "launch " + Twine(B->SnapshotLaunch) + " changed " +
            Twine(B->OutsideChanged.size()) +
            (B->OutsideChanged.size() == 1 ? " allocation" : " allocations") +
            " (" + Twine(Bytes) +
            " bytes) that none of its pointer arguments points "
            "into; the original's changed none (seed " +
            Twine(Candidate[I].Seed) + ")");
  }

  // A later launch, started from poisoned outputs.
  if (std::optional<Judgement> Later =
          judgeLaterLaunch(K, Poisoned, O, FirstOrder))
    return *Later;

  Judgement J;
  // The rest of the program: no new kernel, no longer time unless the
  // whole program is faster.
  std::string OtherNote;
  double ChargeNs = 0;
  if (std::optional<std::string> Why =
          movedWork(K, Original, Candidate, O, J, ChargeNs, OtherNote)) {
    J.V = Verdict::OtherKernels;
    J.Reason = *Why;
    return J;
  }
  J.Original = summarizeTiming(Original, K.MangledName);
  J.Candidate = summarizeTiming(Candidate, K.candidateName());
  if (!J.Original || !J.Candidate) {
    J.V = Verdict::NotMeasured;
    J.Reason = "no duration of the kernel was recorded";
    return J;
  }
  const Timing &A = *J.Original, &B = *J.Candidate;
  J.Speedup = A.MedianNs / (B.MedianNs + ChargeNs);
  J.SpeedupLow = A.MinNs / (B.MaxNs + ChargeNs);
  J.SpeedupHigh = A.MaxNs / (B.MinNs + ChargeNs);

  // Bytes the launch must have written, beyond what L2 could still hold.
  const Measurement &CM = *Candidate[0].Measured;
  double Written = double(changedBytes(*CandK));
  if (CM.DramBytesPerSecond > 0 && Written > CM.L2Bytes) {
    double Needed = (Written - CM.L2Bytes) / (B.MinNs * 1e-9);
    if (Needed > CM.DramBytesPerSecond) {
      J.V = Verdict::ImpossibleTime;
      J.Reason = "writing " + formatDouble(Written / 1e6) + " MB in " +
                 microseconds(B.MinNs) + " needs " +
                 formatDouble(Needed / 1e12) + " TB/s, more than the " +
                 formatDouble(CM.DramBytesPerSecond / 1e12) +
                 " TB/s the device has";
      return J;
    }
  }

  std::string Figures =
      microseconds(B.MedianNs) + " against " + microseconds(A.MedianNs) +
      ", speedup " + formatDouble(*J.Speedup) + "x (" +
      formatDouble(*J.SpeedupLow) + "-" + formatDouble(*J.SpeedupHigh) +
      " over " + Twine(std::min(A.Runs, B.Runs)).str() + " runs)";
  if (*J.SpeedupLow > 1.0 && *J.Speedup >= O.MinSpeedup) {
    J.V = Verdict::Faster;
    J.Reason = Figures + OtherNote;
  } else if (*J.SpeedupHigh < 1.0) {
    J.V = Verdict::Slower;
    J.Reason = Figures;
  } else {
    J.V = Verdict::NotFaster;
    J.Reason = Figures + ", within the noise or below " +
               formatDouble(O.MinSpeedup) + "x";
  }
  return J;
}
