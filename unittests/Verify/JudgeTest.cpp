//===- JudgeTest.cpp - Verdicts on measured runs --------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/Judge.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>
#include <vector>

using namespace autoprof;
using namespace autoprof::verify;

namespace {

class JudgeTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("judge-test", Dir));
    K.Name = "scale";
    K.MangledName = "_Z5scalePKfPfi";
    K.Pointers[0] = {"in", ElementKind::F32};
    K.Pointers[1] = {"out", ElementKind::F32};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Writes \p Values to a file and describes it as the buffer of
  /// parameter \p Param, of which \p Changed bytes changed.
  BufferSnapshot buffer(const std::string &Name, unsigned Param,
                        const std::vector<float> &Values, uint64_t Changed) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    OS.write(reinterpret_cast<const char *>(Values.data()),
             Values.size() * sizeof(float));
    BufferSnapshot S;
    S.Params = {Param};
    S.Bytes = Values.size() * sizeof(float);
    S.ChangedBytes = Changed;
    S.File = std::string(P);
    return S;
  }

  /// A run with the given durations and launches; the first run of a set
  /// carries \p Buffers.
  RunOutcome run(uint64_t Seed, std::vector<double> Durations,
                 std::vector<BufferSnapshot> Buffers = {},
                 unsigned Launches = 0) {
    RunOutcome R;
    R.Seed = Seed;
    Measurement M;
    M.DramBytesPerSecond = 4e12;
    M.L2Bytes = 50e6;
    KernelMeasurement KM;
    KM.MangledName = K.MangledName;
    KM.Launches = Launches ? Launches : 4;
    KM.DurationsNs = std::move(Durations);
    KM.Snapshots = std::move(Buffers);
    M.Kernels.push_back(KM);
    R.Measured = M;
    return R;
  }

  std::vector<RunOutcome> original() {
    std::vector<BufferSnapshot> B = {buffer("o.in", 0, {1, 2, 3}, 0),
                                     buffer("o.out", 1, {2, 4, 6}, 12)};
    return {run(1, {900, 100, 101, 99}, B), run(2, {900, 102, 100, 101}),
            run(3, {900, 99, 100, 100})};
  }

  std::vector<BufferSnapshot> candidateBuffers(std::vector<float> Out,
                                               uint64_t Changed = 12) {
    return {buffer("c.in", 0, {1, 2, 3}, 0),
            buffer("c.out", 1, std::move(Out), Changed)};
  }

  llvm::SmallString<128> Dir;
  KernelSignature K;
  JudgeOptions O;
};

TEST_F(JudgeTest, TimingLeavesOutTheFirstLaunch) {
  std::optional<Timing> T = summarizeTiming(original(), K.MangledName);
  ASSERT_TRUE(T);
  EXPECT_EQ(T->Runs, 3u);
  EXPECT_DOUBLE_EQ(T->MedianNs, 100);
  EXPECT_DOUBLE_EQ(T->MinNs, 100);
  EXPECT_DOUBLE_EQ(T->MaxNs, 101);
  EXPECT_FALSE(summarizeTiming(original(), "_Z5other"));
}

TEST_F(JudgeTest, FasterBeyondTheNoise) {
  std::vector<RunOutcome> C = {
      run(1, {500, 50, 50, 51}, candidateBuffers({2, 4, 6})),
      run(2, {500, 52, 50, 50}), run(3, {500, 49, 50, 50})};
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::Faster) << J.Reason;
  EXPECT_TRUE(J.accepted());
  EXPECT_DOUBLE_EQ(*J.Speedup, 2.0);
  EXPECT_LE(*J.SpeedupLow, *J.Speedup);
  EXPECT_GE(*J.SpeedupHigh, *J.Speedup);
  EXPECT_NE(J.Reason.find("speedup 2x"), std::string::npos) << J.Reason;
}

TEST_F(JudgeTest, OverlappingRunsAreNotFaster) {
  std::vector<RunOutcome> C = {
      run(1, {500, 99, 99, 99}, candidateBuffers({2, 4, 6})),
      run(2, {500, 101, 101, 101}), run(3, {500, 99, 99, 99})};
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::NotFaster) << J.Reason;
  EXPECT_FALSE(J.accepted());
}

