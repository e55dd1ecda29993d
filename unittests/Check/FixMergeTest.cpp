//===- FixMergeTest.cpp - Tests of merging the findings' fixes ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/FixMerge.h"

#include "gtest/gtest.h"

using namespace autoprof;
using clang::tooling::Replacement;

namespace {

Finding withFix(std::vector<Replacement> Rs) {
  Finding F;
  F.Check = "autoprof-missing-restrict";
  for (const Replacement &R : Rs)
    cantFail(F.Fix.add(R));
  return F;
}

TEST(FixMergeTest, TakesFixesInOrderAndLeavesOutOverlapsWhole) {
  std::vector<Finding> Fs;
  Fs.push_back(withFix({Replacement("/a.cu", 10, 3, "float")}));
  Fs.push_back(Finding()); // no fix
  // The same edit again: already there.
  Fs.push_back(withFix({Replacement("/a.cu", 10, 3, "float")}));
  // Two edits, one of which replaces text the first fix replaced too:
  // neither is taken.
  Fs.push_back(withFix({Replacement("/a.cu", 0, 3, "int"),
                        Replacement("/a.cu", 8, 4, "const")}));
  Fs.push_back(withFix({Replacement("/b.cu", 20, 1, "x")}));

  MergedFixes M = mergeFixes(Fs);
  EXPECT_EQ(M.Suggested, 4u);
  EXPECT_EQ(M.Merged, 2u);
  EXPECT_EQ(M.Applied, (std::vector<bool>{true, false, false, false, true}));
  ASSERT_EQ(M.Edits.size(), 2u);
  ASSERT_EQ(M.Edits["/a.cu"].size(), 1u);
  EXPECT_EQ(M.Edits["/a.cu"].begin()->getOffset(), 10u);
  ASSERT_EQ(M.Edits["/b.cu"].size(), 1u);
  EXPECT_EQ(M.Edits["/b.cu"].begin()->getOffset(), 20u);
}

TEST(FixMergeTest, NoFixesNoEdits) {
  std::vector<Finding> Fs(3);
  MergedFixes M = mergeFixes(Fs);
  EXPECT_EQ(M.Suggested, 0u);
  EXPECT_TRUE(M.Edits.empty());
  EXPECT_EQ(M.Applied, std::vector<bool>(3, false));
}

} // namespace
