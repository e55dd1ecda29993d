//===- KernelSpliceTest.cpp - A model's kernel in place of the original ---===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// The kernels' definition ranges and launch sites as the engine records
// them, the splice, and the comparison of a candidate's kernels with the
// original's.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Rewrite/KernelReach.h"
#include "autoprof/Rewrite/RewriteEngine.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

struct Parsed {
  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<RewriteEngine> Engine;
  std::string FirstError;
};

/// Parses \p Code as input.cu and runs the engine without transformations.
Parsed parse(const std::string &Code) {
  std::vector<std::string> Args = {"-x",
                                   "cuda",
                                   "--cuda-device-only",
                                   "--cuda-gpu-arch=sm_90",
                                   "--cuda-path=" AUTOPROF_TEST_CUDA_PATH,
                                   "-Wno-unknown-cuda-version",
                                   "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR,
                                   "-std=c++17"};
  Parsed P;
  FirstErrorConsumer Errors;
  P.AST = clang::tooling::buildASTFromCodeWithArgs(
      Code, Args, "input.cu", "clang-tool",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(),
      clang::tooling::FileContentMappings(), &Errors);
  P.FirstError = Errors.firstError();
  P.Engine = std::make_unique<RewriteEngine>(
      std::vector<const Transformation *>(), nullptr);
  if (P.AST && !P.AST->getDiagnostics().hasErrorOccurred())
    P.Engine->run(P.AST->getASTContext());
  return P;
}

const char *Source = R"cu(#define BLOCK 256
// before
__global__ __launch_bounds__(BLOCK) void scale(const float *in, float *out,
                                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = 2.0f * in[i];
} // after

template <int N>
__global__ void fill(float *p) { p[threadIdx.x] = N; }

void run(float *a, float *b, int n) {
  scale<<<(n + BLOCK - 1) / BLOCK,
          BLOCK>>>(a, b, n);
  fill<3><<<1, 32>>>(b);
}
)cu";

std::string rangeText(const Parsed &P, size_t I) {
  const KernelSource &KS = P.Engine->kernelSources()[I];
  return P.Engine->originalText(KS.File).slice(KS.Begin, KS.End).str();
}

TEST(KernelSpliceTest, RangesAndLaunches) {
  Parsed P = parse(Source);
  ASSERT_EQ(P.Engine->kernels().size(), 2u);
  EXPECT_EQ(rangeText(P, 0),
            "__global__ __launch_bounds__(BLOCK) void scale(const float *in, "
            "float *out,\n                                               int "
            "n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i "
            "< n)\n    out[i] = 2.0f * in[i];\n}");
  EXPECT_EQ(P.Engine->kernelSources()[0].LaunchSites,
            std::vector<std::string>{
                "line 14: scale<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(a, b, n)"});
  EXPECT_EQ(rangeText(P, 1),
            "template <int N>\n__global__ void fill(float *p) { "
            "p[threadIdx.x] = N; }");
  EXPECT_EQ(P.Engine->kernelSources()[1].LaunchSites,
            std::vector<std::string>{"line 16: fill<3><<<1, 32>>>(b)"});
}

TEST(KernelSpliceTest, SpliceKeepsTheRest) {
  Parsed P = parse(Source);
  const KernelSource &KS = P.Engine->kernelSources()[0];
  auto Text = spliceKernel(P.Engine->originalText(KS.File), KS,
                           "__global__ void scale(const float *__restrict__ "
                           "in, float *out, int n) {}\n\n");
  ASSERT_TRUE(static_cast<bool>(Text));
  EXPECT_EQ(Text->substr(0, 32), "#define BLOCK 256\n// before\n__gl");
  EXPECT_NE(Text->find("int n) {} // after\n\ntemplate <int N>"),
            std::string::npos);
  KernelSource Bad;
  EXPECT_FALSE(static_cast<bool>(spliceKernel("x", Bad, "y")));
  consumeError(spliceKernel("x", Bad, "y").takeError());
}

/// The problem found in \p Candidate, a rewrite of \p Original's first
/// kernel.
std::string problem(const std::string &Candidate,
                    const std::string &Original = Source) {
  Parsed Before = parse(Original), After = parse(Candidate);
  if (!After.FirstError.empty())
    return "error: " + After.FirstError;
  auto P =
      checkCandidateKernels(Before.Engine->kernels()[0],
                            Before.Engine->kernels(), After.Engine->kernels());
  if (!P)
    return "";
  return (P->K == CandidateProblem::Kind::ExtraKernel ? "extra: "
                                                      : "signature: ") +
         P->Reason;
}

std::string withScale(const std::string &Definition) {
  Parsed P = parse(Source);
  const KernelSource &KS = P.Engine->kernelSources()[0];
  return cantFail(
      spliceKernel(P.Engine->originalText(KS.File), KS, Definition));
}