TEST_F(JudgeTest, BelowTheLeastSpeedupIsNotFaster) {
  // 1.01x, runs apart: still below --min-speedup 1.02.
  std::vector<RunOutcome> C = {
      run(1, {500, 98.5, 98.5}, candidateBuffers({2, 4, 6})),
      run(2, {500, 99, 99}), run(3, {500, 99, 99})};
  EXPECT_EQ(judge(K, original(), C, O).V, Verdict::NotFaster);
}

TEST_F(JudgeTest, Slower) {
  std::vector<RunOutcome> C = {
      run(1, {500, 200, 200}, candidateBuffers({2, 4, 6})),
      run(2, {500, 210, 210}), run(3, {500, 205, 205})};
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::Slower);
  EXPECT_LT(*J.Speedup, 1.0);
}

TEST_F(JudgeTest, WrongOutput) {
  std::vector<RunOutcome> C = {
      run(1, {50, 50, 50}, candidateBuffers({2, 4.5, 6})), run(2, {50, 50, 50}),
      run(3, {50, 50, 50})};
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::WrongOutput);
  EXPECT_EQ(J.Reason, "launch 0: 'out' differs in 1 of 3 f32 elements; first "
                      "at [1]: 4.5, expected 4");
}

TEST_F(JudgeTest, EverySeedsOutputsAreCompared) {
  // The original's runs of seeds 1 and 2 saved different outputs (their
  // inputs differ); a candidate right on seed 1 only is wrong, with the
  // seed named.
  std::vector<RunOutcome> Orig = original();
  Orig[1].Measured->Kernels[0].Snapshots = {
      buffer("o2.in", 0, {5, 6, 7}, 0), buffer("o2.out", 1, {10, 12, 14}, 12)};
  std::vector<RunOutcome> C = {
      run(1, {50, 50, 50}, candidateBuffers({2, 4, 6})),
      run(2, {50, 50, 50},
          {buffer("c2.in", 0, {5, 6, 7}, 0),
           buffer("c2.out", 1, {2, 4, 6}, 12)}),
      run(3, {50, 50, 50})};
  Judgement J = judge(K, Orig, C, O);
  EXPECT_EQ(J.V, Verdict::WrongOutput);
  EXPECT_EQ(J.Reason, "launch 0: 'out' differs in 3 of 3 f32 elements; first "
                      "at [0]: 2, expected 10 (seed 2)");
  // Right on both seeds: faster.
  C[1].Measured->Kernels[0].Snapshots = {buffer("c2.in", 0, {5, 6, 7}, 0),
                                         buffer("c2.out", 1, {10, 12, 14}, 12)};
  EXPECT_EQ(judge(K, Orig, C, O).V, Verdict::Faster);
}

TEST_F(JudgeTest, ToleranceAcceptsSmallDifferences) {
  std::vector<RunOutcome> C = {
      run(1, {50, 50, 50}, candidateBuffers({2, 4.0001f, 6})),
      run(2, {50, 50, 50}), run(3, {50, 50, 50})};
  O.RTol = 1e-3;
  EXPECT_EQ(judge(K, original(), C, O).V, Verdict::Faster);
  O.RTol = 1e-6;
  O.ATol = 0;
  EXPECT_EQ(judge(K, original(), C, O).V, Verdict::WrongOutput);
}

TEST_F(JudgeTest, WritesNothing) {
  std::vector<RunOutcome> C = {
      run(1, {50, 50, 50}, candidateBuffers({2, 4, 6}, /*Changed=*/0)),
      run(2, {50, 50, 50}), run(3, {50, 50, 50})};
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::WritesNothing);
  EXPECT_EQ(J.Reason, "launch 0 changed none of its buffers; the original's "
                      "changed 12 bytes");
}

TEST_F(JudgeTest, FewerLaunches) {
  std::vector<RunOutcome> C = {run(1, {50, 50}, candidateBuffers({2, 4, 6}), 3),
                               run(2, {50, 50, 50}), run(3, {50, 50, 50})};
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::FewerLaunches);
  EXPECT_EQ(J.Reason, "the kernel launched 3 times, the original 4 (seed 1)");
}

