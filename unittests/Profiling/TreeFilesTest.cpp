//===- TreeFilesTest.cpp - The trees and profiles subcommands read --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/TreeFiles.h"

#include "autoprof/Profile/Profile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace autoprof;

namespace {

class TreeFilesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("tree-files", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }
  std::string write(const std::string &Name, const std::string &Text) {
    std::string P = (Dir + "/" + Name).str();
    std::error_code EC;
    llvm::raw_fd_ostream(P, EC) << Text;
    EXPECT_FALSE(EC);
    return P;
  }
  llvm::SmallString<128> Dir;
};

TEST_F(TreeFilesTest, TreesAreFoundByPathOrName) {
  const std::string Models = AUTOPROF_TEST_TREE_MODELS;
  llvm::Expected<std::string> P = findTree(DefaultTreeName, Models);
  ASSERT_TRUE(static_cast<bool>(P)) << llvm::toString(P.takeError());
  EXPECT_EQ(*P, Models + "/learned.json");
  ProfilingTree T;
  EXPECT_FALSE(static_cast<bool>(loadCheckedTree(*P, T)));
  // A path is taken as it is, wherever it lies.
  std::string Copy = write("mine.json", "{}");
  P = findTree(Copy, Models);
  ASSERT_TRUE(static_cast<bool>(P));
  EXPECT_EQ(*P, Copy);
  // An unknown name lists the names there are, never the catalog.
  P = findTree("nonesuch", Models);
  ASSERT_FALSE(static_cast<bool>(P));
  std::string Why = llvm::toString(P.takeError());
  EXPECT_EQ(Why.rfind("tree 'nonesuch' not found; available trees: ", 0), 0u)
      << Why;
  EXPECT_NE(Why.find("default, "), std::string::npos) << Why;
  EXPECT_NE(Why.find("learned"), std::string::npos) << Why;
  EXPECT_EQ(Why.find("metric-catalog"), std::string::npos) << Why;
}

TEST_F(TreeFilesTest, ABadTreeNamesItsFirstProblem) {
  ProfilingTree T;
  std::string Broken = write("broken.json", "{\"version\": 1, \"root\": 3}");
  llvm::Error E = loadCheckedTree(Broken, T);
  ASSERT_TRUE(static_cast<bool>(E));
  std::string Why = llvm::toString(std::move(E));
  EXPECT_EQ(Why.rfind(Broken + ":", 0), 0u) << Why;
  EXPECT_NE(Why.find("run 'clang-autoprof tree validate' for every problem"),
            std::string::npos)
      << Why;
  E = loadCheckedTree((Dir + "/missing.json").str(), T);
  ASSERT_TRUE(static_cast<bool>(E));
  EXPECT_NE(llvm::toString(std::move(E)).find("cannot read"),
            std::string::npos);
}

TEST_F(TreeFilesTest, SamplesAreTheFirstRecordOfEachKernel) {
  Profile P;
  ProfileRecord A;
  A.Kernel = "scale";
  A.MangledName = "_Z5scalePf";
  A.set("dram__bytes_read.sum", 1024, "byte");
  A.set("sm__throughput.avg.pct_of_peak_sustained_elapsed", std::nan(""), "%");
  ProfileRecord Later = A;
  Later.Launch = 1;
  Later.set("dram__bytes_read.sum", 2048, "byte");
  ProfileRecord B;
  B.Kernel = "copy";
  B.set("gpu__time_duration.sum", 5, "ns");
  P.Records = {A, Later, B};
  std::string Path = write("profile.json", writeProfileJSON(P));
  llvm::Expected<SampleTable> S = loadSamples(Path);
  ASSERT_TRUE(static_cast<bool>(S)) << llvm::toString(S.takeError());
  const std::map<std::string, double> *V = S->find("_Z5scalePf", "other");
  ASSERT_NE(V, nullptr);
  EXPECT_EQ(V->at("dram__bytes_read.sum"), 1024);
  // CUPTI could not evaluate it: left out.
  EXPECT_EQ(V->count("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 0u);
  // Without a mangled name, by name.
  V = S->find("", "copy");
  ASSERT_NE(V, nullptr);
  EXPECT_EQ(V->at("gpu__time_duration.sum"), 5);
  EXPECT_EQ(S->find("_Z4nonev", "none"), nullptr);
  std::string Bad = write("bad.json", "{\"records\": [");
  S = loadSamples(Bad);
  ASSERT_FALSE(static_cast<bool>(S));
  EXPECT_EQ(llvm::toString(S.takeError()).rfind(Bad + ": ", 0), 0u);
}

} // namespace
