//===- LearnSessionTest.cpp - One run of `learn` --------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Whole `learn` runs as a library call: a dataset written here, the shipped
// catalog and default tree, a pass counter that prices each metric one pass,
// and two rules whose triggers read real metrics.
//
//===----------------------------------------------------------------------===//

#include "LearnTestSupport.h"

#include "autoprof/Learn/LearnSession.h"
#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::learn;

namespace {

constexpr const char *Dram =
    "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
constexpr const char *Xu =
    "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active";

/// A counter that knows only the chip it was given.
class OneChip : public fixtures::OnePassEach {
public:
  explicit OneChip(std::string Chip) : Chip(std::move(Chip)) {}
  Error checkChip(const std::string &C) override {
    if (C == Chip)
      return Error::success();
    return createStringError(inconvertibleErrorCode(),
                             "chip '" + C + "' is not supported");
  }

private:
  std::string Chip;
};

class LearnSessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("learn-session", Dir));
    DataFile = writeData("data.jsonl", "p", 6);
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  /// Writes \p Count kernels of programs \p Program0, \p Program1, ...
  /// into \p Name under Dir: math kernels gain from fast math when the XU
  /// pipe is shown busy, memory kernels from restrict when DRAM is; loops
  /// tell them apart.
  std::string writeData(StringRef Name, StringRef Program, int Count) {
    SmallString<128> P(Dir);
    sys::path::append(P, Name);
    std::string Text;
    for (int I = 0; I < Count; ++I) {
      bool Math = I % 2 == 0;
      Text +=
          formatv(R"({{"version": 1, "program": "{10}{0}", "kernel": "k{0}", )"
                  R"("mangled_name": "_Z2k{0}Pf", "features": )"
                  R"({{"loops": {1}}, "metrics": {{"{2}": {3}, "{4}": {5}, )"
                  R"("launch__block_size": 256.0}, "outcomes": [)"
                  R"({{"transformation": "fast-math-intrinsics", )"
                  R"("verdict": "{6}", "speedup": {7}}, )"
                  R"({{"transformation": "restrict-readonly-params", )"
                  R"("verdict": "{8}", "speedup": {9}}]})"
                  "\n",
                  I, Math ? 1 : 0, Dram, Math ? 20.0 : 85.0, Xu,
                  Math ? 70.0 : 5.0, Math ? "faster" : "slower",
                  Math ? 1.8 : 0.9, Math ? "slower" : "faster",
                  Math ? 0.95 : 1.4, Program)
              .str();
    }
    std::error_code EC;
    raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }

  LearnSessionOptions options() const {
    LearnSessionOptions O;
    O.Datasets = {DataFile};
    O.Budget = 4;
    O.Iterations = 4;
    O.Quiet = true;
    SmallString<256> C(AUTOPROF_TEST_TREE_MODELS);
    sys::path::append(C, "metric-catalog.json");
    O.CatalogPath = std::string(C);
    return O;
  }

  static LearnSessionHooks hooks(std::string Chip = "GH100") {
    LearnSessionHooks H;
    auto Above = [](const char *M, double T) {
      return [M, T](const MetricMap &Seen) {
        auto It = Seen.find(M);
        return It != Seen.end() && It->second > T;
      };
    };
    H.Rewriter = TriggerRewriter(
        {{"fast-math-intrinsics", {Xu}, Above(Xu, 50)},
         {"restrict-readonly-params", {Dram}, Above(Dram, 60)}});
    H.LoadHost = [Chip]() -> Expected<std::unique_ptr<PassCounter>> {
      return std::make_unique<OneChip>(Chip);
    };
    return H;
  }

  std::string run(const LearnSessionOptions &O, LearnSessionHooks H,
                  std::optional<LearnSessionResult> &Out) {
    std::string Progress;
    raw_string_ostream PS(Progress);
    Expected<LearnSessionResult> R = runLearnSession(O, std::move(H), PS);
    if (!R)
      return toString(R.takeError());
    Out = std::move(*R);
    return "";
  }

  SmallString<128> Dir;
  std::string DataFile;
};

