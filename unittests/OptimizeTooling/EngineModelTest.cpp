//===- EngineModelTest.cpp - The Clang side of an optimize session --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Runs the rewrite engine over a CUDA file on disk and drives the session's
// source model as the session does: proposals on the original and on a kept
// candidate, candidate parses that find renamed kernels and hidden state,
// and the combination of kept candidates.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/EngineModel.h"
#include "autoprof/OptimizeTooling/BuildCommand.h"
#include "autoprof/OptimizeTooling/VerifiedOptimize.h"
#include "autoprof/Rewrite/TransformationRegistry.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

// Written with the index computed blockDim-first, an early return as the
// guard and the size as the last parameter.
const char *Halve = R"cu(#include <cuda_runtime.h>
__global__ void halve(float *dst, float *src, int count) {
  int t = threadIdx.x + blockDim.x * blockIdx.x;
  if (t >= count)
    return;
  dst[t] = 0.5f * src[t];
}
void go(float *d, float *s, int n) { halve<<<(n + 127) / 128, 128>>>(d, s, n); }
)cu";

class EngineModelTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("engine-model", Dir));
    Settings.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    Settings.CudaPath = AUTOPROF_TEST_CUDA_PATH;
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string write(const std::string &Name, const std::string &Text) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(P, EC);
    EXPECT_FALSE(EC);
    OS << Text;
    return std::string(P);
  }

  /// Runs the engine over \p Text written as input.cu, and makes the model.
  void run(const std::string &Text) {
    Source = write("input.cu", Text);
    Engine =
        std::make_unique<RewriteEngine>(TransformationRegistry::all(), nullptr);
    auto Factory = Engine->newActionFactory();
    SourceMessages M = messages();
    ASSERT_EQ(runSources(
                  Settings, {Source},
                  [&](size_t) -> clang::tooling::FrontendActionFactory & {
                    return *Factory;
                  },
                  [](size_t) {}, M, nullptr, llvm::nulls()),
              0);
    Kernels = verifiableKernels(*Engine, nullptr, M.Warning);
    ASSERT_EQ(Kernels.size(), 1u);
    Model = std::make_unique<EngineModel>(
        *Engine, Source, Settings,
        [this](llvm::StringRef F) { return Engine->originalText(F); }, M);
  }

  SourceMessages messages() {
    return {[this](const std::string &E) { Errors.push_back(E); },
            [this](const std::string &W) { Warnings.push_back(W); }};
  }

  /// The candidate of \p Cs whose chain ends with \p T.
  const optimize::Candidate *find(const std::vector<optimize::Candidate> &Cs,
                                  llvm::StringRef T) {
    for (const optimize::Candidate &C : Cs)
      if (!C.Chain.empty() && C.Chain.back() == T)
        return &C;
    return nullptr;
  }

  std::string text(const optimize::Candidate &C) {
    auto It = C.Texts.find(Source);
    return It == C.Texts.end() ? "" : It->second;
  }

  llvm::SmallString<256> Dir;
  SourceSettings Settings;
  std::string Source;
  std::unique_ptr<RewriteEngine> Engine;
  std::vector<optimize::SessionKernel> Kernels;
  std::unique_ptr<EngineModel> Model;
  std::vector<std::string> Errors, Warnings;
};

TEST_F(EngineModelTest, ProposalsAreCandidatesOfTheOriginal) {
  run(Halve);
  std::vector<optimize::Candidate> Cs = Model->proposals(Kernels[0], nullptr);
  ASSERT_FALSE(Cs.empty());
  for (const optimize::Candidate &C : Cs) {
    ASSERT_EQ(C.Chain.size(), 1u) << C.Name;
    EXPECT_TRUE(llvm::StringRef(C.Name).starts_with(C.Chain[0])) << C.Name;
    EXPECT_TRUE(static_cast<bool>(C.Trigger)) << C.Name;
    std::string T = text(C);
    EXPECT_FALSE(T.empty()) << C.Name;
    EXPECT_NE(T, Halve) << C.Name;
    // The remembered edits give the candidate's text.
    llvm::Expected<verify::SourceTexts> Again =
        Model->textsOf(Model->edits(C.Id));
    ASSERT_TRUE(static_cast<bool>(Again));
    EXPECT_EQ(*Again, C.Texts) << C.Name;
  }
  const optimize::Candidate *R = find(Cs, "restrict-readonly-params");
  ASSERT_NE(R, nullptr);
  EXPECT_TRUE(R->ChangesSignature);
  EXPECT_NE(text(*R).find("__restrict__"), std::string::npos);
  EXPECT_TRUE(Errors.empty());
}

TEST_F(EngineModelTest, ComposedProposalsAreEditsOfTheOriginal) {
  run(Halve);
  std::vector<optimize::Candidate> First =
      Model->proposals(Kernels[0], nullptr);
  const optimize::Candidate *Base = find(First, "restrict-readonly-params");
  ASSERT_NE(Base, nullptr);
  std::vector<optimize::Candidate> Next = Model->proposals(Kernels[0], Base);
  ASSERT_FALSE(Next.empty());
  for (const optimize::Candidate &C : Next) {
    ASSERT_EQ(C.Chain.size(), 2u) << C.Name;
    EXPECT_EQ(C.Chain[0], "restrict-readonly-params");
    EXPECT_TRUE(llvm::StringRef(C.Name).starts_with(Base->Name + "+"))
        << C.Name;
    EXPECT_TRUE(C.ChangesSignature) << C.Name;
    // Both rewrites are in the text, and the edits are of the original.
    std::string T = text(C);
    EXPECT_NE(T.find("__restrict__"), std::string::npos) << C.Name;
    EXPECT_NE(T, text(*Base)) << C.Name;
    llvm::Expected<verify::SourceTexts> Again =
        Model->textsOf(Model->edits(C.Id));
    ASSERT_TRUE(static_cast<bool>(Again));
    EXPECT_EQ(*Again, C.Texts) << C.Name;
  }
}

