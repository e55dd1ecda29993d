//===- RewriteEngineTest.cpp - Proposals, merging and rendering -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Parses CUDA kernels with Clang, runs the engine with every built-in
// transformation, and checks the proposals, their merge and their YAML.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/TransformationRegistry.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

class RewriteEngineTest : public ::testing::Test {
protected:
  static std::vector<std::string> args() {
    return {"-x",
            "cuda",
            "--cuda-device-only",
            "--cuda-gpu-arch=sm_90",
            "--cuda-path=" AUTOPROF_TEST_CUDA_PATH,
            "-Wno-unknown-cuda-version",
            "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR,
            "-std=c++17"};
  }

  void
  run(const std::string &Code,
      std::vector<const Transformation *> Ts = TransformationRegistry::all()) {
    AST = clang::tooling::buildASTFromCodeWithArgs(Code, args(), "input.cu");
    ASSERT_TRUE(AST);
    ASSERT_FALSE(AST->getDiagnostics().hasErrorOccurred());
    Engine = std::make_unique<RewriteEngine>(std::move(Ts), nullptr);
    Engine->run(AST->getASTContext());
  }

  /// The text of the one file \p Edits change, with them applied.
  std::string textOf(const FileEdits &Edits) {
    auto Texts = applyFileEdits(
        Edits, [&](llvm::StringRef F) { return Engine->originalText(F); });
    EXPECT_TRUE(static_cast<bool>(Texts));
    if (!Texts)
      return llvm::toString(Texts.takeError());
    EXPECT_EQ(Texts->size(), 1u);
    return Texts->empty() ? "" : Texts->begin()->second;
  }

  /// The text of input.cu with the proposals of \p Name applied.
  std::string applied(llvm::StringRef Name) {
    for (const Proposal &P : Engine->proposals())
      if (P.T->name() == Name)
        return textOf(P.Edits);
    return "";
  }

  std::unique_ptr<clang::ASTUnit> AST;
  std::unique_ptr<RewriteEngine> Engine;
};

TEST_F(RewriteEngineTest, ProposesEveryApplicableTransformation) {
  run(R"cu(__global__ void k(float *in, float *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < 8; ++i)
    s += expf(tile[threadIdx.x][i]);
  out[threadIdx.x] = s;
}
void launch(float *a, float *b) { k<<<1, 256>>>(a, b); }
)cu");
  ASSERT_EQ(Engine->kernels().size(), 1u);
  std::vector<std::string> Names;
  for (const Proposal &P : Engine->proposals())
    Names.push_back(P.T->name().str());
  EXPECT_EQ(Names, (std::vector<std::string>{
                       "pad-shared-arrays", "fast-math-intrinsics",
                       "unroll-constant-loops", "launch-bounds",
                       "restrict-readonly-params"}));
  EXPECT_NE(applied("restrict-readonly-params")
                .find("k(const float *__restrict__ in, float *out)"),
            std::string::npos);
  EXPECT_NE(applied("unroll-constant-loops")
                .find("  #pragma unroll\n  for (int i = 0; i < 8; ++i)"),
            std::string::npos);
  EXPECT_NE(applied("pad-shared-arrays").find("tile[32][33];"),
            std::string::npos);
  EXPECT_NE(applied("fast-math-intrinsics").find("s += __expf(tile"),
            std::string::npos);
  EXPECT_NE(applied("launch-bounds")
                .find("__global__ __launch_bounds__(256) void k("),
            std::string::npos);

  std::vector<const Proposal *> All, Skipped;
  for (const Proposal &P : Engine->proposals())
    All.push_back(&P);
  FileEdits Merged = mergeProposals(All, Skipped);
  EXPECT_TRUE(Skipped.empty());
  std::string Text = textOf(Merged);
  EXPECT_NE(Text.find("__global__ __launch_bounds__(256) void k(const float "
                      "*__restrict__ in, float *out) {\n  __shared__ float "
                      "tile[32][33];"),
            std::string::npos);

  std::string YAML = exportFixesYAML("input.cu", Merged);
  EXPECT_EQ(YAML.rfind("---\nMainSourceFile:  input.cu\nReplacements:\n", 0),
            0u)
      << YAML;
  EXPECT_NE(YAML.find("Length:          4\n    ReplacementText: __expf\n"),
            std::string::npos);
}

