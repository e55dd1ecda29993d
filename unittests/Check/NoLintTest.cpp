//===- NoLintTest.cpp - NOLINT comments ------------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/NoLint.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

constexpr const char *Restrict = "autoprof-missing-restrict";
constexpr const char *DivMod = "autoprof-nonconst-divmod";

TEST(NoLintTest, SameLineAndNextLine) {
  const char *Text = "a; // NOLINT\n"
                     "b; // NOLINT(autoprof-missing-restrict)\n"
                     "// NOLINTNEXTLINE(autoprof-*)\n"
                     "c;\n"
                     "d; // NOLINT(autoprof-nonconst-divmod, foo)\n"
                     "e; // NOLINTX NOLINT_SOON\n"
                     "f; // NOLINT(unclosed\n";
  EXPECT_TRUE(silencedByNoLint(Text, 1, Restrict));
  EXPECT_TRUE(silencedByNoLint(Text, 2, Restrict));
  EXPECT_FALSE(silencedByNoLint(Text, 2, DivMod));
  EXPECT_FALSE(silencedByNoLint(Text, 3, Restrict));
  EXPECT_TRUE(silencedByNoLint(Text, 4, Restrict));
  EXPECT_TRUE(silencedByNoLint(Text, 4, DivMod));
  EXPECT_TRUE(silencedByNoLint(Text, 5, DivMod));
  EXPECT_FALSE(silencedByNoLint(Text, 5, Restrict));
  EXPECT_FALSE(silencedByNoLint(Text, 6, Restrict));
  EXPECT_FALSE(silencedByNoLint(Text, 7, Restrict));
  EXPECT_FALSE(silencedByNoLint(Text, 99, Restrict));
}

TEST(NoLintTest, Regions) {
  const char *Text = "// NOLINTBEGIN(autoprof-missing-restrict)\n"
                     "a;\n"
                     "// NOLINTBEGIN\n"
                     "b;\n"
                     "// NOLINTEND\n"
                     "c;\n"
                     "// NOLINTEND(autoprof-missing-restrict)\n"
                     "d;\n"
                     "// NOLINTBEGIN\n"
                     "e;\n";
  EXPECT_TRUE(silencedByNoLint(Text, 2, Restrict));
  EXPECT_FALSE(silencedByNoLint(Text, 2, DivMod));
  EXPECT_TRUE(silencedByNoLint(Text, 4, DivMod));
  EXPECT_TRUE(silencedByNoLint(Text, 6, Restrict));
  EXPECT_FALSE(silencedByNoLint(Text, 6, DivMod));
  EXPECT_FALSE(silencedByNoLint(Text, 8, Restrict));
  // Never closed: silences nothing.
  EXPECT_FALSE(silencedByNoLint(Text, 10, Restrict));
}

} // namespace