TEST_F(JudgeTest, ACandidateWithAnotherMangledNameIsJudgedUnderIt) {
  // The rewrite made `in` const: the candidate's runs record the kernel
  // under its new mangled name.
  auto Renamed = [&](RunOutcome R) {
    R.Measured->Kernels.front().MangledName = "_Z5scalePKfS0_i";
    return R;
  };
  std::vector<RunOutcome> C = {
      Renamed(run(1, {500, 50, 50, 51}, candidateBuffers({2, 4, 6}))),
      Renamed(run(2, {500, 52, 50, 50})), Renamed(run(3, {500, 49, 50, 50}))};
  // Under the original's name the kernel never launched.
  Judgement Lost = judge(K, original(), C, O);
  EXPECT_EQ(Lost.V, Verdict::FewerLaunches);
  EXPECT_EQ(Lost.Reason,
            "the kernel launched 0 times, the original 4 (seed 1)");
  KernelSignature R = K;
  R.CandidateMangledName = "_Z5scalePKfS0_i";
  Judgement J = judge(R, original(), C, O);
  EXPECT_EQ(J.V, Verdict::Faster) << J.Reason;
  EXPECT_DOUBLE_EQ(*J.Speedup, 2.0);
  // Wrong outputs under the new name are still caught.
  C.front() = Renamed(run(1, {500, 50, 50}, candidateBuffers({2, 4, 7})));
  EXPECT_EQ(judge(R, original(), C, O).V, Verdict::WrongOutput);
}

TEST_F(JudgeTest, ImpossibleBandwidth) {
  // 200 MB changed in 10 us: 15 TB/s beyond L2, more than the 4 TB/s.
  std::vector<RunOutcome> C = {
      run(1, {10000, 10000, 10000},
          candidateBuffers({2, 4, 6}, /*Changed=*/200000000)),
      run(2, {10000, 10000, 10000}), run(3, {10000, 10000, 10000})};
  std::vector<RunOutcome> A = original();
  for (RunOutcome &R : A)
    for (double &D : R.Measured->Kernels[0].DurationsNs)
      D = 1e6;
  Judgement J = judge(K, A, C, O);
  EXPECT_EQ(J.V, Verdict::ImpossibleTime);
  EXPECT_NE(J.Reason.find("more than the 4 TB/s the device has"),
            std::string::npos)
      << J.Reason;
}

TEST_F(JudgeTest, TheProgramsOwnVerdictComesFirst) {
  std::vector<RunOutcome> C = {run(1, {50}, candidateBuffers({2, 4.5, 6}))};
  C[0].Child.Status = 1;
  EXPECT_EQ(judge(K, original(), C, O).V, Verdict::CheckFailed);
  C[0].Child.Signal = 11;
  C[0].Child.Status = 139;
  Judgement J = judge(K, original(), C, O);
  EXPECT_EQ(J.V, Verdict::Crashed);
  EXPECT_NE(J.Reason.find("signal 11"), std::string::npos);
  C[0].Child.TimedOut = true;
  EXPECT_EQ(judge(K, original(), C, O).V, Verdict::TimedOut);
}

TEST_F(JudgeTest, NotMeasured) {
  std::vector<RunOutcome> C = {run(1, {50})};
  C[0].Measured.reset();
  EXPECT_EQ(judge(K, original(), C, O).V, Verdict::NotMeasured);
}

TEST(VerdictTest, Names) {
  EXPECT_EQ(verdictName(Verdict::Faster), "faster");
  EXPECT_EQ(verdictName(Verdict::ImpossibleTime), "impossible-time");
  EXPECT_EQ(verdictName(Verdict::TimedOut), "timeout");
  EXPECT_EQ(verdictName(Verdict::NoCodeBlock), "no-code-block");
  EXPECT_EQ(verdictName(Verdict::SignatureChanged), "signature-changed");
  EXPECT_EQ(verdictName(Verdict::CompileError), "compile-error");
  EXPECT_EQ(verdictName(Verdict::ReplyRejected), "reply-rejected");
  EXPECT_EQ(verdictName(Verdict::HiddenState), "hidden-state");
  EXPECT_FALSE(Judgement{Verdict::ReplyRejected}.accepted());
}

/// \p Runs with another kernel \p Name of \p Launches launches of \p Ns each
/// added to every run.
std::vector<RunOutcome> withOther(std::vector<RunOutcome> Runs,
                                  const std::string &Name, double Ns,
                                  unsigned Launches = 2) {
  for (RunOutcome &R : Runs) {
    KernelMeasurement KM;
    KM.MangledName = Name;
    KM.Launches = Launches;
    KM.Other = true;
    KM.DurationsNs.assign(Launches, Ns);
    R.Measured->Kernels.push_back(KM);
  }
  return Runs;
}

