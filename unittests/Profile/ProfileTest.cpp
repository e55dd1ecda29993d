//===- ProfileTest.cpp - Tests of the profile format ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profile/Profile.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace autoprof;

namespace {

Profile sample() {
  Profile P;
  P.Tree = "default";
  P.Chip = "GH100";
  ProfileRecord R;
  R.Kernel = "saxpy";
  R.MangledName = "_Z5saxpyifPKfPf";
  R.Launch = 2;
  R.Grid = {16384, 1, 1};
  R.Block = {256, 1, 1};
  R.DynamicSharedMem = 48;
  R.DurationNs = 12345;
  R.Stage = "stage1";
  R.Passes = 3;
  R.set("gpu__time_duration.sum", 12000, "nsecond");
  R.set("sm__throughput.avg.pct_of_peak_sustained_elapsed", 41.25, "percent");
  R.set("broken", NAN, "");
  R.Route.push_back({"bandwidth", 91.5, "then"});
  R.Route.push_back({"strided", std::nullopt, "else"});
  R.Leaf = "memory";
  R.Focus = "f";
  P.Records.push_back(R);
  P.Warnings.push_back("w");
  P.Errors.push_back("e");
  return P;
}

TEST(ProfileTest, RoundTrips) {
  Profile In = sample();
  Profile Out;
  std::string Error;
  ASSERT_TRUE(parseProfileJSON(writeProfileJSON(In), Out, Error)) << Error;
  EXPECT_EQ(Out.Tree, "default");
  EXPECT_EQ(Out.Chip, "GH100");
  ASSERT_EQ(Out.Records.size(), 1u);
  const ProfileRecord &R = Out.Records[0];
  EXPECT_EQ(R.Kernel, "saxpy");
  EXPECT_EQ(R.MangledName, "_Z5saxpyifPKfPf");
  EXPECT_EQ(R.Launch, 2u);
  EXPECT_EQ(R.Grid[0], 16384u);
  EXPECT_EQ(R.Block[0], 256u);
  EXPECT_EQ(R.DynamicSharedMem, 48u);
  ASSERT_TRUE(R.DurationNs);
  EXPECT_EQ(*R.DurationNs, 12345);
  EXPECT_EQ(R.Stage, "stage1");
  EXPECT_EQ(R.Passes, 3u);
  ASSERT_EQ(R.Metrics.size(), 3u);
  EXPECT_EQ(R.find("sm__throughput.avg.pct_of_peak_sustained_elapsed")->Value,
            41.25);
  EXPECT_EQ(R.find("gpu__time_duration.sum")->Unit, "nsecond");
  // A value CUPTI could not evaluate is written as null and read as NaN.
  EXPECT_TRUE(std::isnan(R.find("broken")->Value));
  ASSERT_EQ(R.Route.size(), 2u);
  EXPECT_EQ(R.Route[0].Node, "bandwidth");
  EXPECT_EQ(*R.Route[0].Value, 91.5);
  EXPECT_FALSE(R.Route[1].Value);
  EXPECT_EQ(R.Leaf, "memory");
  EXPECT_EQ(Out.Warnings, std::vector<std::string>{"w"});
  EXPECT_EQ(Out.Errors, std::vector<std::string>{"e"});
}

std::string parseError(const std::string &Text) {
  Profile P;
  std::string Error;
  EXPECT_FALSE(parseProfileJSON(Text, P, Error));
  return Error;
}

TEST(ProfileTest, ErrorsNameThePlace) {
  EXPECT_EQ(parseError("{\n  \"version\": 1,\n  x"),
            "3:3: malformed JSON: Missing a name for object member.");
  EXPECT_EQ(parseError(R"({"version": 2, "records": []})"),
            "$.version: unsupported version (expected 1)");
  EXPECT_EQ(parseError(R"({"version": 1})"), "$: missing 'records'");
  EXPECT_EQ(parseError(R"({"version": 1, "records": [{"metrics": {}}]})"),
            "$.records[0]: missing 'kernel'");
  EXPECT_EQ(
      parseError(
          R"({"version": 1, "records": [{"kernel": "k", "metrics": {"m": 3}}]})"),
      "$.records[0].metrics.m: expected {\"value\": <number>, ...}");
  EXPECT_EQ(parseError(R"({"version": 1, "records": [{"kernel": "k",
              "metrics": {}, "grid": [1, 2]}]})"),
            "$.records[0].grid: expected [x, y, z]");
}

