//===- LearnerTest.cpp - Tests of replay, search and learning -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LearnTestSupport.h"

#include "autoprof/Learn/Baselines.h"
#include "autoprof/Learn/CrossValidation.h"
#include "autoprof/Learn/Learner.h"
#include "autoprof/Learn/SearchProposer.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace autoprof;
using namespace autoprof::learn;
using namespace autoprof::learn::fixtures;

namespace {

struct Fixture {
  MetricCatalog Catalog = catalog();
  OnePassEach Counter;
  PassPricer Pricer{Counter, Catalog, {"GH100"}};
  TriggerRewriter Rewriter = rewriter();

  LearnResult learn(const std::vector<DatasetKernel> &Data, unsigned Budget,
                    ProfilingTree Init = oneLeaf(), uint64_t Seed = 1,
                    std::vector<LogEntry> *Log = nullptr,
                    std::vector<std::string> SamplePool = {}) {
    SearchOptions SO;
    SO.Budget = Budget;
    SO.MinLeaf = 2;
    SO.Seed = Seed;
    SO.SamplePool = std::move(SamplePool);
    SearchProposer P(Rewriter, Pricer, SO);
    LearnOptions LO;
    LO.Budget = Budget;
    LO.Iterations = 10;
    if (Log)
      LO.OnProposal = [Log](const LogEntry &E) { Log->push_back(E); };
    llvm::Expected<LearnResult> R =
        learnTree(Init, pointers(Data), P, Rewriter, Pricer, LO);
    if (!R) {
      ADD_FAILURE() << llvm::toString(R.takeError());
      return {};
    }
    return std::move(*R);
  }
};

/// Two kinds of kernel: with loops, B wins and A slows them down; without,
/// A wins and B slows them down. Three programs of each.
std::vector<DatasetKernel> twoKinds() {
  std::vector<DatasetKernel> D;
  for (int I = 0; I < 3; ++I)
    D.push_back(kernel("loop" + std::to_string(I), 2, 0,
                       {{"A", "slower", 0.7}, {"B", "faster", 2.0}}));
  for (int I = 0; I < 3; ++I)
    D.push_back(kernel("flat" + std::to_string(I), 0, 0,
                       {{"A", "faster", 1.5}, {"B", "slower", 0.8}}));
  return D;
}

TEST(ReplayTest, TheRewriterChoosesTheFirstProposalItsMetricsTrigger) {
  Fixture F;
  DatasetKernel K = kernel(
      "p", 0, 0,
      {{"A", "slower", 0.8}, {"B", "faster", 2.0}, {"C", "wrong-output", 3.0}});
  EXPECT_EQ(gainWith(K, {"r1", "r2"}, F.Rewriter), 1.0); // A: not kept.
  EXPECT_EQ(gainWith(K, {"r2"}, F.Rewriter), 2.0);
  EXPECT_EQ(gainWith(K, {"r3"}, F.Rewriter), 1.0); // Wrong: not kept.
  EXPECT_EQ(gainWith(K, {}, F.Rewriter), 1.0);
  // The stage-1 samples are shown too.
  ProfilingTree T = oneLeaf({"r1"});
  T.Nodes[0].Metrics = {"r2"};
  std::vector<DatasetKernel> D = {K};
  llvm::Expected<Evaluation> E =
      evaluateTree(T, pointers(D), F.Rewriter, F.Pricer);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  EXPECT_EQ(E->Kernels[0].Chosen, std::optional<size_t>(0));
  EXPECT_EQ(E->GeoMean, 1.0);
  EXPECT_EQ(E->MaxPasses, 2u);
}

TEST(ReplayTest, AMetricThatWasNotCollectedNeverFires) {
  Fixture F;
  DatasetKernel K = kernel("p", 0, 0, {{"B", "faster", 2.0}});
  K.Metrics.erase("r2");
  EXPECT_EQ(gainWith(K, {"r2"}, F.Rewriter), 1.0);
}

/// Two passes when r2 comes before r1, as a scheduler that depends on the
/// order of the metrics may count; one pass per metric otherwise.
class OrderDependent : public PassCounter {
public:
  std::vector<std::vector<std::string>> Asked;
  bool isValid(const std::string &, const std::string &) override {
    return true;
  }
  llvm::Expected<unsigned>
  passCount(const std::string &,
            const std::vector<std::string> &Metrics) override {
    Asked.push_back(Metrics);
    auto R1 = std::find(Metrics.begin(), Metrics.end(), "r1");
    auto R2 = std::find(Metrics.begin(), Metrics.end(), "r2");
    if (R1 != Metrics.end() && R2 != Metrics.end() && R2 < R1)
      return Metrics.size() + 1;
    return Metrics.size();
  }
};

TEST(ReplayTest, OnlyTheTransformationsTheDataMeasuredAreJudged) {
  std::vector<DatasetKernel> Data = {kernel("p", 1, 0, {{"C", "faster", 2.0}}),
                                     kernel("q", 1, 0, {{"A", "slower", 0.9}})};
  TriggerRewriter R = rewriter().measuredOn({&Data[0], &Data[1]});
  ASSERT_EQ(R.rules().size(), 2u);
  // In the rewriter's order, not the data's.
  EXPECT_EQ(R.rules()[0].Name, "A");
  EXPECT_EQ(R.rules()[1].Name, "C");
  EXPECT_EQ(R.find("B"), nullptr);
  EXPECT_TRUE(rewriter().measuredOn({}).rules().empty());
}

TEST(ReplayTest, PricesStageOneThenTheLeafInTheProfilersOrder) {
  MetricCatalog C = catalog();
  OrderDependent Counter;
  PassPricer Pricer(Counter, C, {"GH100"});
  // What TreeBudget counts for the same path: the order asked is kept.
  llvm::Expected<unsigned> P = Pricer.passes({"r2"}, {"r1", "l"});
  ASSERT_TRUE(bool(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(*P, 3u);
  ASSERT_EQ(Counter.Asked.size(), 1u);
  EXPECT_EQ(Counter.Asked[0], (std::vector<std::string>{"r2", "r1"}));
  llvm::Expected<unsigned> Q = Pricer.passes({"r1"}, {"r2"});
  ASSERT_TRUE(bool(Q)) << llvm::toString(Q.takeError());
  EXPECT_EQ(*Q, 2u);
}

TEST(LearnerTest, FindsTheBestLeafMetricSet) {
  Fixture F;
  // Every kernel: A does nothing, B wins 1.5x, C 1.2x. One pass: only
  // r2 alone lets the rewriter reach B.
  std::vector<DatasetKernel> D;
  for (int I = 0; I < 4; ++I)
    D.push_back(kernel("p" + std::to_string(I), I, 0,
                       {{"A", "not-faster", 1.0},
                        {"B", "faster", 1.5},
                        {"C", "faster", 1.2}}));
  LearnResult R = F.learn(D, 1);
  ASSERT_EQ(R.Tree.Nodes.size(), 1u);
  EXPECT_EQ(R.Tree.Nodes[0].Metrics, std::vector<std::string>{"r2"});
  EXPECT_NEAR(R.Train.GeoMean, 1.5, 1e-12);
  EXPECT_EQ(R.Train.Fast1, 1.0);
}

TEST(LearnerTest, FindsTheBestSplit) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  LearnResult R = F.learn(D, 1);
  const TreeNode *Root = R.Tree.find(R.Tree.Root);
  ASSERT_TRUE(Root);
  ASSERT_FALSE(Root->Leaf);
  EXPECT_EQ(Root->Test.Key, "loops");
  EXPECT_EQ(Root->Test.Op, ">");
  EXPECT_GT(Root->Test.Threshold, 0);
  EXPECT_LT(Root->Test.Threshold, 2);
  EXPECT_EQ(R.Tree.find(Root->Then)->Metrics, std::vector<std::string>{"r2"});
  EXPECT_EQ(R.Tree.find(Root->Else)->Metrics, std::vector<std::string>{"r1"});
  EXPECT_NEAR(R.Train.GeoMean, std::sqrt(2.0 * 1.5), 1e-12);
  EXPECT_LE(R.Train.MaxPasses, 1u);
}

TEST(LearnerTest, SplitsOnAStageOneSample) {
  Fixture F;
  // The same features; only the sample s tells the kinds apart.
  std::vector<DatasetKernel> D;
  for (int I = 0; I < 3; ++I)
    D.push_back(kernel("hi" + std::to_string(I), 1, 90,
                       {{"A", "slower", 0.7}, {"B", "faster", 2.0}}));
  for (int I = 0; I < 3; ++I)
    D.push_back(kernel("lo" + std::to_string(I), 1, 10,
                       {{"A", "faster", 1.5}, {"B", "slower", 0.8}}));
  LearnResult R = F.learn(D, 2, oneLeaf({"s"}));
  const TreeNode *Root = R.Tree.find(R.Tree.Root);
  ASSERT_FALSE(Root->Leaf);
  EXPECT_EQ(Root->Test.From, NodeTest::Source::Sample);
  EXPECT_EQ(Root->Test.Key, "s");
  EXPECT_GT(Root->Test.Threshold, 10);
  EXPECT_LT(Root->Test.Threshold, 90);
  EXPECT_NEAR(R.Train.GeoMean, std::sqrt(2.0 * 1.5), 1e-12);
}

TEST(LearnerTest, AmongEqualSplitsTakesAFeatureWithTheWidestGap) {
  Fixture F;
  // loops, divisions and the sample s each tell the kinds apart, with the
  // same training objective. divisions does it by a gap of 1 in a range of
  // 96, s by 80 in 80, loops by 2 in 2; a static feature is taken before a
  // sample, and the wider gap before the narrower, whatever the order of
  // the proposals.
  std::vector<DatasetKernel> D = twoKinds();
  for (size_t I = 0; I < D.size(); ++I) {
    bool Loop = I < 3;
    D[I].Features.set("divisions", Loop ? (I == 2 ? 100 : 5) : 4);
    D[I].Metrics["s"] = Loop ? 90 : 10;
  }
  for (uint64_t Seed = 1; Seed <= 6; ++Seed) {
    LearnResult R = F.learn(D, 2, oneLeaf({"s"}), Seed);
    const TreeNode *Root = R.Tree.find(R.Tree.Root);
    ASSERT_FALSE(Root->Leaf);
    EXPECT_EQ(Root->Test.From, NodeTest::Source::Feature) << "seed " << Seed;
    EXPECT_EQ(Root->Test.Key, "loops") << "seed " << Seed;
    EXPECT_NEAR(R.Train.GeoMean, std::sqrt(2.0 * 1.5), 1e-12);
  }
}

TEST(LearnerTest, NeverExceedsTheBudget) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  // r1 and r3 together would also serve; one pass allows one metric.
  for (unsigned Budget : {1u, 2u, 3u}) {
    LearnResult R = F.learn(D, Budget);
    EXPECT_LE(R.Train.MaxPasses, Budget);
    std::vector<TreeProblem> P;
    checkMetricsAndBudget(R.Tree, F.Catalog, F.Counter, P);
    EXPECT_TRUE(P.empty()) << P.front().Message;
  }
}

TEST(LearnerTest, FillTakesTheMetricsOfTheRulesThatWonMostFirst) {
  Fixture F;
  // A wins once, by more; C twice. One pass leaves room for one metric.
  std::vector<DatasetKernel> D = {kernel("p1", 0, 0, {{"A", "faster", 1.5}}),
                                  kernel("p2", 0, 0, {{"C", "faster", 1.2}}),
                                  kernel("p3", 0, 0, {{"C", "faster", 1.2}})};
  std::vector<const DatasetKernel *> Train = pointers(D);
  LearnResult R;
  R.Tree = oneLeaf();
  R.Tree.Budget = 1;
  llvm::Expected<Evaluation> E =
      evaluateTree(R.Tree, Train, F.Rewriter, F.Pricer);
  ASSERT_TRUE(bool(E)) << llvm::toString(E.takeError());
  R.Train = *E;
  ASSERT_FALSE(bool(fillLeaves(R, Train, F.Rewriter, F.Pricer, 1)));
  EXPECT_EQ(R.Tree.Nodes[0].Metrics, (std::vector<std::string>{"r3"}));
  EXPECT_NEAR(R.Train.GeoMean, std::cbrt(1.2 * 1.2), 1e-9);
}

TEST(LearnerTest, TheSameSeedGivesTheSameTree) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  // Ties: C wins as much as B on the loop kernels.
  for (DatasetKernel &K : D)
    K.Outcomes.push_back({"C", K.Features.get("loops") ? "faster" : "slower",
                          K.Features.get("loops") ? 2.0 : 0.5});
  std::string First = writeTreeJSON(F.learn(D, 1, oneLeaf(), 7).Tree);
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(writeTreeJSON(F.learn(D, 1, oneLeaf(), 7).Tree), First);
}

