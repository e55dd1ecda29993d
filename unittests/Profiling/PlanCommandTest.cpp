//===- PlanCommandTest.cpp - Tests of runPlanCommand() --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// `plan` as a library call with the shipped trees and sources that the test
// stands in for: what is read before the sources, and how the sources'
// status becomes the command's.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/PlanCommand.h"

#include "../Support/OnePassEach.h"
#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

class PlanCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    O.Tree = "default";
    O.CatalogPath =
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json";
    O.Output = "plan.txt";
    H.LoadCounter = []() -> Expected<std::unique_ptr<PassCounter>> {
      return std::make_unique<test::OnePassEach>();
    };
    H.Sources = [this](FeatureReport &) {
      ++SourcesRead;
      return SourceStatus;
    };
    H.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] = Text.str();
      return Error::success();
    };
    H.Error = [this](const std::string &E) { Errors.push_back(E); };
  }

  PlanCommandOptions O;
  PlanCommandHooks H;
  int SourceStatus = 0;
  unsigned SourcesRead = 0;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors;
};

TEST_F(PlanCommandTest, TheTreeAndSamplesAreReadBeforeTheSources) {
  O.Tree = "no-such-tree";
  EXPECT_EQ(runPlanCommand(O, H), 1);
  O.Tree = "default";
  O.Samples = "/nonexistent/profile.json";
  EXPECT_EQ(runPlanCommand(O, H), 1);
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_EQ(Errors[0].rfind("tree 'no-such-tree' not found", 0), 0u)
      << Errors[0];
  EXPECT_NE(Errors[1].find("/nonexistent/profile.json"), std::string::npos);
  EXPECT_EQ(SourcesRead, 0u);
  EXPECT_TRUE(Written.empty());
}

TEST_F(PlanCommandTest, TheSourcesStatusIsTheCommands) {
  // Some sources failed: the others are planned, and the status says so.
  SourceStatus = 1;
  EXPECT_EQ(runPlanCommand(O, H), 1);
  EXPECT_TRUE(Written.count("plan.txt"));
  // None could be read: nothing is written, and the sources said why.
  Written.clear();
  SourceStatus = 2;
  EXPECT_EQ(runPlanCommand(O, H), 1);
  EXPECT_TRUE(Written.empty());
  EXPECT_TRUE(Errors.empty());
  // JSON names the tree.
  SourceStatus = 0;
  O.JSON = true;
  EXPECT_EQ(runPlanCommand(O, H), 0);
  EXPECT_NE(Written["plan.txt"].find("\"default\""), std::string::npos)
      << Written["plan.txt"];
}

} // namespace
