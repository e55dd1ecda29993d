//===- KernelFilterTest.cpp - Tests of the --kernel pattern ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/FeatureExtractor.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

TEST(KernelFilterTest, SearchesTheNameAndTheQualifiedName) {
  llvm::Expected<KernelFilter> F = kernelNameFilter("^tile_\\w+$");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_TRUE((*F)("tile_a", "ns::tile_a"));
  EXPECT_FALSE((*F)("a_tile_b", "ns::a_tile_b"));
  // A match anywhere in either name.
  llvm::Expected<KernelFilter> G = kernelNameFilter("ops::");
  ASSERT_TRUE(bool(G)) << llvm::toString(G.takeError());
  EXPECT_TRUE((*G)("scale", "ops::scale"));
  EXPECT_FALSE((*G)("scale", "scale"));
}

TEST(KernelFilterTest, AnEmptyPatternTakesEveryKernel) {
  llvm::Expected<KernelFilter> F = kernelNameFilter("");
  ASSERT_TRUE(bool(F)) << llvm::toString(F.takeError());
  EXPECT_TRUE((*F)("anything", "ns::anything"));
}

TEST(KernelFilterTest, AnInvalidPatternIsOneLine) {
  llvm::Expected<KernelFilter> F = kernelNameFilter("(unclosed");
  ASSERT_FALSE(bool(F));
  std::string Msg = llvm::toString(F.takeError());
  EXPECT_EQ(Msg.rfind("invalid --kernel regular expression '(unclosed': ", 0),
            0u)
      << Msg;
  EXPECT_EQ(Msg.find('\n'), std::string::npos);
}

} // namespace
