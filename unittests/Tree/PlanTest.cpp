//===- PlanTest.cpp - Tests of the plan format ----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tree/Plan.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

Plan sample() {
  Plan P;
  P.Tree = "default";
  P.TreeFile = "/opt/trees/default.json";
  P.Chip = "GH100";
  P.Budget = 4;
  PlanKernel Routed;
  Routed.Name = "scale";
  Routed.QualifiedName = "ns::scale<float>";
  Routed.MangledName = "_ZN2ns5scaleIfEEvPf";
  Routed.Route.push_back(
      {"strided", true, "strided_access_count", ">", 0, 2.0, "then"});
  Routed.Route.push_back(
      {"bw", false, "dram__throughput", ">=", 50.5, std::nullopt, "else"});
  Routed.Leaf = "memory";
  Routed.Collect = {"m1", "m2"};
  Routed.Focus = "coalescing";
  Routed.Passes = 3;
  Routed.Features = {{"loop_count", 2.0},
                     {"arithmetic_intensity_estimate", std::nullopt}};
  PlanKernel Pending;
  Pending.Name = "k";
  Pending.QualifiedName = "k";
  Pending.MangledName = "_Z1kv";
  Pending.Route.push_back(
      {"bw", false, "dram__throughput", ">=", 50, std::nullopt, "pending"});
  Pending.Collect = {"dram__throughput"};
  Pending.Passes = 1;
  P.Kernels = {Routed, Pending};
  return P;
}

TEST(PlanTest, RoundTrips) {
  Plan In = sample();
  Plan Out;
  std::string Error;
  std::string Text = writePlanJSON(In);
  ASSERT_TRUE(parsePlanJSON(Text, Out, Error)) << Error;
  EXPECT_EQ(writePlanJSON(Out), Text);
  EXPECT_EQ(Out.TreeFile, "/opt/trees/default.json");
  EXPECT_EQ(Out.Budget, 4u);
  ASSERT_EQ(Out.Kernels.size(), 2u);
  const PlanKernel &K = Out.Kernels[0];
  EXPECT_EQ(K.QualifiedName, "ns::scale<float>");
  ASSERT_EQ(K.Route.size(), 2u);
  EXPECT_TRUE(K.Route[0].Feature);
  EXPECT_EQ(*K.Route[0].Value, 2.0);
  EXPECT_FALSE(K.Route[1].Feature);
  EXPECT_EQ(K.Route[1].Threshold, 50.5);
  EXPECT_FALSE(K.Route[1].Value);
  EXPECT_EQ(K.Leaf, "memory");
  EXPECT_EQ(K.Collect, (std::vector<std::string>{"m1", "m2"}));
  // Features keep their order and their nulls.
  ASSERT_EQ(K.Features.size(), 2u);
  EXPECT_EQ(K.Features[0].first, "loop_count");
  EXPECT_FALSE(K.Features[1].second);
  EXPECT_TRUE(Out.Kernels[1].Leaf.empty());
  EXPECT_EQ(Out.Kernels[1].Collect,
            std::vector<std::string>{"dram__throughput"});
}

std::string parseError(const std::string &Text) {
  Plan P;
  std::string Error;
  EXPECT_FALSE(parsePlanJSON(Text, P, Error)) << Text;
  return Error;
}

std::string kernelError(const std::string &Fields) {
  return parseError(
      R"({"version": 1, "tree": "t", "kernels": [{"name": "k",
          "mangled_name": "_Z1kv", )" +
      Fields + "}]}");
}

TEST(PlanTest, BadPlansSayWhere) {
  EXPECT_EQ(parseError("[1]"),
            "$.version: expected version 1 (a plan from 'plan "
            "--format=json')");
  EXPECT_EQ(parseError(R"({"version": 2})"),
            "$.version: expected version 1 (a plan from 'plan "
            "--format=json')");
  EXPECT_EQ(parseError(R"({"version": 1, "kernels": []})"), "$.tree: missing");
  EXPECT_EQ(parseError(R"({"version": 1, "tree": 3, "kernels": []})"),
            "$.tree: expected a non-empty string");
  EXPECT_EQ(parseError(R"({"version": 1, "tree": "t"})"),
            "$.kernels: missing or not an array");
  EXPECT_EQ(parseError(R"({"version": 1, "tree": "t", "budget": -1,
                           "kernels": []})"),
            "$.budget: expected a non-negative integer");
  EXPECT_EQ(parseError(R"({"version": 1, "tree": "t", "kernels": [
                           {"name": "", "mangled_name": "_Z1kv"}]})"),
            "$.kernels[0]: expected name and mangled_name");
  EXPECT_EQ(kernelError(R"("x": 1)"),
            "$.kernels[0].features: missing (a plan from 'plan "
            "--format=json' has them)");
  EXPECT_EQ(kernelError(R"("features": {"loop_count": "2"})"),
            "$.kernels[0].features.loop_count: expected a number or null");
  EXPECT_EQ(kernelError(R"("features": {"\u001b[2J": "2"})"),
            "$.kernels[0].features.\\x1b[2J: expected a number or null");
  EXPECT_EQ(kernelError(R"("features": {}, "route": {})"),
            "$.kernels[0].route: expected an array");
  EXPECT_EQ(kernelError(R"("features": {}, "route": [{"node": "n",
              "op": ">", "branch": "then", "threshold": 1}])"),
            "$.kernels[0].route[0]: expected one of 'feature' and 'sample'");
  EXPECT_EQ(kernelError(R"("features": {}, "route": [{"node": "n",
              "feature": "f", "op": ">", "branch": "up", "threshold": 1}])"),
            "$.kernels[0].route[0].branch: expected \"then\", \"else\" or "
            "\"pending\"");
  EXPECT_EQ(kernelError(R"("features": {}, "route": [{"node": "n",
              "feature": "f", "op": ">", "branch": "then"}])"),
            "$.kernels[0].route[0].threshold: expected a number");
  EXPECT_EQ(kernelError(R"("features": {}, "leaf": "l", "pending": true)"),
            "$.kernels[0].pending: expected true exactly when 'leaf' is null");
  EXPECT_EQ(kernelError(R"("features": {}, "leaf": null,
              "metrics": ["m"])"),
            "$.kernels[0].metrics: unexpected while the route is pending");
  EXPECT_EQ(kernelError(R"("features": {}, "leaf": "l",
              "metrics": ["m", 3])"),
            "$.kernels[0].metrics: expected an array of strings");
}

} // namespace
