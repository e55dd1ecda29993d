//===- CudaCommandTest.cpp - Tests of compile-command translation ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/CudaCommand.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace autoprof;

namespace {

CudaSettings settings() {
  CudaSettings S;
  S.CudaPath = "/opt/cuda";
  S.GpuArch = "sm_90";
  return S;
}

bool has(const std::vector<std::string> &V, const std::string &S) {
  return std::find(V.begin(), V.end(), S) != V.end();
}

TEST(CudaCommandTest, AddsMissingCudaFlags) {
  AdjustedCommand C =
      adjustCudaCommand({"/usr/bin/clang++", "-O2", "k.cu"}, settings());
  EXPECT_EQ(C.Args[0], "/usr/bin/clang++");
  EXPECT_TRUE(has(C.Args, "--cuda-path=/opt/cuda"));
  EXPECT_TRUE(has(C.Args, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(has(C.Args, "--cuda-device-only"));
  EXPECT_TRUE(has(C.Args, "-Wno-unknown-cuda-version"));
  EXPECT_TRUE(has(C.Args, "-fgpu-defer-diag"));
  EXPECT_EQ(C.Args[1], "-x");
  EXPECT_EQ(C.Args[2], "cuda");
  EXPECT_TRUE(C.Dropped.empty());
}

TEST(CudaCommandTest, AUsersChoiceOfDeferredDiagnosticsStands) {
  AdjustedCommand C =
      adjustCudaCommand({"clang++", "-fno-gpu-defer-diag", "k.cu"}, settings());
  EXPECT_FALSE(has(C.Args, "-fgpu-defer-diag"));
  EXPECT_TRUE(has(C.Args, "-fno-gpu-defer-diag"));
}

TEST(CudaCommandTest, KeepsFlagsTheCommandGives) {
  AdjustedCommand C = adjustCudaCommand(
      {"clang++", "-x", "cuda", "--cuda-path=/x", "--cuda-gpu-arch=sm_80",
       "--cuda-gpu-arch=sm_90", "k.cu"},
      settings());
  EXPECT_FALSE(has(C.Args, "--cuda-path=/opt/cuda"));
  EXPECT_TRUE(has(C.Args, "--cuda-gpu-arch=sm_80"));
  // One device compilation only.
  EXPECT_FALSE(has(C.Args, "--cuda-gpu-arch=sm_90"));
  EXPECT_EQ(std::count(C.Args.begin(), C.Args.end(), "-x"), 1);
}

TEST(CudaCommandTest, TranslatesNvccFlags) {
  AdjustedCommand C =
      adjustCudaCommand({"/usr/local/cuda/bin/nvcc",
                         "-arch=sm_80",
                         "--expt-relaxed-constexpr",
                         "-Xcompiler",
                         "-fPIC,-Wall",
                         "-rdc=true",
                         "--use_fast_math",
                         "-Xptxas",
                         "-v",
                         "-lineinfo",
                         "-ccbin",
                         "/usr/bin/g++",
                         "--default-stream",
                         "per-thread",
                         "-x",
                         "cu",
                         "-std=c++17",
                         "--generate-code=arch=compute_90,code=sm_90",
                         "-c",
                         "k.cu",
                         "-o",
                         "k.o"},
                        settings());
  EXPECT_EQ(C.Args[0], "clang++");
  EXPECT_TRUE(has(C.Args, "--cuda-gpu-arch=sm_80"));
  EXPECT_FALSE(has(C.Args, "--cuda-gpu-arch=sm_90"));
  EXPECT_TRUE(has(C.Args, "-fPIC"));
  EXPECT_TRUE(has(C.Args, "-Wall"));
  EXPECT_TRUE(has(C.Args, "-fgpu-rdc"));
  EXPECT_TRUE(has(C.Args, "-ffast-math"));
  EXPECT_TRUE(has(C.Args, "-fgpu-default-stream=per-thread"));
  EXPECT_TRUE(has(C.Args, "cuda"));
  EXPECT_TRUE(has(C.Args, "-std=c++17"));
  for (const char *Gone :
       {"--expt-relaxed-constexpr", "-Xptxas", "-v", "-lineinfo", "-ccbin",
        "/usr/bin/g++", "cu", "-arch=sm_80"})
    EXPECT_FALSE(has(C.Args, Gone)) << Gone;
}

TEST(CudaCommandTest, GencodeGivesTheArchitecture) {
  AdjustedCommand C = adjustCudaCommand(
      {"nvcc", "-gencode", "arch=compute_90a,code=sm_90a", "k.cu"}, settings());
  EXPECT_TRUE(has(C.Args, "--cuda-gpu-arch=sm_90a"));
}

TEST(CudaCommandTest, VirtualArchitectureFallsBackToDefault) {
  AdjustedCommand C =
      adjustCudaCommand({"nvcc", "-arch=native", "k.cu"}, settings());
  EXPECT_TRUE(has(C.Args, "--cuda-gpu-arch=sm_90"));
}

TEST(CudaCommandTest, NvccLongFormsOfCommonFlags) {
  AdjustedCommand C =
      adjustCudaCommand({"nvcc", "--include-path", "inc", "--define-macro=N=4",
                         "--std", "c++20", "k.cu"},
                        settings());
  EXPECT_TRUE(has(C.Args, "-Iinc"));
  EXPECT_TRUE(has(C.Args, "-DN=4"));
  EXPECT_TRUE(has(C.Args, "-std=c++20"));
}

TEST(CudaCommandTest, UnknownFlagsAreDroppedAndReported) {
  AdjustedCommand C = adjustCudaCommand(
      {"nvcc", "--some-future-nvcc-flag", "-O3", "k.cu"}, settings());
  EXPECT_FALSE(has(C.Args, "--some-future-nvcc-flag"));
  EXPECT_TRUE(has(C.Args, "-O3"));
  ASSERT_EQ(C.Dropped.size(), 1u);
  EXPECT_EQ(C.Dropped[0], "--some-future-nvcc-flag");
}

TEST(CudaCommandTest, HostOnlyIsReplacedByDeviceOnly) {
  AdjustedCommand C =
      adjustCudaCommand({"clang++", "--cuda-host-only", "k.cu"}, settings());
  EXPECT_FALSE(has(C.Args, "--cuda-host-only"));
  EXPECT_TRUE(has(C.Args, "--cuda-device-only"));
}

TEST(CudaCommandTest, ClangCommandsKeepClangMeanings) {
  // In a clang command, -Werror takes no value and -G is not nvcc's.
  AdjustedCommand C =
      adjustCudaCommand({"clang++", "-Werror", "-O2", "k.cu"}, settings());
  EXPECT_TRUE(has(C.Args, "-Werror"));
  EXPECT_TRUE(has(C.Args, "-O2"));
}

} // namespace

TEST(CudaCommandTest, CompilesInferredHeaderCommandsAsCuda) {
  // The command a database infers for a header from a .cu file.
  AdjustedCommand C = adjustCudaCommand(
      {"clang++", "-x", "c++-header", "-Iinclude", "src/k.cuh"}, settings());
  auto X = std::find(C.Args.begin(), C.Args.end(), "-x");
  ASSERT_NE(X, C.Args.end());
  EXPECT_EQ(*(X + 1), "cuda");
  EXPECT_TRUE(has(C.Args, "-Wno-pragma-once-outside-header"));
  AdjustedCommand Joined =
      adjustCudaCommand({"clang++", "-xc++", "k.cuh"}, settings());
  EXPECT_TRUE(has(Joined.Args, "-xcuda"));
  // A C++ header stays C++.
  AdjustedCommand Cpp =
      adjustCudaCommand({"clang++", "-x", "c++-header", "k.h"}, settings());
  EXPECT_TRUE(has(Cpp.Args, "c++-header"));
}
