//===- PerfBaselineTest.cpp - Tests of the performance baseline -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/PerfBaseline.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

namespace {

BaselineKernel kernel(StringRef Mangled, double Median, double Min,
                      double Max) {
  BaselineKernel K;
  K.Name = Mangled.drop_front(3).str();
  K.MangledName = Mangled.str();
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

TEST(PerfBaselineTest, WithinTolerancePasses) {
  auto R = comparePerf(baseline({kernel("_Z1k", 1000, 1000, 1000)}),
                       baseline({kernel("_Z1k", 1040, 1040, 1040)}), 0.05);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Status, PerfStatus::Within);
  EXPECT_DOUBLE_EQ(R[0].Ratio, 1.04);
}

TEST(PerfBaselineTest, BeyondToleranceIsSlower) {
  auto R = comparePerf(baseline({kernel("_Z1k", 1000, 1000, 1000)}),
                       baseline({kernel("_Z1k", 1310, 1310, 1310)}), 0.05);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_EQ(R[0].Status, PerfStatus::Slower);
  EXPECT_DOUBLE_EQ(R[0].Noise, 0);
}

TEST(PerfBaselineTest, NoiseWidensTheTolerance) {
  // 10% spread in the current runs: 1.12 is within 5% + 10%.
  auto R = comparePerf(baseline({kernel("_Z1k", 1000, 990, 1010)}),
                       baseline({kernel("_Z1k", 1120, 1070, 1182)}), 0.05);
  ASSERT_EQ(R.size(), 1u);
  EXPECT_NEAR(R[0].Noise, 0.1, 1e-9);
  EXPECT_EQ(R[0].Status, PerfStatus::Within);
}

TEST(PerfBaselineTest, MissingKernels) {
  auto R = comparePerf(baseline({kernel("_Z1a", 1000, 1000, 1000)}),
                       baseline({kernel("_Z1b", 1000, 1000, 1000)}), 0.05);
  ASSERT_EQ(R.size(), 2u);
  EXPECT_EQ(R[0].MangledName, "_Z1b");
  EXPECT_EQ(R[0].Status, PerfStatus::NotInBaseline);
  EXPECT_EQ(R[1].MangledName, "_Z1a");
  EXPECT_EQ(R[1].Status, PerfStatus::NotLaunched);
}

TEST(PerfBaselineTest, RoundTrips) {
  PerfBaseline B = baseline({kernel("_Z1k", 1500, 1400, 1600)});
  Expected<PerfBaseline> P =
      parsePerfBaselineJSON(writePerfBaselineJSON(B), "b.json");
  ASSERT_TRUE(bool(P)) << toString(P.takeError());
  ASSERT_EQ(P->Kernels.size(), 1u);
  EXPECT_EQ(P->Kernels[0].Name, "k");
  EXPECT_DOUBLE_EQ(P->Kernels[0].T.MedianNs, 1500);
  EXPECT_EQ(P->Kernels[0].T.Runs, 5u);
}

std::string parseError(StringRef Text) {
  Expected<PerfBaseline> P = parsePerfBaselineJSON(Text, "b.json");
  return P ? "" : toString(P.takeError());
}

TEST(PerfBaselineTest, MalformedFilesNameTheirPaths) {
  EXPECT_EQ(parseError("{\n  \"version\": 1,\n  x"),
            "malformed baseline 'b.json': 3:3: malformed JSON: Missing a name "
            "for object member.");
  EXPECT_EQ(parseError("{\"kernels\": []}"),
            "malformed baseline 'b.json': $.version: missing or not an "
            "integer");
  EXPECT_EQ(parseError("{\"version\": 1, \"kernels\": [{\"name\": \"k\", "
                       "\"mangled_name\": \"_Z1k\", \"median_ns\": \"1\"}]}"),
            "malformed baseline 'b.json': $.kernels[0].median_ns: missing or "
            "not a positive number");
}

TEST(PerfBaselineTest, AFileThatCannotBeReadIsOneLine) {
  llvm::Expected<PerfBaseline> B =
      readPerfBaselineFile("/nonexistent/baseline.json");
  ASSERT_FALSE(bool(B));
  std::string Msg = llvm::toString(B.takeError());
  EXPECT_EQ(
      Msg.rfind("cannot read the baseline '/nonexistent/baseline.json': ", 0),
      0u)
      << Msg;
  EXPECT_EQ(Msg.find('\n'), std::string::npos);
}

} // namespace
