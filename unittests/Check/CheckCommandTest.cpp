//===- CheckCommandTest.cpp - `check` from its options to its status ------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// runCheckCommand(): options refused before anything runs, --list-checks,
// and a run whose report, exported fixes and exit status follow the
// findings' levels.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckCommand.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <map>

using namespace llvm;
using namespace autoprof;

namespace {

/// A loop whose modulo divides by a value the compiler cannot see.
const char *Kernel = R"cu(
__global__ void scale(float *out, const float *in, int n, int d) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = in[i] + (i % d);
}
)cu";

/// A runner that must not run: check's static part runs no program.
class NoProgram : public verify::CommandRunner {
public:
  unsigned Runs = 0;
  Expected<verify::ChildResult> run(const verify::ChildOptions &) override {
    ++Runs;
    return createStringError("no program runs in this test");
  }
};

class CheckCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createUniqueDirectory("check-command", Dir));
    Source = (Dir + "/scale.cu").str();
    std::error_code EC;
    raw_fd_ostream(Source, EC) << Kernel;
    ASSERT_FALSE(EC);
    O.Sources = {Source};
    O.Parse.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    O.Parse.CudaPath = AUTOPROF_TEST_CUDA_PATH;
    H.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] += Text.str();
      return Error::success();
    };
    H.Messages = {[this](const std::string &E) { Errors.push_back(E); },
                  [this](const std::string &W) { Warnings.push_back(W); }};
  }
  void TearDown() override { sys::fs::remove_directories(Dir); }

  int run() {
    raw_string_ostream OS(Log);
    return runCheckCommand(O, H, Program, OS);
  }

  SmallString<128> Dir;
  std::string Source;
  CheckCommandOptions O;
  CheckCommandHooks H;
  NoProgram Program;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors, Warnings;
  std::string Log;
};

TEST_F(CheckCommandTest, OptionsThatCannotRunAreRefusedFirst) {
  struct Case {
    std::function<void(CheckCommandOptions &)> Change;
    std::string Error;
  } Cases[] = {
      {[](auto &O) { O.Checks = "autoprof-*,["; }, "--checks"},
      {[](auto &O) { O.GateOptionsGiven = {"perf-runs"}; },
       "--perf-runs is an option of the performance gate, which runs with "
       "--perf-record or --perf-baseline"},
      {[this](auto &O) { O.Output = Source; },
       "names a source, which the report would replace"},
      {[](auto &O) { O.KernelRegex = "scale("; },
       "invalid --kernel regular expression 'scale('"},
      {[](auto &O) {
         O.PerfRecord = "baseline.json";
         O.Run = "./app";
         O.InjectLibrary = "/nonexistent/libinject.so";
       },
       "cannot find the injection library '/nonexistent/libinject.so'"},
      {[](auto &O) {
         O.Sources.clear();
         O.Parse.BuildPath.clear();
       },
       "no source given"},
  };
  for (const Case &C : Cases) {
    CheckCommandOptions Saved = O;
    Errors.clear();
    C.Change(O);
    EXPECT_EQ(run(), 2) << C.Error;
    ASSERT_EQ(Errors.size(), 1u) << C.Error;
    EXPECT_NE(Errors[0].find(C.Error), std::string::npos) << Errors[0];
    O = Saved;
  }
  EXPECT_TRUE(Written.empty());
  EXPECT_EQ(Program.Runs, 0u);
}

TEST_F(CheckCommandTest, ListChecksNamesTheEnabledOnes) {
  O.ListChecks = true;
  O.Checks = "-*,autoprof-nonconst-divmod";
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(Written["-"], "Enabled checks:\n    autoprof-nonconst-divmod\n\n");
}

TEST_F(CheckCommandTest, TheStatusFollowsTheFindingsLevels) {
  O.Checks = "-*,autoprof-nonconst-divmod";
  O.Output = "report.txt";
  EXPECT_EQ(run(), 0) << (Errors.empty() ? "" : Errors[0]);
  EXPECT_NE(Written["report.txt"].find("scale.cu:5:"), std::string::npos)
      << Written["report.txt"];
  EXPECT_NE(Written["report.txt"].find("[autoprof-nonconst-divmod]"),
            std::string::npos);
  // The same warning as an error: exit 1; SARIF names the version given.
  Written.clear();
  O.WarningsAsErrors = "autoprof-nonconst-divmod";
  O.Sarif = true;
  O.Version = "9.8.7";
  EXPECT_EQ(run(), 1);
  EXPECT_NE(Written["report.txt"].find("\"version\": \"9.8.7\""),
            std::string::npos)
      << Written["report.txt"];
  EXPECT_TRUE(Errors.empty());
  EXPECT_EQ(Program.Runs, 0u);
}

} // namespace
