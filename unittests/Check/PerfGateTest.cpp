//===- PerfGateTest.cpp - Tests of the performance gate's findings --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/PerfGate.h"

#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Profile/Measurement.h"
#include "autoprof/Profile/Profile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "rapidjson/document.h"

#include "gtest/gtest.h"

#include <limits>

#include <map>

using namespace autoprof;
using namespace autoprof::verify;

namespace {

BaselineKernel kernel(llvm::StringRef Name, double Median, double Min,
                      double Max) {
  BaselineKernel K;
  K.Name = Name.str();
  K.MangledName = "_Z" + std::to_string(Name.size()) + Name.str() + "Pf";
  K.T.MedianNs = Median;
  K.T.MinNs = Min;
  K.T.MaxNs = Max;
  K.T.Runs = 5;
  return K;
}

PerfBaseline baseline(std::vector<BaselineKernel> Ks) {
  PerfBaseline B;
  B.Kernels = std::move(Ks);
  return B;
}

FileLocation at(unsigned Line) {
  FileLocation L;
  L.File = "/src/k.cu";
  L.Line = Line;
  L.Column = 17;
  L.Offset = 100 * Line;
  return L;
}

TEST(PerfGateTest, CountsWhatItCompares) {
  PerfBaseline Base = baseline(
      {kernel("fast", 1000, 990, 1010), kernel("slow", 1000, 990, 1010),
       kernel("gone", 1000, 990, 1010), kernel("other", 1000, 990, 1010)});
  PerfBaseline Now = baseline({kernel("fast", 1020, 1010, 1030),
                               kernel("slow", 1310, 1300, 1320),
                               kernel("new", 500, 500, 500)});
  // "other" belongs to sources not checked now: it is left out.
  PerfGateResult R = gatePerf(
      Base, Now, {"_Z4fastPf", "_Z4slowPf", "_Z4gonePf", "_Z3newPf"}, 0.05);
  EXPECT_EQ(R.Within, 1u);
  EXPECT_EQ(R.Slower, 1u);
  EXPECT_EQ(R.NotLaunched, 1u);
  EXPECT_EQ(R.NotInBaseline, 1u);
  ASSERT_EQ(R.Comparisons.size(), 4u);
  EXPECT_EQ(R.Comparisons[0].Name, "fast");
  EXPECT_EQ(R.Comparisons[1].Status, PerfStatus::Slower);
  EXPECT_EQ(R.Comparisons[2].Status, PerfStatus::NotInBaseline);
  EXPECT_EQ(R.Comparisons[3].Name, "gone");
  EXPECT_EQ(R.Comparisons[3].Status, PerfStatus::NotLaunched);
}

TEST(PerfGateTest, LeavesOutKernelsNotCompared) {
  // Deselected kernels are neither compared nor missed, however slow.
  PerfGateResult R = gatePerf(baseline({kernel("k", 1000, 1000, 1000)}),
                              baseline({kernel("k", 5000, 5000, 5000)}),
                              /*Compared=*/{}, 0.05);
  EXPECT_TRUE(R.Comparisons.empty());
  EXPECT_EQ(R.Slower + R.Within + R.NotLaunched + R.NotInBaseline, 0u);
}

TEST(PerfGateTest, SlowerIsAnErrorAtTheDeclaration) {
  PerfGateResult R =
      gatePerf(baseline({kernel("k", 1530, 1520, 1540)}),
               baseline({kernel("k", 2010, 1990, 2032)}), {"_Z1kPf"}, 0.05);
  ASSERT_EQ(R.Comparisons.size(), 1u);
  std::optional<Finding> F = perfFinding(R.Comparisons[0], at(3), 0.05);
  ASSERT_TRUE(F.has_value());
  EXPECT_EQ(F->Check, "autoprof-perf-regression");
  EXPECT_EQ(F->Level, Severity::Error);
  EXPECT_EQ(F->Message, "kernel 'k' is 1.31x slower than its baseline (2.01 "
                        "us against 1.53 us, tolerance 5%, noise 2.1%)");
  EXPECT_EQ(F->File, "/src/k.cu");
  EXPECT_EQ(F->Line, 3u);
  EXPECT_EQ(F->Column, 17u);
  EXPECT_EQ(F->Offset, 300u);
  EXPECT_TRUE(F->Fix.empty());
}

TEST(PerfGateTest, NotLaunchedIsAWarningWithinIsNothing) {
  PerfGateResult R = gatePerf(
      baseline({kernel("a", 1530, 1520, 1540), kernel("b", 1000, 1000, 1000)}),
      baseline({kernel("a", 1540, 1530, 1550)}), {"_Z1aPf", "_Z1bPf"}, 0.05);
  ASSERT_EQ(R.Comparisons.size(), 2u);
  EXPECT_FALSE(perfFinding(R.Comparisons[0], at(1), 0.05).has_value());
  EXPECT_EQ(describePerf(R.Comparisons[0], 0.05),
            "kernel 'a' is within its baseline: 1.01x (1.54 us against 1.53 "
            "us, tolerance 5%, noise 1.3%)");
  std::optional<Finding> F = perfFinding(R.Comparisons[1], at(2), 0.05);
  ASSERT_TRUE(F.has_value());
  EXPECT_EQ(F->Level, Severity::Warning);
  EXPECT_EQ(F->Message,
            "kernel 'b' did not launch when the run command ran (baseline "
            "1.00 us)");
}

TEST(PerfGateTest, TheCheckIsRegistered) {
  const Check *C = CheckRegistry::find(PerfRegressionCheckName);
  ASSERT_NE(C, nullptr);
  EXPECT_EQ(C->severity(), Severity::Error);
  EXPECT_FALSE(C->help().empty());
}

} // namespace

