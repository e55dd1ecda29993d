//===- LiveOutcomesTest.cpp - Outcomes measured while learning ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// LiveOutcomes with a trial function the test controls: the copy it makes
// of each program, the profile and commands each trial gets, the gain it
// takes from the report, and the outcome cache.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/LiveOutcomes.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::learn;

namespace {

std::string readFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

class LiveOutcomesTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("live-outcomes", Dir));
    write("src/prog.cu", "__global__ void scale(float *x) { x[0] *= 2; }\n");
    write("src/helpers.cuh", "// beside the source\n");
    write("src/notes.txt", "not copied\n");
    ProgramSpec P;
    P.Name = "p0";
    P.Source = (Dir + "/src/prog.cu").str();
    P.NvccFlags = {"-O3", "-arch=sm_90"};
    P.Args = {"--size", "1 MB"};
    Programs["p0"] = P;
    K.Program = "p0";
    K.Kernel = "scale";
    K.MangledName = "_Z5scalePf";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  void write(const std::string &Rel, const std::string &Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Rel);
    ASSERT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(P)));
    std::error_code EC;
    llvm::raw_fd_ostream(P, EC) << Text;
    ASSERT_FALSE(EC);
  }

  /// LiveOutcomes whose trials keep a rewrite \p Speedup times faster (none
  /// when 0), recording each trial.
  std::unique_ptr<LiveOutcomes> make(double Speedup, std::string Cache = "") {
    LiveOptions O;
    O.Nvcc = "/opt/cuda/bin/nvcc";
    O.CacheFile = std::move(Cache);
    O.WorkDir = (Dir + "/work").str();
    O.Optimize = [this, Speedup](const LiveTrial &T)
        -> llvm::Expected<std::optional<verify::OptimizeReport>> {
      Trials.push_back(T);
      Copied.push_back(llvm::sys::fs::exists(T.Dir + "/helpers.cuh") &&
                       !llvm::sys::fs::exists(T.Dir + "/notes.txt") &&
                       readFile(T.Source) == readFile(Programs["p0"].Source));
      Shown.push_back(readFile(T.ProfileFile));
      if (Fail)
        return llvm::createStringError("interrupted");
      if (Speedup < 0)
        return std::nullopt;
      verify::OptimizeReport R;
      verify::KernelReport KR;
      KR.Name = "scale";
      if (Speedup > 0) {
        KR.Kept = "llm round 1";
        KR.Speedup = Speedup;
      }
      R.Kernels.push_back(KR);
      return R;
    };
    llvm::Expected<std::unique_ptr<LiveOutcomes>> L =
        LiveOutcomes::create(Programs, std::move(O));
    EXPECT_TRUE(static_cast<bool>(L)) << llvm::toString(L.takeError());
    return L ? std::move(*L) : nullptr;
  }

  llvm::SmallString<256> Dir;
  std::map<std::string, ProgramSpec> Programs;
  DatasetKernel K;
  std::vector<LiveTrial> Trials;
  std::vector<bool> Copied;
  std::vector<std::string> Shown;
  bool Fail = false;
};

TEST_F(LiveOutcomesTest, ATrialRunsOnACopyShownTheMetrics) {
  std::unique_ptr<LiveOutcomes> L = make(1.6);
  ASSERT_TRUE(L);
  llvm::Expected<std::pair<double, bool>> G =
      L->gain(K, {{"gpu__time_duration.sum", 1234.0}});
  ASSERT_TRUE(static_cast<bool>(G)) << llvm::toString(G.takeError());
  EXPECT_DOUBLE_EQ(G->first, 1.6);
  EXPECT_TRUE(G->second);
  ASSERT_EQ(Trials.size(), 1u);
  const LiveTrial &T = Trials[0];
  EXPECT_TRUE(Copied[0]);
  EXPECT_EQ(T.Kernel, "scale");
  EXPECT_NE(T.Source, Programs["p0"].Source);
  EXPECT_EQ(llvm::sys::path::parent_path(T.Source), T.Dir);
  // The profile names the kernel and holds the value shown.
  EXPECT_NE(Shown[0].find("_Z5scalePf"), std::string::npos) << Shown[0];
  EXPECT_NE(Shown[0].find("gpu__time_duration.sum"), std::string::npos);
  EXPECT_NE(Shown[0].find("1234"), std::string::npos);
  // The manifest's flags and arguments, quoted for the shell.
  EXPECT_EQ(T.Build, "'/opt/cuda/bin/nvcc' '-O3' '-arch=sm_90' -o '" + T.Dir +
                         "/p0' '" + T.Source + "'");
  EXPECT_EQ(T.Run, "'" + T.Dir + "/p0' '--size' '1 MB'");
  EXPECT_EQ(L->runs(), 1u);
}