TEST(LearnerTest, LogsEveryProposalAndAcceptsOnlyImprovements) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  std::vector<LogEntry> Log;
  LearnResult R = F.learn(D, 1, oneLeaf(), 1, &Log);
  ASSERT_FALSE(Log.empty());
  std::map<unsigned, unsigned> Accepted;
  for (const LogEntry &E : Log) {
    if (E.Accepted) {
      ++Accepted[E.Iteration];
      EXPECT_GT(E.After, E.Before - 1e-12);
      EXPECT_TRUE(E.Invalid.empty());
    }
    EXPECT_FALSE(E.Operation.empty());
    EXPECT_FALSE(E.Change.empty());
  }
  for (const auto &[It, N] : Accepted)
    EXPECT_EQ(N, 1u) << "round " << It;
  // The last round accepted nothing: the search had converged.
  EXPECT_EQ(Accepted.count(R.Rounds), 0u);
  // Over-budget proposals are logged as invalid, not evaluated.
  bool SawOverBudget = false;
  for (const LogEntry &E : Log)
    SawOverBudget |= E.Invalid.find("over the budget") != std::string::npos;
  EXPECT_FALSE(SawOverBudget); // The search prices sets before proposing.
}

TEST(LearnerTest, RefusesAnInitialTreeOverBudget) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  ProfilingTree Init = oneLeaf({"s"});
  Init.Nodes[0].Metrics = {"r1", "r2"};
  SearchProposer P(F.Rewriter, F.Pricer, {});
  LearnOptions LO;
  LO.Budget = 2;
  llvm::Expected<LearnResult> R =
      learnTree(Init, pointers(D), P, F.Rewriter, F.Pricer, LO);
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "the initial tree 't' costs 3 passes, over the budget of 2");
}

