//===- CheckRegistryTest.cpp - Tests of check selection and config --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Check/CheckConfig.h"
#include "autoprof/Check/CheckOutput.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

GlobList globs(llvm::StringRef Text) {
  llvm::Expected<GlobList> L = GlobList::parse(Text);
  EXPECT_TRUE(static_cast<bool>(L)) << llvm::toString(L.takeError());
  return *L;
}

TEST(CheckRegistryTest, NamesAreUniqueAndSorted) {
  std::vector<std::string> Names = CheckRegistry::names();
  ASSERT_EQ(Names.size(), 9u);
  EXPECT_TRUE(std::is_sorted(Names.begin(), Names.end()));
  for (const std::string &N : Names) {
    EXPECT_EQ(N.rfind("autoprof-", 0), 0u) << N;
    ASSERT_NE(CheckRegistry::find(N), nullptr);
    EXPECT_FALSE(CheckRegistry::find(N)->summary().empty());
  }
  EXPECT_EQ(CheckRegistry::find("autoprof-nothing"), nullptr);
  EXPECT_EQ(CheckRegistry::find("autoprof-divergent-syncthreads")->severity(),
            Severity::Error);
}

TEST(CheckRegistryTest, LaterGlobsWin) {
  GlobList L =
      globs("autoprof-*, -autoprof-double-*,autoprof-double-precision");
  EXPECT_TRUE(L.contains("autoprof-missing-restrict"));
  EXPECT_TRUE(L.contains("autoprof-double-precision"));
  GlobList M = globs("-*,autoprof-*,-autoprof-double*");
  EXPECT_FALSE(M.contains("autoprof-double-precision"));
  EXPECT_TRUE(M.contains("autoprof-nonconst-divmod"));
  EXPECT_FALSE(globs("").contains("autoprof-nonconst-divmod"));
  // Regular-expression characters are literal.
  EXPECT_FALSE(
      globs("autoprof.missing-restrict").contains("autoprof-missing-restrict"));
}

TEST(CheckRegistryTest, ReportsGlobsThatMatchNothing) {
  GlobList L = globs("-*,autoprof-missing-*,autoprof-typo,-other");
  EXPECT_EQ(L.unmatched(CheckRegistry::names()),
            (std::vector<std::string>{"autoprof-typo", "other"}));
  EXPECT_FALSE(static_cast<bool>(GlobList::parse("a,-")));
  llvm::consumeError(GlobList::parse("a,-").takeError());
}

TEST(CheckConfigTest, ParsesKeys) {
  llvm::Expected<CheckConfig> C =
      parseCheckConfig("# comment\nChecks: '-*,autoprof-missing-restrict'\n"
                       "WarningsAsErrors: autoprof-*\n",
                       "dir/.clang-autoprof");
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  EXPECT_EQ(C->Checks,
            std::optional<std::string>("-*,autoprof-missing-restrict"));
  EXPECT_EQ(C->WarningsAsErrors, std::optional<std::string>("autoprof-*"));
  llvm::Expected<CheckConfig> Empty = parseCheckConfig("# nothing\n", "x");
  ASSERT_TRUE(static_cast<bool>(Empty));
  EXPECT_FALSE(Empty->Checks);
}

TEST(CheckConfigTest, RejectsUnknownKeysAndBadValues) {
  for (const char *Text :
       {"Check: 'a'\n", "Checks: [a, b]\n", "- a\n", "Checks: 'a\n"}) {
    llvm::Expected<CheckConfig> C = parseCheckConfig(Text, "p/.clang-autoprof");
    ASSERT_FALSE(static_cast<bool>(C)) << Text;
    std::string Message = llvm::toString(C.takeError());
    EXPECT_EQ(Message.rfind("malformed configuration file "
                            "'p/.clang-autoprof': ",
                            0),
              0u)
        << Message;
    EXPECT_EQ(Message.find('\n'), std::string::npos) << Message;
  }
}

TEST(CheckOutputTest, LineAndColumn) {
  llvm::StringRef T = "ab\ncd\n";
  EXPECT_EQ(lineAndColumn(T, 0), std::make_pair(1u, 1u));
  EXPECT_EQ(lineAndColumn(T, 2), std::make_pair(1u, 3u));
  EXPECT_EQ(lineAndColumn(T, 3), std::make_pair(2u, 1u));
  EXPECT_EQ(lineAndColumn(T, 6), std::make_pair(3u, 1u));
}

TEST(CheckOutputTest, TextHasSourceLineAndCaret) {
  Finding F;
  F.Check = "autoprof-x";
  F.Message = "message";
  F.File = "/src/k.cu";
  F.Line = 2;
  F.Column = 3;
  F.Offset = 6;
  auto Text = [](llvm::StringRef) {
    return llvm::StringRef("int\n\tx = y;\n");
  };
  auto Shown = [](llvm::StringRef P) { return P.str(); };
  // Clang's printer: tabs expanded to the next multiple of 8.
  EXPECT_EQ(formatFindingsText({F}, Text, Shown),
            "/src/k.cu:2:3: warning: message [autoprof-x]\n"
            "    2 |         x = y;\n"
            "      |          ^\n");
  // A fix on the finding's line is a fix-it under the caret; a promoted
  // warning is an error; colour only when asked.
  F.Promoted = true;
  F.Level = Severity::Error;
  llvm::cantFail(
      F.Fix.add(clang::tooling::Replacement("/src/k.cu", 5, 1, "z")));
  std::string Fixed = formatFindingsText({F}, Text, Shown);
  EXPECT_EQ(Fixed, "/src/k.cu:2:3: error: message "
                   "[autoprof-x,-warnings-as-errors]\n"
                   "    2 |         x = y;\n"
                   "      |         ~^\n"
                   "      |         z\n");
  EXPECT_EQ(Fixed.find('\x1b'), std::string::npos);
  EXPECT_NE(formatFindingsText({F}, Text, Shown, /*Color=*/true).find("\x1b["),
            std::string::npos);
}

} // namespace
