//===- DatasetTest.cpp - Tests of the learning dataset reader -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LearnTestSupport.h"

#include "autoprof/Learn/Dataset.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::learn;

namespace {

const char *Good =
    R"({"version": 1, "program": "p", "kernel": "k", "mangled_name": "_Z1k",)"
    R"( "features": {"loops": 2, "access_strided": null},)"
    R"( "metrics": {"r1": 12.5, "l": 256},)"
    R"( "outcomes": [{"transformation": "A", "verdict": "not-faster",)"
    R"( "speedup": 1.01, "speedup_range": [1, 1.02]},)"
    R"( {"transformation": "B", "verdict": "faster", "speedup": 1.5},)"
    R"( {"transformation": "C", "verdict": "build-failed"}]})";

std::string problem(const std::string &Text) {
  MetricCatalog C = fixtures::catalog();
  llvm::Expected<std::vector<DatasetKernel>> D =
      parseDataset(Text, "d.jsonl", C);
  if (D)
    return "parsed";
  return llvm::toString(D.takeError());
}

std::string with(const std::string &From, const std::string &To) {
  std::string S = Good;
  size_t At = S.find(From);
  EXPECT_NE(At, std::string::npos) << From;
  return S.replace(At, From.size(), To);
}

TEST(DatasetTest, ReadsARecord) {
  MetricCatalog C = fixtures::catalog();
  llvm::Expected<std::vector<DatasetKernel>> D =
      parseDataset(std::string(Good) + "\n\n", "d.jsonl", C);
  ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
  ASSERT_EQ(D->size(), 1u);
  const DatasetKernel &K = (*D)[0];
  EXPECT_EQ(K.label(), "p:k");
  EXPECT_EQ(K.MangledName, "_Z1k");
  EXPECT_EQ(K.Features.get("loops"), std::optional<double>(2));
  EXPECT_EQ(K.Features.get("access_strided"), std::nullopt);
  EXPECT_EQ(K.Metrics.at("r1"), 12.5);
  ASSERT_EQ(K.Outcomes.size(), 3u);
  EXPECT_FALSE(K.Outcomes[0].win());
  EXPECT_EQ(K.Outcomes[0].gain(), 1.0);
  EXPECT_TRUE(K.Outcomes[1].win());
  EXPECT_EQ(K.Outcomes[1].gain(), 1.5);
  EXPECT_EQ(K.Outcomes[2].Speedup, std::nullopt);
  EXPECT_EQ(K.Outcomes[2].gain(), 1.0);
}

TEST(DatasetTest, NamesTheLineOfEachProblem) {
  EXPECT_EQ(problem(std::string(Good) + "\n{\"version\": 1,"),
            "d.jsonl:2: malformed JSON at column 15: Missing a name for "
            "object member.");
  EXPECT_EQ(problem(with("\"r1\"", "\"dram__nothing.sum\"")),
            "d.jsonl:1: unknown metric 'dram__nothing.sum' (not in the "
            "catalog)");
  EXPECT_EQ(problem(with("\"outcomes\"", "\"results\"")),
            "d.jsonl:1: kernel 'k' has no 'outcomes'");
  EXPECT_EQ(problem(std::string(Good) + "\n" + Good),
            "d.jsonl:2: kernel 'k' of 'p' appears twice");
  EXPECT_EQ(problem(with("\"loops\"", "\"loopz\"")),
            "d.jsonl:1: unknown feature 'loopz' in 'features'");
  EXPECT_EQ(problem(with("\"version\": 1", "\"version\": 2")),
            "d.jsonl:1: unsupported version (this tool reads version 1)");
  EXPECT_EQ(problem(with(", \"speedup\": 1.5", "")),
            "d.jsonl:1: 'B' is faster but has no speedup");
  EXPECT_EQ(problem(with("\"speedup\": 1.5", "\"speedup\": -1")),
            "d.jsonl:1: the speedup of 'B' must be a positive number");
  EXPECT_EQ(problem(with("\"program\": \"p\", ", "")),
            "d.jsonl:1: missing 'program'");
  EXPECT_EQ(problem("\n"), "d.jsonl: the dataset has no kernels");
  EXPECT_EQ(problem("[1]"), "d.jsonl:1: expected an object");
}

TEST(DatasetTest, TheFormatIsEnforcedAsWritten) {
  // docs/dataset-format.md: known verdicts, [low, high] ranges, names.
  EXPECT_EQ(problem(with("\"build-failed\"", "\"accepted\"")),
            "d.jsonl:1: 'C' has an unknown verdict 'accepted' (docs/verify.md "
            "lists them)");
  EXPECT_EQ(problem(with("\"build-failed\"", "\"reused-results\"")), "parsed");
  EXPECT_EQ(problem(with("[1, 1.02]", "[2, 1]")),
            "d.jsonl:1: the speedup_range of 'A' must be [low, high], "
            "positive and finite, low <= high");
  EXPECT_EQ(problem(with("[1, 1.02]", "[1]")),
            "d.jsonl:1: the speedup_range of 'A' must be [low, high], "
            "positive and finite, low <= high");
  EXPECT_EQ(problem(with("\"speedup\": 1.5", "\"speedup\": 1e999")),
            "d.jsonl:1: malformed JSON at column 320: Number too big to be "
            "stored in double.");
  EXPECT_EQ(problem(with("\"kernel\": \"k\"", "\"kernel\": \"\"")),
            "d.jsonl:1: 'kernel' must not be empty");
  EXPECT_EQ(
      problem(with("\"transformation\": \"C\"", "\"transformation\": \"\"")),
      "d.jsonl:1: an outcome's 'transformation' must not be empty");
  // A control character in a name is escaped where it is printed.
  EXPECT_EQ(problem(with("\"transformation\": \"C\", \"verdict\": "
                         "\"build-failed\"",
                         "\"transformation\": \"\\u001b[2J\", \"verdict\": "
                         "\"nope\"")),
            "d.jsonl:1: '\\x1b[2J' has an unknown verdict 'nope' "
            "(docs/verify.md lists them)");
  // Duplicate keys.
  EXPECT_EQ(problem(with("\"kernel\": \"k\"", "\"kernel\": \"k\", \"kernel\": "
                                              "\"j\"")),
            "d.jsonl:1: $: duplicate key 'kernel'");
}

TEST(DatasetTest, MergingRefusesAKernelTwice) {
  MetricCatalog C = fixtures::catalog();
  std::vector<DatasetKernel> Into = *parseDataset(Good, "a.jsonl", C);
  std::vector<DatasetKernel> More = *parseDataset(Good, "b.jsonl", C);
  llvm::Error E = mergeDataset(Into, std::move(More), "b.jsonl");
  EXPECT_EQ(llvm::toString(std::move(E)),
            "b.jsonl: kernel 'k' of 'p' is already in another dataset");
}

} // namespace
