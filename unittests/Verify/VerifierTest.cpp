//===- VerifierTest.cpp - Build, run and judge with a fake program --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/Verifier.h"
#include "autoprof/Verify/PhaseTimes.h"

#include "autoprof/Profile/Measurement.h"
#include "autoprof/Profile/Profile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "rapidjson/document.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::verify;

namespace {

std::string readFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// Builds and runs a pretend program: building copies the source's text;
/// running writes the measurement the injection library would, from what
/// the text says ("FAST" halves the kernel's time, "WRONG" changes an
/// output, "CONST" its mangled name, "BROKEN" fails the build). A run
/// configured to poison the outputs before launch 1 saves that launch:
/// "REUSE" leaves the poison in place of the results, "POISONDIES" dies;
/// "OUTSIDE" writes an allocation outside the kernel's arguments; "ORDER"
/// makes an output differ from run to run by rounding, "FAR" moves it
/// further, "WILD" makes it differ by more than rounding.
class FakeProgram : public CommandRunner {
public:
  std::string Source;
  std::string Built;
  std::vector<std::string> SourceDuringBuild;
  /// The file each build compiled: its last word, or the source.
  std::vector<std::string> BuiltFrom;
  unsigned Runs = 0;
  unsigned PoisonedRuns = 0;
  /// The poison seed of the last poisoned run.
  uint64_t PoisonSeed = 0;

  llvm::Expected<ChildResult> run(const ChildOptions &O) override {
    ChildResult R;
    const std::string &Cmd = O.Argv.back();
    // Builds take 2 s, runs 0.5 s, and every command waited 0.25 s.
    R.WallSeconds = 0.5;
    R.LockWaitSeconds = 0.25;
    if (llvm::StringRef(Cmd).starts_with("build")) {
      R.WallSeconds = 2;
      std::string From = Cmd == "build"
                             ? Source
                             : llvm::StringRef(Cmd).rsplit(' ').second.str();
      std::string Text = readFile(From);
      BuiltFrom.push_back(From);
      SourceDuringBuild.push_back(readFile(Source));
      if (Text.find("BROKEN") != std::string::npos) {
        std::error_code EC;
        llvm::raw_fd_ostream(O.OutputFile, EC) << "k.cu:1: error: BROKEN\n";
        R.Status = 1;
        return R;
      }
      Built = Text;
      return R;
    }
    ++Runs;
    if (Built.find("CRASH") != std::string::npos) {
      R.Signal = 11;
      R.Status = 139;
      return R;
    }
    rapidjson::Document Cfg;
    std::string Text = readFile(O.Env.at("AUTOPROF_MEASURE_CONFIG"));
    Cfg.Parse(Text.c_str());
    bool Poisoned = Cfg.HasMember("poison");
    if (Poisoned) {
      ++PoisonedRuns;
      PoisonSeed = Cfg["poison"]["seed"].GetUint64();
      if (Built.find("POISONDIES") != std::string::npos) {
        R.Signal = 6;
        return R;
      }
    }
    Measurement M;
    KernelMeasurement K;
    // "CONST" gives the kernel another signature, so another name; the
    // injection library saves the buffers of the kernels its config names.
    K.MangledName =
        Built.find("CONST") != std::string::npos ? "_Z1kPKf" : "_Z1kPf";
    K.Launches = 3;
    double D = Built.find("FAST") != std::string::npos ? 50 : 100;
    K.DurationsNs = {D * 5, D, D + std::stod(O.Env.at("AUTOPROF_SEED"))};
    if (Cfg.HasMember("snapshot_dir") &&
        Cfg["kernels"].HasMember(K.MangledName.c_str())) {
      std::string File = std::string(Cfg["snapshot_dir"].GetString()) + "/out";
      float V[2] = {1, Built.find("WRONG") != std::string::npos ? 3.f : 2.f};
      // "ORDER": the second output is a sum whose last bits follow the
      // order of the threads, different from run to run; "FAR" moves it
      // further than the runs of the original differ.
      if (Built.find("ORDER") != std::string::npos)
        V[1] += (Runs % 2) * 1e-3f;
      if (Built.find("FAR") != std::string::npos)
        V[1] += 1e-2f;
      // "WILD": it differs from run to run by far more than rounding.
      if (Built.find("WILD") != std::string::npos)
        V[1] += (Runs % 2) * 0.5f;
      if (Poisoned) {
        K.SnapshotLaunch = 1;
        K.PoisonedBytes = sizeof V;
        if (Built.find("REUSE") != std::string::npos)
          V[0] = V[1] = 0.375f;
      }
      K.OutsideWatched = 1;
      if (Built.find("OUTSIDE") != std::string::npos)
        K.OutsideChanged = {256};
      std::error_code EC;
      llvm::raw_fd_ostream(File, EC).write(reinterpret_cast<const char *>(V),
                                           sizeof V);
      K.Snapshots.push_back({{0}, sizeof V, sizeof V, File});
      // An input the launch only reads: the seed, unless the program
      // ignores it ("ONEINPUT").
      std::string In = std::string(Cfg["snapshot_dir"].GetString()) + "/in";
      std::string Seed = Built.find("ONEINPUT") != std::string::npos
                             ? "1"
                             : O.Env.at("AUTOPROF_SEED");
      llvm::raw_fd_ostream(In, EC) << Seed;
      K.Snapshots.push_back({{1}, Seed.size(), 0, In});
    }
    M.Kernels.push_back(K);
    writeFileAtomically(Cfg["output"].GetString(), writeMeasurementJSON(M));
    return R;
  }
};

class VerifierTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("verifier-test", Dir));
    Source = (Dir + "/k.cu").str();
    writeFileAtomically(Source, "original\n");
    Fake.Source = Source;
    llvm::SmallString<128> Work(Dir);
    llvm::sys::path::append(Work, "work");
    llvm::sys::fs::create_directories(Work);
    O.Source = Source;
    O.BuildCommand = "build";
    O.RunCommand = "run";
    O.InjectLibrary = "libautoprof-inject.so";
    O.WorkDir = std::string(Work);
    K.Name = "k";
    K.MangledName = "_Z1kPf";
    K.Pointers[0] = {"out", ElementKind::F32};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  llvm::SmallString<128> Dir;
  std::string Source;
  FakeProgram Fake;
  VerifierOptions O;
  KernelSignature K;
  JudgeOptions J;
};

