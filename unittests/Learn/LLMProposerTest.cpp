//===- LLMProposerTest.cpp - Tests of the model's tree operations ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LearnTestSupport.h"

#include "autoprof/Learn/LLMProposer.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::learn;
using namespace autoprof::learn::fixtures;

namespace {

/// A tree with a test on the sample s and two leaves.
ProfilingTree twoLeaves() {
  ProfilingTree T = oneLeaf({"s"});
  T.Nodes[0].Leaf = false;
  T.Nodes[0].Test = {NodeTest::Source::Sample, "s", ">", 50};
  T.Nodes[0].Then = "hi";
  T.Nodes[0].Else = "lo";
  for (const char *Id : {"hi", "lo"}) {
    TreeNode L;
    L.Id = Id;
    L.Leaf = true;
    L.Metrics = {"r1"};
    T.Nodes.push_back(L);
  }
  return T;
}

std::string problem(const std::string &Reply) {
  MetricCatalog C = catalog();
  llvm::Expected<Proposal> P = parseOperation(Reply, twoLeaves(), C);
  return P ? "ok" : llvm::toString(P.takeError());
}

TEST(LLMProposerTest, ReadsEachOperation) {
  MetricCatalog C = catalog();
  ProfilingTree T = twoLeaves();
  llvm::Expected<Proposal> P = parseOperation(
      "Collect r2 as well:\n```json\n{\"operation\": \"REWRITE\", \"node\": "
      "\"hi\", \"metrics\": [\"r1\", \"r2\", \"r2\"]}\n```\n",
      T, C);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Operation, "REWRITE");
  EXPECT_EQ(P->Tree.find("hi")->Metrics,
            (std::vector<std::string>{"r1", "r2"}));

  P = parseOperation(R"({"operation": "REWRITE", "node": "all",
                         "threshold": 12.5})",
                     T, C);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(P->Tree.find("all")->Test.Threshold, 12.5);
  EXPECT_EQ(P->Change, "test 'all' s > 50 -> 12.5");

  // A split on a sample not in stage 1 adds it.
  P = parseOperation(R"({"operation": "SPLIT", "node": "lo",
      "test": {"sample": "r4", "op": "<=", "threshold": 3},
      "then": ["r2"], "else": ["r3", "l"]})",
                     T, C);
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  const TreeNode *Lo = P->Tree.find("lo");
  ASSERT_FALSE(Lo->Leaf);
  EXPECT_EQ(Lo->Test.Key, "r4");
  EXPECT_EQ(Lo->Test.Op, "<=");
  EXPECT_EQ(P->Tree.find(Lo->Then)->Metrics, std::vector<std::string>{"r2"});
  EXPECT_EQ(P->Tree.find(Lo->Else)->Metrics,
            (std::vector<std::string>{"r3", "l"}));
  EXPECT_EQ(P->Tree.Stage1, (std::vector<std::string>{"s", "r4"}));
  std::vector<TreeProblem> Problems;
  checkTreeStructure(P->Tree, Problems);
  EXPECT_TRUE(Problems.empty());
}

TEST(LLMProposerTest, RejectsInvalidOperationsWithOneLine) {
  EXPECT_EQ(problem("no idea"), "the reply has no JSON object");
  EXPECT_EQ(
      problem("{\"operation\": \"REWRITE\", }"),
      "the reply is not valid JSON (1:26: malformed JSON: Missing a name for "
      "object member.)");
  EXPECT_EQ(problem(R"({"operation": "PRUNE", "node": "hi"})"),
            "the reply has no operation REWRITE or SPLIT");
  EXPECT_EQ(problem(R"({"operation": "REWRITE", "node": "mid",
                        "metrics": ["r1"]})"),
            "the reply names the unknown node 'mid'");
  EXPECT_EQ(problem(R"({"operation": "REWRITE", "node": "hi",
                        "metrics": []})"),
            "the reply leaves leaf 'hi' without metrics");
  EXPECT_EQ(problem(R"({"operation": "REWRITE", "node": "hi",
                        "metrics": ["r9"]})"),
            "the reply names the unknown metric 'r9'");
  EXPECT_EQ(problem(R"({"operation": "REWRITE", "node": "all",
                        "threshold": "high"})"),
            "the reply needs a numeric 'threshold' for test 'all'");
  EXPECT_EQ(problem(R"({"operation": "SPLIT", "node": "all",
      "test": {"feature": "loops", "op": ">", "threshold": 0},
      "then": ["r1"], "else": ["r2"]})"),
            "the reply splits 'all', which is a test, not a leaf");
  EXPECT_EQ(problem(R"({"operation": "SPLIT", "node": "hi",
      "test": {"feature": "loopz", "op": ">", "threshold": 0},
      "then": ["r1"], "else": ["r2"]})"),
            "the reply tests the unknown feature 'loopz'");
  EXPECT_EQ(problem(R"({"operation": "SPLIT", "node": "hi",
      "test": {"feature": "loops", "op": "==", "threshold": 0},
      "then": ["r1"], "else": ["r2"]})"),
            "the reply has the unknown operator '=='");
  EXPECT_EQ(problem(R"({"operation": "REWRITE", "node": "stage1",
                        "stage1": []})"),
            "the reply drops the stage-1 sample 's', which test 'all' reads");
}

} // namespace
