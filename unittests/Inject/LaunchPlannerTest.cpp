//===- LaunchPlannerTest.cpp - Tests of the injection library's choices ---===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlanner.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::inject;

namespace {

std::string writeTemp(const std::string &Text) {
  llvm::SmallString<128> Path;
  int FD = -1;
  EXPECT_FALSE(llvm::sys::fs::createTemporaryFile("planner", "json", FD, Path));
  llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
  OS << Text;
  return std::string(Path);
}

// One feature test, then a sample test on the else side.
const char *Tree = R"json({
  "version": 1, "name": "t", "chips": ["GH100"], "budget": 8,
  "stage1": ["s1"],
  "root": "a",
  "nodes": [
    {"id": "a", "test": {"feature": "loops", "op": ">", "threshold": 0},
     "then": "static", "else": "b"},
    {"id": "b", "test": {"sample": "s1", "op": ">=", "threshold": 50},
     "then": "high", "else": "low"},
    {"id": "static", "leaf": {"metrics": ["m1"], "focus": "f"}},
    {"id": "high", "leaf": {"metrics": ["m2", "d1"], "focus": "f"}},
    {"id": "low", "leaf": {"metrics": ["m3"], "focus": "f"}}
  ]})json";

AgentConfig load(const std::string &Extra) {
  std::string TreePath = writeTemp(Tree);
  std::string Text = R"({"version": 1, "output": "/dev/null", "tree_file": ")" +
                     TreePath + "\"" + Extra + "}";
  AgentConfig C;
  std::string Error;
  EXPECT_TRUE(loadAgentConfig(writeTemp(Text), C, Error)) << Error;
  return C;
}

const std::string Loop = "_Z4loopPf", Flat = "_Z4flatPf";
const std::string Kernels = R"(, "kernels": [
    {"mangled_name": "_Z4loopPf", "features": {"loops": 2}},
    {"mangled_name": "_Z4flatPf", "features": {"loops": 0}}],
  "derived_inputs": {"d1": ["m4", "m5"]})";

TEST(LaunchPlannerTest, AStaticRouteCollectsBothStagesInOneLaunch) {
  AgentConfig C = load(Kernels);
  LaunchPlanner P(C);
  std::optional<PlannedLaunch> L = P.plan(Loop);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Record.Stage, "stage1+leaf");
  EXPECT_EQ(L->Record.Leaf, "static");
  EXPECT_EQ(L->Record.Kernel, "loop");
  EXPECT_EQ(L->Collect, (std::vector<std::string>{"s1", "m1"}));
  P.completed(*L, {});
  // --launch-count=1: later launches are not profiled.
  EXPECT_FALSE(P.plan(Loop));
}

TEST(LaunchPlannerTest, ARuntimeRouteTakesTwoLaunches) {
  AgentConfig C = load(Kernels);
  LaunchPlanner P(C);
  std::optional<PlannedLaunch> First = P.plan(Flat);
  ASSERT_TRUE(First);
  EXPECT_EQ(First->Record.Stage, "stage1");
  EXPECT_TRUE(First->RoutesAfter);
  EXPECT_EQ(First->Collect, std::vector<std::string>{"s1"});
  P.completed(*First, {{"s1", 70}});
  EXPECT_EQ(First->Record.Leaf, "high");
  ASSERT_EQ(First->Record.Route.size(), 2u);
  EXPECT_EQ(First->Record.Route[1].Node, "b");
  EXPECT_EQ(*First->Record.Route[1].Value, 70);
  EXPECT_EQ(First->Record.Route[1].Branch, "then");

  std::optional<PlannedLaunch> Second = P.plan(Flat);
  ASSERT_TRUE(Second);
  EXPECT_EQ(Second->Record.Stage, "leaf");
  EXPECT_EQ(Second->Record.Launch, 1u);
  EXPECT_EQ(Second->Record.Leaf, "high");
  // The derived metric brings its inputs.
  EXPECT_EQ(Second->Collect,
            (std::vector<std::string>{"m2", "d1", "m4", "m5"}));
  P.completed(*Second, {});
  EXPECT_FALSE(P.plan(Flat));
}

