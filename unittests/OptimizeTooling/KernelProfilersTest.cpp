//===- KernelProfilersTest.cpp - How optimize profiles the original -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// The tree profiler over a source written here and a fake program that
// reads the agent configuration as the injection library does and writes
// the records it would; the given profile, kept.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/KernelProfilers.h"

#include "AgentConfig.h"
#include "autoprof/Profile/Profile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace autoprof;

namespace {

const char *Source = R"cu(
__global__ void halve(float *d, const float *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = s[i] * 0.5f;
}
)cu";

/// Writes one record of each kernel the configuration has features of, at the
/// leaf "all" with one metric; exits with Status.
class FakeProgram : public verify::CommandRunner {
public:
  int Status = 0;
  std::vector<inject::AgentConfig> Configs;
  Expected<verify::ChildResult> run(const verify::ChildOptions &O) override {
    inject::AgentConfig C;
    std::string Error;
    if (!inject::loadAgentConfig(O.Env.at("AUTOPROF_PROFILE_CONFIG"), C, Error))
      return createStringError(Error);
    Seed = O.Env.count("AUTOPROF_SEED") ? O.Env.at("AUTOPROF_SEED") : "";
    Profile P;
    for (const auto &[Mangled, Features] : C.Features) {
      ProfileRecord R;
      R.Kernel = Mangled;
      R.MangledName = Mangled;
      R.Stage = "leaf";
      R.Leaf = "all";
      R.Passes = 1;
      R.Metrics.push_back({"gpu__time_duration.sum", {2000, "ns"}});
      P.Records.push_back(R);
    }
    std::error_code EC;
    raw_fd_ostream(C.Output, EC) << writeProfileJSON(P);
    Configs.push_back(std::move(C));
    verify::ChildResult Res;
    Res.Status = Status;
    return Res;
  }
  std::string Seed;
};

class KernelProfilersTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("kernel-profilers", Dir));
    O.CatalogPath =
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json";
    O.Tree = "default";
    O.Source = write("k.cu", Source);
    O.Parse.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    O.Parse.CudaPath = AUTOPROF_TEST_CUDA_PATH;
    // Any file stands for the injection library: the fake program does
    // not load it.
    O.InjectLibrary = O.Source;
    O.Run = "./app";
    O.KeepProfile = (Dir + "/kept.json").str();
    O.Messages = {[&](const std::string &E) { Errors.push_back(E); },
                  [](const std::string &) {}};
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }
  std::string write(const std::string &Name, const std::string &Text) {
    std::string P = (Dir + "/" + Name).str();
    std::error_code EC;
    raw_fd_ostream(P, EC) << Text;
    EXPECT_FALSE(EC);
    return P;
  }

  SmallString<128> Dir;
  TreeProfilerOptions O;
  std::vector<std::string> Errors;
};

TEST_F(KernelProfilersTest, TheTreeProfilesTheSourcesKernels) {
  FakeProgram Program;
  std::unique_ptr<optimize::KernelProfiler> P =
      newTreeProfiler(O, Program, Dir);
  EXPECT_EQ(P->describe(), "profiling with tree 'default'");
  Expected<optimize::ProfiledKernels> K = P->profile(7);
  ASSERT_TRUE(static_cast<bool>(K))
      << toString(K.takeError()) << (Errors.empty() ? "" : Errors[0]);
  EXPECT_EQ(Program.Seed, "7");
  // The configuration names the source's kernel with its static features.
  ASSERT_EQ(Program.Configs.size(), 1u);
  ASSERT_EQ(Program.Configs[0].Features.size(), 1u);
  EXPECT_EQ(Program.Configs[0].Features.begin()->first, "_Z5halvePfPKfi");
  ASSERT_EQ(K->count("_Z5halvePfPKfi"), 1u);
  EXPECT_EQ(K->at("_Z5halvePfPKfi").Leaf, "all");
  // The profile was written and kept.
  EXPECT_TRUE(sys::fs::exists(Dir + "/profile.json"));
  EXPECT_TRUE(sys::fs::exists(O.KeepProfile));
}

TEST_F(KernelProfilersTest, FailuresSayWhatFailed) {
  FakeProgram Program;
  Program.Status = 3;
  EXPECT_EQ(toString(newTreeProfiler(O, Program, Dir)->profile(1).takeError()),
            "profiling with tree 'default' failed: the program exited with "
            "status 3");
  O.CheckDevice = [](const profiling::ProfileRequest &,
                     const profiling::MetricClasses &) {
    return createStringError(inconvertibleErrorCode(), "no CUDA device");
  };
  EXPECT_EQ(toString(newTreeProfiler(O, Program, Dir)->profile(1).takeError()),
            "profiling with tree 'default' failed: no CUDA device");
  O.CheckDevice = nullptr;
  O.Source = write("bad.cu", "__global__ void k() { missing(); }\n");
  EXPECT_EQ(toString(newTreeProfiler(O, Program, Dir)->profile(1).takeError()),
            "profiling with tree 'default' failed: the sources could not be "
            "read");
  O.Tree = "no-such-tree";
  EXPECT_NE(toString(newTreeProfiler(O, Program, Dir)->profile(1).takeError())
                .find("no-such-tree"),
            std::string::npos);
  // Only the first attempt ran the program.
  EXPECT_EQ(Program.Configs.size(), 1u);
}

TEST_F(KernelProfilersTest, AGivenProfileIsKeptEachTime) {
  std::string File = write("given.json", "{\"given\": true}\n");
  optimize::ProfiledKernels K;
  K["_Z1kv"].Leaf = "x";
  std::unique_ptr<optimize::KernelProfiler> P =
      newGivenProfiler(File, K, O.KeepProfile);
  EXPECT_EQ(P->describe(), "using the profile '" + File + "'");
  Expected<optimize::ProfiledKernels> Got = P->profile(1);
  ASSERT_TRUE(static_cast<bool>(Got));
  EXPECT_EQ(Got->at("_Z1kv").Leaf, "x");
  auto Kept = MemoryBuffer::getFile(O.KeepProfile);
  ASSERT_TRUE(static_cast<bool>(Kept));
  EXPECT_EQ((*Kept)->getBuffer(), "{\"given\": true}\n");
}

} // namespace