TEST(CrossValidationTest, NeverTrainsOnAHeldOutKernel) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  // A second kernel in two of the programs.
  D.push_back(kernel("loop0", 3, 0, {{"B", "faster", 2.0}}));
  D.back().MangledName += "2";
  D.push_back(kernel("flat1", 0, 0, {{"A", "faster", 1.5}}));
  D.back().MangledName += "2";
  std::vector<const DatasetKernel *> All = pointers(D);
  std::vector<std::set<const DatasetKernel *>> Trained;
  TrainFn Train = [&](llvm::ArrayRef<const DatasetKernel *> In,
                      unsigned) -> llvm::Expected<ProfilingTree> {
    Trained.emplace_back(In.begin(), In.end());
    return oneLeaf();
  };
  std::vector<unsigned> Fold = assignFolds(All, 3, 5);
  llvm::Expected<CrossValidation> CV =
      crossValidate(All, 3, 5, Train, F.Rewriter, F.Pricer);
  ASSERT_TRUE(bool(CV)) << llvm::toString(CV.takeError());
  ASSERT_EQ(Trained.size(), 3u);
  std::map<std::string, unsigned> ProgramFold;
  for (size_t I = 0; I < All.size(); ++I) {
    // Held out by its own fold only, trained on by every other.
    for (unsigned T = 0; T < 3; ++T)
      EXPECT_EQ(Trained[T].count(All[I]) == 0, T == Fold[I]);
    auto [It, New] = ProgramFold.insert({All[I]->Program, Fold[I]});
    EXPECT_EQ(It->second, Fold[I]) << "a program split over folds";
  }
  EXPECT_EQ(CV->HeldOut.Kernels.size(), All.size());
  for (size_t I = 0; I < All.size(); ++I)
    EXPECT_EQ(CV->HeldOut.Kernels[I].Kernel, All[I]);
  // The same seed deals the same folds.
  EXPECT_EQ(assignFolds(All, 3, 5), Fold);
}

