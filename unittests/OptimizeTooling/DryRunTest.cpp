//===- DryRunTest.cpp - What optimize --dry-run prints --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Runs the rewrite engine over CUDA files on disk and checks the dry run's
// outputs: the listing with and without a profile, refusals, diffs named
// as the caller shows files, and the merge for -o, which leaves out a
// proposal that changes a header.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/DryRun.h"
#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Rewrite/TransformationRegistry.h"
#include "autoprof/Tooling/SourceDriver.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

::testing::AssertionResult has(const std::string &Text,
                               const std::string &Part) {
  if (Text.find(Part) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << Part << "' is not in:\n"
                                       << Text;
}

// A grid-stride-free elementwise kernel whose bound is a struct field
// read through a copy, and a kernel with nothing to propose: a single
// thread's serial loop over a constant count.
const char *Scale = R"cu(#include <cuda_runtime.h>
struct Args { const float *in; float *out; int count; };
__global__ void scale(Args a) {
  unsigned i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < a.count) a.out[i] = a.in[i] * 3.0f;
}
__global__ void lone(float *x) {
  for (int k = 1; k < 8; ++k) x[k] += x[k - 1];
}
void go(Args a, float *x) {
  scale<<<(a.count + 255) / 256, 256>>>(a);
  lone<<<1, 1>>>(x);
}
)cu";

// The kernel lives in the header the source includes.
const char *HeaderKernel = R"cu(#pragma once
__global__ void addOne(float *__restrict__ v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] + 1.0f;
}
)cu";
const char *HeaderMain = R"cu(#include <cuda_runtime.h>
#include "add_one.cuh"
void go(float *v, int n) { addOne<<<(n + 127) / 128, 128>>>(v, n); }
)cu";

class DryRunTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("dry-run", Dir));
    Settings.FixedArgs =
        std::vector<std::string>{"-std=c++17", "-Wno-unknown-cuda-version",
                                 "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR};
    Settings.CudaPath = AUTOPROF_TEST_CUDA_PATH;
    View.Shown = [this](const std::string &File) {
      return llvm::sys::path::filename(File).str();
    };
    View.Warn = [this](const std::string &W) { Warnings.push_back(W); };
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

  void run(const std::string &Source, bool Explain = false) {
    Engine =
        std::make_unique<RewriteEngine>(TransformationRegistry::all(), nullptr);
    if (Explain)
      Engine->explainRefusals();
    auto Factory = Engine->newActionFactory();
    SourceMessages M{[](const std::string &E) { ADD_FAILURE() << E; },
                     [](const std::string &) {}};
    ASSERT_EQ(runSources(
                  Settings, {Source},
                  [&](size_t) -> clang::tooling::FrontendActionFactory & {
                    return *Factory;
                  },
                  [](size_t) {}, M, nullptr, llvm::nulls()),
              0);
  }

  llvm::SmallString<256> Dir;
  SourceSettings Settings;
  std::unique_ptr<RewriteEngine> Engine;
  DryRunView View;
  std::vector<std::string> Warnings;
};

TEST_F(DryRunTest, ListsProposalsTriggersAndRefusals) {
  run(write("scale.cu", Scale), /*Explain=*/true);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeProposalListing(*Engine, View, OS);
  // Files are named as the view shows them.
  EXPECT_TRUE(has(Text, "kernel scale at scale.cu:3:"));
  EXPECT_TRUE(has(Text, "kernel lone at scale.cu:7:"));
  // Without a profile, each proposal names the metrics its trigger needs.
  EXPECT_TRUE(has(Text, "  launch-block-size"));
  EXPECT_TRUE(has(Text, "    trigger: needs "));
  EXPECT_TRUE(has(Text, ": not applied: "));
  EXPECT_FALSE(has(Text, "leaf:"));
  EXPECT_TRUE(Warnings.empty());
}

TEST_F(DryRunTest, ListingRoutesTheProfiledKernelsThroughTheTree) {
  run(write("scale.cu", Scale));
  ProfilingTree Tree;
  ASSERT_FALSE(loadCheckedTree(
      std::string(AUTOPROF_TEST_TREE_MODELS) + "/fixed-basic.json", Tree));
  SampleTable Samples;
  // Only scale was profiled, by its name.
  Samples.ByName["scale"] = {{"gpu__time_duration.sum", 5000.0},
                             {"launch__block_size", 256.0},
                             {"launch__grid_size", 4096.0}};
  View.Samples = &Samples;
  View.Tree = &Tree;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeProposalListing(*Engine, View, OS);
  EXPECT_TRUE(has(Text, "\n  leaf: all, "));
  EXPECT_TRUE(has(Text, "  not in the profile\n"));
  // The profiled kernel's proposals are judged on its leaf's metrics;
  // those of the kernel the profile lacks list what their triggers need.
  std::string Scale = Text.substr(0, Text.find("kernel lone"));
  EXPECT_FALSE(has(Scale, "trigger: needs"));
  EXPECT_TRUE(has(Scale, "triggered") || has(Scale, "not triggered by"));
}

TEST_F(DryRunTest, DiffsNameFilesAsShown) {
  run(write("scale.cu", Scale));
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  writeProposalDiffs(*Engine, View, OS);
  EXPECT_TRUE(has(Text, "# launch-block-size"));
  EXPECT_TRUE(has(Text, " on kernel scale\n--- a/scale.cu\n+++ b/scale.cu"));
  EXPECT_FALSE(has(Text, Dir.str().str()));
}

TEST_F(DryRunTest, MergeForACopyLeavesOutEditsOfHeaders) {
  write("add_one.cuh", HeaderKernel);
  std::string Main = write("main.cu", HeaderMain);
  run(Main);
  ASSERT_FALSE(Engine->proposals().empty());

  // For a copy of main.cu, every proposal changes the header too.
  FileEdits Copy = mergeFirstVariants(*Engine, Main, /*MainOnly=*/true, View);
  ASSERT_FALSE(Warnings.empty());
  EXPECT_TRUE(has(Warnings.front(),
                  "it changes files other than 'main.cu', and -o "
                  "writes a copy of that one only"));
  for (const auto &[File, Edits] : Copy)
    EXPECT_TRUE(Edits.empty() || File == Main) << File;
  // The copy holds the launch's edits, applied to the source as it is.
  llvm::Expected<std::string> Patched = patchedText(*Engine, Copy, Main);
  ASSERT_TRUE(bool(Patched)) << llvm::toString(Patched.takeError());
  EXPECT_TRUE(has(*Patched, "#include \"add_one.cuh\"\nvoid go("));
  EXPECT_FALSE(has(*Patched, "__global__"));

  // For fixes, the header's edits are kept: one variant of each proposal,
  // and none overlapping another.
  Warnings.clear();
  FileEdits All = mergeFirstVariants(*Engine, Main, /*MainOnly=*/false, View);
  std::string Header = (Dir + "/add_one.cuh").str();
  ASSERT_TRUE(All.count(Header));
  EXPECT_FALSE(All[Header].empty());
  for (const std::string &W : Warnings)
    EXPECT_TRUE(has(W, "its edits overlap another proposal's"));
}

TEST_F(DryRunTest, PatchedTextFailsForAFileItCannotRead) {
  run(write("scale.cu", Scale));
  llvm::Expected<std::string> Patched =
      patchedText(*Engine, FileEdits(), (Dir + "/gone.cu").str());
  ASSERT_FALSE(bool(Patched));
  EXPECT_TRUE(has(llvm::toString(Patched.takeError()), "cannot read '"));
}

} // namespace
