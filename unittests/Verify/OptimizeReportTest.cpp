//===- OptimizeReportTest.cpp - The optimize report's JSON and text -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/OptimizeReport.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::verify;

namespace {

OptimizeReport sample() {
  OptimizeReport R;
  R.Source = "k.cu";
  R.Tree = "learned";
  R.Seeds = {1, 2, 3};
  KernelReport K;
  K.Name = "ns::k";
  K.MangledName = "_ZN2ns1kEPf";
  K.Leaf = "memory";
  K.Route = {"dram:then"};
  K.Metrics = {{"gpu__time_duration.sum", 1200.5}};
  AttemptReport A;
  A.Transformation = "tile-matmul-smem+block-shape(32x8)";
  A.Trigger = "x >= 1";
  A.Result.V = Verdict::Faster;
  A.Result.Reason = "fast";
  A.Result.Speedup = 2.5;
  A.Result.SpeedupLow = 2.25;
  A.Result.SpeedupHigh = 2.75;
  K.Attempts.push_back(A);
  AttemptReport B;
  B.Transformation = "launch-bounds";
  B.Result.V = Verdict::BuildFailed;
  B.Result.Reason = "error: no";
  K.Attempts.push_back(B);
  K.Kept = A.Transformation;
  K.Speedup = 2.5;
  R.Kernels.push_back(K);
  KernelReport Idle;
  Idle.Name = "j";
  R.Kernels.push_back(Idle);
  R.Combined = B;
  R.Outcome = "verified";
  R.InputsVary = false;
  R.LaterLaunchUnchecked = "it crashed";
  R.Seconds = 4.5;
  return R;
}

TEST(OptimizeReportTest, ReadsWhatItWrites) {
  std::string Text = writeOptimizeReportJSON(sample());
  llvm::Expected<OptimizeReport> R = readOptimizeReportJSON(Text);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(writeOptimizeReportJSON(*R), Text);
  EXPECT_EQ(R->Kernels[0].Kept, "tile-matmul-smem+block-shape(32x8)");
  EXPECT_EQ(*R->Kernels[0].Speedup, 2.5);
  EXPECT_FALSE(R->Kernels[1].Speedup);
  EXPECT_EQ(R->Kernels[0].Attempts[1].Trigger, "");
  EXPECT_EQ(renderOptimizeReportText(*R, true),
            renderOptimizeReportText(sample(), true));
}

TEST(OptimizeReportTest, BadReportsSayWhere) {
  auto Error = [](const std::string &Text) {
    llvm::Expected<OptimizeReport> R = readOptimizeReportJSON(Text);
    return R ? std::string("read") : llvm::toString(R.takeError());
  };
  EXPECT_EQ(Error("{"),
            "1:2: malformed JSON: Missing a name for object member.");
  EXPECT_EQ(Error("{\"version\": 7}"),
            "$.version: unsupported version (expected 1)");
  std::string Text = writeOptimizeReportJSON(sample());
  std::string Bad = Text;
  Bad.replace(Bad.find("\"faster\""), 8, "\"quick\"");
  EXPECT_EQ(Error(Bad),
            "$.kernels[0].attempts[0].verdict: unknown verdict 'quick'");
  Bad = Text;
  Bad.replace(Bad.find("\"ns::k\""), 7, "3");
  EXPECT_EQ(Error(Bad), "$.kernels[0].kernel: expected a string");
}

TEST(OptimizeReportTest, TextSaysWhatWasKept) {
  std::string T = renderOptimizeReportText(sample(), true);
  EXPECT_NE(T.find("  kept: tile-matmul-smem+block-shape(32x8) (2.50x)\n"),
            std::string::npos)
      << T;
  EXPECT_NE(T.find("kernel j\n  no rewrite triggered\n"), std::string::npos);
  EXPECT_NE(T.find("together: launch-bounds: build-failed: error: no\n"),
            std::string::npos);
  EXPECT_NE(T.find("outcome: verified (the source is unchanged; --in-place "
                   "writes it)\n"),
            std::string::npos);
  EXPECT_EQ(renderOptimizeReportText(sample(), false).find("--in-place"),
            std::string::npos);
}

} // namespace
