//===- CommandLineTest.cpp - Parsing a tool's command line ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/CommandLine.h"

#include "llvm/Support/CommandLine.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

TEST(CommandLineTest, UnknownOptionWithASuggestionIsOneLine) {
  std::string Raw = "clang-autoprof: Unknown command line argument '--formt'.  "
                    "Try: '/opt/x/bin/clang-autoprof --help'\n"
                    "clang-autoprof: Did you mean '--format'?\n";
  EXPECT_EQ(oneLineOptionError(Raw, "clang-autoprof"),
            "unknown command line argument '--formt' (did you mean "
            "'--format'?); try 'clang-autoprof --help'");
}

TEST(CommandLineTest, ArgumentsOfAnUnknownSubcommandAreLeftOut) {
  std::string Raw = "tool: Unknown subcommand 'optimise'.  Try: 'tool --help'\n"
                    "tool: Did you mean 'optimize'?\n"
                    "tool: Unknown command line argument '--dry-run'.\n"
                    "tool: Too many positional arguments specified!\n";
  EXPECT_EQ(oneLineOptionError(Raw, "tool"),
            "unknown subcommand 'optimise' (did you mean 'optimize'?); try "
            "'tool --help'");
}

TEST(CommandLineTest, SeveralComplaintsAreJoinedAndNothingIsInvalid) {
  EXPECT_EQ(oneLineOptionError("tool: Unknown command line argument '-q'.\n"
                               "tool: Not enough positional command line "
                               "arguments specified!\n",
                               "tool"),
            "unknown command line argument '-q'; not enough positional "
            "command line arguments specified; try 'tool --help'");
  EXPECT_EQ(oneLineOptionError("\n\n", "tool"),
            "invalid command line; try 'tool --help'");
}

TEST(CommandLineTest, ParsingKeepsWhatTheParserPrints) {
  const char *Argv[] = {"tool", "--surely-not-an-option-of-any-test"};
  std::string Errors;
  EXPECT_FALSE(parseCommandLine(2, Argv, "a test\n", Errors));
  EXPECT_NE(Errors.find("--surely-not-an-option-of-any-test"),
            std::string::npos)
      << Errors;
  llvm::cl::ResetAllOptionOccurrences();
}

} // namespace
