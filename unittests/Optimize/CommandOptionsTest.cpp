//===- CommandOptionsTest.cpp - Tests of optimize's options ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimize/CommandOptions.h"

#include "gtest/gtest.h"

#include <limits>

using namespace autoprof;
using namespace autoprof::optimize;

namespace {

/// The one-line reason \p O is refused for \p Sources, or "" when it is not.
std::string why(const CommandOptions &O,
                std::vector<std::string> Sources = {"k.cu"}) {
  llvm::Error E = checkCommandOptions(O, Sources);
  return E ? llvm::toString(std::move(E)) : "";
}

CommandOptions verified() {
  CommandOptions O;
  O.Run = "./app";
  return O;
}

TEST(CommandOptionsTest, AVerifiedRunNeedsTheProgramAndOneSource) {
  EXPECT_EQ(why(verified()), "");
  EXPECT_EQ(why(CommandOptions()).rfind("no run command: ", 0), 0u);
  EXPECT_EQ(why(verified(), {"a.cu", "b.cu"}),
            "optimize verifies the kernels of one source; 2 were given");
  CommandOptions Dry;
  Dry.DryRun = true;
  EXPECT_EQ(why(Dry, {"a.cu", "b.cu"}), "");
}

TEST(CommandOptionsTest, JudgingSettingsAreChecked) {
  CommandOptions O = verified();
  O.Runs = 2;
  EXPECT_EQ(why(O).rfind("--runs must be at least 3", 0), 0u);
  O = verified();
  O.Attempts = 0;
  EXPECT_EQ(why(O), "--attempts must be at least 1");
  O = verified();
  O.MinSpeedup = 0.9;
  EXPECT_NE(why(O), "");
  O = verified();
  O.RTol = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(why(O), "");
}

TEST(CommandOptionsTest, OutputsExcludeEachOther) {
  CommandOptions O = verified();
  O.Diff = true;
  O.InPlace = true;
  EXPECT_EQ(why(O),
            "--diff, --export-fixes, -o and --in-place exclude each other");
  O = verified();
  O.DryRun = true;
  O.InPlace = true;
  EXPECT_EQ(why(O).rfind("--dry-run never changes the source", 0), 0u);
}

TEST(CommandOptionsTest, TheModelTakesNoBuiltinChoices) {
  CommandOptions O = verified();
  O.Rewriter = "llm";
  EXPECT_EQ(why(O), "");
  O.TryAll = true;
  EXPECT_EQ(why(O).rfind("--candidate, --try-all and --transformations", 0),
            0u);
  O = verified();
  O.Rewriter = "magic";
  EXPECT_EQ(why(O), "unknown --rewriter 'magic'; known: builtin, llm");
  O = verified();
  O.LLMShowPrompt = true;
  EXPECT_EQ(why(O).rfind("--llm-show-prompt prints", 0), 0u);
}

TEST(CommandOptionsTest, AGivenProfileExcludesATree) {
  CommandOptions O = verified();
  O.ProfileFile = "p.json";
  EXPECT_EQ(why(O), "");
  O.TreeGiven = true;
  EXPECT_EQ(why(O).rfind("--profile and --tree exclude each other", 0), 0u);
}

} // namespace