TEST_F(JudgeTest, WorkMovedToAnotherKernelIsNotASpeedup) {
  std::vector<RunOutcome> Fast = {
      run(1, {500, 50, 50, 51}, candidateBuffers({2, 4, 6})),
      run(2, {500, 52, 50, 50}), run(3, {500, 49, 50, 50})};
  // A kernel the original never launches.
  Judgement J = judge(K, original(), withOther(Fast, "_Z6helperv", 1e6), O);
  EXPECT_EQ(J.V, Verdict::OtherKernels);
  EXPECT_EQ(verdictName(J.V), "other-kernels");
  EXPECT_EQ(J.Reason, "the candidate launches the kernel '_Z6helperv', which "
                      "the original does not (seed 1)");
  // An existing other kernel that takes longer.
  J = judge(K, withOther(original(), "_Z4prepv", 1e6),
            withOther(Fast, "_Z4prepv", 1.5e6), O);
  EXPECT_EQ(J.V, Verdict::OtherKernels);
  EXPECT_NE(J.Reason.find("work moved out of the kernel"), std::string::npos)
      << J.Reason;
  // The same time, within the noise: judged on the kernel, totals kept.
  J = judge(K, withOther(original(), "_Z4prepv", 1e6),
            withOther(Fast, "_Z4prepv", 1.02e6), O);
  EXPECT_EQ(J.V, Verdict::Faster) << J.Reason;
  ASSERT_TRUE(J.OtherOriginalNs && J.OtherCandidateNs);
  EXPECT_DOUBLE_EQ(*J.OtherOriginalNs, 2e6);
  EXPECT_DOUBLE_EQ(*J.OtherCandidateNs, 2.04e6);
  // A kernel the rewrite renamed is the same kernel.
  JudgeOptions R = O;
  R.Renamed["_Z4prepPKf"] = "_Z4prepPf";
  EXPECT_EQ(judge(K, withOther(original(), "_Z4prepPf", 1e6),
                  withOther(Fast, "_Z4prepPKf", 1e6), R)
                .V,
            Verdict::Faster);
  // No other kernel: no totals.
  J = judge(K, original(), Fast, O);
  EXPECT_FALSE(J.OtherOriginalNs);
}

TEST_F(JudgeTest, OtherKernelsSlowerButTheProgramFaster) {
  // The kernel saves 90 us a launch (4 launches); the other kernel, which
  // read what the original left in L2, loses 100 us a run.
  std::vector<BufferSnapshot> B = {buffer("o.in", 0, {1, 2, 3}, 0),
                                   buffer("o.out", 1, {2, 4, 6}, 12)};
  std::vector<RunOutcome> Orig = {run(1, {9e5, 1e5, 1e5, 1e5}, B),
                                  run(2, {9e5, 1e5, 1.01e5, 1e5}),
                                  run(3, {9e5, 0.99e5, 1e5, 1e5})};
  std::vector<RunOutcome> Cand = {
      run(1, {5e5, 1e4, 1e4, 1e4}, candidateBuffers({2, 4, 6})),
      run(2, {5e5, 1e4, 1.01e4, 1e4}), run(3, {5e5, 1e4, 1e4, 0.99e4})};
  Judgement J = judge(K, withOther(Orig, "_Z4nextv", 1e5),
                      withOther(Cand, "_Z4nextv", 1.5e5), O);
  EXPECT_EQ(J.V, Verdict::Faster) << J.Reason;
  // The others' 100 us a run are charged to the kernel, 25 us a launch:
  // 100 us against 10 + 25 us.
  ASSERT_TRUE(J.Speedup);
  EXPECT_NEAR(*J.Speedup, 1e5 / 3.5e4, 1e-9);
  EXPECT_NE(J.Reason.find("per launch charged to the kernel"),
            std::string::npos)
      << J.Reason;
  // The same saving, but the others lose more than it: moved work.
  J = judge(K, withOther(Orig, "_Z4nextv", 1e5),
            withOther(Cand, "_Z4nextv", 8e5), O);
  EXPECT_EQ(J.V, Verdict::OtherKernels);
  EXPECT_NE(J.Reason.find("all kernels together take"), std::string::npos)
      << J.Reason;
}

} // namespace

