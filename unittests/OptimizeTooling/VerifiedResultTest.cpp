//===- VerifiedResultTest.cpp - What a verified run writes ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/VerifiedOptimize.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;

namespace {

class VerifiedResultTest : public ::testing::Test {
protected:
  void SetUp() override {
    Main = verify::normalPath("kernel.cu");
    Header = verify::normalPath("sub/kernel.cuh");
    R.Originals[Main] = "int x = 1;\n";
    R.Originals[Header] = "int y = 2;\n";
    R.FinalTexts[Main] = "int x = 3;\n";
    R.FinalTexts[Header] = "int y = 4;\n";
    cantFail(R.Final[Main].add(clang::tooling::Replacement(Main, 8, 1, "3")));
    cantFail(
        R.Final[Header].add(clang::tooling::Replacement(Header, 8, 1, "4")));
    Out.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] = Text.str();
      return Error::success();
    };
  }

  std::string Main, Header;
  VerifiedOptimizeResult R;
  VerifiedOutputs Out;
  std::map<std::string, std::string> Written;
};

TEST_F(VerifiedResultTest, InPlaceWritesEveryChangedFile) {
  Out.InPlace = true;
  Expected<std::string> Text = writeVerifiedResult(Out, "kernel.cu", R);
  ASSERT_TRUE(bool(Text)) << toString(Text.takeError());
  EXPECT_EQ(Written.size(), 2u);
  EXPECT_EQ(Written[Main], "int x = 3;\n");
  EXPECT_EQ(Written[Header], "int y = 4;\n");
}

TEST_F(VerifiedResultTest, ADiffNamesTheSourceAsGivenAndOthersRelative) {
  Out.Diff = true;
  Expected<std::string> Text = writeVerifiedResult(Out, "./kernel.cu", R);
  ASSERT_TRUE(bool(Text)) << toString(Text.takeError());
  EXPECT_TRUE(Written.empty());
  EXPECT_NE(Text->find("--- a/./kernel.cu\n+++ b/./kernel.cu\n"),
            std::string::npos)
      << *Text;
  EXPECT_NE(Text->find("--- a/sub/kernel.cuh\n"), std::string::npos) << *Text;
  EXPECT_NE(Text->find("+int y = 4;"), std::string::npos);
}

TEST_F(VerifiedResultTest, ACopyHoldsTheSourceOnlyAndFixesEveryFile) {
  Out.Copy = "copy.cu";
  ASSERT_TRUE(bool(writeVerifiedResult(Out, "kernel.cu", R)));
  EXPECT_EQ(Written.size(), 1u);
  EXPECT_EQ(Written["copy.cu"], "int x = 3;\n");

  // Nothing kept in the source: the copy is the original.
  R.FinalTexts.erase(Main);
  ASSERT_TRUE(bool(writeVerifiedResult(Out, "kernel.cu", R)));
  EXPECT_EQ(Written["copy.cu"], "int x = 1;\n");

  Written.clear();
  Out.Copy.clear();
  Out.ExportFixes = "fixes.yaml";
  ASSERT_TRUE(bool(writeVerifiedResult(Out, "kernel.cu", R)));
  ASSERT_EQ(Written.size(), 1u);
  const std::string &Yaml = Written["fixes.yaml"];
  EXPECT_NE(Yaml.find("MainSourceFile:"), std::string::npos) << Yaml;
  EXPECT_NE(Yaml.find("kernel.cuh"), std::string::npos) << Yaml;
}

TEST_F(VerifiedResultTest, AFailedWriteIsTheError) {
  Out.InPlace = true;
  Out.Write = [](StringRef Path, StringRef) -> Error {
    return createStringError("cannot write '" + Path.str() + "'");
  };
  Expected<std::string> Text = writeVerifiedResult(Out, "kernel.cu", R);
  ASSERT_FALSE(bool(Text));
  EXPECT_NE(toString(Text.takeError()).find("cannot write '"),
            std::string::npos);
}

TEST(ReadCandidateFilesTest, ReadsEachFileOrSaysWhichItCannot) {
  SmallString<128> Path;
  int FD;
  ASSERT_FALSE(sys::fs::createTemporaryFile("candidate", "cu", FD, Path));
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << "__global__ void k() {}\n";
  }
  auto Read = readCandidateFiles({std::string(Path)});
  ASSERT_TRUE(bool(Read)) << toString(Read.takeError());
  ASSERT_EQ(Read->size(), 1u);
  EXPECT_EQ((*Read)[0].second, "__global__ void k() {}\n");
  sys::fs::remove(Path);
  auto Gone = readCandidateFiles({std::string(Path)});
  ASSERT_FALSE(bool(Gone));
  EXPECT_NE(toString(Gone.takeError()).find("cannot read --candidate '"),
            std::string::npos);
}

} // namespace
