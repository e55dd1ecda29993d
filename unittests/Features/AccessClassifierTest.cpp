//===- AccessClassifierTest.cpp - Access classes on real kernels ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Parses CUDA kernels with Clang and checks the class given to each access,
// identified by its line.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/FeatureExtractor.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <map>

using namespace autoprof;

namespace {

class AccessClassifierTest : public ::testing::Test {
protected:
  /// Parses \p Code and returns, for kernel \p Kernel, the class of each
  /// global access by line ("none" when unclassified); several accesses on
  /// one line are joined with ','.
  std::map<unsigned, std::string> classes(const std::string &Code,
                                          const std::string &Kernel) {
    std::vector<std::string> Args = {
        "-x",
        "cuda",
        "--cuda-device-only",
        "--cuda-gpu-arch=sm_90",
        "--cuda-path=" AUTOPROF_TEST_CUDA_PATH,
        "-Wno-unknown-cuda-version",
        "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR,
        "-std=c++17"};
    AST = clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
    EXPECT_TRUE(AST);
    std::map<unsigned, std::string> Out;
    if (!AST)
      return Out;
    clang::ASTContext &Ctx = AST->getASTContext();
    EXPECT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
      auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D);
      if (!FD || FD->getName() != Kernel || !FD->hasBody())
        continue;
      std::vector<MemoryAccess> Accesses;
      analyzeKernel(*FD, Ctx, &Accesses);
      for (const MemoryAccess &A : Accesses) {
        if (A.Where != MemoryAccess::Space::Global)
          continue;
        std::string C = A.Class ? accessClassName(*A.Class) : "none";
        std::string &S = Out[A.Line];
        S += (S.empty() ? "" : ",") + C;
      }
    }
    return Out;
  }
  std::unique_ptr<clang::ASTUnit> AST;
};

TEST_F(AccessClassifierTest, ElementwiseIsCoalesced) {
  auto C = classes(R"cu(
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] =
        in[i];
}
)cu",
                   "k");
  EXPECT_EQ(C[5], "coalesced");
  EXPECT_EQ(C[6], "coalesced");
}

TEST_F(AccessClassifierTest, RowPerThreadIsStrided) {
  auto C = classes(R"cu(
__global__ void k(const float *a, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += a[row * n + j];
  y[row] = s;
}
)cu",
                   "k");
  EXPECT_EQ(C[6], "strided");
  EXPECT_EQ(C[7], "coalesced");
}

TEST_F(AccessClassifierTest, BroadcastIsUniform) {
  auto C = classes(R"cu(
__global__ void k(const float *a, const float *b, float *c, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k)
    s += a[row * n + k] * b[k * n + col];
  c[row * n + col] = s;
}
)cu",
                   "k");
  EXPECT_EQ(C[7], "uniform,coalesced");
  EXPECT_EQ(C[8], "coalesced");
}

TEST_F(AccessClassifierTest, GatherIsIndirect) {
  auto C = classes(R"cu(
__global__ void k(const int *idx, const float *table, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  out[i] = table[j];
  out[i + 1] = table[idx[i] * 4];
}
)cu",
                   "k");
  EXPECT_EQ(C[4], "coalesced");
  EXPECT_EQ(C[5], "coalesced,indirect");
  EXPECT_EQ(C[6], "coalesced,indirect,coalesced");
}

TEST_F(AccessClassifierTest, PointerArithmeticIsFollowed) {
  auto C = classes(R"cu(
__global__ void k(const float *a, float *out, int n) {
  const float *row = a + blockIdx.x * n;
  const float *mine = a + threadIdx.x * n;
  out[threadIdx.x] = row[threadIdx.x] +
                     mine[0];
  *(out + 2 * threadIdx.x) = 0.0f;
}
)cu",
                   "k");
  EXPECT_EQ(C[5], "coalesced,coalesced");
  EXPECT_EQ(C[6], "strided");
  EXPECT_EQ(C[7], "strided");
}

TEST_F(AccessClassifierTest, GridStrideLoopIsCoalesced) {
  auto C = classes(R"cu(
__global__ void k(float4 *p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    p[i].x = 0.0f;
}
)cu",
                   "k");
  EXPECT_EQ(C[5], "coalesced");
}

TEST_F(AccessClassifierTest, DeviceFunctionArgumentsAreBound) {
  auto C = classes(R"cu(
__device__ float get(const float *p, int i) { return p[i]; }
__global__ void k(const float *a, float *out, int n) {
  out[threadIdx.x] = get(a, threadIdx.x * n);
}
)cu",
                   "k");
  EXPECT_EQ(C[2], "strided");
  EXPECT_EQ(C[4], "coalesced");
}

TEST_F(AccessClassifierTest, LaneAndWarpIndices) {
  auto C = classes(R"cu(
__global__ void k(const float *a, float *out) {
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  out[lane] = a[warp];
  out[threadIdx.x & 31] = a[threadIdx.x >> 5];
}
)cu",
                   "k");
  EXPECT_EQ(C[5], "coalesced,uniform");
  EXPECT_EQ(C[6], "coalesced,uniform");
}

TEST_F(AccessClassifierTest, TheKernelModelSeesThroughHelpersAndWhileLoops) {
  // An address from a transparent helper: the kernel model's value of the
  // index gives the stride that an opaque call would lose.
  auto C = classes(R"cu(
__device__ int at(int r, int c, int ld) { return r * ld + c; }
__global__ void k(const float *a, float *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rows; ++r)
    out[at(r, c, cols)] =
        a[at(c, r, rows)];
}
)cu",
                   "k");
  EXPECT_EQ(C[6], "coalesced");
  EXPECT_EQ(C[7], "strided");
  // The threads of a warp run the same iteration of a `while` whose
  // counter starts at their index: each iteration reads neighbours.
  auto W = classes(R"cu(
__global__ void k(const float *a, float *out, int n) {
  int i = threadIdx.x;
  float s = 0.0f;
  while (i < n) {
    s += a[i];
    i += blockDim.x;
  }
  out[blockIdx.x * 0] = s;
}
)cu",
                   "k");
  EXPECT_EQ(W[6], "coalesced");
  EXPECT_EQ(W[9], "uniform");
}

} // namespace
