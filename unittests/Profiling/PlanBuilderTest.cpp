//===- PlanBuilderTest.cpp - The plan of a tree for a set of kernels ------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/PlanBuilder.h"

#include "llvm/Support/FileSystem.h"

#include "../Support/OnePassEach.h"
#include "gtest/gtest.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

using test::OnePassEach;

class PlanBuilderTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Models = AUTOPROF_TEST_TREE_MODELS;
    TreePath = Models + "/default.json";
    ASSERT_FALSE(static_cast<bool>(loadCheckedTree(TreePath, T)));
    Expected<MetricCatalog> C =
        MetricCatalog::load(Models + "/metric-catalog.json");
    ASSERT_TRUE(static_cast<bool>(C)) << toString(C.takeError());
    Catalog = std::move(*C);
    KernelRecord Primary;
    Primary.Name = "t";
    Primary.Template = TemplateKind::Primary;
    KernelRecord K;
    K.Name = "scale";
    K.QualifiedName = "scale";
    K.MangledName = "_Z5scalePfi";
    K.File = "k.cu";
    K.Line = 3;
    Report.Kernels = {Primary, K};
  }

  ProfilingTree T;
  std::string TreePath;
  MetricCatalog Catalog;
  FeatureReport Report;
  OnePassEach Counter;
};

TEST_F(PlanBuilderTest, WithoutSamplesTheStage1TestsArePending) {
  ASSERT_FALSE(T.Stage1.empty());
  Expected<Plan> P =
      buildPlan(T, TreePath, Catalog, Counter, Report, /*Samples=*/nullptr);
  ASSERT_TRUE(static_cast<bool>(P)) << toString(P.takeError());
  EXPECT_EQ(P->Tree, T.Name);
  EXPECT_EQ(P->TreeFile, TreePath);
  EXPECT_EQ(Counter.Chip, T.Chips.front());
  // The primary template is left out.
  ASSERT_EQ(P->Kernels.size(), 1u);
  const PlanKernel &K = P->Kernels[0];
  EXPECT_EQ(K.MangledName, "_Z5scalePfi");
  ASSERT_FALSE(K.Route.empty());
  EXPECT_EQ(K.Route.back().Branch, "pending");
  EXPECT_TRUE(K.Leaf.empty());
  EXPECT_EQ(K.Collect, T.Stage1);
  EXPECT_NE(writePlanText(*P).find("kernel scale at k.cu:3\n"),
            std::string::npos);
  EXPECT_NE(writePlanText(*P).find("pending: collect the stage-1 samples"),
            std::string::npos);
}

TEST_F(PlanBuilderTest, SamplesRouteToALeaf) {
  SampleTable Samples;
  for (const std::string &M : T.Stage1)
    Samples.ByMangled["_Z5scalePfi"][M] = 0;
  Expected<Plan> P = buildPlan(T, TreePath, Catalog, Counter, Report, &Samples);
  ASSERT_TRUE(static_cast<bool>(P)) << toString(P.takeError());
  ASSERT_EQ(P->Kernels.size(), 1u);
  const PlanKernel &K = P->Kernels[0];
  ASSERT_FALSE(K.Leaf.empty());
  for (const PlanStep &St : K.Route)
    EXPECT_NE(St.Branch, "pending");
  EXPECT_GT(K.Passes, 0u);
  EXPECT_NE(writePlanText(*P).find("  leaf " + K.Leaf + ": "),
            std::string::npos);
}

} // namespace