TEST(CrossValidationTest, RefusesMoreFoldsThanPrograms) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  TrainFn Train = [](llvm::ArrayRef<const DatasetKernel *>,
                     unsigned) -> llvm::Expected<ProfilingTree> {
    return oneLeaf();
  };
  llvm::Expected<CrossValidation> CV =
      crossValidate(pointers(D), 7, 1, Train, F.Rewriter, F.Pricer);
  ASSERT_FALSE(bool(CV));
  EXPECT_EQ(llvm::toString(CV.takeError()),
            "cannot make 7 folds of 6 programs");
}

TEST(BaselinesTest, FitToBudgetKeepsTheFirstMetricsThatFit) {
  Fixture F;
  ProfilingTree T = oneLeaf({"s"});
  T.Nodes[0].Metrics = {"r1", "l", "r2", "r3"};
  llvm::Expected<ProfilingTree> Fit = fitToBudget(T, 2, F.Pricer);
  ASSERT_TRUE(bool(Fit)) << llvm::toString(Fit.takeError());
  EXPECT_EQ(Fit->Stage1, std::vector<std::string>{"s"});
  EXPECT_EQ(Fit->Nodes[0].Metrics, (std::vector<std::string>{"r1", "l"}));
  EXPECT_EQ(Fit->Budget, 2u);
}

