//===- ModelTrialsTest.cpp - Tests of learn's model trials ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/ModelTrial.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

TEST(ModelTrialsTest, TheModelIsCheckedBeforeAnyTrial) {
  LLMRewriterOptions LLM;
  LLM.ReplayOnly = true; // without a cache to answer from
  ModelTrials Trials(LLM, nullptr);
  llvm::Error E = Trials.check();
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(llvm::toString(std::move(E))
                .rfind("--llm-replay-only answers "
                       "from a reply cache",
                       0),
            0u);
}

TEST(ModelTrialsTest, ALogThatCannotBeWrittenStopsTheTrial) {
  std::vector<std::string> Warnings;
  ModelTrials Trials(LLMRewriterOptions(),
                     [&](const std::string &W) { Warnings.push_back(W); });
  ModelTrialOptions O;
  O.Source = "k.cu";
  O.Kernel = "k";
  auto R = Trials.run(O, "/nonexistent/dir/trial.log");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError())
                .rfind("cannot write '/nonexistent/dir/trial.log': ", 0),
            0u);
  EXPECT_TRUE(Warnings.empty());
}

} // namespace