namespace {

std::string readText(llvm::StringRef Path) {
  auto B = llvm::MemoryBuffer::getFile(Path);
  return B ? (*B)->getBuffer().str() : "";
}

/// A program whose kernels take the times the test sets: it reads the
/// configuration the injection library would, and writes the measurement
/// of the kernels it launches.
class TimedProgram : public CommandRunner {
public:
  /// Nanoseconds per launch, by mangled name; a kernel absent never
  /// launches.
  std::map<std::string, double> Ns;
  /// Exit status of every run.
  int Status = 0;
  /// Whether the program uses CUDA (writes a measurement).
  bool UsesCuda = true;
  unsigned Runs = 0;

  llvm::Expected<ChildResult> run(const ChildOptions &O) override {
    ++Runs;
    ChildResult R;
    R.Status = Status;
    R.WallSeconds = 0.1;
    if (Status != 0) {
      std::error_code EC;
      llvm::raw_fd_ostream(O.OutputFile, EC) << "scale: bad input\n";
    }
    if (!UsesCuda)
      return R;
    rapidjson::Document Cfg;
    std::string Text = readText(O.Env.at("AUTOPROF_MEASURE_CONFIG"));
    Cfg.Parse(Text.c_str());
    Measurement M;
    for (const auto &[Name, T] : Ns) {
      KernelMeasurement K;
      K.MangledName = Name;
      K.Launches = 2;
      K.DurationsNs = {T, T};
      M.Kernels.push_back(K);
    }
    writeFileAtomically(Cfg["output"].GetString(), writeMeasurementJSON(M));
    return R;
  }
};

class TimeAndGateTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("perf-gate", Dir));
    O.RunCommand = "run";
    O.InjectLibrary = "libautoprof-inject.so";
    O.WorkDir = std::string(Dir);
    O.Runs = 3;
    O.Tolerance = 0.1;
    O.Warn = [&](const std::string &W) { Warnings.push_back(W); };
    Promoted = cantFail(GlobList::parse("autoprof-perf-regression"));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  GateKernel gated(llvm::StringRef Name, unsigned Line, bool Compare = true) {
    GateKernel K;
    K.Signature.Name = Name.str();
    K.Signature.MangledName =
        "_Z" + std::to_string(Name.size()) + Name.str() + "Pf";
    K.Where = at(Line);
    K.Compare = Compare;
    return K;
  }

  llvm::Expected<PerfGateRun>
  gate(llvm::ArrayRef<GateKernel> Ks,
       const std::optional<PerfBaseline> &Baseline) {
    Log.clear();
    llvm::raw_string_ostream OS(Log);
    return timeAndGate(Ks, Baseline, O, Program, OS);
  }

  llvm::SmallString<128> Dir;
  PerfGateOptions O;
  TimedProgram Program;
  std::vector<std::string> Warnings;
  std::string Log;
  GlobList Promoted;
};

TEST_F(TimeAndGateTest, FindsTheKernelsSlowerThanTheirBaseline) {
  Program.Ns = {{"_Z4fastPf", 1000}, {"_Z4slowPf", 3000}};
  PerfBaseline B = baseline(
      {kernel("fast", 1000, 990, 1010), kernel("slow", 1000, 990, 1010)});
  std::vector<PerfBaseline> Recorded;
  O.Record = [&](const PerfBaseline &P) {
    Recorded.push_back(P);
    return llvm::Error::success();
  };
  llvm::Expected<PerfGateRun> R = gate({gated("fast", 3), gated("slow", 9)}, B);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(Program.Runs, 3u);
  ASSERT_EQ(R->Current.Kernels.size(), 2u);
  EXPECT_EQ(R->Current.Kernels[1].Name, "slow");
  EXPECT_EQ(R->Current.Kernels[1].T.Runs, 3u);
  ASSERT_EQ(Recorded.size(), 1u);
  EXPECT_EQ(Recorded[0].Kernels.size(), 2u);
  ASSERT_EQ(R->Findings.size(), 1u);
  EXPECT_EQ(R->Findings[0].Level, Severity::Error);
  EXPECT_EQ(R->Findings[0].Line, 9u);
  EXPECT_NE(R->Findings[0].Message.find("kernel 'slow' is 3.00x slower"),
            std::string::npos)
      << R->Findings[0].Message;
  EXPECT_NE(Log.find("perf gate: 1 kernel within tolerance, 1 slower, 0 not "
                     "launched"),
            std::string::npos)
      << Log;
  EXPECT_TRUE(Warnings.empty());
}