std::string recordError(const std::string &Fields) {
  return parseError(R"({"version": 1, "records": [{"kernel": "k", )" + Fields +
                    "}]}");
}

TEST(ProfileTest, TheDocumentedRulesAreEnforced) {
  // Each rule of docs/profile-format.md, broken once.
  EXPECT_EQ(parseError(R"({"version": 1, "records": [{"kernel": "",
              "metrics": {}}]})"),
            "$.records[0].kernel: expected a non-empty string");
  EXPECT_EQ(recordError(R"("mangled_name": "", "metrics": {})"),
            "$.records[0].mangled_name: expected a non-empty string");
  EXPECT_EQ(recordError(R"("run": 3, "metrics": {})"),
            "$.records[0].run: expected 1 or 2");
  EXPECT_EQ(recordError(R"("run": 0, "metrics": {})"),
            "$.records[0].run: expected 1 or 2");
  EXPECT_EQ(recordError(R"("device": -1, "metrics": {})"),
            "$.records[0].device: expected a non-negative integer");
  EXPECT_EQ(recordError(R"("device": 4294967295, "metrics": {})"),
            "$.records[0].device: expected a CUDA device ordinal");
  EXPECT_EQ(recordError(R"("grid": [1, 0, 1], "metrics": {})"),
            "$.records[0].grid: expected [x, y, z], each at least 1");
  EXPECT_EQ(recordError(R"("block": [0, 1, 1], "metrics": {})"),
            "$.records[0].block: expected [x, y, z], each at least 1");
  EXPECT_EQ(recordError(R"("stage": "stage2", "metrics": {})"),
            "$.records[0].stage: expected \"stage1\", \"leaf\", "
            "\"stage1+leaf\" or \"metrics\"");
  EXPECT_EQ(recordError(R"("duration_ns": -5, "metrics": {})"),
            "$.records[0].duration_ns: expected a non-negative number or "
            "null");
  EXPECT_EQ(recordError(R"("metrics": {"": {"value": 1}})"),
            "$.records[0].metrics.: a metric needs a name");
  EXPECT_EQ(recordError(R"("metrics": {"m": {"value": 1, "unit": 2}})"),
            "$.records[0].metrics.m.unit: expected a string");
  EXPECT_EQ(recordError(R"("metrics": {}, "route": {})"),
            "$.records[0].route: expected an array");
  EXPECT_EQ(recordError(R"("metrics": {}, "route": [{"node": "",
              "branch": "then"}])"),
            "$.records[0].route[0].node: expected a non-empty string");
  EXPECT_EQ(recordError(R"("metrics": {}, "route": [{"node": "n",
              "branch": "maybe"}])"),
            "$.records[0].route[0].branch: expected \"then\", \"else\" "
            "or \"pending\"");
  EXPECT_EQ(recordError(R"("metrics": {}, "route": [{"node": "n",
              "branch": "then", "value": "high"}])"),
            "$.records[0].route[0].value: expected a number or null");
  // The values the tool writes are accepted.
  Profile P;
  std::string Error;
  EXPECT_TRUE(parseProfileJSON(
      R"({"version": 1, "records": [{"kernel": "k", "run": 2, "device": 0,
          "stage": "stage1+leaf", "duration_ns": null, "metrics": {},
          "route": [{"node": "n", "branch": "pending", "value": null}]}]})",
      P, Error))
      << Error;
}

TEST(ProfileTest, SetReplacesAValue) {
  ProfileRecord R;
  R.set("m", 1, "u");
  R.set("m", 2, "v");
  ASSERT_EQ(R.Metrics.size(), 1u);
  EXPECT_EQ(R.find("m")->Value, 2);
  EXPECT_EQ(R.find("m")->Unit, "v");
  EXPECT_EQ(R.find("n"), nullptr);
}

} // namespace
