//===- PerfGateTest.cpp - Tests of the performance gate's findings --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/PerfGate.h"

#include "autoprof/Check/CheckRegistry.h"

#include "gtest/gtest.h"

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
