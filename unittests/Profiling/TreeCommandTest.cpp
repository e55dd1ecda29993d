//===- TreeCommandTest.cpp - Tests of runTreeCommand() --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// `tree` as a library call on the shipped trees, with a pass counter that
// knows one chip and prices each metric one pass.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/TreeCommand.h"

#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

class OneChip : public PassCounter {
public:
  explicit OneChip(std::string Chip) : Chip(std::move(Chip)) {}
  bool isValid(const std::string &, const std::string &) override {
    return true;
  }
  Expected<unsigned> passCount(const std::string &,
                               const std::vector<std::string> &M) override {
    return unsigned(M.empty() ? 0 : 1);
  }
  Error checkChip(const std::string &C) override {
    if (C == Chip)
      return Error::success();
    return createStringError("chip '" + C + "' is not known here");
  }
  std::string Chip;
};

class TreeCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Models = AUTOPROF_TEST_TREE_MODELS;
    O.Path = Models + "/default.json";
    O.CatalogPath = Models + "/metric-catalog.json";
    O.Output = "out.txt";
    H.LoadCounter = [this]() -> Expected<std::unique_ptr<PassCounter>> {
      return std::make_unique<OneChip>(Chip);
    };
    H.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] = Text.str();
      return Error::success();
    };
    H.Error = [this](const std::string &E) { Errors.push_back(E); };
  }
  int run() {
    raw_string_ostream OS(Diag);
    return runTreeCommand(O, H, OS);
  }

  std::string Chip = "GH100";
  TreeCommandOptions O;
  TreeCommandHooks H;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors;
  std::string Diag;
};

TEST_F(TreeCommandTest, ValidateSummarisesAValidTree) {
  O.Action = "validate";
  EXPECT_EQ(run(), 0) << Diag << (Errors.empty() ? "" : Errors[0]);
  EXPECT_EQ(Written["out.txt"].rfind("tree 'default' is valid: ", 0), 0u)
      << Written["out.txt"];
  EXPECT_TRUE(Diag.empty());
}

TEST_F(TreeCommandTest, AChipTheHostDoesNotKnowIsAProblemOfTheTree) {
  O.Action = "validate";
  Chip = "GB100";
  EXPECT_EQ(run(), 1);
  EXPECT_NE(Diag.find("default.json:$.chips[0]: error: chip 'GH100' is not "
                      "known here"),
            std::string::npos)
      << Diag;
  EXPECT_TRUE(Written.empty());
}

TEST_F(TreeCommandTest, ShowAndDotNeedNoHost) {
  H.LoadCounter = []() -> Expected<std::unique_ptr<PassCounter>> {
    return createStringError("no CUPTI here");
  };
  O.Action = "dot";
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(Written["out.txt"].rfind("digraph", 0), 0u) << Written["out.txt"];
  O.Action = "show";
  EXPECT_EQ(run(), 0);
  EXPECT_NE(Written["out.txt"].find("default"), std::string::npos);
  // validate does need it.
  O.Action = "validate";
  EXPECT_EQ(run(), 1);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0], "no CUPTI here");
}

TEST_F(TreeCommandTest, BadActionsAndFilesAreOneLine) {
  O.Action = "draw";
  EXPECT_EQ(run(), 1);
  O.Action = "show";
  O.Path = "/nonexistent/tree.json";
  EXPECT_EQ(run(), 1);
  ASSERT_EQ(Errors.size(), 2u);
  EXPECT_EQ(Errors[0],
            "unknown tree action 'draw' (expected validate, show or dot)");
  EXPECT_EQ(Errors[1].rfind("cannot read '/nonexistent/tree.json': ", 0), 0u);
}

} // namespace