TEST_F(RewriteEngineTest, TemplateKernelsListTheirInstantiations) {
  run(R"cu(template <int R> __global__ void pool(const float *in, float *out) {
  out[threadIdx.x] = in[threadIdx.x * R];
}
__global__ void plain(float *out) { out[threadIdx.x] = 0; }
void launch(const float *a, float *b) {
  pool<2><<<1, 32>>>(a, b);
  pool<3><<<1, 32>>>(a, b);
  plain<<<1, 32>>>(b);
}
)cu");
  ASSERT_EQ(Engine->kernels().size(), 2u);
  ASSERT_EQ(Engine->instantiations().size(), 2u);
  const std::vector<KernelRecord> &Pool = Engine->instantiations()[0];
  ASSERT_EQ(Pool.size(), 2u);
  EXPECT_EQ(Pool[0].MangledName, "_Z4poolILi2EEvPKfPf");
  EXPECT_EQ(Pool[1].MangledName, "_Z4poolILi3EEvPKfPf");
  ASSERT_EQ(Pool[0].Params.size(), 2u);
  EXPECT_TRUE(Pool[0].Params[1].Pointer);
  EXPECT_TRUE(Engine->instantiations()[1].empty());
}

TEST_F(RewriteEngineTest, ConflictingProposalsAreSkipped) {
  run(R"cu(__global__ void k(const float *in, float *out) {
  out[threadIdx.x] = expf(in[threadIdx.x]);
}
)cu",
      {TransformationRegistry::find("fast-math-intrinsics"),
       TransformationRegistry::find("fast-math-intrinsics")});
  // The same kernel is analysed once per transformation in the list.
  ASSERT_EQ(Engine->proposals().size(), 2u);
  std::vector<const Proposal *> All, Skipped;
  for (const Proposal &P : Engine->proposals())
    All.push_back(&P);
  FileEdits Merged = mergeProposals(All, Skipped);
  EXPECT_EQ(editCount(Merged), 1u);
  ASSERT_EQ(Skipped.size(), 1u);
  EXPECT_EQ(Skipped[0], All[1]);
}

TEST_F(RewriteEngineTest, NothingIsProposedForAWrittenPointer) {
  run(R"cu(__global__ void k(float *p, float *q, int *c) {
  p[threadIdx.x] += 1.0f;
  atomicAdd(&q[0], 1.0f);
  (*c)++;
}
)cu",
      {TransformationRegistry::find("restrict-readonly-params")});
  EXPECT_TRUE(Engine->proposals().empty());
}

TEST_F(RewriteEngineTest, EnablingProposalsAreFollowedByTheOthers) {
  const std::string Code = R"cu(__device__ float rowSum(const float *p, int n) {
  float s = 0;
  for (int j = 0; j < n; ++j)
    s += p[j];
  return s;
}
__global__ void k(const float *a, float *out, int rows, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows)
    out[r] = rowSum(a + r * n, n);
}
void launch(const float *a, float *o) { k<<<64, 256>>>(a, o, 16384, 512); }
)cu";
  run(Code);
  ASSERT_NE(applied("inline-device-helpers"), "");
  EXPECT_NE(applied("inline-device-helpers")
                .find("for (int rowSum_j = 0; rowSum_j < n; ++rowSum_j)"),
            std::string::npos);
  // Before the expansion, warp-per-row sees a call it cannot read.
  EXPECT_EQ(applied("warp-per-row"), "");
  unsigned Parses = 0;
  Engine->expandEnabling([&](RewriteEngine &E, const std::string &Main,
                             const std::map<std::string, std::string> &Texts) {
    ++Parses;
    EXPECT_EQ(Texts.size(), 1u);
    auto Again = clang::tooling::buildASTFromCodeWithArgs(Texts.begin()->second,
                                                          args(), Main);
    if (!Again || Again->getDiagnostics().hasErrorOccurred())
      return false;
    E.run(Again->getASTContext());
    return true;
  });
  EXPECT_EQ(Parses, 1u);
  const Proposal *Rows = nullptr;
  for (const Proposal &P : Engine->proposals())
    if (P.name() == "inline-device-helpers+warp-per-row")
      Rows = &P;
  ASSERT_NE(Rows, nullptr);
  EXPECT_EQ(Rows->After->name(), "inline-device-helpers");
  // Both edits, as edits of the original text.
  std::string Text = textOf(Rows->Edits);
  EXPECT_NE(Text.find("rowSum_j = Lane; rowSum_j < n; rowSum_j += 32"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("k<<<64 * 32, 256>>>"), std::string::npos) << Text;
  // Nothing follows an enabling proposal whose result does not parse.
  run(Code);
  size_t Before = Engine->proposals().size();
  Engine->expandEnabling(
      [](RewriteEngine &, const std::string &,
         const std::map<std::string, std::string> &) { return false; });
  EXPECT_EQ(Engine->proposals().size(), Before);
  ASSERT_EQ(Engine->failures().size(), 1u);
  EXPECT_NE(Engine->failures()[0].find("does not compile"), std::string::npos);
}

} // namespace

