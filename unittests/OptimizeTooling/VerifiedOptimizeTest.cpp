//===- VerifiedOptimizeTest.cpp - A whole verified optimize run -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Runs verifiedOptimize() on a CUDA file on disk with the real rewrite engine
// and a fake program: the builds and runs go to a CommandRunner whose
// timings and outputs follow from the text it was built from.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/VerifiedOptimize.h"
#include "autoprof/Profile/Measurement.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Rewrite/TransformationRegistry.h"

#include "rapidjson/document.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::verify;

namespace {

// A scaling kernel written with a grid-stride loop and a size_t index.
const char *Scale = R"cu(#include <cuda_runtime.h>
#include <cstddef>
__global__ void scaleBy(float *out, float *in, float f, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x)
    out[i] = f * in[i];
}
void launch(float *o, float *i, size_t n) {
  scaleBy<<<(unsigned)((n + 255) / 256), 256>>>(o, i, 3.0f, n);
}
)cu";

std::string readFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// The program: `build <file>` compiles the file's text; a run measures
/// every kernel the configuration names, 100 us, halved when the text holds
/// HalvesWith; its output changes when the text holds BreaksWith.
class FakeProgram : public CommandRunner {
public:
  std::string HalvesWith, BreaksWith;
  std::string Built;
  unsigned Builds = 0, Runs = 0;

  llvm::Expected<ChildResult> run(const ChildOptions &O) override {
    ChildResult R;
    llvm::StringRef Cmd = O.Argv.back();
    if (Cmd.consume_front("build ")) {
      ++Builds;
      Built = readFile(Cmd.trim());
      return R;
    }
    ++Runs;
    rapidjson::Document Cfg;
    std::string Text = readFile(O.Env.at("AUTOPROF_MEASURE_CONFIG"));
    Cfg.Parse(Text.c_str());
    Measurement M;
    bool Fast = Built.find(HalvesWith) != std::string::npos;
    bool Broken =
        !BreaksWith.empty() && Built.find(BreaksWith) != std::string::npos;
    for (auto &K : Cfg["kernels"].GetObject()) {
      KernelMeasurement KM;
      KM.MangledName = K.name.GetString();
      KM.Launches = 1;
      double Seed = std::stod(O.Env.at("AUTOPROF_SEED"));
      KM.DurationsNs = {(Fast ? 50e3 : 100e3) + Seed};
      if (Cfg.HasMember("snapshot_dir")) {
        std::string Dir = Cfg["snapshot_dir"].GetString();
        float V[2] = {Broken ? 7.f : 1.f, static_cast<float>(Seed)};
        if (Cfg.HasMember("poison")) {
          KM.SnapshotLaunch = 0;
          KM.PoisonedBytes = sizeof V;
        }
        std::string Out = Dir + "/out";
        std::error_code EC;
        llvm::raw_fd_ostream(Out, EC).write(reinterpret_cast<const char *>(V),
                                            sizeof V);
        KM.Snapshots.push_back({{0}, sizeof V, sizeof V, Out});
        std::string In = Dir + "/in";
        llvm::raw_fd_ostream(In, EC) << O.Env.at("AUTOPROF_SEED");
        KM.Snapshots.push_back({{1}, 1, 0, In});
      }
      M.Kernels.push_back(KM);
    }
    writeFileAtomically(Cfg["output"].GetString(), writeMeasurementJSON(M));
    return R;
  }
};

/// Profiles nothing: every proposal is tried (TryAll).
class NoProfile : public optimize::KernelProfiler {
public:
  std::string describe() const override { return "no profile"; }
  llvm::Expected<optimize::ProfiledKernels> profile(uint64_t) override {
    return optimize::ProfiledKernels();
  }
};

class VerifiedOptimizeTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("verified-opt", Dir));
    Source = (Dir + "/scale.cu").str();
    std::error_code EC;
    llvm::raw_fd_ostream(Source, EC) << Scale;
    ASSERT_FALSE(EC);
    SourceSettings &S = O.Parse;
    S.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    S.CudaPath = AUTOPROF_TEST_CUDA_PATH;
    O.Session.Source = Source;
    O.Session.Tree = "none";
    O.Session.TryAll = true;
    O.Session.Attempts = 20;
    O.Session.Compose = false;
    O.Build = "build " + Source;
    O.Run = "run";
    // Only checked to exist: the fake program loads nothing.
    O.InjectLibrary = Source;
    O.Messages = {[this](const std::string &E) { Errors.push_back(E); },
                  [this](const std::string &W) { Warnings.push_back(W); }};
    O.Session.Warn = O.Messages.Warning;
    Hooks.Runner = &Program;
    Hooks.Profiler = [](CommandRunner &, llvm::StringRef)
        -> llvm::Expected<std::unique_ptr<optimize::KernelProfiler>> {
      return std::make_unique<NoProfile>();
    };
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  /// Runs the engine over the source, then the whole run.
  llvm::Expected<VerifiedOptimizeResult> run() {
    Engine =
        std::make_unique<RewriteEngine>(TransformationRegistry::all(), nullptr);
    auto Factory = Engine->newActionFactory();
    EXPECT_EQ(runSources(
                  O.Parse, {Source},
                  [&](size_t) -> clang::tooling::FrontendActionFactory & {
                    return *Factory;
                  },
                  [](size_t) {}, O.Messages, nullptr, llvm::nulls()),
              0);
    std::string LogText;
    llvm::raw_string_ostream Log(LogText);
    return verifiedOptimize(O, *Engine, Hooks, Log);
  }

  const AttemptReport *attempt(const KernelReport &K, llvm::StringRef Name) {
    for (const AttemptReport &A : K.Attempts)
      if (llvm::StringRef(A.Transformation).starts_with(Name))
        return &A;
    return nullptr;
  }

  llvm::SmallString<256> Dir;
  std::string Source;
  VerifiedOptimizeOptions O;
  VerifiedOptimizeHooks Hooks;
  FakeProgram Program;
  std::unique_ptr<RewriteEngine> Engine;
  std::vector<std::string> Errors, Warnings;
};

TEST_F(VerifiedOptimizeTest, KeepsTheFasterRewriteAndRefusesTheWrongOne) {
  // Read-only parameters marked __restrict__ halve the time; the rewrite
  // that moves the block size to 512 breaks the output.
  Program.HalvesWith = "__restrict__";
  Program.BreaksWith = "512>>>";
  llvm::Expected<VerifiedOptimizeResult> R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Report.Kernels.size(), 1u);
  const KernelReport &K = R->Report.Kernels[0];
  EXPECT_EQ(K.Name, "scaleBy");
  EXPECT_EQ(K.Kept, "restrict-readonly-params");
  ASSERT_TRUE(K.Speedup.has_value());
  EXPECT_NEAR(*K.Speedup, 2.0, 0.01);
  const AttemptReport *Wrong = attempt(K, "launch-block-size(512)");
  ASSERT_NE(Wrong, nullptr);
  EXPECT_EQ(Wrong->Result.V, Verdict::WrongOutput);
  const AttemptReport *Same = attempt(K, "launch-block-size(128)");
  ASSERT_NE(Same, nullptr);
  EXPECT_EQ(Same->Result.V, Verdict::NotFaster);
  // The kept edits and their text; the file on disk is unchanged.
  std::string Main = normalPath(Source);
  ASSERT_EQ(R->FinalTexts.count(Main), 1u);
  EXPECT_NE(R->FinalTexts.at(Main).find("__restrict__"), std::string::npos);
  EXPECT_EQ(R->Originals.at(Main), Scale);
  EXPECT_EQ(readFile(Source), Scale);
  EXPECT_FALSE(R->Final.empty());
  EXPECT_GT(Program.Builds, 2u);
  EXPECT_TRUE(Errors.empty());
}

TEST_F(VerifiedOptimizeTest, NothingKeptWhenNoRewriteIsFaster) {
  Program.HalvesWith = "no rewrite writes this";
  llvm::Expected<VerifiedOptimizeResult> R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Report.Kernels.size(), 1u);
  EXPECT_EQ(R->Report.Kernels[0].Kept, "");
  EXPECT_FALSE(R->Report.Kernels[0].Attempts.empty());
  EXPECT_TRUE(R->Final.empty());
  EXPECT_TRUE(R->FinalTexts.empty());
}

TEST_F(VerifiedOptimizeTest, GivenCandidatesReplaceTheProposals) {
  Program.HalvesWith = "given-fast";
  std::string Fast = std::string(Scale) + "// given-fast\n";
  O.Candidates = {{"fast.cu", Fast}, {"same.cu", std::string(Scale) + "\n"}};
  llvm::Expected<VerifiedOptimizeResult> R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  const KernelReport &K = R->Report.Kernels[0];
  ASSERT_EQ(K.Attempts.size(), 2u);
  EXPECT_EQ(K.Kept, "candidate fast.cu");
  EXPECT_EQ(R->FinalTexts.at(normalPath(Source)), Fast);
}

TEST_F(VerifiedOptimizeTest, RefusesWhatCannotRun) {
  O.InjectLibrary = (Dir + "/missing.so").str();
  llvm::Expected<VerifiedOptimizeResult> R = run();
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "cannot find the injection library '" + O.InjectLibrary +
                "'; set AUTOPROF_INJECT_LIBRARY");
  O.InjectLibrary = Source;
  O.Build.clear();
  O.Parse.BuildPath = std::string(Dir);
  R = run();
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("no build command"),
            std::string::npos);
  EXPECT_EQ(Program.Builds, 0u);
}

} // namespace
