//===- CheckRunTest.cpp - One run of `check` ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Whole `check` runs as a library call over sources written here: each
// source's own .clang-autoprof, several sources at a time merged in input
// order, a source that does not compile, and `--fix` on files that changed.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckRun.h"

#include "autoprof/Verify/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

/// Reads through a pointer that lacks const __restrict__, and takes a
/// modulo by a value the compiler cannot see inside a loop.
const char *Kernel = R"cu(
__global__ void scale(float *out, float *in, int n, int d) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    out[i] = in[i] / 2.0f + (i % d);
}
)cu";

class CheckRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("check-run", Dir));
    ASSERT_FALSE(llvm::sys::fs::create_directories(Dir + "/quiet"));
    O.Sources.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    O.Sources.CudaPath = AUTOPROF_TEST_CUDA_PATH;
    O.Sources.Jobs = 2;
    Messages = {[&](const std::string &E) { Errors.push_back(E); },
                [&](const std::string &W) { Warnings.push_back(W); }};
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string write(const std::string &Rel, const std::string &Text) {
    std::string P = (Dir + "/" + Rel).str();
    std::error_code EC;
    llvm::raw_fd_ostream(P, EC) << Text;
    EXPECT_FALSE(EC);
    return P;
  }
  static std::string read(const std::string &Path) {
    auto Buf = llvm::MemoryBuffer::getFile(Path);
    return Buf ? (*Buf)->getBuffer().str() : "";
  }
  static std::vector<std::string> checks(const CheckRunResult &R,
                                         llvm::StringRef File) {
    std::vector<std::string> Out;
    for (const Finding &F : R.Findings)
      if (llvm::sys::path::filename(F.File) == File)
        Out.push_back(F.Check);
    return Out;
  }
  llvm::Expected<CheckRunResult> run() {
    verify::ProcessRunner Runner;
    std::string LogText;
    llvm::raw_string_ostream Log(LogText);
    auto R = runCheck(O, Runner, Messages, Log);
    this->Log = LogText;
    return R;
  }

  llvm::SmallString<128> Dir;
  CheckRunOptions O;
  SourceMessages Messages;
  std::vector<std::string> Errors, Warnings;
  std::string Log;
};

TEST_F(CheckRunTest, EachSourceHasItsOwnSelection) {
  std::string Loud = write("loud.cu", Kernel);
  write("quiet/.clang-autoprof", "Checks: '-*,autoprof-nonconst-divmod'\n");
  std::string Quiet = write("quiet/quiet.cu", Kernel);
  O.Inputs = {Quiet, Loud};
  O.Checks = "-autoprof-double-precision";
  llvm::Expected<CheckRunResult> R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_FALSE(R->ToolError);
  EXPECT_TRUE(Errors.empty());
  // The quiet source's file leaves one check, the command line's glob
  // comes after it; the other source has every check.
  EXPECT_EQ(checks(*R, "quiet.cu"),
            (std::vector<std::string>{"autoprof-nonconst-divmod"}));
  std::vector<std::string> Loud_ = checks(*R, "loud.cu");
  EXPECT_NE(llvm::find(Loud_, "autoprof-missing-restrict"), Loud_.end());
  EXPECT_NE(llvm::find(Loud_, "autoprof-nonconst-divmod"), Loud_.end());
  EXPECT_EQ(llvm::find(Loud_, "autoprof-double-precision"), Loud_.end());
  // Both files ran, two at a time.
  EXPECT_NE(Log.find("ran 2 files"), std::string::npos) << Log;
}

TEST_F(CheckRunTest, ASourceThatDoesNotCompileStopsTheGate) {
  std::string Bad = write("bad.cu", "__global__ void k() { missing(); }\n");
  std::string Good = write("good.cu", Kernel);
  O.Inputs = {Bad, Good};
  O.Gate = PerfGateOptions();
  O.Gate->RunCommand = "false";
  llvm::Expected<CheckRunResult> R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->ToolError);
  EXPECT_FALSE(R->Interrupted);
  EXPECT_EQ(Errors, (std::vector<std::string>{
                        "'" + Bad + "' does not compile; it was not checked",
                        "the performance gate did not run: a source was not "
                        "checked"}));
  // The good source was still checked.
  EXPECT_FALSE(checks(*R, "good.cu").empty());
}

TEST_F(CheckRunTest, ABadConfigurationIsAnError) {
  write("quiet/.clang-autoprof", "Checks: [\n");
  O.Inputs = {write("quiet/k.cu", Kernel)};
  llvm::Expected<CheckRunResult> R = run();
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(llvm::toString(R.takeError()).find(".clang-autoprof"),
            std::string::npos);
}

TEST_F(CheckRunTest, FixesOnlyFilesUnchangedSinceTheyWereChecked) {
  std::string A = write("a.cu", Kernel);
  std::string B = write("b.cu", Kernel);
  O.Inputs = {A, B};
  O.Checks = "-*,autoprof-missing-restrict";
  llvm::Expected<CheckRunResult> R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  MergedFixes Fixes = mergeFixes(R->Findings);
  ASSERT_EQ(Fixes.Edits.size(), 2u);
  // b.cu is edited after it was checked: its fix is refused, a.cu's
  // applied.
  write("b.cu", std::string(Kernel) + "// edited\n");
  std::string LogText;
  llvm::raw_string_ostream FixLog(LogText);
  EXPECT_FALSE(applyFixes(*R->Engine, Fixes, Messages, FixLog));
  EXPECT_EQ(Errors, (std::vector<std::string>{
                        "'" + verify::normalPath(B) +
                        "' changed while it was checked; not fixed"}));
  EXPECT_NE(read(A).find("const float *__restrict__ in"), std::string::npos)
      << read(A);
  EXPECT_EQ(read(B), std::string(Kernel) + "// edited\n");
  EXPECT_NE(LogText.find("applied 2 of 2 suggested fixes"), std::string::npos)
      << LogText;
}

} // namespace