TEST(LaunchPlannerTest, AKernelWithoutFeaturesTakesElseBranches) {
  AgentConfig C = load("");
  LaunchPlanner P(C);
  std::optional<PlannedLaunch> L = P.plan(Loop);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Record.Stage, "stage1");
  P.completed(*L, {{"s1", 10}});
  EXPECT_EQ(L->Record.Leaf, "low");
  EXPECT_EQ(L->Record.Route[0].Branch, "else");
  EXPECT_FALSE(L->Record.Route[0].Value);
}

TEST(LaunchPlannerTest, FixedListWithSkipCountAndRegex) {
  std::string Cfg = writeTemp(R"({"version": 1, "output": "/dev/null",
      "metrics": ["m1", "d1"], "derived_inputs": {"d1": ["m4"]},
      "kernel_regex": "^fl", "launch_skip": 1, "launch_count": 2})");
  AgentConfig C;
  std::string Error;
  ASSERT_TRUE(loadAgentConfig(Cfg, C, Error)) << Error;
  LaunchPlanner P(C);
  EXPECT_FALSE(P.plan(Loop)); // Not selected by the regex.
  EXPECT_FALSE(P.plan(Flat)); // Launch 0 is skipped.
  for (unsigned I = 1; I <= 2; ++I) {
    std::optional<PlannedLaunch> L = P.plan(Flat);
    ASSERT_TRUE(L);
    EXPECT_EQ(L->Record.Launch, I);
    EXPECT_EQ(L->Record.Stage, "metrics");
    EXPECT_EQ(L->Collect, (std::vector<std::string>{"m1", "d1", "m4"}));
    P.completed(*L, {});
  }
  EXPECT_FALSE(P.plan(Flat));
}

TEST(LaunchPlannerTest, TheSecondRunProfilesTheRoutedLaunchOnly) {
  AgentConfig C = load(Kernels + R"(, "run": 2, "second_run": {
      "_Z4flatPf": {"launch": 0, "samples": {"s1": 20}}})");
  LaunchPlanner P(C);
  EXPECT_FALSE(P.plan(Loop));
  std::optional<PlannedLaunch> L = P.plan(Flat);
  ASSERT_TRUE(L);
  EXPECT_EQ(L->Record.Run, 2u);
  EXPECT_EQ(L->Record.Stage, "leaf");
  EXPECT_EQ(L->Record.Leaf, "low");
  EXPECT_EQ(L->Collect, std::vector<std::string>{"m3"});
  EXPECT_FALSE(P.plan(Flat));
}

TEST(LaunchPlannerTest, BadConfigurations) {
  AgentConfig C;
  std::string Error;
  EXPECT_FALSE(loadAgentConfig("/nonexistent/config.json", C, Error));
  EXPECT_EQ(
      Error,
      "cannot read the profiling configuration '/nonexistent/config.json'");
  EXPECT_FALSE(loadAgentConfig(writeTemp("{"), C, Error));
  EXPECT_NE(Error.find("malformed profiling configuration"), std::string::npos);
  EXPECT_FALSE(loadAgentConfig(
      writeTemp(R"({"output": "x", "kernel_regex": "("})"), C, Error));
  EXPECT_NE(Error.find("invalid kernel regular expression '('"),
            std::string::npos);
}

TEST(LaunchPlannerTest, DemangledBaseNames) {
  EXPECT_EQ(demangledBaseName("_Z5saxpyifPKfPf"), "saxpy");
  EXPECT_EQ(demangledBaseName("_Z5scaleIfEvPT_"), "scale<float>");
  EXPECT_EQ(demangledBaseName("_ZN2ns6kernelEPi"), "ns::kernel");
  EXPECT_EQ(demangledBaseName("_Z3mapIN6thrust4plusIiEEEvPiT_"),
            "map<thrust::plus<int> >");
  EXPECT_EQ(demangledBaseName("plain_c_kernel"), "plain_c_kernel");
}

} // namespace