namespace {

// A rewrite of one instantiation of a kernel template runs in that
// instantiation alone: the other keeps its body and launch.
TEST_F(RewriteEngineTest, TemplateRewritesRunInTheirInstantiations) {
  const char *Code = R"cu(#include <type_traits>
template <typename V, unsigned W, bool Neg>
__global__ void k(const V *x, V *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = Neg ? -x[i] * W : x[i] * W;
}
void host(const float *a, float *b, const double *c, double *d, int n) {
  k<float, 3u, false><<<(n + 127) / 128, 128>>>(a, b, n);
  k<double, 3u, false><<<(n + 127) / 128, 128>>>(c, d, n);
}
)cu";
  run(Code, {TransformationRegistry::find("vectorize-float4")});
  std::string Text = applied("vectorize-float4");
  ASSERT_NE(Text, "");
  // The file already includes <type_traits>: once is enough.
  EXPECT_EQ(Text.find("#include <type_traits>"),
            Text.rfind("#include <type_traits>"));
  EXPECT_NE(Text.find("if constexpr (std::is_same<V, float>::value && W == "
                      "3u && !Neg) {"),
            std::string::npos)
      << Text;
  // The original body, whole, in the other branch.
  EXPECT_NE(Text.find("} else {\n    int i = blockIdx.x * blockDim.x + "
                      "threadIdx.x;\n    if (i < n) y[i] = Neg ? -x[i] * W : "
                      "x[i] * W;\n  }\n}"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("k<double, 3u, false><<<(n + 127) / 128, 128>>>"),
            std::string::npos);
  EXPECT_EQ(Text.find("k<float, 3u, false><<<(n + 127) / 128, 128>>>"),
            std::string::npos);

  // Two templates of one file each add the include: merged, it is there
  // once, and neither proposal is skipped.
  run(R"cu(template <typename V> __global__ void a(V *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * 2;
}
template <typename V> __global__ void b(const V *x, V *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] + 1;
}
void host(float *f, int n) {
  a<float><<<(n + 255) / 256, 256>>>(f, n);
  b<float><<<(n + 255) / 256, 256>>>(f, f, n);
}
)cu",
      {TransformationRegistry::find("vectorize-float4")});
  std::vector<const Proposal *> Both, Skipped;
  for (const Proposal &P : Engine->proposals())
    Both.push_back(&P);
  ASSERT_EQ(Both.size(), 2u);
  std::string Merged = textOf(mergeProposals(Both, Skipped));
  EXPECT_TRUE(Skipped.empty());
  EXPECT_EQ(Merged.find("#include <type_traits>"), 0u);
  EXPECT_EQ(Merged.rfind("#include <type_traits>"), 0u);
  EXPECT_NE(Merged.find("if constexpr"), Merged.rfind("if constexpr"));

  // A scoped enumeration's argument compares as an integer; two
  // instantiations that get the same edit are joined.
  run(R"cu(enum class Op { Add, Mul };
template <Op O, typename T> __global__ void e(const T *a, T *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = O == Op::Add ? a[i] + b[i] : a[i] * b[i];
}
void host(const float *a, float *b, int n) {
  e<Op::Mul><<<(n + 255) / 256, 256>>>(a, b, n);
  e<Op::Add, float><<<(n + 255) / 256, 256>>>(a, b, n);
}
)cu",
      {TransformationRegistry::find("vectorize-float4")});
  Text = applied("vectorize-float4");
  EXPECT_NE(Text.find("if constexpr ((static_cast<long long>(O) == 1 && "
                      "std::is_same<T, float>::value) || "
                      "(static_cast<long long>(O) == 0 && "
                      "std::is_same<T, float>::value)) {"),
            std::string::npos)
      << Text;

  // Before C++17 there is no `if constexpr`: refused.
  auto Args = args();
  Args.back() = "-std=c++14";
  AST = clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu");
  ASSERT_TRUE(AST);
  Engine = std::make_unique<RewriteEngine>(
      std::vector<const Transformation *>{
          TransformationRegistry::find("vectorize-float4")},
      nullptr);
  Engine->run(AST->getASTContext());
  EXPECT_TRUE(Engine->proposals().empty());
}

} // namespace