TEST(BaselinesTest, TheOracleTakesEachKernelsBestSet) {
  Fixture F;
  DatasetKernel K = kernel(
      "p", 0, 0,
      {{"A", "slower", 0.8}, {"B", "faster", 1.3}, {"C", "faster", 1.9}});
  std::vector<std::vector<std::string>> Sets = candidateMetricSets(F.Rewriter);
  bool Win = false;
  llvm::Expected<double> G = oracleGain(K, Sets, 1, F.Rewriter, F.Pricer, &Win);
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(*G, 1.9);
  EXPECT_TRUE(Win);
  // With no pass to spend, no trigger can fire.
  G = oracleGain(K, Sets, 0, F.Rewriter, F.Pricer, &Win);
  ASSERT_TRUE(bool(G));
  EXPECT_EQ(*G, 1.0);
  EXPECT_FALSE(Win);
}

TEST(BaselinesTest, TheMetricCurveCoversEveryCount) {
  Fixture F;
  std::vector<DatasetKernel> D = twoKinds();
  llvm::Expected<std::vector<CurvePoint>> C =
      metricCurve(pointers(D), {"r1", "r2", "r3"}, 4, 1, F.Rewriter, F.Pricer);
  ASSERT_TRUE(bool(C)) << llvm::toString(C.takeError());
  ASSERT_EQ(C->size(), 4u);
  EXPECT_EQ((*C)[0].GeoMean, 1.0);
  EXPECT_EQ((*C)[3].Passes, 3.0);
  // Everything shown: A fires first everywhere, which only the flat
  // kernels gain from.
  EXPECT_NEAR((*C)[3].GeoMean, std::sqrt(1.5), 1e-12);
}

} // namespace