TEST_F(EngineModelTest, InspectFindsTheCandidatesMangledName) {
  run(Halve);
  std::vector<optimize::Candidate> Cs = Model->proposals(Kernels[0], nullptr);
  const optimize::Candidate *R = find(Cs, "restrict-readonly-params");
  ASSERT_NE(R, nullptr);
  optimize::CandidateCheck Check = Model->inspect(Kernels[0], *R);
  EXPECT_FALSE(Check.Refused);
  ASSERT_EQ(Check.Renamed.size(), 1u);
  const verify::KernelSignature &S = Check.Renamed[0];
  EXPECT_EQ(S.MangledName, "_Z5halvePfS_i");
  // A read-only parameter became `const float *`.
  EXPECT_EQ(S.CandidateMangledName, "_Z5halvePfPKfi");
  // A rewrite that keeps the signature keeps the name.
  const optimize::Candidate *B = find(Cs, "launch-block-size");
  ASSERT_NE(B, nullptr);
  Check = Model->inspect(Kernels[0], *B);
  ASSERT_EQ(Check.Renamed.size(), 1u);
  EXPECT_EQ(Check.Renamed[0].CandidateMangledName, "");
}

TEST_F(EngineModelTest, InspectRefusesStateTheOriginalDoesNotReach) {
  run(Halve);
  std::string Text = Halve;
  // The candidate counts its launches in a variable of its own.
  std::string Counted = Text;
  Counted.replace(Counted.find("__global__"), 0,
                  "__device__ unsigned launches;\n");
  Counted.replace(Counted.find("  dst[t]"), 0,
                  "  if (t == 0)\n    atomicAdd(&launches, 1u);\n");
  optimize::Candidate C =
      Model->candidate("counted", FileEdits(), {{Source, Counted}});
  optimize::CandidateCheck Check = Model->inspect(Kernels[0], C);
  ASSERT_TRUE(Check.Refused.has_value());
  EXPECT_EQ(Check.Refused->V, verify::Verdict::HiddenState);
  EXPECT_NE(Check.Refused->Reason.find("launches"), std::string::npos)
      << Check.Refused->Reason;
  // A candidate Clang cannot parse is not refused here: its build says why.
  optimize::Candidate Broken =
      Model->candidate("broken", FileEdits(), {{Source, Text + "}"}});
  Check = Model->inspect(Kernels[0], Broken);
  EXPECT_FALSE(Check.Refused.has_value());
  ASSERT_EQ(Check.Renamed.size(), 1u);
  EXPECT_EQ(Check.Renamed[0].CandidateMangledName, "");
}

TEST_F(EngineModelTest, CombineMergesDisjointEditsOnly) {
  run(Halve);
  std::vector<optimize::Candidate> Cs = Model->proposals(Kernels[0], nullptr);
  const optimize::Candidate *R = find(Cs, "restrict-readonly-params");
  const optimize::Candidate *B = find(Cs, "launch-block-size");
  ASSERT_NE(R, nullptr);
  ASSERT_NE(B, nullptr);
  std::optional<optimize::Candidate> Both = Model->combine({R, B});
  ASSERT_TRUE(Both.has_value());
  std::string T = text(*Both);
  EXPECT_NE(T.find("__restrict__"), std::string::npos);
  EXPECT_EQ(T.find("128>>>"), std::string::npos) << T;
  // Two variants of one rewrite edit the same launch: they conflict.
  const optimize::Candidate *Other = nullptr;
  for (const optimize::Candidate &C : Cs)
    if (C.Chain.back() == "launch-block-size" && C.Name != B->Name)
      Other = &C;
  ASSERT_NE(Other, nullptr);
  EXPECT_FALSE(Model->combine({B, Other}).has_value());
}

TEST(BuildCommandTest, DatabaseCommandsThatLinkOnly) {
  llvm::SmallString<256> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("build-command", Dir));
  std::string Src = (Dir + "/prog.cu").str();
  std::string DB = (Dir + "/compile_commands.json").str();
  auto WriteDB = [&](const std::string &Args) {
    std::error_code EC;
    llvm::raw_fd_ostream OS(DB, EC);
    ASSERT_FALSE(EC);
    OS << "[{\"directory\": \"" << Dir << "\", \"file\": \"" << Src
       << "\", \"arguments\": [" << Args << "]}]";
  };
  WriteDB("\"nvcc\", \"-O2\", \"prog.cu\", \"-o\", \"my prog\"");
  llvm::Expected<std::string> Cmd = databaseBuildCommand(Src, Dir);
  ASSERT_TRUE(static_cast<bool>(Cmd)) << llvm::toString(Cmd.takeError());
  EXPECT_EQ(*Cmd,
            "cd " + std::string(Dir) + " && nvcc -O2 prog.cu -o 'my prog'");
  WriteDB("\"nvcc\", \"-c\", \"prog.cu\", \"-o\", \"prog.o\"");
  Cmd = databaseBuildCommand(Src, Dir);
  ASSERT_FALSE(static_cast<bool>(Cmd));
  EXPECT_NE(llvm::toString(Cmd.takeError()).find("compiles an object"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
  Cmd = databaseBuildCommand(Src, Dir);
  ASSERT_FALSE(static_cast<bool>(Cmd));
  EXPECT_NE(
      llvm::toString(Cmd.takeError()).find("no compilation database was found"),
      std::string::npos);
}

} // namespace