TEST_F(VerifierTest, CandidatesAreBuiltInPlaceAndPutBack) {
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  EXPECT_EQ(V.originalRuns().size(), 3u);
  // One run per seed, one again with the first seed, whose outputs repeat,
  // and one with its outputs poisoned before launch 1.
  EXPECT_EQ(Fake.Runs, 5u);
  EXPECT_EQ(V.originalRepeats().size(), 1u);
  EXPECT_EQ(Fake.PoisonedRuns, 1u);

  auto Fast = V.verify("FAST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Fast));
  EXPECT_EQ(Fast->front().V, Verdict::Faster) << Fast->front().Reason;
  // The candidate was in place while it was built, and only then.
  EXPECT_EQ(Fake.SourceDuringBuild.back(), "FAST\n");
  EXPECT_EQ(readFile(Source), "original\n");
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/.k.cu.autoprof-orig"));

  auto Wrong = V.verify("FAST WRONG\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Wrong));
  EXPECT_EQ(Wrong->front().V, Verdict::WrongOutput);

  auto Broken = V.verify("BROKEN\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Broken));
  EXPECT_EQ(Broken->front().V, Verdict::BuildFailed);
  EXPECT_EQ(Broken->front().Reason,
            "the build failed (exit status 1): k.cu:1: error: BROKEN");
  EXPECT_EQ(readFile(Source), "original\n");

  unsigned Before = Fake.Runs;
  auto Crash = V.verify("CRASH\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Crash));
  EXPECT_EQ(Crash->front().V, Verdict::Crashed);
  // A failed run is not repeated with the other seeds, nor poisoned.
  EXPECT_EQ(Fake.Runs, Before + 1);

  ASSERT_FALSE(llvm::errorToBool(V.rebuild("FAST\n")));
  EXPECT_EQ(Fake.Built, "FAST\n");
  EXPECT_EQ(readFile(Source), "original\n");
}

TEST_F(VerifierTest, ACandidateIsMeasuredUnderItsOwnMangledName) {
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  // Under the original's name the candidate's kernel is not found.
  auto Lost = V.verify("FAST CONST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Lost));
  EXPECT_EQ(Lost->front().V, Verdict::FewerLaunches);
  KernelSignature R = K;
  R.CandidateMangledName = "_Z1kPKf";
  auto Fast = V.verify("FAST CONST\n", {R}, J);
  ASSERT_TRUE(static_cast<bool>(Fast));
  EXPECT_EQ(Fast->front().V, Verdict::Faster) << Fast->front().Reason;
  // Its buffers were saved under the new name and compared.
  auto Wrong = V.verify("FAST CONST WRONG\n", {R}, J);
  ASSERT_TRUE(static_cast<bool>(Wrong));
  EXPECT_EQ(Wrong->front().V, Verdict::WrongOutput);
}

TEST_F(VerifierTest, TheOriginalMustBuildAndPass) {
  writeFileAtomically(Source, "BROKEN\n");
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  llvm::Error E = V.measureOriginal();
  EXPECT_EQ(llvm::toString(std::move(E)),
            "the original program does not build: the build failed (exit "
            "status 1): k.cu:1: error: BROKEN");

  writeFileAtomically(Source, "CRASH\n");
  Verifier W(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(W.prepare()));
  std::string Msg = llvm::toString(W.measureOriginal());
  EXPECT_EQ(Msg.rfind("the program fails before any change (seed 1, killed "
                      "by signal 11",
                      0),
            0u)
      << Msg;
}

TEST_F(VerifierTest, MeasuredRunsWithoutBuffers) {
  Fake.Built = "original\n";
  MeasureOptions M;
  M.RunCommand = "run";
  M.InjectLibrary = O.InjectLibrary;
  M.WorkDir = O.WorkDir;
  M.Seeds = {1, 2, 3, 4, 5};
  auto Runs = measureRuns(Fake, M, {K}, "perf", /*SaveBuffers=*/false);
  ASSERT_TRUE(static_cast<bool>(Runs)) << llvm::toString(Runs.takeError());
  ASSERT_EQ(Runs->size(), 5u);
  EXPECT_TRUE(Runs->front().Measured->Kernels.front().Snapshots.empty());
  // Each run's median leaves out the first launch: 100 + seed / 2.
  std::optional<Timing> T = summarizeTiming(*Runs, "_Z1kPf");
  ASSERT_TRUE(T.has_value());
  EXPECT_DOUBLE_EQ(T->MedianNs, 101.5);
  EXPECT_DOUBLE_EQ(T->MinNs, 100.5);
  EXPECT_DOUBLE_EQ(T->MaxNs, 102.5);
  EXPECT_EQ(T->Runs, 5u);
  EXPECT_EQ(llvm::sys::path::filename(measuredRunLog(O.WorkDir, "perf", 0)),
            "perf-1.log");
}

TEST_F(VerifierTest, TellingLineOfALog) {
  std::string Log = (Dir + "/run.log").str();
  writeFileAtomically(Log, "starting\ncuda error: out of memory\nabort\n");
  EXPECT_EQ(tellingLine(Log), "cuda error: out of memory");
  writeFileAtomically(Log, "starting\n  mismatch at 7  \n\n");
  EXPECT_EQ(tellingLine(Log), "mismatch at 7");
  EXPECT_EQ(tellingLine((Dir + "/missing.log").str()), "");
}

TEST_F(VerifierTest, RefusesAStaleCopy) {
  writeFileAtomically(Dir.str().str() + "/.k.cu.autoprof-orig", "older\n");
  Verifier V(Fake, O, {K});
  std::string Msg = llvm::toString(V.prepare());
  EXPECT_NE(Msg.find("an earlier optimize of"), std::string::npos) << Msg;
  EXPECT_EQ(readFile(Source), "original\n");
}

TEST_F(VerifierTest, ABuildThatNamesTheSourceNeverWritesIt) {
  O.BuildCommand = "build -O3 -o prog " + Source;
  std::vector<std::string> Swaps;
  O.OnSwap = [&](const std::string &Line) { Swaps.push_back(Line); };
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  EXPECT_EQ(Fake.BuiltFrom.back(), Source);

  auto Fast = V.verify("FAST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Fast));
  EXPECT_EQ(Fast->front().V, Verdict::Faster) << Fast->front().Reason;
  // Built from a hidden copy beside the source, with its extension; the
  // source never held the candidate, and the copy is gone.
  std::string From = Fake.BuiltFrom.back();
  EXPECT_EQ(llvm::sys::path::parent_path(From), llvm::StringRef(Dir));
  EXPECT_TRUE(llvm::StringRef(llvm::sys::path::filename(From))
                  .starts_with(".k.autoprof-"));
  EXPECT_EQ(llvm::sys::path::extension(From), ".cu");
  EXPECT_EQ(Fake.SourceDuringBuild.back(), "original\n");
  EXPECT_FALSE(llvm::sys::fs::exists(From));
  EXPECT_EQ(readFile(Source), "original\n");
  EXPECT_TRUE(Swaps.empty());

  // A build that does not name the source swaps it, and says so once.
  O.BuildCommand = "build";
  Verifier W(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(W.prepare()));
  ASSERT_FALSE(llvm::errorToBool(W.measureOriginal()));
  ASSERT_TRUE(static_cast<bool>(W.verify("FAST\n", {K}, J)));
  ASSERT_TRUE(static_cast<bool>(W.verify("FAST WRONG\n", {K}, J)));
  EXPECT_EQ(Fake.SourceDuringBuild.back(), "FAST WRONG\n");
  EXPECT_EQ(Swaps.size(), 1u);
  EXPECT_EQ(readFile(Source), "original\n");
}

TEST(SubstituteSourcesTest, WholeWordsAndAnExplicitOutput) {
  std::map<std::string, std::string> S = {{"/p/k.cu", "/p/.k.autoprof-c1.cu"}};
  std::map<std::string, std::vector<std::string>> N = {{"/p/k.cu", {"k.cu"}}};
  EXPECT_EQ(substituteSources("nvcc -o k k.cu kk.cu k.cuh", S, N),
            "nvcc -o k /p/.k.autoprof-c1.cu kk.cu k.cuh");
  EXPECT_EQ(substituteSources("cd /p && nvcc -ok /p/k.cu", S, N),
            "cd /p && nvcc -ok /p/.k.autoprof-c1.cu");
  EXPECT_EQ(substituteSources("nvcc '-o' x \"k.cu\"", S, N),
            "nvcc '-o' x \"/p/.k.autoprof-c1.cu\"");
  // Without an explicit output, `-c k.cu` would write another object.
  EXPECT_EQ(substituteSources("nvcc -c k.cu", S, N), std::nullopt);
  // A file the command does not name.
  EXPECT_EQ(substituteSources("make -o all", S, N), std::nullopt);
}

TEST_F(VerifierTest, SaysWhenTheInputsDoNotFollowTheSeed) {
  {
    Verifier V(Fake, O, {K});
    ASSERT_FALSE(llvm::errorToBool(V.prepare()));
    ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
    EXPECT_EQ(V.originalInputsVary(), std::optional<bool>(true));
    // Every run's buffers are kept: a candidate's run of each seed is
    // compared with them.
    EXPECT_TRUE(llvm::sys::fs::exists(O.WorkDir + "/original-buffers"));
    EXPECT_TRUE(llvm::sys::fs::exists(O.WorkDir + "/original-buffers-2"));
    EXPECT_FALSE(V.originalRuns()[1].Measured->Kernels[0].Snapshots.empty());
  }
  writeFileAtomically(Source, "ONEINPUT\n");
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  EXPECT_EQ(V.originalInputsVary(), std::optional<bool>(false));
  // One run says nothing.
  EXPECT_EQ(
      inputsVary(llvm::ArrayRef<RunOutcome>(V.originalRuns()).take_front()),
      std::nullopt);
}

} // namespace

TEST_F(VerifierTest, HeadersAreSwappedWithTheSourceAndOthersRefused) {
  std::string Header = (Dir + "/k.cuh").str();
  writeFileAtomically(Header, "header\n");
  O.Headers = {Header};
  // The build sees the header too.
  std::vector<std::string> HeaderDuringBuild;
  struct Watching : FakeProgram {
    std::string Header;
    std::vector<std::string> *Seen = nullptr;
    llvm::Expected<ChildResult> run(const ChildOptions &C) override {
      if (C.Argv.back() == "build")
        Seen->push_back(readFile(Header));
      return FakeProgram::run(C);
    }
  } W;
  W.Source = Source;
  W.Header = Header;
  W.Seen = &HeaderDuringBuild;
  Verifier V(W, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  EXPECT_EQ(V.originalText(Header), "header\n");
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));

  auto Both =
      V.verify(SourceTexts{{Source, "FAST\n"}, {Header, "H2\n"}}, {K}, J);
  ASSERT_TRUE(static_cast<bool>(Both));
  EXPECT_EQ(Both->front().V, Verdict::Faster) << Both->front().Reason;
  EXPECT_EQ(W.SourceDuringBuild.back(), "FAST\n");
  EXPECT_EQ(HeaderDuringBuild.back(), "H2\n");
  EXPECT_EQ(readFile(Source), "original\n");
  EXPECT_EQ(readFile(Header), "header\n");
  EXPECT_FALSE(llvm::sys::fs::exists(Dir + "/.k.cuh.autoprof-orig"));

  // A file the verifier was not given is refused before anything changes.
  std::string Other = (Dir + "/other.cuh").str();
  writeFileAtomically(Other, "other\n");
  unsigned Builds = W.SourceDuringBuild.size();
  auto Refused =
      V.verify(SourceTexts{{Source, "FAST\n"}, {Other, "x\n"}}, {K}, J);
  ASSERT_FALSE(static_cast<bool>(Refused));
  EXPECT_NE(llvm::toString(Refused.takeError())
                .find("is not the source or one of its headers"),
            std::string::npos);
  EXPECT_EQ(W.SourceDuringBuild.size(), Builds);
  EXPECT_EQ(readFile(Source), "original\n");
  EXPECT_EQ(readFile(Other), "other\n");
}

TEST_F(VerifierTest, ALaterLaunchIsCheckedFromPoisonedOutputs) {
  O.PoisonSeed = 77;
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  EXPECT_TRUE(V.laterLaunchUnchecked().empty());
  auto Fast = V.verify("FAST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Fast));
  EXPECT_EQ(Fast->front().V, Verdict::Faster) << Fast->front().Reason;
  EXPECT_EQ(Fake.PoisonedRuns, 2u);
  // The same poison for the original and the candidate.
  EXPECT_EQ(Fake.PoisonSeed, 77u);
  auto Reuse = V.verify("FAST REUSE\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Reuse));
  EXPECT_EQ(Reuse->front().V, Verdict::ReusedResults);
  EXPECT_EQ(Reuse->front().Reason,
            "launch 1, started from outputs overwritten with poison: 'out' "
            "differs in 2 of 2 f32 elements; first at [0]: 0.375, expected 1");
  auto Outside = V.verify("FAST OUTSIDE\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Outside));
  EXPECT_EQ(Outside->front().V, Verdict::WritesOutside);
  // A candidate whose seeded runs fail is not run poisoned.
  unsigned Poisoned = Fake.PoisonedRuns;
  auto Crash = V.verify("CRASH\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Crash));
  EXPECT_EQ(Crash->front().V, Verdict::Crashed);
  EXPECT_EQ(Fake.PoisonedRuns, Poisoned);
}

// An original whose output differs between two runs with the same seed is
// run again with every seed; a candidate may differ from it by a few times
// that spread, no more. Integers that differ so cannot be judged.
TEST_F(VerifierTest, OrderDependentOutputsAreJudgedByTheOriginalsSpread) {
  writeFileAtomically(Source, "original ORDER\n");
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  EXPECT_EQ(V.originalRepeats().size(), 3u);
  auto Fast = V.verify("ORDER FAST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Fast));
  EXPECT_EQ(Fast->front().V, Verdict::Faster) << Fast->front().Reason;
  auto Far = V.verify("ORDER FAST FAR\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Far));
  EXPECT_EQ(Far->front().V, Verdict::WrongOutput);
  EXPECT_NE(Far->front().Reason.find("the original's runs with the same "
                                     "input lie 0.001 apart"),
            std::string::npos)
      << Far->front().Reason;
  // Without the repeated runs, the spread of the original is not known.
  JudgeOptions Strict = J;
  Strict.OrderSlack = 0;
  auto NoSlack = V.verify("ORDER FAST\n", {K}, Strict);
  ASSERT_TRUE(static_cast<bool>(NoSlack));
  EXPECT_EQ(NoSlack->front().V, Verdict::WrongOutput);

  // Runs of the original that differ by a quarter of the values are not
  // rounding apart: no tolerance is widened for them.
  writeFileAtomically(Source, "original WILD\n");
  Verifier Wild(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(Wild.prepare()));
  ASSERT_FALSE(llvm::errorToBool(Wild.measureOriginal()));
  auto Same0 = Wild.verify("WILD FAST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Same0));
  EXPECT_EQ(Same0->front().V, Verdict::WrongOutput);
  EXPECT_NE(Same0->front().Reason.find("in f32 elements by more than "
                                       "rounding"),
            std::string::npos)
      << Same0->front().Reason;

  KernelSignature Ints = K;
  Ints.Pointers[0] = {"slots", ElementKind::I32};
  Verifier W(Fake, O, {Ints});
  ASSERT_FALSE(llvm::errorToBool(W.prepare()));
  ASSERT_FALSE(llvm::errorToBool(W.measureOriginal()));
  auto Same = W.verify("ORDER FAST\n", {Ints}, J);
  ASSERT_TRUE(static_cast<bool>(Same));
  EXPECT_EQ(Same->front().V, Verdict::WrongOutput);
  EXPECT_NE(Same->front().Reason.find("'slots' differs between two runs of "
                                      "the original with the same input"),
            std::string::npos)
      << Same->front().Reason;
}

TEST_F(VerifierTest, CommandsAreTimedByPhase) {
  O.PoisonSeed = 5;
  TimingRunner Timed(Fake);
  Verifier V(Timed, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  auto Fast = V.verify("FAST\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Fast));
  const PhaseTimes &T = Timed.times();
  ASSERT_EQ(T.size(), 3u);
  EXPECT_EQ(T.at("build").Count, 2u);
  EXPECT_DOUBLE_EQ(T.at("build").Seconds, 4);
  EXPECT_EQ(T.at("run").Count, 7u);
  EXPECT_DOUBLE_EQ(T.at("run").Seconds, 3.5);
  EXPECT_DOUBLE_EQ(T.at("run").LockWaitSeconds, 1.75);
  EXPECT_EQ(T.at("poisoned-run").Count, 2u);
  EXPECT_DOUBLE_EQ(T.at("poisoned-run").Seconds, 1);
}

TEST_F(VerifierTest, AnOriginalThatDiesOnPoisonSkipsTheCheck) {
  writeFileAtomically(Source, "POISONDIES\n");
  Verifier V(Fake, O, {K});
  ASSERT_FALSE(llvm::errorToBool(V.prepare()));
  ASSERT_FALSE(llvm::errorToBool(V.measureOriginal()));
  EXPECT_EQ(V.laterLaunchUnchecked(),
            "the original's run with poisoned outputs before launch 1 "
            "failed: killed by signal 6 (Aborted)");
  // No candidate is run poisoned; a reuse goes unseen, and is judged on
  // its seeded runs.
  auto Reuse = V.verify("POISONDIES FAST REUSE\n", {K}, J);
  ASSERT_TRUE(static_cast<bool>(Reuse));
  EXPECT_EQ(Reuse->front().V, Verdict::Faster);
  EXPECT_EQ(Fake.PoisonedRuns, 1u);
}
