//===- LearnCommandTest.cpp - `learn` from its options --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// runLearnCommand() on a dataset of the lit tests, with a pass counter that
// prices each metric one pass: what it writes where, and options that
// cannot run, each one line.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/LearnCommand.h"

#include "../Support/OnePassEach.h"
#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;

namespace {

class LearnCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    O.Session.Datasets = {std::string(AUTOPROF_TEST_SOURCE_DIR) +
                          "/test/learn/Inputs/two-kinds.jsonl"};
    O.Session.Budget = 2;
    O.Session.Quiet = true;
    O.CatalogPath =
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json";
    H.LoadHost = []() -> Expected<std::unique_ptr<PassCounter>> {
      return std::make_unique<test::OnePassEach>();
    };
    H.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] = Text.str();
      return Error::success();
    };
    H.Messages = {[this](const std::string &E) { Errors.push_back(E); },
                  [this](const std::string &W) { Warnings.push_back(W); }};
  }
  int run() {
    raw_string_ostream P(Progress), T(Out);
    return runLearnCommand(O, H, P, T);
  }

  LearnCommandOptions O;
  LearnCommandHooks H;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors, Warnings;
  std::string Progress, Out;
};

TEST_F(LearnCommandTest, TheTreeAndTheComparisonGoWhereAsked) {
  O.Output = "tree.json";
  O.Report = "report.json";
  O.Session.Oracle = true;
  EXPECT_EQ(run(), 0) << (Errors.empty() ? "" : Errors[0]);
  EXPECT_NE(Written["tree.json"].find("\"budget\": 2"), std::string::npos)
      << Written["tree.json"];
  EXPECT_NE(Written["report.json"].find("oracle"), std::string::npos);
  EXPECT_NE(Out.find("oracle"), std::string::npos) << Out;
  EXPECT_TRUE(Errors.empty());
}

TEST_F(LearnCommandTest, OptionsThatCannotRunAreOneLine) {
  O.Output = "tree.json";
  O.Session.Datasets.clear();
  EXPECT_EQ(run(), 1);
  O.Session.Datasets = {"/nonexistent/data.jsonl"};
  EXPECT_EQ(run(), 1);
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_NE(Errors[0].find("--dataset"), std::string::npos) << Errors[0];
  EXPECT_NE(Errors[1].find("/nonexistent/data.jsonl"), std::string::npos)
      << Errors[1];
  for (const std::string &E : Errors)
    EXPECT_EQ(E.find('\n'), std::string::npos);
  EXPECT_TRUE(Written.empty());
}

} // namespace
