//===- OptimizeCommandTest.cpp - `optimize` from its options --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// runOptimizeCommand(): options refused before anything is parsed, sources
// that give nothing to propose, and dry runs whose listing and merged copy
// go where the options say.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/OptimizeCommand.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;

namespace {

/// An elementwise kernel over a guarded index, launched with a grid that
/// covers the bound.
const char *Source = R"cu(#include <cuda_runtime.h>
__global__ void twice(const float *in, float *out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (n > i) out[i] = in[i] * 2.0f;
}
void go(const float *in, float *out, int n) {
  twice<<<(n + 127) / 128, 128>>>(in, out, n);
}
)cu";

class OptimizeCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("optimize-command", Dir));
    File = (Dir + "/twice.cu").str();
    std::error_code EC;
    raw_fd_ostream(File, EC) << Source;
    ASSERT_FALSE(EC);
    O.DryRun = true;
    Env.Sources = {File};
    Env.Parse.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    Env.Parse.CudaPath = AUTOPROF_TEST_CUDA_PATH;
    Env.CatalogPath =
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json";
    Env.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] += Text.str();
      return Error::success();
    };
    Env.Messages = {[this](const std::string &E) { Errors.push_back(E); },
                    [this](const std::string &W) { Warnings.push_back(W); }};
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  int run() {
    raw_string_ostream OS(Log);
    return runOptimizeCommand(O, Env, OS);
  }

  SmallString<128> Dir;
  std::string File;
  optimize::CommandOptions O;
  OptimizeCommandEnv Env;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors, Warnings;
  std::string Log;
};

TEST_F(OptimizeCommandTest, OptionsThatCannotRunAreRefusedFirst) {
  struct Case {
    std::function<void(optimize::CommandOptions &, OptimizeCommandEnv &)>
        Change;
    std::string Error;
  } Cases[] = {
      {[](auto &, auto &E) { E.Sources.clear(); }, "no source given"},
      {[](auto &O, auto &) { O.Transformations = {"no-such-rewrite"}; },
       "unknown transformation 'no-such-rewrite'; known: "},
      {[](auto &O, auto &) {
         O.DryRun = false;
         O.Samples = "samples.json";
         O.Run = "./twice";
       },
       "--samples needs --dry-run"},
      {[](auto &, auto &E) { E.KernelRegex = "tw("; },
       "invalid --kernel regular expression 'tw('"},
      {[](auto &, auto &E) {
         E.KernelRegex = "^thrice$";
         E.KernelGiven = true;
       },
       "no kernel matches --kernel='^thrice$'"},
  };
  for (const Case &C : Cases) {
    optimize::CommandOptions SavedO = O;
    OptimizeCommandEnv SavedEnv = Env;
    Errors.clear();
    C.Change(O, Env);
    EXPECT_EQ(run(), 1) << C.Error;
    ASSERT_EQ(Errors.size(), 1u) << C.Error;
    EXPECT_NE(Errors[0].find(C.Error), std::string::npos) << Errors[0];
    O = SavedO;
    Env = SavedEnv;
  }
  EXPECT_TRUE(Written.empty());
}

TEST_F(OptimizeCommandTest, ASourceThatDoesNotCompileProposesNothing) {
  std::error_code EC;
  raw_fd_ostream(File, EC) << "__global__ void broken( {}\n";
  EXPECT_EQ(run(), 1);
  ASSERT_FALSE(Errors.empty());
  EXPECT_NE(Errors.back().find("does not compile; nothing is proposed"),
            std::string::npos)
      << Errors.back();
  EXPECT_TRUE(Written.empty());
}

TEST_F(OptimizeCommandTest, ADryRunListsOrMergesTheProposals) {
  EXPECT_EQ(run(), 0) << (Errors.empty() ? "" : Errors[0]);
  EXPECT_NE(Written["-"].find("twice"), std::string::npos) << Written["-"];
  EXPECT_NE(Written["-"].find("restrict-readonly-params"), std::string::npos)
      << Written["-"];

  // -o: the source with the first variant of each proposal merged.
  Written.clear();
  O.Transformations = {"restrict-readonly-params"};
  O.Output = "patched.cu";
  EXPECT_EQ(run(), 0) << (Errors.empty() ? "" : Errors[0]);
  EXPECT_NE(Written["patched.cu"].find("__restrict__"), std::string::npos)
      << Written["patched.cu"];
  EXPECT_EQ(Written["-"], "");
}

} // namespace
