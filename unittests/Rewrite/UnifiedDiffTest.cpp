//===- UnifiedDiffTest.cpp - Unified diffs of two texts -------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/UnifiedDiff.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

TEST(UnifiedDiffTest, EqualTextsHaveNoDiff) {
  EXPECT_EQ(unifiedDiff("f.cu", "a\nb\n", "a\nb\n"), "");
}

TEST(UnifiedDiffTest, OneChangedLineWithContext) {
  std::string Old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
  std::string New = "1\n2\n3\n4\nfive\n6\n7\n8\n9\n";
  EXPECT_EQ(unifiedDiff("f.cu", Old, New), "--- a/f.cu\n"
                                           "+++ b/f.cu\n"
                                           "@@ -2,7 +2,7 @@\n"
                                           " 2\n"
                                           " 3\n"
                                           " 4\n"
                                           "-5\n"
                                           "+five\n"
                                           " 6\n"
                                           " 7\n"
                                           " 8\n");
}

TEST(UnifiedDiffTest, InsertionAtTheStart) {
  EXPECT_EQ(unifiedDiff("f.cu", "a\nb\n", "x\na\nb\n"), "--- a/f.cu\n"
                                                        "+++ b/f.cu\n"
                                                        "@@ -1,2 +1,3 @@\n"
                                                        "+x\n"
                                                        " a\n"
                                                        " b\n");
}

TEST(UnifiedDiffTest, DistantChangesMakeTwoHunks) {
  std::string Old, New;
  for (int I = 1; I <= 20; ++I) {
    Old += std::to_string(I) + "\n";
    New += (I == 2 ? "two" : I == 18 ? "eighteen" : std::to_string(I)) + "\n";
  }
  std::string D = unifiedDiff("f.cu", Old, New);
  EXPECT_NE(D.find("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n"),
            std::string::npos);
  EXPECT_NE(
      D.find("@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n"),
      std::string::npos);
}

TEST(UnifiedDiffTest, NearChangesShareAHunk) {
  std::string D =
      unifiedDiff("f.cu", "1\n2\n3\n4\n5\n6\n", "x\n2\n3\n4\n5\ny\n");
  EXPECT_EQ(D,
            "--- a/f.cu\n+++ b/f.cu\n@@ -1,6 +1,6 @@\n-1\n+x\n 2\n 3\n 4\n 5\n"
            "-6\n+y\n");
}

TEST(UnifiedDiffTest, DeletionCountsStartBeforeAnEmptySide) {
  EXPECT_EQ(unifiedDiff("f.cu", "a\n", ""),
            "--- a/f.cu\n+++ b/f.cu\n@@ -1,1 +0,0 @@\n-a\n");
}

TEST(UnifiedDiffTest, AbsolutePathsHaveNoPrefix) {
  EXPECT_EQ(unifiedDiff("/src/f.cu", "a\n", "b\n"),
            "--- /src/f.cu\n+++ /src/f.cu\n@@ -1,1 +1,1 @@\n-a\n+b\n");
}

TEST(UnifiedDiffTest, MissingFinalNewlineIsMarked) {
  EXPECT_EQ(unifiedDiff("f.cu", "a\nb", "a\nc"),
            "--- a/f.cu\n+++ b/f.cu\n@@ -1,2 +1,2 @@\n a\n-b\n"
            "\\ No newline at end of file\n+c\n"
            "\\ No newline at end of file\n");
}

} // namespace
