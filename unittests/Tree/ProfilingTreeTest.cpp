//===- ProfilingTreeTest.cpp - Tests of the tree model --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tree/ProfilingTree.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

const char *Tree = R"json({
  "version": 1, "name": "t", "chips": ["GH100"], "budget": 8,
  "stage1": ["gpu__time_duration.sum"],
  "root": "a",
  "nodes": [
    {"id": "a", "test": {"feature": "loops", "op": ">", "threshold": 0},
     "then": "b", "else": "l3"},
    {"id": "b", "test": {"sample": "gpu__time_duration.sum", "op": "<", "threshold": 1000},
     "then": "l1", "else": "l2"},
    {"id": "l1", "leaf": {"metrics": ["m1"], "focus": "f1"}},
    {"id": "l2", "leaf": {"metrics": ["m2"], "focus": "f2"}},
    {"id": "l3", "leaf": {"metrics": ["m3"], "focus": "f3"}}
  ]})json";

ProfilingTree parse(const std::string &Text) {
  ProfilingTree T;
  std::vector<TreeProblem> P;
  EXPECT_TRUE(parseTree(Text, T, P));
  EXPECT_TRUE(P.empty());
  return T;
}

TEST(ProfilingTreeTest, ParsesAllFields) {
  ProfilingTree T = parse(Tree);
  EXPECT_EQ(T.Name, "t");
  EXPECT_EQ(T.Budget, 8u);
  ASSERT_EQ(T.Nodes.size(), 5u);
  const TreeNode *B = T.find("b");
  ASSERT_TRUE(B);
  EXPECT_EQ(B->Test.From, NodeTest::Source::Sample);
  EXPECT_EQ(B->Test.Op, "<");
  EXPECT_EQ(B->Test.Threshold, 1000);
  EXPECT_EQ(B->Path, "$.nodes[1]");
  EXPECT_TRUE(T.find("l2")->Leaf);
  EXPECT_EQ(T.find("l2")->Focus, "f2");
}

TEST(ProfilingTreeTest, LeafPathsInDepthFirstOrder) {
  ProfilingTree T = parse(Tree);
  auto Paths = leafPaths(T);
  ASSERT_EQ(Paths.size(), 3u);
  EXPECT_EQ(Paths[0].back()->Id, "l1");
  EXPECT_EQ(Paths[0].size(), 3u);
  EXPECT_EQ(Paths[2].back()->Id, "l3");
  EXPECT_EQ(Paths[2].size(), 2u);
  std::vector<TreeProblem> P;
  checkTreeStructure(T, P);
  EXPECT_TRUE(P.empty());
}

TEST(ProfilingTreeTest, CycleIsFoundAndHasNoPaths) {
  std::string Text = Tree;
  Text.replace(Text.find("\"else\": \"l2\""), 12, "\"else\": \"a\"");
  ProfilingTree T = parse(Text);
  std::vector<TreeProblem> P;
  checkTreeStructure(T, P);
  bool Cycle = false, Unreachable = false;
  for (const TreeProblem &X : P) {
    Cycle |= X.Message.find("cycle") != std::string::npos;
    Unreachable |= X.Message.find("'l2' is unreachable") != std::string::npos;
  }
  EXPECT_TRUE(Cycle);
  EXPECT_TRUE(Unreachable);
  EXPECT_TRUE(leafPaths(T).empty());
}

TEST(ProfilingTreeTest, ShapeErrorsCarryJsonPaths) {
  ProfilingTree T;
  std::vector<TreeProblem> P;
  EXPECT_FALSE(parseTree(R"({"version": 1, "name": "t", "chips": [],
      "budget": 0, "stage1": [], "root": "a",
      "nodes": [{"id": "a", "leaf": {"metrics": ["m"], "focus": "f"},
                 "test": {"feature": "loops", "op": ">", "threshold": 0}}]})",
                         T, P));
  ASSERT_EQ(P.size(), 3u);
  EXPECT_EQ(P[0].Path, "$.chips");
  EXPECT_EQ(P[1].Path, "$.budget");
  EXPECT_EQ(P[2].Path, "$.nodes[0]");
}

TEST(ProfilingTreeTest, MalformedJsonGivesLineAndColumn) {
  ProfilingTree T;
  std::vector<TreeProblem> P;
  EXPECT_FALSE(parseTree("{\n  \"version\": 1,\n  oops\n}", T, P));
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Path, "3:3");
}

/// A tree whose root is a chain of \p Tests tests, each with a leaf on its
/// "then" side, built in memory (no JSON).
ProfilingTree chain(unsigned Tests) {
  ProfilingTree T;
  T.Root = "t0";
  for (unsigned I = 0; I < Tests; ++I) {
    TreeNode N;
    N.Id = "t" + std::to_string(I);
    N.Path = "$.nodes[" + std::to_string(2 * I) + "]";
    N.Test.Key = "loops";
    N.Test.Op = ">";
    N.Then = "l" + std::to_string(I);
    N.Else = I + 1 < Tests ? "t" + std::to_string(I + 1) : "end";
    T.Nodes.push_back(N);
    TreeNode L;
    L.Id = N.Then;
    L.Leaf = true;
    L.Path = "$.nodes[" + std::to_string(2 * I + 1) + "]";
    T.Nodes.push_back(L);
  }
  TreeNode End;
  End.Id = "end";
  End.Leaf = true;
  T.Nodes.push_back(End);
  return T;
}