TEST_F(LiveOutcomesTest, NoKeptRewriteOrNoReportGainsNothing) {
  std::unique_ptr<LiveOutcomes> L = make(0);
  llvm::Expected<std::pair<double, bool>> G = L->gain(K, {{"a", 1.0}});
  ASSERT_TRUE(static_cast<bool>(G));
  EXPECT_EQ(*G, std::make_pair(1.0, false));
  std::unique_ptr<LiveOutcomes> M = make(-1);
  G = M->gain(K, {{"a", 1.0}});
  ASSERT_TRUE(static_cast<bool>(G));
  EXPECT_EQ(*G, std::make_pair(1.0, false));
}

TEST_F(LiveOutcomesTest, OutcomesAreCachedByKernelAndValuesShown) {
  std::string Cache = (Dir + "/outcomes.jsonl").str();
  {
    std::unique_ptr<LiveOutcomes> L = make(1.25, Cache);
    ASSERT_TRUE(static_cast<bool>(L->gain(K, {{"a", 1.0}})));
    // The same values again: no trial.
    ASSERT_TRUE(static_cast<bool>(L->gain(K, {{"a", 1.0}})));
    EXPECT_EQ(Trials.size(), 1u);
    EXPECT_EQ(L->hits(), 1u);
    // Another value shown is another trial.
    ASSERT_TRUE(static_cast<bool>(L->gain(K, {{"a", 2.0}})));
    EXPECT_EQ(Trials.size(), 2u);
  }
  // A new learning run reads the cache: its trials would keep nothing.
  std::unique_ptr<LiveOutcomes> Again = make(0, Cache);
  llvm::Expected<std::pair<double, bool>> G = Again->gain(K, {{"a", 2.0}});
  ASSERT_TRUE(static_cast<bool>(G));
  EXPECT_EQ(*G, std::make_pair(1.25, true));
  EXPECT_EQ(Trials.size(), 2u);
  EXPECT_EQ(Again->runs(), 0u);
}

TEST_F(LiveOutcomesTest, AFailedTrialStopsAndIsNotCached) {
  std::string Cache = (Dir + "/outcomes.jsonl").str();
  std::unique_ptr<LiveOutcomes> L = make(1.5, Cache);
  Fail = true;
  llvm::Expected<std::pair<double, bool>> G = L->gain(K, {{"a", 1.0}});
  ASSERT_FALSE(static_cast<bool>(G));
  EXPECT_EQ(llvm::toString(G.takeError()), "interrupted");
  EXPECT_EQ(readFile(Cache), "");
  Fail = false;
  G = L->gain(K, {{"a", 1.0}});
  ASSERT_TRUE(static_cast<bool>(G));
  EXPECT_EQ(Trials.size(), 2u);
}

TEST_F(LiveOutcomesTest, AProgramOutsideTheManifestIsAnError) {
  std::unique_ptr<LiveOutcomes> L = make(1.5);
  K.Program = "elsewhere";
  llvm::Expected<std::pair<double, bool>> G = L->gain(K, {{"a", 1.0}});
  ASSERT_FALSE(static_cast<bool>(G));
  EXPECT_EQ(llvm::toString(G.takeError()),
            "program 'elsewhere' is not in the manifest");
  EXPECT_TRUE(Trials.empty());
}

} // namespace
