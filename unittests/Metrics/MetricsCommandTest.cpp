//===- MetricsCommandTest.cpp - Tests of runMetricsCommand() --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// `metrics` as a library call on the shipped catalog, with a pass counter
// that knows one chip and one invalid metric.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/MetricsCommand.h"

#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;

namespace {

class OneChip : public PassCounter {
public:
  bool isValid(const std::string &, const std::string &M) override {
    return M != "dram__bytes_read.sum";
  }
  Expected<unsigned> passCount(const std::string &C,
                               const std::vector<std::string> &M) override {
    for (const std::string &Name : M)
      if (!isValid(C, Name))
        return createStringError("'" + Name + "' is not valid");
    return unsigned(M.size());
  }
  Error checkChip(const std::string &C) override {
    return C == "GH100" ? Error::success()
                        : createStringError("unknown chip '" + C + "'");
  }
};

class MetricsCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    O.CatalogPath =
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json";
    H.LoadCounter = []() -> Expected<std::unique_ptr<PassCounter>> {
      return std::make_unique<OneChip>();
    };
    H.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] = Text.str();
      return Error::success();
    };
    H.Error = [this](const std::string &E) { Errors.push_back(E); };
  }
  MetricsCommandOptions O;
  MetricsCommandHooks H;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors;
};

TEST_F(MetricsCommandTest, TheCatalogIsListedOnAKnownChip) {
  EXPECT_EQ(runMetricsCommand(O, H), 0);
  EXPECT_NE(Written["-"].find("gpu__time_duration.sum"), std::string::npos);
  O.Chip = "GB100";
  Written.clear();
  EXPECT_EQ(runMetricsCommand(O, H), 1);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0], "unknown chip 'GB100'");
  EXPECT_TRUE(Written.empty());
}

TEST_F(MetricsCommandTest, EachInvalidMetricIsNamedAndTheCheckWritten) {
  O.Check = {"gpu__time_duration.sum", "dram__bytes_read.sum"};
  EXPECT_EQ(runMetricsCommand(O, H), 1);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0], "metric 'dram__bytes_read.sum' is not valid on GH100");
  EXPECT_TRUE(Written.count("-"));
}

} // namespace
