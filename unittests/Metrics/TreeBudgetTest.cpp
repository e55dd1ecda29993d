//===- TreeBudgetTest.cpp - Tests of a tree's budget accounting -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/TreeBudget.h"

#include "gtest/gtest.h"

#include <map>

using namespace autoprof;

namespace {

std::string metric(const std::string &Name, const std::string &Source,
                   const std::string &Input = "") {
  return R"({"name": ")" + Name + R"(", "source": ")" + Source +
         R"(", "section": "SpeedOfLight", "unit": "1", "meaning": "m",
           "questions": ["q"])" +
         (Source == "derived"
              ? R"(, "formula": "f", "inputs": [")" + Input + R"("])"
              : std::string()) +
         "}";
}

MetricCatalog catalog() {
  std::string Text =
      R"({"version": 1, "name": "c", "chips": ["GH100"],
                         "metrics": [)" +
      metric("r1", "range-profiler") + "," + metric("r2", "range-profiler") +
      "," + metric("r3", "range-profiler") + "," +
      metric("bad", "range-profiler") + "," + metric("l1", "launch") + "," +
      metric("s1", "sass") + "," + metric("d1", "derived", "r1") + "," +
      metric("d2", "derived", "s1") + "]}";
  llvm::Expected<MetricCatalog> C = MetricCatalog::parse(Text, "test");
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return MetricCatalog::parse("{}", "empty").get();
  }
  return std::move(*C);
}

/// Counts each metric's own cost and adds them: a set's passes are the sum
/// of its members' costs, and every call is recorded.
class FakeCounter : public PassCounter {
public:
  std::map<std::string, unsigned> Cost = {{"r1", 1}, {"r2", 3}, {"r3", 5}};
  std::vector<std::vector<std::string>> Asked;
  bool isValid(const std::string &, const std::string &M) override {
    return Cost.count(M) != 0;
  }
  llvm::Expected<unsigned>
  passCount(const std::string &, const std::vector<std::string> &Ms) override {
    Asked.push_back(Ms);
    unsigned N = 0;
    for (const std::string &M : Ms) {
      if (!Cost.count(M))
        return llvm::createStringError("rejected " + M);
      N += Cost[M];
    }
    return N;
  }
};

ProfilingTree tree(const std::string &Stage1, const std::string &Leaf1,
                   const std::string &Leaf2, unsigned Budget) {
  std::string Text =
      R"({"version": 1, "name": "t", "chips": ["GH100"], "budget": )" +
      std::to_string(Budget) + R"(, "stage1": [)" + Stage1 +
      R"(], "root": "a", "nodes": [
        {"id": "a", "test": {"feature": "loops", "op": ">", "threshold": 0},
         "then": "x", "else": "y"},
        {"id": "x", "leaf": {"metrics": [)" +
      Leaf1 + R"(], "focus": "f"}},
        {"id": "y", "leaf": {"metrics": [)" +
      Leaf2 + R"(], "focus": "f"}}]})";
  ProfilingTree T;
  std::vector<TreeProblem> P;
  EXPECT_TRUE(parseTree(Text, T, P));
  return T;
}

TEST(TreeBudgetTest, CountsStage1AndLeafRangeMetricsOnce) {
  MetricCatalog C = catalog();
  ProfilingTree T =
      tree(R"("r1")", R"("r1", "r2", "l1", "s1", "d1")", R"("r3")", 8);
  std::vector<std::string> X = countedMetrics(T, *T.find("x"), C);
  EXPECT_EQ(X, (std::vector<std::string>{"r1", "r2"}));
  std::vector<std::string> Y = countedMetrics(T, *T.find("y"), C);
  EXPECT_EQ(Y, (std::vector<std::string>{"r1", "r3"}));
}

TEST(TreeBudgetTest, ReportsThePathsOverBudget) {
  MetricCatalog C = catalog();
  FakeCounter F;
  // x costs 1 + 3 = 4, y costs 1 + 5 = 6.
  ProfilingTree T = tree(R"("r1")", R"("r2")", R"("r3")", 5);
  std::vector<TreeProblem> P;
  EXPECT_EQ(checkMetricsAndBudget(T, C, F, P), 6u);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Path, "$.nodes[2]");
  EXPECT_EQ(P[0].Message,
            "path to leaf 'y' costs 6 passes on GH100, over the budget of 5");
  // The budget is inclusive.
  T.Budget = 6;
  P.clear();
  EXPECT_EQ(checkMetricsAndBudget(T, C, F, P), 6u);
  EXPECT_TRUE(P.empty());
}

TEST(TreeBudgetTest, MetricsWithoutPassesCostNothing) {
  MetricCatalog C = catalog();
  FakeCounter F;
  ProfilingTree T = tree("", R"("l1", "s1", "d2")", R"("l1")", 1);
  std::vector<TreeProblem> P;
  EXPECT_EQ(checkMetricsAndBudget(T, C, F, P), 0u);
  EXPECT_TRUE(P.empty());
  for (const auto &Asked : F.Asked)
    EXPECT_TRUE(Asked.empty());
}

TEST(TreeBudgetTest, ADerivedMetricCostsItsRangeProfilerInputs) {
  MetricCatalog C = catalog();
  FakeCounter F;
  ProfilingTree T = tree("", R"("d1")", R"("r2", "d1")", 3);
  EXPECT_EQ(countedMetrics(T, *T.find("x"), C),
            (std::vector<std::string>{"r1"}));
  EXPECT_EQ(countedMetrics(T, *T.find("y"), C),
            (std::vector<std::string>{"r2", "r1"}));
  std::vector<TreeProblem> P;
  EXPECT_EQ(checkMetricsAndBudget(T, C, F, P), 4u);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Message,
            "path to leaf 'y' costs 4 passes on GH100, over the budget of 3");
}

TEST(TreeBudgetTest, InvalidAndUnknownMetricsAreLeftOutOfTheCount) {
  MetricCatalog C = catalog();
  FakeCounter F;
  ProfilingTree T = tree(R"("r1")", R"("bad", "r2")", R"("nosuch")", 8);
  std::vector<TreeProblem> P;
  EXPECT_EQ(checkMetricsAndBudget(T, C, F, P), 4u);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Path, "$.nodes[1].leaf.metrics[0]");
  EXPECT_EQ(P[0].Message, "metric 'bad' is not valid on GH100");
  EXPECT_EQ(P[1].Path, "$.nodes[2].leaf.metrics[0]");
  EXPECT_EQ(P[1].Message, "unknown metric 'nosuch' (not in the catalog)");
  for (const auto &Asked : F.Asked)
    for (const std::string &M : Asked)
      EXPECT_NE(M, "bad");
}

TEST(TreeBudgetTest, ACounterFailureIsAProblemOfThatLeaf) {
  MetricCatalog C = catalog();
  struct Failing : FakeCounter {
    llvm::Expected<unsigned>
    passCount(const std::string &, const std::vector<std::string> &) override {
      return llvm::createStringError("CUPTI rejected the metric set");
    }
  } G;
  ProfilingTree T = tree("", R"("r1")", R"("r2")", 8);
  std::vector<TreeProblem> P;
  EXPECT_EQ(checkMetricsAndBudget(T, C, G, P), 0u);
  ASSERT_EQ(P.size(), 2u);
  EXPECT_EQ(P[0].Message, "CUPTI rejected the metric set");
}

} // namespace