TEST_F(JudgeTest, WritesOutsideItsArguments) {
  std::vector<RunOutcome> Orig = original();
  for (RunOutcome &R : Orig)
    R.Measured->Kernels[0].OutsideWatched = 2;
  std::vector<RunOutcome> C = {
      run(1, {50, 50, 50}, candidateBuffers({2, 4, 6})), run(2, {50, 50, 50}),
      run(3, {50, 50, 50})};
  C[0].Measured->Kernels[0].OutsideWatched = 2;
  C[0].Measured->Kernels[0].OutsideChanged = {4096};
  Judgement J = judge(K, Orig, C, O);
  EXPECT_EQ(J.V, Verdict::WritesOutside);
  EXPECT_EQ(verdictName(J.V), "writes-outside");
  EXPECT_EQ(J.Reason, "launch 0 changed 1 allocation (4096 bytes) that none "
                      "of its pointer arguments points into; the original's "
                      "changed none (seed 1)");
  // An original that writes there too (pointers inside its buffers): the
  // check says nothing.
  Orig[0].Measured->Kernels[0].OutsideChanged = {4096};
  EXPECT_EQ(judge(K, Orig, C, O).V, Verdict::Faster);
}

TEST_F(JudgeTest, ALaterLaunchFromPoisonedOutputs) {
  std::vector<RunOutcome> C = {
      run(1, {50, 50, 50}, candidateBuffers({2, 4, 6})), run(2, {50, 50, 50}),
      run(3, {50, 50, 50})};
  // Launch 1 of each, after 'out' was poisoned: the original computes it
  // again, the candidate leaves the poison where it answers from what
  // launch 0 left.
  RunOutcome OP = run(
      1, {900, 100},
      {buffer("op.in", 0, {1, 2, 3}, 0), buffer("op.out", 1, {2, 4, 6}, 12)});
  OP.Measured->Kernels[0].SnapshotLaunch = 1;
  OP.Measured->Kernels[0].PoisonedBytes = 12;
  RunOutcome CP = run(1, {50, 50},
                      {buffer("cp.in", 0, {1, 2, 3}, 0),
                       buffer("cp.out", 1, {2, 0.25f, 6}, 8)});
  CP.Measured->Kernels[0].SnapshotLaunch = 1;
  CP.Measured->Kernels[0].PoisonedBytes = 12;
  Judgement J = judge(K, original(), C, O, {&OP, &CP});
  EXPECT_EQ(J.V, Verdict::ReusedResults);
  EXPECT_EQ(verdictName(J.V), "reused-results");
  EXPECT_EQ(J.Reason, "launch 1, started from outputs overwritten with "
                      "poison: 'out' differs in 1 of 3 f32 elements; first at "
                      "[1]: 0.25, expected 4");
  // Its own check failing on poisoned outputs is no verdict; a crash the
  // original did not have is.
  CP.Child.Status = 1;
  EXPECT_EQ(judge(K, original(), C, O, {&OP, &CP}).V, Verdict::ReusedResults);
  CP.Child.Signal = 11;
  J = judge(K, original(), C, O, {&OP, &CP});
  EXPECT_EQ(J.V, Verdict::Crashed);
  EXPECT_NE(J.Reason.find("in the run whose launch 1, started from outputs "
                          "overwritten with poison"),
            std::string::npos)
      << J.Reason;
  // The same outputs: judged on time.
  CP = run(
      1, {50, 50},
      {buffer("cp2.in", 0, {1, 2, 3}, 0), buffer("cp2.out", 1, {2, 4, 6}, 12)});
  CP.Measured->Kernels[0].SnapshotLaunch = 1;
  EXPECT_EQ(judge(K, original(), C, O, {&OP, &CP}).V, Verdict::Faster);
  // Nothing was poisoned (launch 0 changed nothing): nothing to judge.
  OP.Measured->Kernels[0].PoisonedBytes = 0;
  CP = run(
      1, {50, 50},
      {buffer("cp3.in", 0, {1, 2, 3}, 0), buffer("cp3.out", 1, {9, 9, 9}, 12)});
  EXPECT_EQ(judge(K, original(), C, O, {&OP, &CP}).V, Verdict::Faster);
}