TEST(KernelSpliceTest, ChecksTheSignature) {
  // Restrict and a parameter's own const may change.
  EXPECT_EQ(problem(withScale("__global__ void scale(const float *__restrict__ "
                              "in, float *const out, const int n) {}")),
            "");
  EXPECT_EQ(problem(withScale("__global__ void scale(float *in, float *out, "
                              "int n) {}")),
            "signature: parameter 1 of kernel 'scale' was 'const float *' and "
            "is 'float *'");
  EXPECT_EQ(problem(withScale("__global__ void scale(const float *in, float "
                              "*out, int n, int m = 0) {}")),
            "signature: kernel 'scale' had 3 parameters (const float *, float "
            "*, int) and has 4 (const float *, float *, int, int)");
  // Without launches, a kernel may be renamed or made a device function.
  EXPECT_EQ(
      problem("__global__ void k2(int *p) {}", "__global__ void k(int *p) {}"),
      "extra: the reply defines another kernel, 'k2'; it may define "
      "only 'k'");
  EXPECT_EQ(
      problem("__device__ void k(int *p) {}", "__global__ void k(int *p) {}"),
      "signature: the reply does not define kernel 'k' (renamed, or not "
      "a __global__ function)");
  EXPECT_EQ(problem(withScale("__global__ void scale(const float *in, float "
                              "*out, int n) {}\n__global__ void helper() {}")),
            "extra: the reply defines another kernel, 'helper'; it may define "
            "only 'scale'");
  EXPECT_EQ(
      problem(withScale("__global__ void scale(const float *in, float *out, "
                        "int n) { undeclared(); }"))
          .substr(0, 25),
      "error: input.cu:3:61: err");
}

/// What the one kernel of \p Code reaches.
KernelReach reachOf(const std::string &Code) {
  Parsed P = parse(Code);
  EXPECT_EQ(P.FirstError, "");
  EXPECT_EQ(P.Engine->kernelSources().size(), 1u);
  if (P.Engine->kernelSources().size() != 1)
    return KernelReach();
  const KernelSource &KS = P.Engine->kernelSources()[0];
  std::optional<KernelReach> R =
      kernelReach(P.AST->getASTContext(), KS.File, KS.Begin, KS.End);
  EXPECT_TRUE(R.has_value());
  return R.value_or(KernelReach());
}

const char *Globals = R"cu(__device__ float gScale = 2.0f;
__device__ int gCount;
__constant__ float gTable[4];
constexpr int kN = 4;
__device__ void bump() { atomicAdd(&gCount, 1); }
__device__ float look(int i) { return gTable[i % kN]; }
)cu";

TEST(KernelReachTest, GlobalsReadWrittenAndThroughHelpers) {
  KernelReach R = reachOf(std::string(Globals) + R"cu(
__global__ void k(float *out) {
  __shared__ float tile[32];
  extern __shared__ float dyn[];
  tile[threadIdx.x] = gScale * look(threadIdx.x);
  dyn[threadIdx.x] = tile[threadIdx.x];
  out[threadIdx.x] = dyn[threadIdx.x];
}
)cu");
  // Shared memory and threadIdx are not state; gScale is read, gTable and
  // the constant kN through look().
  ASSERT_EQ(R.Globals.size(), 3u);
  EXPECT_TRUE(R.ConstGlobals.count("kN"));
  EXPECT_FALSE(R.Globals.at("gScale"));
  EXPECT_FALSE(R.Globals.at("gTable"));
  EXPECT_TRUE(R.Opaque.empty());
  EXPECT_TRUE(R.OtherDecls.empty());

  KernelReach W = reachOf(std::string(Globals) + R"cu(
__global__ void k(float *out) {
  gScale = out[0];
  bump();
}
)cu");
  EXPECT_TRUE(W.Globals.at("gScale"));
  // atomicAdd(&gCount, ...) in the helper takes its address: a write.
  EXPECT_TRUE(W.Globals.at("gCount"));

  EXPECT_EQ(reachProblem(R, W),
            "the reply's kernel uses `gCount`, a variable outside it that the "
            "original does not use");
  KernelReach Same = R;
  EXPECT_EQ(reachProblem(R, Same), std::nullopt);
  Same.Globals["gScale"] = true;
  EXPECT_EQ(reachProblem(R, Same),
            "the reply's kernel may write `gScale`, which the original only "
            "reads");
}

TEST(KernelReachTest, OpaqueThingsAndConstants) {
  KernelReach R = reachOf(std::string(Globals) + R"cu(
__device__ float hidden(float);
__global__ void k(float *out, float (*f)(float)) {
  float v;
  asm("mov.f32 %0, 1.0;" : "=f"(v));
  out[0] = hidden(v) + f(v) + kN;
}
)cu");
  EXPECT_TRUE(R.Opaque.count("has inline assembly"));
  EXPECT_TRUE(
      R.Opaque.count("calls `hidden`, whose definition is not visible"));
  EXPECT_TRUE(R.Opaque.count("calls a function through a pointer"));
  // A constexpr is a constant: reading one the original does not is fine.
  EXPECT_TRUE(R.ConstGlobals.count("kN"));
  KernelReach Before;
  Before.Opaque = R.Opaque;
  EXPECT_EQ(reachProblem(Before, R), std::nullopt);
  Before.Opaque.erase("has inline assembly");
  EXPECT_EQ(reachProblem(Before, R),
            "the reply's kernel has inline assembly, which the original does "
            "not");
}

} // namespace