TEST(ProfilingTreeTest, LongChainsAreRefusedWithoutRecursion) {
  // Deep enough to overflow the stack of a recursive walk.
  ProfilingTree T = chain(200000);
  std::vector<TreeProblem> P;
  checkTreeStructure(T, P);
  ASSERT_EQ(P.size(), 1u);
  EXPECT_EQ(P[0].Message, "node 'l63' is deeper than 64 levels");
  EXPECT_TRUE(leafPaths(T).empty());
  // writeTreeText shows what it can, without recursion.
  EXPECT_NE(writeTreeText(T).find("<missing t65>"), std::string::npos);
  // Within the depth, every leaf has its path.
  ProfilingTree U = chain(60);
  P.clear();
  checkTreeStructure(U, P);
  EXPECT_TRUE(P.empty());
  auto Paths = leafPaths(U);
  ASSERT_EQ(Paths.size(), 61u);
  EXPECT_EQ(Paths.back().size(), 61u);
}

TEST(ProfilingTreeTest, ANodeReachedTwiceIsNotATree) {
  // Both children of every test are the next test: 2^40 paths to the last
  // leaf, which a walk that follows every path never finishes.
  ProfilingTree T = chain(40);
  for (TreeNode &N : T.Nodes)
    if (!N.Leaf && N.Else != "end")
      N.Then = N.Else;
  std::vector<TreeProblem> P;
  checkTreeStructure(T, P);
  bool Shared = false;
  for (const TreeProblem &X : P)
    Shared |= X.Message == "both branches of node 't1' lead to node 't2': a "
                           "tree's nodes are reached once";
  EXPECT_TRUE(Shared) << (P.empty() ? "" : P[0].Message);
  EXPECT_TRUE(leafPaths(T).empty());
  // Two parents.
  ProfilingTree U = chain(3);
  for (TreeNode &N : U.Nodes)
    if (N.Id == "t0")
      N.Then = "l1";
  P.clear();
  checkTreeStructure(U, P);
  ASSERT_FALSE(P.empty());
  bool TwoParents = false;
  for (const TreeProblem &X : P)
    TwoParents |= X.Message == "node 'l1' has two parents, 't0' and 't1': a "
                               "tree's nodes are reached once";
  EXPECT_TRUE(TwoParents) << P[0].Message;
}

} // namespace

#include "autoprof/Tree/Routing.h"

namespace {

TEST(RoutingTest, FeaturesAndSamplesChooseTheLeaf) {
  ProfilingTree T = parse(Tree);
  KernelFeatures F;
  F.set("loops", 2);
  // The sample is pending until it is collected.
  Route R = routeKernel(T, F, nullptr);
  EXPECT_EQ(R.Leaf, nullptr);
  ASSERT_EQ(R.Steps.size(), 2u);
  EXPECT_EQ(R.Steps[0].Branch, "then");
  EXPECT_EQ(R.Steps[1].Branch, "pending");
  std::map<std::string, double> Fast = {{"gpu__time_duration.sum", 10}};
  R = routeKernel(T, F, &Fast);
  ASSERT_TRUE(R.Leaf);
  EXPECT_EQ(R.Leaf->Id, "l1");
  std::map<std::string, double> Slow = {{"gpu__time_duration.sum", 1000}};
  EXPECT_EQ(routeKernel(T, F, &Slow).Leaf->Id, "l2"); // 1000 < 1000 fails.
  F.set("loops", 0);
  R = routeKernel(T, F, nullptr);
  ASSERT_TRUE(R.Leaf);
  EXPECT_EQ(R.Leaf->Id, "l3");
  EXPECT_EQ(R.Steps.size(), 1u);
}

TEST(RoutingTest, AKernelIsShownStageOneAndItsLeafsMetrics) {
  ProfilingTree T = parse(Tree);
  std::map<std::string, double> Values = {
      {"gpu__time_duration.sum", 10}, {"m1", 1}, {"m2", 2}, {"other", 3}};
  const TreeNode *L1 = T.find("l1");
  ASSERT_TRUE(L1);
  EXPECT_EQ(shownMetrics(T, L1, Values),
            (std::map<std::string, double>{{"gpu__time_duration.sum", 10},
                                           {"m1", 1}}));
  // Before a leaf is reached, stage 1 only; a metric without a value is
  // not shown.
  EXPECT_EQ(shownMetrics(T, nullptr, Values),
            (std::map<std::string, double>{{"gpu__time_duration.sum", 10}}));
  EXPECT_TRUE(shownMetrics(T, T.find("l3"), {}).empty());
  // The names, in order; a record of the leaf alone lacks stage 1.
  EXPECT_EQ(shownMetricNames(T, L1),
            (std::vector<std::string>{"gpu__time_duration.sum", "m1"}));
  EXPECT_EQ(shownMetricNames(T, L1, /*WithStage1=*/false),
            std::vector<std::string>{"m1"});
  EXPECT_EQ(shownMetricNames(T, nullptr),
            std::vector<std::string>{"gpu__time_duration.sum"});
}

TEST(RoutingTest, NullFeatureTakesElse) {
  std::string Text = Tree;
  const std::string Old = "\"feature\": \"loops\"";
  Text.replace(Text.find(Old), Old.size(),
               "\"feature\": \"arithmetic_intensity_estimate\"");
  ProfilingTree T = parse(Text);
  KernelFeatures F;
  F.clear("arithmetic_intensity_estimate");
  EXPECT_EQ(routeKernel(T, F, nullptr).Leaf->Id, "l3");
}

TEST(RoutingTest, Operators) {
  EXPECT_TRUE(testHolds("<", 1, 2));
  EXPECT_FALSE(testHolds("<", 2, 2));
  EXPECT_TRUE(testHolds("<=", 2, 2));
  EXPECT_TRUE(testHolds(">", 3, 2));
  EXPECT_TRUE(testHolds(">=", 2, 2));
  EXPECT_FALSE(testHolds("==", 2, 2));
}

} // namespace
