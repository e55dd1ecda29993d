//===- ProfileSetupTest.cpp - What a profile request is filled from -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ProfileSetup.h"

#include "autoprof/Tree/Plan.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::profiling;

namespace {

class ProfileSetupTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("profile-setup", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string write(const std::string &Name, const std::string &Text) {
    std::string P = (Dir + "/" + Name).str();
    std::error_code EC;
    llvm::raw_fd_ostream(P, EC) << Text;
    EXPECT_FALSE(EC);
    return P;
  }
  llvm::SmallString<128> Dir;
  const std::string Models = AUTOPROF_TEST_TREE_MODELS;
};

TEST_F(ProfileSetupTest, MetricListsKeepEachNameOnce) {
  EXPECT_EQ(parseMetricList(" a, b,,a ,c "),
            (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_TRUE(parseMetricList(" , ,").empty());
}

TEST_F(ProfileSetupTest, APlanGivesItsTreeAndKernels) {
  Plan P;
  P.Tree = "default";
  P.TreeFile = (Dir + "/moved-away.json").str();
  PlanKernel K;
  K.Name = "scale";
  K.QualifiedName = "ns::scale";
  K.MangledName = "_ZN2ns5scaleEPf";
  K.Features.push_back({"loops", 2.0});
  P.Kernels.push_back(K);
  std::string File = write("plan.json", writePlanJSON(P));
  ProfileRequest R;
  ASSERT_FALSE(static_cast<bool>(usePlan(File, Models, R)));
  // The tree's file is gone: the tree is found by its name.
  EXPECT_EQ(R.Tree.Name, "default");
  ASSERT_EQ(R.Kernels.size(), 1u);
  EXPECT_EQ(R.Kernels[0].MangledName, "_ZN2ns5scaleEPf");
  EXPECT_EQ(R.Kernels[0].Features["loops"], 2.0);

  // Neither a name nor a file that exists.
  P.Tree.clear();
  std::string Bad = write("bad.json", writePlanJSON(P));
  ProfileRequest R2;
  EXPECT_EQ(llvm::toString(usePlan(Bad, Models, R2)),
            Bad + ": $.tree: missing, and the tree_file '" + P.TreeFile +
                "' does not exist");
  EXPECT_NE(llvm::toString(usePlan((Dir + "/none.json").str(), Models, R2))
                .find("cannot read"),
            std::string::npos);
}

TEST_F(ProfileSetupTest, PrimaryTemplatesAreNotKernelsThatLaunch) {
  FeatureReport Report;
  KernelRecord Primary;
  Primary.Name = "t";
  Primary.Template = TemplateKind::Primary;
  KernelRecord Inst;
  Inst.Name = "t";
  Inst.MangledName = "_Z1tIfEvPT_";
  Inst.Template = TemplateKind::Instantiation;
  Inst.Features.set("loops", 1);
  Report.Kernels = {Primary, Inst};
  std::vector<StaticKernel> Out;
  addReportKernels(Report, Out);
  ASSERT_EQ(Out.size(), 1u);
  EXPECT_EQ(Out[0].MangledName, "_Z1tIfEvPT_");
  EXPECT_EQ(Out[0].Features["loops"], 1.0);
}

} // namespace