TEST_F(TimeAndGateTest, AKernelGoneIsAWarningUnlessPromoted) {
  Program.Ns = {{"_Z4keptPf", 1000}, {"_Z3newPf", 500}};
  PerfBaseline B = baseline(
      {kernel("kept", 1000, 990, 1010), kernel("gone", 1000, 990, 1010)});
  GateKernel Gone = gated("gone", 5);
  llvm::Expected<PerfGateRun> R =
      gate({gated("kept", 2), Gone, gated("new", 7)}, B);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Findings.size(), 1u);
  EXPECT_EQ(R->Findings[0].Level, Severity::Warning);
  EXPECT_EQ(R->Findings[0].Line, 5u);
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("kernel 'new' is not in the baseline"),
            std::string::npos)
      << Warnings[0];

  Gone.WarningsAsErrors = &Promoted;
  R = gate({gated("kept", 2), Gone}, B);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Findings.size(), 1u);
  EXPECT_EQ(R->Findings[0].Level, Severity::Error);
  EXPECT_TRUE(R->Findings[0].Promoted);
}

TEST_F(TimeAndGateTest, OnlyKernelsItComparesAreJudged) {
  // Recorded, not compared: no finding though it is slower.
  Program.Ns = {{"_Z4slowPf", 3000}};
  PerfBaseline B = baseline({kernel("slow", 1000, 990, 1010)});
  llvm::Expected<PerfGateRun> R = gate({gated("slow", 9, false)}, B);
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->Findings.empty());
  EXPECT_EQ(R->Current.Kernels.size(), 1u);
}

TEST_F(TimeAndGateTest, RunsThatCannotTimeAreOneLineErrors) {
  Program.Ns = {{"_Z4fastPf", 1000}};
  Program.Status = 3;
  llvm::Expected<PerfGateRun> R = gate({gated("fast", 3)}, std::nullopt);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "the run command failed (seed 1, exit status 3): scale: bad input");

  Program.Status = 0;
  Program.UsesCuda = false;
  R = gate({gated("fast", 3)}, std::nullopt);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "the run command never used CUDA: no kernel was timed");

  Program.UsesCuda = true;
  Program.Ns = {{"_Z5otherPf", 1000}};
  R = gate({gated("fast", 3)}, std::nullopt);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "no kernel of the sources launched when the run command ran");

  // A record that cannot be written ends the gate.
  Program.Ns = {{"_Z4fastPf", 1000}};
  O.Record = [](const PerfBaseline &) {
    return llvm::createStringError("cannot write 'x.json'");
  };
  R = gate({gated("fast", 3)}, std::nullopt);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()), "cannot write 'x.json'");
}

TEST(PerfGateTest, ItsOptionsAreCheckedBeforeAnythingRuns) {
  auto Why = [](const PerfGateOptions &G, llvm::StringRef Record,
                llvm::StringRef Baseline) {
    llvm::Error E = checkGateOptions(G, Record, Baseline, {"k.cu"});
    return E ? llvm::toString(std::move(E)) : std::string();
  };
  PerfGateOptions G;
  G.RunCommand = "./app";
  EXPECT_EQ(Why(G, "", "base.json"), "");
  EXPECT_EQ(Why(G, "new.json", "base.json"), "");
  EXPECT_EQ(Why(G, "base.json", "./base.json"),
            "--perf-record 'base.json' would replace the baseline it is "
            "compared with");
  PerfGateOptions NoRun;
  EXPECT_EQ(Why(NoRun, "", "base.json")
                .rfind("the performance gate needs the "
                       "program: give --run",
                       0),
            0u);
  PerfGateOptions Few = G;
  Few.Runs = 2;
  EXPECT_EQ(
      Why(Few, "", "base.json").rfind("--perf-runs must be at least 3", 0), 0u);
  PerfGateOptions Bad = G;
  Bad.Tolerance = -0.1;
  EXPECT_EQ(Why(Bad, "", "base.json"),
            "--perf-tolerance must be a non-negative fraction (0.05 allows "
            "5%)");
  Bad.Tolerance = std::numeric_limits<double>::infinity();
  EXPECT_NE(Why(Bad, "", "base.json"), "");
}

} // namespace
