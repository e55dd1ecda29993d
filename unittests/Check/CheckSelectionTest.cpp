//===- CheckSelectionTest.cpp - Which checks run for a source -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckConfig.h"
#include "autoprof/Check/CheckEngine.h"
#include "autoprof/Check/CheckRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

class CheckSelectionTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("check-selection", Dir));
    ASSERT_FALSE(llvm::sys::fs::create_directories(Dir + "/sub"));
    Source = (Dir + "/sub/k.cu").str();
    write("sub/k.cu", "");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  void write(const std::string &Rel, const std::string &Text) {
    std::error_code EC;
    llvm::raw_fd_ostream((Dir + "/" + Rel).str(), EC) << Text;
    ASSERT_FALSE(EC);
  }
  static bool has(const CheckSelection &S, llvm::StringRef Name) {
    for (const Check *C : S.Checks)
      if (C->name() == Name)
        return true;
    return false;
  }
  llvm::SmallString<128> Dir;
  std::string Source;
};

TEST_F(CheckSelectionTest, TheFileThenTheCommandLine) {
  // Without a file: every check, none promoted.
  llvm::Expected<CheckSelection> S =
      checkSelectionFor(Source, nullptr, nullptr);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->Checks.size(), CheckRegistry::all().size());
  EXPECT_FALSE(S->WarningsAsErrors.contains("autoprof-missing-restrict"));
  // A file in a folder above the source turns one off and promotes another.
  write(".clang-autoprof", "Checks: '-autoprof-missing-restrict'\n"
                           "WarningsAsErrors: 'autoprof-double-precision'\n");
  S = checkSelectionFor(Source, nullptr, nullptr);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_FALSE(has(*S, "autoprof-missing-restrict"));
  EXPECT_TRUE(has(*S, "autoprof-double-precision"));
  EXPECT_TRUE(S->WarningsAsErrors.contains("autoprof-double-precision"));
  // The command line comes last and wins.
  std::string Checks = "autoprof-missing-restrict,-autoprof-double-precision";
  std::string Promoted = "-autoprof-double-precision";
  S = checkSelectionFor(Source, &Checks, &Promoted);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  EXPECT_TRUE(has(*S, "autoprof-missing-restrict"));
  EXPECT_FALSE(has(*S, "autoprof-double-precision"));
  EXPECT_FALSE(S->WarningsAsErrors.contains("autoprof-double-precision"));
}

TEST_F(CheckSelectionTest, ProblemsAreOneLineNamingTheirOrigin) {
  write(".clang-autoprof", "Checks: 'autoprof-no-such-check'\n");
  llvm::Expected<CheckSelection> S =
      checkSelectionFor(Source, nullptr, nullptr);
  ASSERT_FALSE(static_cast<bool>(S));
  std::string Why = llvm::toString(S.takeError());
  EXPECT_EQ(Why.rfind("no check matches 'autoprof-no-such-check' in Checks "
                      "of '" +
                          (Dir + "/.clang-autoprof").str() + "'",
                      0),
            0u)
      << Why;
  EXPECT_EQ(Why.find('\n'), std::string::npos);
  write(".clang-autoprof", "Checks: '-*'\n");
  S = checkSelectionFor(Source, nullptr, nullptr, "the current directory");
  ASSERT_FALSE(static_cast<bool>(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "no check is enabled for the current directory");
  llvm::Expected<GlobList> G = parseCheckGlobs("autoprof-*,-", "--checks");
  ASSERT_FALSE(static_cast<bool>(G));
  EXPECT_EQ(llvm::toString(G.takeError()),
            "invalid --checks: empty glob after '-' in 'autoprof-*,-'");
}

} // namespace