TEST_F(LearnSessionTest, LearnsATreeThatShowsEachKernelItsMetric) {
  LearnSessionOptions O = options();
  O.WantLearned = true;
  O.Oracle = true;
  O.Compare = {"default"};
  std::optional<LearnSessionResult> R;
  ASSERT_EQ(run(O, hooks(), R), "");
  ASSERT_TRUE(R->LearnedTree);
  ProfilingTree T;
  std::vector<TreeProblem> Problems;
  ASSERT_TRUE(parseTree(*R->LearnedTree, T, Problems));
  EXPECT_EQ(T.Name, "learned");
  // Rows in the order asked: the compared tree, the oracle, the tree
  // learned on every kernel.
  ASSERT_EQ(R->Report.Rows.size(), 3u);
  EXPECT_EQ(R->Report.Rows[1].Name, "oracle");
  EXPECT_EQ(R->Report.Rows[2].Name, "learned (all kernels)");
  EXPECT_EQ(R->Report.Kernels, 6u);
  EXPECT_EQ(R->Report.Budget, 4u);
  // Every kernel has a winning rewrite its trigger can see within the
  // budget: the oracle and the learned tree find all six.
  EXPECT_DOUBLE_EQ(R->Report.Rows[1].Fast1, 1.0);
  EXPECT_DOUBLE_EQ(R->Report.Rows[2].Fast1, 1.0);
}

TEST_F(LearnSessionTest, JudgesTheTreeOnOtherPrograms) {
  LearnSessionOptions O = options();
  O.HeldOut = {writeData("other.jsonl", "q", 4)};
  O.WantLearned = true;
  O.Oracle = true;
  std::optional<LearnSessionResult> R;
  ASSERT_EQ(run(O, hooks(), R), "");
  // The learned tree and the oracle are judged on the four other kernels;
  // the tree written is the one judged, learned on the six.
  EXPECT_EQ(R->Report.Kernels, 4u);
  EXPECT_EQ(R->Report.TrainingKernels, 6u);
  EXPECT_EQ(R->Report.HeldOutDatasets, O.HeldOut);
  ASSERT_EQ(R->Report.Rows.size(), 3u);
  EXPECT_EQ(R->Report.Rows[0].Name, "learned");
  EXPECT_TRUE(R->Report.Rows[0].HeldOut);
  ASSERT_EQ(R->Report.Rows[0].Kernels.size(), 4u);
  EXPECT_EQ(R->Report.Rows[0].Kernels[0].Program, "q0");
  EXPECT_DOUBLE_EQ(R->Report.Rows[0].Fast1, 1.0);
  EXPECT_EQ(R->Report.Rows[1].Name, "oracle");
  EXPECT_EQ(R->Report.Rows[1].Kernels.size(), 4u);
  EXPECT_EQ(R->Report.Rows[2].Name, "learned (all kernels)");
  EXPECT_EQ(R->Report.Rows[2].Kernels.size(), 6u);
  ASSERT_TRUE(R->LearnedTree);

  // The same programs on both sides judge nothing.
  O.HeldOut = {DataFile};
  R.reset();
  EXPECT_EQ(run(O, hooks(), R),
            "program 'p0' is in both --dataset and --held-out: the held-out "
            "kernels must come from programs the tree does not learn on");
  EXPECT_FALSE(R);
}

TEST_F(LearnSessionTest, RefusesOptionsThatDoNotGoTogether) {
  std::optional<LearnSessionResult> R;
  LearnSessionOptions O = options();
  EXPECT_EQ(run(O, hooks(), R),
            "nothing to do: give -o <tree.json>, --folds, --held-out, "
            "--compare, --oracle or --metric-curve");
  O.Folds = 1;
  EXPECT_EQ(run(O, hooks(), R),
            "--folds must be 0 (no cross-validation) or at least 2");
  O = options();
  O.Oracle = true;
  O.Rewriter = "llm";
  EXPECT_EQ(run(O, hooks(), R),
            "--rewriter=llm measures every tree it evaluates; give "
            "--proposer=llm, which proposes one per round");
  O.Budget = 0;
  EXPECT_EQ(run(O, hooks(), R),
            "learn needs --budget=<passes>, a positive number");
  EXPECT_FALSE(R);
}

TEST_F(LearnSessionTest, RefusesATransformationTheRewriterDoesNotKnow) {
  LearnSessionOptions O = options();
  O.Oracle = true;
  LearnSessionHooks H = hooks();
  H.Rewriter = TriggerRewriter({{"fast-math-intrinsics", {Xu}, nullptr}});
  std::optional<LearnSessionResult> R;
  EXPECT_EQ(run(O, std::move(H), R),
            DataFile + ": kernel 'k0' of 'p0': unknown transformation "
                       "'restrict-readonly-params' (expected one of "
                       "fast-math-intrinsics)");
}

TEST_F(LearnSessionTest, RefusesATreeForAChipTheHostDoesNotKnow) {
  LearnSessionOptions O = options();
  O.Oracle = true;
  O.Init = {"default"};
  std::optional<LearnSessionResult> R;
  std::string Error = run(O, hooks("AD102"), R);
  EXPECT_NE(Error.find("is not supported"), std::string::npos) << Error;
}

} // namespace
