//===- KernelModelTest.cpp - Same answers for every spelling --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// Parses CUDA kernels with Clang and checks what the kernel model says about
// them: equivalent spellings give the same values, guards, loops, accesses
// and reductions, and what the model cannot see comes with a reason.
//
//===----------------------------------------------------------------------===//

#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Stmt.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "gtest/gtest.h"

#include <algorithm>

using namespace autoprof;

namespace {

class KernelModelTest : public ::testing::Test {
protected:
  /// Parses \p Code and builds the model of its kernel \p Name.
  const KernelModel &model(const std::string &Code,
                           llvm::StringRef Name = "k") {
    std::vector<std::string> Args = {
        "-x",
        "cuda",
        "--cuda-device-only",
        "--cuda-gpu-arch=sm_90",
        "--cuda-path=" AUTOPROF_TEST_CUDA_PATH,
        "-Wno-unknown-cuda-version",
        "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR,
        "-std=c++17"};
    ASTs.push_back(
        clang::tooling::buildASTFromCodeWithArgs(Code, Args, "input.cu"));
    clang::ASTUnit &AST = *ASTs.back();
    EXPECT_FALSE(AST.getDiagnostics().hasErrorOccurred());
    clang::ASTContext &Ctx = AST.getASTContext();
    for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
        if (FD->getName() == Name && FD->hasBody()) {
          Models.push_back(std::make_unique<KernelModel>(Ctx, *FD));
          return *Models.back();
        }
    ADD_FAILURE() << "no kernel " << Name.str();
    std::abort();
  }

  /// The guard as text, bounds joined by " && ".
  static std::string guardText(const KernelModel &M) {
    if (!M.guardWhy().empty())
      return "? " + M.guardWhy();
    std::string Out;
    for (const GuardBound &B : M.guard())
      Out += (Out.empty() ? "" : " && ") + B.Lhs.str() +
             (B.Strict ? " < " : " <= ") + B.Rhs.str();
    for (const GuardCondition &C : M.guardConditions())
      Out += (Out.empty() ? "" : " && ") +
             std::string(C.Negated ? "not " : "") + "[" + M.text(C.Cond) + "]";
    return Out;
  }

  /// The accesses as "array[index] r/w", in order.
  static std::vector<std::string> accessText(const KernelModel &M) {
    std::vector<std::string> Out;
    for (const ModelAccess &A : M.accesses())
      Out.push_back((A.Array ? A.Array.name() : "?") + "[" +
                    (A.Index ? A.Index->str() : "? " + A.Why) + "] " +
                    (A.Read ? "r" : "") + (A.Write ? "w" : ""));
    return Out;
  }

  std::vector<std::unique_ptr<clang::ASTUnit>> ASTs;
  std::vector<std::unique_ptr<KernelModel>> Models;
};

// One thread-per-row matrix-vector product, spelled four ways: the model's
// answers must not depend on the spelling.
TEST_F(KernelModelTest, RowReductionSpellingsAgree) {
  const char *Spellings[] = {
      // Index first, early return, scalar sum, parameter bounds.
      R"cu(__global__ void k(const float *A, const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int c = 0; c < cols; ++c) s += A[r * cols + c] * x[c];
  y[r] = s;
})cu",
      // The index in two locals, an enclosing `if` with two bounds, a loop
      // variable declared before its loop, `s = s + e`, a wider index.
      R"cu(__global__ void k(const float *A, const float *x, float *y, int rows, int cols) {
  unsigned tid = threadIdx.x, base = blockDim.x * blockIdx.x;
  const unsigned r = base + tid;
  if (r < rows && 0 <= r) {
    float s = 0.0f;
    int c;
    for (c = 0; c < cols; c++)
      s = s + A[(size_t)r * cols + c] * x[c];
    y[r] = s;
  }
})cu",
      // Accumulation straight into the output, pointer to the row.
      R"cu(__global__ void k(const float *A, const float *x, float *y, int rows, int cols) {
  if (!(threadIdx.x + blockIdx.x * blockDim.x < rows))
    return;
  const float *row = A + (threadIdx.x + blockIdx.x * blockDim.x) * cols;
  for (int c = 0; c != 0 || c < cols; c += 1)
    y[threadIdx.x + blockIdx.x * blockDim.x] += row[c] * x[c];
})cu",
  };
  std::vector<std::string> Guards;
  for (const char *Code : Spellings) {
    const KernelModel &M = model(Code);
    Guards.push_back(guardText(M));
    EXPECT_EQ(M.cooperationWhy(), "");
  }
  EXPECT_EQ(Guards[0], "blockIdx.x * blockDim.x + threadIdx.x < rows");
  EXPECT_EQ(Guards[1], "blockIdx.x * blockDim.x + threadIdx.x < rows && 0 <= "
                       "blockIdx.x * blockDim.x + threadIdx.x");
  EXPECT_EQ(Guards[2], Guards[0]);

  const KernelModel &M0 = *Models[0];
  const KernelModel &M1 = *Models[1];
  ASSERT_EQ(M0.loops().size(), 1u);
  ASSERT_EQ(M1.loops().size(), 1u);
  for (const KernelModel *M : {&M0, &M1}) {
    const ModelLoop &L = M->loops()[0];
    EXPECT_TRUE(L.counted()) << L.Why;
    EXPECT_EQ(L.First.str(), "0");
    EXPECT_EQ(L.End.str(), "cols");
    EXPECT_EQ(L.Step.str(), "1");
    ASSERT_EQ(M->reductions().size(), 1u);
    EXPECT_EQ(M->reductions()[0].Combine, "+");
    EXPECT_NE(M->reductions()[0].Scalar, nullptr);
  }
  EXPECT_FALSE(M1.loops()[0].DeclaredByLoop);
  EXPECT_EQ(accessText(M0), accessText(M1));
  EXPECT_EQ(accessText(M0),
            (std::vector<std::string>{
                "A[blockIdx.x * blockDim.x * cols + threadIdx.x * cols + c] r",
                "x[c] r", "y[blockIdx.x * blockDim.x + threadIdx.x] w"}));

  // The third accumulates into y[r]: a reduction of a global element, and
  // its loop is not counted (c != 0 || ...), so it has a reason instead.
  const KernelModel &M2 = *Models[2];
  ASSERT_EQ(M2.loops().size(), 1u);
  EXPECT_FALSE(M2.loops()[0].counted());
  EXPECT_EQ(M2.loops()[0].Why,
            "the loop at line 5 does not end at a bound `c < N`");
  EXPECT_EQ(accessText(M2)[0], "y[blockIdx.x * blockDim.x + threadIdx.x] rw");
  EXPECT_EQ(accessText(M2)[1],
            "A[? the loop at line 5 does not end at a bound `c < N`] r");
}

TEST_F(KernelModelTest, AForInitThatDeclaresItsEndToo) {
  // The end in a second declaration of the init: counted, the end read as
  // what it holds.
  const KernelModel &M = model(
      R"cu(__global__ void k(const float *A, const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int c = 0, e = cols; c < e; ++c) s += A[r * cols + c] * x[c];
  y[r] = s;
})cu");
  ASSERT_EQ(M.loops().size(), 1u);
  const ModelLoop &L = M.loops()[0];
  EXPECT_TRUE(L.counted()) << L.Why;
  EXPECT_EQ(L.Var->getName(), "c");
  EXPECT_EQ(L.End.str(), "cols");
  EXPECT_EQ(M.text(L.EndExpr), "cols");
  EXPECT_TRUE(L.DeclaredByLoop);

  // Not when the other declaration changes in the loop, or when the
  // counter starts from it.
  const char *Refused[] = {
      R"cu(__global__ void k(float *y, int n) {
  for (int c = 0, e = n; c < e; ++c) { y[c] = 0; --e; }
})cu",
      R"cu(__global__ void k(float *y, int n) {
  for (int b = 4, c = b; c < n; ++c) y[c] = 0;
})cu",
  };
  for (const char *Code : Refused) {
    const KernelModel &R = model(Code);
    ASSERT_EQ(R.loops().size(), 1u);
    EXPECT_FALSE(R.loops()[0].counted()) << Code;
  }
}

TEST_F(KernelModelTest, GlobalElementReduction) {
  const KernelModel &M = model(R"cu(#define N 1024
__global__ void k(float *a, float *x1, float *y1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    int j;
    for (j = 0; j < N; j++)
      x1[i] = x1[i] + a[i * N + j] * y1[j];
  }
})cu");
  EXPECT_EQ(guardText(M), "blockIdx.x * blockDim.x + threadIdx.x < 1024");
  ASSERT_EQ(M.loops().size(), 1u);
  EXPECT_EQ(M.loops()[0].TripCount, 1024);
  ASSERT_EQ(M.reductions().size(), 1u);
  const ModelReduction &R = M.reductions()[0];
  EXPECT_EQ(R.Scalar, nullptr);
  ASSERT_GE(R.Element, 0);
  EXPECT_EQ(M.accesses()[R.Element].Array.name(), "x1");
  EXPECT_EQ(M.work().size(), 2u);
}

// An update that is the only statement of an `if` without `else` is a
// reduction over the iterations where the condition holds; an increment
// adds one. A condition that reads the accumulator, an `else`, or a second
// statement in the `if` is not.
TEST_F(KernelModelTest, GuardedReductions) {
  const KernelModel &M = model(R"cu(__global__ void k(const int *a, float *y,
                                      unsigned *c, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned hits = 0;
  float big = 0, capped = 0, split = 0, last = 0;
  for (int j = 0; j < n; ++j) {
    if (a[j * n + i] > t)
      ++hits;
    if (a[j * n + i] < 0) {
      y[i] += a[j * n + i];
    }
    if (capped < 10)
      capped += a[j];
    if (a[j] > 0)
      split += a[j];
    else
      split -= a[j];
    if (a[j] > 1) {
      big += a[j];
      last = a[j];
    }
  }
  c[i] = hits + big + capped + split + last;
})cu");
  ASSERT_EQ(M.reductions().size(), 2u);
  const ModelReduction &Count = M.reductions()[0];
  EXPECT_TRUE(Count.Increment);
  EXPECT_EQ(Count.Term, nullptr);
  EXPECT_EQ(Count.Combine, "+");
  ASSERT_NE(Count.Scalar, nullptr);
  EXPECT_EQ(Count.Scalar->getName(), "hits");
  EXPECT_EQ(M.text(Count.Guard), "a[j * n + i] > t");
  EXPECT_EQ(M.text(Count.Update), "++hits");
  EXPECT_NE(Count.Statement, Count.Update);
  const ModelReduction &Elem = M.reductions()[1];
  EXPECT_FALSE(Elem.Increment);
  ASSERT_GE(Elem.Element, 0);
  EXPECT_EQ(M.accesses()[Elem.Element].Array.name(), "y");
  EXPECT_EQ(M.text(Elem.Guard), "a[j * n + i] < 0");
  EXPECT_EQ(M.text(Elem.Term), "a[j * n + i]");
}

// A sum may subtract its terms: `s -= e`, `s = s - e`, `n--`; `s = e - s`
// is no sum.
TEST_F(KernelModelTest, SubtractingReductions) {
  const KernelModel &M =
      model(R"cu(__global__ void k(const float *a, float *o, int n) {
  float s = 0, t = 0, u = 0;
  int m = 0;
  for (int j = 0; j < n; ++j) {
    s -= a[j];
    t = t - a[j];
    u = a[j] - u;
    m--;
  }
  o[0] = s + t + u + m;
})cu");
  ASSERT_EQ(M.reductions().size(), 3u);
  EXPECT_EQ(M.reductions()[0].Scalar->getName(), "s");
  EXPECT_EQ(M.reductions()[1].Scalar->getName(), "t");
  EXPECT_EQ(M.reductions()[2].Scalar->getName(), "m");
  for (const ModelReduction &R : M.reductions()) {
    EXPECT_TRUE(R.Subtract);
    EXPECT_EQ(R.Combine, "+");
  }
  EXPECT_EQ(M.text(M.reductions()[1].Term), "a[j]");
  EXPECT_TRUE(M.reductions()[2].Increment);
}

// Several updates under one `if` are reductions sharing it, when every
// statement there is one and none reads another's accumulator.
TEST_F(KernelModelTest, GuardedUpdatesShareTheirIf) {
  const KernelModel &M =
      model(R"cu(__global__ void k(const float *a, float *o, int n) {
  int c = 0, d = 0;
  float t = 0, u = 0, w = 0;
  for (int j = 0; j < n; ++j) {
    if (a[j] > 0) {
      c++;
      t += a[j];
    }
    if (a[j] < 0) {
      d++;
      u += d;
    }
    if (a[j] > 1) {
      w += a[j];
      o[1] = w;
    }
  }
  o[0] = c + d + t + u + w;
})cu");
  ASSERT_EQ(M.reductions().size(), 2u);
  const ModelReduction &C = M.reductions()[0], &T = M.reductions()[1];
  EXPECT_EQ(C.Scalar->getName(), "c");
  EXPECT_EQ(T.Scalar->getName(), "t");
  EXPECT_EQ(C.Statement, T.Statement);
  EXPECT_EQ(C.Guard, T.Guard);
  EXPECT_NE(C.Update, T.Update);
}

// An unguarded update is its own statement.
TEST_F(KernelModelTest, UnguardedReductionIsItsStatement) {
  const KernelModel &M =
      model(R"cu(__global__ void k(const float *a, float *o, int n) {
  float s = 0;
  int m = 0;
  for (int j = 0; j < n; ++j) {
    s += a[j];
    m++;
  }
  o[0] = s + m;
})cu");
  ASSERT_EQ(M.reductions().size(), 2u);
  for (const ModelReduction &R : M.reductions()) {
    EXPECT_EQ(R.Statement, R.Update);
    EXPECT_EQ(R.Guard, nullptr);
  }
  EXPECT_TRUE(M.reductions()[1].Increment);
}

// A load intrinsic takes the element's address only to read it; other
// addresses taken may be written through.
TEST_F(KernelModelTest, LoadIntrinsicsOnlyRead) {
  const KernelModel &M = model(R"cu(__device__ float __ldg(const float *);
__device__ void keep(float *);
__global__ void k(const float *a, float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = __ldg(&a[i]) + __ldg((&b[i + 1]));
    keep(&b[i]);
  }
})cu");
  EXPECT_EQ(accessText(M), (std::vector<std::string>{
                               "c[blockIdx.x * blockDim.x + threadIdx.x] w",
                               "a[blockIdx.x * blockDim.x + threadIdx.x] r",
                               "b[blockIdx.x * blockDim.x + threadIdx.x + 1] r",
                               "b[blockIdx.x * blockDim.x + threadIdx.x] rw"}));
}

TEST_F(KernelModelTest, FusedMultiplyAddsAreSums) {
  // `s = fmaf(a, b, s)` sums the products a * b, into a scalar or an
  // element; Horner's `p = fmaf(p, x, c)` multiplies the running value and
  // is no sum.
  const KernelModel &M = model(R"cu(
__global__ void k(const double *A, const double *x, double *y, float *z,
                  const float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f, p = 0.0f;
    for (int j = 0; j < n; ++j)
      s = __fmaf_rn(c[j], c[i * n + j], s);
    for (int j = 0; j < n; ++j)
      y[i] = fma(x[j], A[i * n + j], y[i]);
    for (int j = 0; j < 8; ++j)
      p = fmaf(p, 0.5f, c[j]);
    z[i] = s + p;
  }
})cu");
  ASSERT_EQ(M.loops().size(), 3u);
  ASSERT_EQ(M.reductions().size(), 2u);
  const ModelReduction &S = M.reductions()[0];
  EXPECT_EQ(S.Loop, 0u);
  EXPECT_EQ(S.Combine, "+");
  EXPECT_EQ(S.Fused, "__fmaf_rn");
  ASSERT_NE(S.Scalar, nullptr);
  EXPECT_EQ(S.Scalar->getName(), "s");
  EXPECT_EQ(M.text(S.Term), "c[j]");
  EXPECT_EQ(M.text(S.Factor), "c[i * n + j]");
  const ModelReduction &Y = M.reductions()[1];
  EXPECT_EQ(Y.Loop, 1u);
  EXPECT_EQ(Y.Fused, "fma");
  ASSERT_GE(Y.Element, 0);
  EXPECT_EQ(M.accesses()[Y.Element].Array.name(), "y");
  EXPECT_EQ(M.text(Y.Term), "x[j]");
}

TEST_F(KernelModelTest, RefusalsCarryReasons) {
  const KernelModel &M =
      model(R"cu(__global__ void k(const int *idx, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  i += 1;
  if (i == n) return;
  y[j] = 1.0f;
})cu");
  // The work starts at `i += 1`: the `if` after it is not a guard.
  EXPECT_EQ(guardText(M), "");
  EXPECT_EQ(M.work().size(), 5u);
  std::vector<std::string> A = accessText(M);
  ASSERT_EQ(A.size(), 2u);
  EXPECT_EQ(A[0], "idx[? `i` at line 3 is assigned more than once] r");
  EXPECT_EQ(A[1], "y[? `idx[i]` at line 3 is loaded from memory] w");
}

TEST_F(KernelModelTest, GuardsThatAreNotBounds) {
  EXPECT_EQ(guardText(model(R"cu(__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || y[i] == 0.0f)
    return;
  y[i] = 1.0f / y[i];
})cu")),
            "? the guard at line 3 is not a conjunction of bounds");
  EXPECT_EQ(guardText(model(R"cu(__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < 2 * n) {
    y[i] = 1.0f;
  }
})cu")),
            "blockIdx.x * blockDim.x + threadIdx.x < n && blockIdx.x * "
            "blockDim.x + threadIdx.x < 2 * n");
  // An early return under a disjunction the other way round is not a
  // conjunction either.
  EXPECT_EQ(guardText(model(R"cu(__global__ void k(float *y, int n) {
  if (threadIdx.x < n && blockIdx.x > 0)
    return;
  y[threadIdx.x] = 1.0f;
})cu")),
            "? the guard at line 2 is not a conjunction of bounds");
}

// Terms of the guard that every thread of a launch evaluates alike are
// conditions, however they are written; terms that read memory, the thread
// hierarchy or the launch's shape are not.
TEST_F(KernelModelTest, GuardConditionsOfTheLaunch) {
  const std::string Bound = "blockIdx.x * blockDim.x + threadIdx.x < n";
  const char *Prefix = "#define ON 1\n"
                       "enum Mode { Fast, Exact };\n"
                       "const int kLimit = 8;\n"
                       "__constant__ int cMode;\n"
                       "struct Opts { bool on; int mode; };\n";
  struct Case {
    const char *Body, *Want;
  } Cases[] = {
      {"if (!on || i >= n) return; y[i] = 0;", "not [!on]"},
      {"if (i >= n || !on) return; y[i] = 0;", "not [!on]"},
      {"if (on && i < n) y[i] = 0;", "[on]"},
      {"if (i < n && m > 0) { y[i] = 0; }", "[m > 0]"},
      {"if (m == Exact && i < n) y[i] = 0;", "[m == Exact]"},
      {"if (i < n && o.on && o.mode != 2) y[i] = 0;",
       "[o.on] && [o.mode != 2]"},
      {"bool go = on && m < kLimit; if (!go || i >= n) return; y[i] = 0;",
       "not [!go]"},
      {"if (i >= n || cMode == 0 || !ON) return; y[i] = 0;",
       "not [cMode == 0] && not [!ON]"},
      {"if (!(i < n && (float)m * 0.5f > 1.0f)) return; y[i] = 0;",
       "[(float)m * 0.5f > 1.0f]"},
  };
  for (const Case &C : Cases) {
    std::string Code = std::string(Prefix) +
                       "__global__ void k(float *y, int n, int m, bool on, "
                       "Opts o) { int i = blockIdx.x * blockDim.x + "
                       "threadIdx.x; " +
                       C.Body + " }";
    const KernelModel &M = model(Code);
    EXPECT_EQ(guardText(M), Bound + " && " + C.Want) << C.Body;
    EXPECT_EQ(M.guardStatements().size(), 1u) << C.Body;
  }
  // Memory, the block's shape and the thread's position are no conditions.
  for (const char *Body :
       {"if (i >= n || flag[0] == 0) return; y[i] = 0;",
        "if (i >= n || blockDim.x != 256) return; y[i] = 0;",
        "if (i >= n || (threadIdx.x & 1)) return; y[i] = 0;",
        "int j = i; if (i >= n || j % 2) return; y[i] = 0;"}) {
    std::string Code = "__global__ void k(float *y, const int *flag, int n) "
                       "{ int i = blockIdx.x * blockDim.x + threadIdx.x; " +
                       std::string(Body) + " }";
    EXPECT_EQ(guardText(model(Code)).rfind("? ", 0), 0u) << Body;
  }
  // A local changed before the guard is read with its value there.
  EXPECT_EQ(guardText(model(
                "__global__ void k(float *y, int n, const int *p) {"
                " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                " int c; c = p[0]; if (i >= n || c == 0) return; y[i] = 0; }")),
            "? the guard at line 1 is not a conjunction of bounds");
  // After the guard, an `if` of conditions alone is work; before it, it
  // starts the guard.
  const KernelModel &After =
      model("__global__ void k(float *y, int n, bool on) {"
            " int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (i >= n) return; if (!on) return; y[i] = 0; }");
  EXPECT_EQ(guardText(After), Bound);
  EXPECT_EQ(After.work().size(), 2u);
  const KernelModel &Before =
      model("__global__ void k(float *y, int n, bool on) {"
            " if (!on) return;"
            " int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (i >= n) return; y[i] = 0; }");
  EXPECT_EQ(guardText(Before), Bound + " && not [!on]");
  EXPECT_EQ(Before.guardStatements().size(), 2u);
}

TEST_F(KernelModelTest, CooperationIsNamed) {
  EXPECT_EQ(model(R"cu(__global__ void k(float *y) {
  __shared__ float t[32];
  t[threadIdx.x] = y[threadIdx.x];
  y[threadIdx.x] = t[31 - threadIdx.x];
})cu")
                .cooperationWhy(),
            "it declares the __shared__ variable `t`");
  EXPECT_EQ(model(R"cu(__global__ void k(float *y) {
  float v = y[threadIdx.x];
  y[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1);
})cu")
                .cooperationWhy(),
            "it calls `__shfl_down_sync`");
  const KernelModel &S = model(R"cu(__global__ void k(float *y) {
  __shared__ float t[4][33];
  t[threadIdx.y][threadIdx.x] = y[threadIdx.x];
})cu");
  EXPECT_EQ(accessText(S)[0], "t[threadIdx.x + 33 * threadIdx.y] w");
}

TEST_F(KernelModelTest, ExpressionsOfAValue) {
  const KernelModel &M = model(R"cu(__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((int)(threadIdx.x + blockDim.x * blockIdx.x) < n)
    y[i] = threadIdx.y;
})cu");
  std::vector<const clang::Expr *> Uncovered;
  auto Found = M.expressionsOfValue(globalIndex(0), Uncovered);
  EXPECT_EQ(Found.size(), 2u);
  ASSERT_EQ(Uncovered.size(), 1u);
}

TEST_F(KernelModelTest, IndexAssembledFromHelperLocals) {
  const KernelModel &M = model(R"cu(__global__ void k(float *y, int n) {
  int tid = threadIdx.x, bid = blockIdx.x;
  int bsz = blockDim.x;
  int i = bid * bsz + tid;
  if (i < n)
    y[i] = 0.0f;
})cu");
  std::vector<const clang::Expr *> Uncovered;
  auto Found = M.expressionsOfValue(globalIndex(0), Uncovered);
  ASSERT_EQ(Found.size(), 1u);
  EXPECT_EQ(M.text(Found[0]), "bid * bsz + tid");
  EXPECT_TRUE(Uncovered.empty());
  // Used on its own as well, tid's threadIdx.x is not covered.
  const KernelModel &N = model(R"cu(__global__ void k(float *y, int n) {
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  if (i < n)
    y[i] = tid;
})cu");
  std::vector<const clang::Expr *> Left;
  EXPECT_EQ(N.expressionsOfValue(globalIndex(0), Left).size(), 1u);
  ASSERT_EQ(Left.size(), 1u);
  EXPECT_EQ(N.text(Left[0]), "threadIdx.x");
}

TEST_F(KernelModelTest, LoopsWithOpaqueBoundsAndLaunches) {
  const KernelModel &M =
      model(R"cu(__global__ void k(const int *ptr, float *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float s = 0;
    for (int j = ptr[r]; j < ptr[r + 1]; ++j)
      s += y[j];
    y[r] = s;
  }
}
void run(const int *p, float *y, int n) {
  dim3 block(128);
  dim3 grid((n + block.x - 1) / block.x);
  k<<<grid, block>>>(p, y, n);
})cu");
  ASSERT_EQ(M.loops().size(), 1u);
  const ModelLoop &L = M.loops()[0];
  EXPECT_TRUE(L.counted()) << L.Why;
  EXPECT_TRUE(L.OpaqueBounds);
  EXPECT_EQ(L.First.str(), "ptr[r]");
  EXPECT_EQ(L.End.str(), "ptr[r + 1]");
  EXPECT_FALSE(L.TripCount);
  ASSERT_TRUE(M.launches());
  ASSERT_EQ(M.launches()->size(), 1u);
  // The block is a dim3 of constants read field by field.
  auto B = constantDims(M.context(), M.launches()->front().Block);
  ASSERT_TRUE(B);
  EXPECT_EQ((*B)[0], 128);
  EXPECT_FALSE(constantDims(M.context(), M.launches()->front().Grid));
}

TEST_F(KernelModelTest, GeometricLoopsInEverySpelling) {
  // Each loop halves or doubles its variable; the spelling of the step
  // must not matter.
  const char *Halving[] = {"s /= 2", "s >>= 1", "s = s / 2", "s = s >> 1"};
  for (const char *Step : Halving) {
    std::string Code = std::string(R"cu(#define B 256
__global__ void k(float *a) {
  __shared__ float t[B];
  for (unsigned s = B / 2; s > 0; )cu") +
                       Step + R"cu()
    t[threadIdx.x] += t[s];
  a[0] = t[0];
})cu";
    const KernelModel &M = model(Code);
    ASSERT_EQ(M.loops().size(), 1u) << Step;
    const ModelLoop &L = M.loops()[0];
    EXPECT_FALSE(L.counted()) << Step;
    EXPECT_TRUE(L.geometric()) << Step;
    EXPECT_EQ(L.Factor, 2) << Step;
    EXPECT_TRUE(L.Divides) << Step;
    ASSERT_TRUE(L.symbolVar()) << Step;
    EXPECT_EQ(L.symbolVar()->getName(), "s");
  }
  const char *Doubling[] = {"s *= 2", "s <<= 1", "s = 2 * s", "s += s",
                            "s = s + s"};
  for (const char *Step : Doubling) {
    std::string Code = std::string(R"cu(__global__ void k(float *a) {
  for (int s = 1; s < 512; )cu") +
                       Step + R"cu()
    a[threadIdx.x] += a[threadIdx.x + s];
})cu";
    const KernelModel &M = model(Code);
    ASSERT_EQ(M.loops().size(), 1u) << Step;
    const ModelLoop &L = M.loops()[0];
    EXPECT_TRUE(L.geometric()) << Step;
    EXPECT_EQ(L.Factor, 2) << Step;
    EXPECT_FALSE(L.Divides) << Step;
  }
  // A variable also changed in the body is neither counted nor geometric,
  // and a constant step by another factor is kept as its own factor.
  const KernelModel &Changed = model(R"cu(__global__ void k(float *a) {
  for (int s = 1; s < 512; s *= 2) {
    a[s] = 0;
    s += 1;
  }
})cu");
  ASSERT_EQ(Changed.loops().size(), 1u);
  EXPECT_FALSE(Changed.loops()[0].geometric());
  EXPECT_FALSE(Changed.loops()[0].Why.empty());
  const KernelModel &Four = model(R"cu(__global__ void k(float *a) {
  for (int s = 1; s < 512; s <<= 2)
    a[s] = 0;
})cu");
  ASSERT_EQ(Four.loops().size(), 1u);
  EXPECT_EQ(Four.loops()[0].Factor, 4);
}

} // namespace

namespace {

/// The per-index shape as "form N [var] work=<count>", or "? why".
std::string perIndexText(const KernelModel &M) {
  std::string Why;
  std::optional<PerIndexKernel> K = matchPerIndex(M, Why);
  if (!K)
    return "? " + Why;
  return std::string(K->Form == PerIndexKernel::Guarded ? "guarded "
                                                        : "stride ") +
         K->Bound.str() + " " +
         (K->IndexVar ? K->IndexVar->getNameAsString() : "inline") +
         " work=" + std::to_string(K->Work.size());
}

TEST_F(KernelModelTest, PerIndexIsTheSameForEverySpelling) {
  const char *Prefix = "#define LEN (1 << 20)\n"
                       "constexpr unsigned kLen = 1u << 20;\n";
  // Guarded by the parameter n, in a variable.
  for (const char *Body :
       {"int i = blockIdx.x * blockDim.x + threadIdx.x;"
        " if (i < n) y[i] = x[i];",
        "unsigned i = threadIdx.x + blockDim.x * blockIdx.x;"
        " if (i >= n) return; y[i] = x[i];",
        "int t = threadIdx.x, b = blockIdx.x * blockDim.x; int i = b + t;"
        " if (!(i < n)) return; y[i] = x[i];",
        "long i = (long)blockIdx.x * blockDim.x + threadIdx.x;"
        " if (i >= 0 && n > i) { y[i] = x[i]; }",
        "int i = blockIdx.x * blockDim.x + threadIdx.x;"
        " if (i <= n - 1) y[i] = x[i];"}) {
    std::string Code = std::string(Prefix) +
                       "__global__ void k(const float *x, float *y, int n) {" +
                       Body + "}";
    EXPECT_EQ(perIndexText(model(Code)), "guarded n i work=1") << Body;
  }
  // A constant bound, spelled as a macro or a constexpr; an inline index.
  EXPECT_EQ(perIndexText(model(std::string(Prefix) +
                               "__global__ void k(float *y) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " if (i < LEN) y[i] = 1; }")),
            "guarded 1048576 i work=1");
  EXPECT_EQ(perIndexText(model(std::string(Prefix) +
                               "__global__ void k(float *y) {"
                               " if (blockIdx.x * blockDim.x + threadIdx.x < "
                               "kLen) y[blockIdx.x * blockDim.x + threadIdx.x]"
                               " = 1; }")),
            "guarded 1048576 inline work=1");
  // Grid-stride loops, the stride in a local or inline.
  EXPECT_EQ(perIndexText(model(
                "__global__ void k(float *y, int n) {"
                " int s = gridDim.x * blockDim.x;"
                " for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;"
                " i += s) { y[i] = 0; y[i] += 1; } }")),
            "stride n i work=2");
  EXPECT_EQ(perIndexText(model(
                "__global__ void k(float *y, size_t n) {"
                " for (size_t i = threadIdx.x + (size_t)blockIdx.x * "
                "blockDim.x; n > i; i += blockDim.x * gridDim.x) y[i] = 0; }")),
            "stride n i work=1");
  // A grid-stride loop inside `if (i < n)`, whose test the loop repeats:
  // the index may be named before the guard and read in it.
  EXPECT_EQ(perIndexText(model(
                "__global__ void k(float *y, int n) {"
                " int t = blockIdx.x * blockDim.x + threadIdx.x;"
                " int s = gridDim.x * blockDim.x;"
                " if (t < n) { for (int j = t; j < n; j += s) y[j] = 0; } }")),
            "stride n j work=1");
  // Not when the guard returns (threads past it leave the kernel), nor when
  // it bounds something else than the loop.
  EXPECT_EQ(
      perIndexText(model("__global__ void k(float *y, int n) {"
                         " int t = blockIdx.x * blockDim.x + threadIdx.x;"
                         " if (t >= n) return;"
                         " for (int j = t; j < n; j += gridDim.x * blockDim.x)"
                         " y[j] = 0; }"))
          .rfind("stride", 0),
      std::string::npos);
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n, int m) {"
                               " int t = blockIdx.x * blockDim.x + threadIdx.x;"
                               " if (t < m) { for (int j = t; j < n;"
                               " j += gridDim.x * blockDim.x) y[j] = 0; } }"))
                .rfind("stride", 0),
            std::string::npos);
  // Nor when the guard also tests a condition of the launch; a guard of
  // such conditions alone lets every thread stride, or none.
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n, bool on) {"
                               " int t = blockIdx.x * blockDim.x + threadIdx.x;"
                               " if (on && t < n) { for (int j = t; j < n;"
                               " j += gridDim.x * blockDim.x) y[j] = 0; } }"))
                .rfind("stride", 0),
            std::string::npos);
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n) {"
                               " if (n <= 0) return;"
                               " for (int j = blockIdx.x * blockDim.x + "
                               "threadIdx.x; j < n;"
                               " j += gridDim.x * blockDim.x) y[j] = 0; }")),
            "stride n j work=1");
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n, int on) {"
                               " int s = blockDim.x * gridDim.x;"
                               " if (on) { for (int j = blockIdx.x * blockDim.x"
                               " + threadIdx.x; j < n; j += s) y[j] = 0; } }")),
            "stride n j work=1");
}

TEST_F(KernelModelTest, PerIndexTakesBatchAxesOnlyWhenAsked) {
  std::string Why;
  // A batch on y that every store depends on: taken when asked.
  const KernelModel &Batch =
      model("__global__ void k(const float *x, float *y, int n) {"
            " int b = blockIdx.y; int i = blockIdx.x * blockDim.x +"
            " threadIdx.x; if (i < n) y[b * n + i] = x[b * n + i]; }");
  EXPECT_FALSE(matchPerIndex(Batch, Why));
  EXPECT_NE(Why.find("blockIdx.y"), std::string::npos) << Why;
  std::optional<PerIndexKernel> K = matchPerIndex(Batch, Why, true);
  ASSERT_TRUE(K) << Why;
  EXPECT_EQ(K->Form, PerIndexKernel::Guarded);
  ASSERT_EQ(K->OtherAxisReads.size(), 1u);
  EXPECT_EQ(Batch.text(K->OtherAxisReads.front()), "blockIdx.y");
  // Threads of the block on y are not a batch: a rewrite that replaces
  // the block would change them.
  EXPECT_FALSE(
      matchPerIndex(model("__global__ void k(float *y, int n) {"
                          " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                          " if (i < n) y[threadIdx.y * n + i] = 1; }"),
                    Why, true));
  EXPECT_NE(Why.find("threadIdx.y"), std::string::npos) << Why;
  // Nor a batch that no stored element depends on: its blocks would store
  // the same elements.
  EXPECT_FALSE(
      matchPerIndex(model("__global__ void k(const float *x, float *y, int n) {"
                          " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                          " if (i < n) y[i] = x[blockIdx.y * n + i]; }"),
                    Why, true));
  EXPECT_NE(Why.find("on which no element"), std::string::npos) << Why;
}

TEST_F(KernelModelTest, PerIndexKeepsBoundsOfTheBatchApart) {
  std::string Why;
  // `b < batches` bounds a value of the blocks of y by a parameter: the
  // same for every thread of a block, kept apart from the index's bound.
  const KernelModel &Bounded =
      model("__global__ void k(const float *x, float *y, int n, int nb) {"
            " int b = blockIdx.y; int i = blockIdx.x * blockDim.x +"
            " threadIdx.x; if (i < n && b < nb) y[b * n + i] = x[b * n + i];"
            " }");
  EXPECT_FALSE(matchPerIndex(Bounded, Why));
  std::optional<PerIndexKernel> K = matchPerIndex(Bounded, Why, true);
  ASSERT_TRUE(K) << Why;
  EXPECT_EQ(K->Bound.str(), "n");
  ASSERT_EQ(K->OtherAxisBounds.size(), 1u);
  EXPECT_EQ(Bounded.text(K->OtherAxisBounds.front().Cond), "b < nb");
  EXPECT_FALSE(K->OtherAxisBounds.front().Negated);
  std::optional<std::string> Exit = conditionsExit(Bounded, K->OtherAxisBounds);
  ASSERT_TRUE(Exit);
  EXPECT_EQ(*Exit, "if (!(b < nb)) return;");
  // From an early return, the comparison must fail.
  const KernelModel &Early =
      model("__global__ void k(float *y, int n, int rows) {"
            " int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (i >= n || blockIdx.y >= rows) return;"
            " y[blockIdx.y * n + i] = 0; }");
  K = matchPerIndex(Early, Why, true);
  ASSERT_TRUE(K) << Why;
  ASSERT_EQ(K->OtherAxisBounds.size(), 1u);
  EXPECT_TRUE(K->OtherAxisBounds.front().Negated);
  Exit = conditionsExit(Early, K->OtherAxisBounds);
  ASSERT_TRUE(Exit);
  EXPECT_EQ(*Exit, "if (blockIdx.y >= rows) return;");
  // A row of 2-D blocks reads the threads of y: taken only when the rewrite
  // keeps the block.
  const KernelModel &Image =
      model("__global__ void k(float *p, int w, int h) {"
            " int x = blockIdx.x * blockDim.x + threadIdx.x;"
            " int y = blockIdx.y * blockDim.y + threadIdx.y;"
            " if (x < w && y < h) p[y * w + x] = 0; }");
  EXPECT_FALSE(matchPerIndex(Image, Why, true));
  K = matchPerIndex(Image, Why, true, /*OtherThreads=*/true);
  ASSERT_TRUE(K) << Why;
  EXPECT_EQ(K->Bound.str(), "w");
  ASSERT_EQ(K->OtherAxisBounds.size(), 1u);
  EXPECT_EQ(Image.text(K->OtherAxisBounds.front().Cond), "y < h");
  // A bound that reads the index as well is the index's: two of them.
  EXPECT_FALSE(
      matchPerIndex(model("__global__ void k(float *y, int n, int m) {"
                          " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                          " if (i < n && blockIdx.y + i < m)"
                          " y[blockIdx.y * n + i] = 0; }"),
                    Why, true));
  EXPECT_NE(Why.find("not one bound"), std::string::npos) << Why;
}

TEST_F(KernelModelTest, PerIndexRefusesWithItsReason) {
  // The thread's position is read beyond the index.
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " if (i < n) y[i] = threadIdx.x; }")),
            "? `threadIdx.x` at line 1 is read other than in the global index "
            "blockIdx.x * blockDim.x + threadIdx.x");
  // A guard of two bounds on the index, or of something else.
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n, int m) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " if (i < n && i < m) y[i] = 0; }")),
            "? its guard at line 1 is not one bound of the global index");
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, int n) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " if (2 * i < n) y[i] = 0; }")),
            "? its guard does not bound the global index blockIdx.x * "
            "blockDim.x + threadIdx.x");
  // A bound that varies by thread, and the start of a grid-stride loop
  // read in its body.
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y, const int *n) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " int m = n[0];"
                               " if (i < m) y[i] = 0; }")),
            "? the guard at line 1: `n[0]` at line 1 is loaded from memory");
  EXPECT_EQ(
      perIndexText(model("__global__ void k(float *y, int n) {"
                         " int g = blockIdx.x * blockDim.x + threadIdx.x;"
                         " for (int i = g; i < n; i += gridDim.x * blockDim.x)"
                         " y[i] = g; }")),
      "? `blockIdx.x * blockDim.x + threadIdx.x` at line 1 is read other "
      "than to start or step the grid-stride loop");
  // No guard at all.
  EXPECT_EQ(perIndexText(model("__global__ void k(float *y) {"
                               " y[blockIdx.x * blockDim.x + threadIdx.x] = 0;"
                               " }")),
            "? it has no guard of the global index blockIdx.x * blockDim.x + "
            "threadIdx.x and does not end with a grid-stride loop");
}

TEST_F(KernelModelTest, AnIfInsideTheGuardThatBoundsNothingIsWork) {
  const KernelModel &M =
      model("__global__ void k(const float *x, float *y, int n) {"
            " int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (i < n) { if (x[i] > 0) y[i] = x[i]; } }");
  EXPECT_EQ(guardText(M), "blockIdx.x * blockDim.x + threadIdx.x < n");
  EXPECT_EQ(M.guardStatements().size(), 1u);
  EXPECT_EQ(M.work().size(), 1u);
}

} // namespace

namespace {

TEST_F(KernelModelTest, BoundsAtEachLaunch) {
  const KernelModel &M = model(R"cu(#define LEN 4096
__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0;
}
__global__ void c(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < LEN) y[i] = 0;
}
void run(float *y, int n, int a, int b) {
  k<<<(n + 255) / 256, 256>>>(y, n);
  dim3 blk(256);
  dim3 grd((n + blk.x - 1) / blk.x);
  k<<<grd, blk>>>(y, n);
  unsigned threads = 128;
  k<<<(unsigned(n) + threads - 1) / threads, threads>>>(y, unsigned(n));
  k<<<n / 256, 256>>>(y, n);
  k<<<(a + 255) / 256, 256>>>(y, a + b);
  int m = n;
  k<<<(m + 255) / 256, 256>>>(y, n);
})cu");
  ASSERT_TRUE(M.launches()) << M.launchWhy();
  ASSERT_EQ(M.launches()->size(), 6u);
  std::string Why;
  std::optional<PerIndexKernel> K = matchPerIndex(M, Why);
  ASSERT_TRUE(K) << Why;
  clang::ASTContext &Ctx = M.context();
  const std::vector<KernelLaunch> &L = *M.launches();
  auto Block = [&](const KernelLaunch &At) {
    return (*constantDims(Ctx, At.Block))[0];
  };
  // An integer grid, a dim3 grid over the block's field, a cast bound
  // through a local block size, a local copy of the bound: covered.
  for (size_t I : {0, 1, 2, 5})
    EXPECT_TRUE(gridCoversAtLaunch(Ctx, L[I], Block(L[I]), K->Bound)) << I;
  // A floor division, and a grid over another value than the bound.
  EXPECT_FALSE(gridCoversAtLaunch(Ctx, L[3], Block(L[3]), K->Bound));
  EXPECT_FALSE(gridCoversAtLaunch(Ctx, L[4], Block(L[4]), K->Bound));
  // The bound as each launch passes it.
  EXPECT_EQ(textAtLaunch(Ctx, L[0], K->Bound), "n");
  EXPECT_EQ(textAtLaunch(Ctx, L[2], K->Bound), "unsigned(n)");
  EXPECT_EQ(textAtLaunch(Ctx, L[4], K->Bound), "(a + b)");
  auto Less = Polynomial::sub(K->Bound, Polynomial::constant(1));
  ASSERT_TRUE(Less);
  EXPECT_EQ(textAtLaunch(Ctx, L[4], *Less), "(a + b) - 1");
  // A bound one less than the parameter is covered where the parameter is.
  EXPECT_TRUE(gridCoversAtLaunch(Ctx, L[0], 256, *Less));
  EXPECT_FALSE(gridCoversAtLaunch(
      Ctx, L[0], 256, *Polynomial::add(K->Bound, Polynomial::constant(1))));
}

TEST_F(KernelModelTest, LaunchesInHostTemplatesAreTheirInstantiations) {
  const std::string Kernel = R"cu(
__global__ void k(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0;
}
)cu";
  // Each instantiation launches with its own constant block, at the one
  // place the template's text has.
  const KernelModel &M = model(Kernel + R"cu(
template <int TX, int TY> void run(float *y, int n) {
  dim3 block(TX, TY);
  k<<<(n + TX * TY - 1) / (TX * TY), block>>>(y, n);
}
template <class T> struct S {
  static constexpr unsigned B = sizeof(T) * 32;
  void go(float *y, int n) { k<<<(n + B - 1) / B, B>>>(y, n); }
};
void host(float *y, int n) {
  run<64, 1>(y, n);
  run<32, 4>(y, n);
  S<double>().go(y, n);
})cu");
  ASSERT_TRUE(M.launches()) << M.launchWhy();
  ASSERT_EQ(M.launches()->size(), 3u);
  std::vector<Dim3> Blocks;
  for (const KernelLaunch &L : *M.launches()) {
    std::optional<Dim3> B = constantDims(M.context(), L.Block);
    ASSERT_TRUE(B);
    Blocks.push_back(*B);
  }
  std::sort(Blocks.begin(), Blocks.end());
  EXPECT_EQ(Blocks, (std::vector<Dim3>{{32, 4, 1}, {64, 1, 1}, {256, 1, 1}}));
  EXPECT_EQ((*M.launches())[0].Call->getBeginLoc(),
            (*M.launches())[1].Call->getBeginLoc());

  // A template that nothing instantiates hides its launches.
  const KernelModel &N = model(Kernel + R"cu(
template <int B> void run(float *y, int n) { k<<<(n + B - 1) / B, B>>>(y, n); }
void host(float *y, int n) { k<<<(n + 255) / 256, 256>>>(y, n); })cu");
  EXPECT_FALSE(N.launches());
  EXPECT_EQ(N.launchWhy(), "its launch at line 7 lies in a template that this "
                           "translation unit does not instantiate");

  // Nor may a template name the kernel other than to launch it.
  const KernelModel &P = model(Kernel + R"cu(
template <class F> void keep(F f);
template <int B> void run() { keep(k); }
void host() { run<1>(); })cu");
  EXPECT_FALSE(P.launches());
  EXPECT_EQ(P.launchWhy(), "it is named at line 8 other than by a `<<<...>>>` "
                           "launch (its address taken, cudaLaunchKernel)");
}

TEST_F(KernelModelTest, ConstantBoundsKeepTheirNameAtALaunch) {
  const KernelModel &M = model(R"cu(#define LEN 4096
constexpr int kLen = 4096;
__global__ void k(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < LEN) y[i] = 0;
}
__global__ void c(float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kLen) y[i] = 0;
}
void run(float *y) {
  k<<<LEN / 256, 256>>>(y);
  k<<<(LEN + 511) / 512, 512>>>(y);
  c<<<16, 256>>>(y);
})cu");
  const KernelModel &C =
      model(M.context()
                .getSourceManager()
                .getBufferData(M.context().getSourceManager().getMainFileID())
                .str(),
            "c");
  clang::ASTContext &Ctx = M.context();
  std::string Why;
  std::optional<PerIndexKernel> K = matchPerIndex(M, Why);
  ASSERT_TRUE(K) << Why;
  ASSERT_TRUE(M.launches());
  ASSERT_EQ(M.launches()->size(), 2u);
  EXPECT_EQ(textAtLaunch(Ctx, M.launches()->front(), K->Bound, K->BoundExpr),
            "LEN");
  EXPECT_EQ(textAtLaunch(Ctx, M.launches()->front(), K->Bound), "4096");
  for (const KernelLaunch &L : *M.launches())
    EXPECT_TRUE(
        gridCoversAtLaunch(Ctx, L, (*constantDims(Ctx, L.Block))[0], K->Bound));
  std::optional<PerIndexKernel> KC = matchPerIndex(C, Why);
  ASSERT_TRUE(KC) << Why;
  ASSERT_TRUE(C.launches());
  EXPECT_EQ(textAtLaunch(C.context(), C.launches()->front(), KC->Bound,
                         KC->BoundExpr),
            "kLen");
  EXPECT_TRUE(
      gridCoversAtLaunch(C.context(), C.launches()->front(), 256, KC->Bound));
  EXPECT_FALSE(
      gridCoversAtLaunch(C.context(), C.launches()->front(), 128, KC->Bound));
}

TEST_F(KernelModelTest, NotEqualBoundsCountLikeLessThan) {
  // `c < n`, `c != n` and `n != c`, stepping by one: the same loop.
  std::vector<std::string> Seen;
  for (const char *Loop :
       {"for (int c = 0; c < n; ++c)", "for (int c = 0; c != n; c++)",
        "for (int c = 0; n != c; c += 1)", "for (unsigned c = 0; c != n; ++c)",
        "for (unsigned c = 3; c != 8; ++c)"}) {
    const KernelModel &M =
        model(std::string("__global__ void k(const float *a, float *y, int n) {"
                          " int r = blockIdx.x * blockDim.x + threadIdx.x;"
                          " float s = 0; ") +
              Loop + " s += a[r * 8 + c]; y[r] = s; }");
    ASSERT_EQ(M.loops().size(), 1u);
    const ModelLoop &L = M.loops()[0];
    EXPECT_TRUE(L.counted()) << Loop << ": " << L.Why;
    EXPECT_EQ(L.NotEqual, llvm::StringRef(Loop).contains("!=")) << Loop;
    EXPECT_EQ(L.Step.str(), "1") << Loop;
    Seen.push_back(L.First.str() + ".." + L.End.str());
  }
  EXPECT_EQ(Seen,
            (std::vector<std::string>{"0..n", "0..n", "0..n", "0..n", "3..8"}));

  // Not a bound: a step other than one could step over it, and an unsigned
  // counter from an unknown start could start above it and wrap.
  for (auto [Loop, Why] :
       {std::pair("for (int c = 0; c != n; c += 2)",
                  "the loop at line 1 ends where `c != N`, a bound only for a "
                  "step of one"),
        std::pair("for (unsigned c = n / 2; c != 7; ++c)",
                  "the loop at line 1 ends where `c != N`, and its unsigned "
                  "first value is not known to be at most N"),
        std::pair("for (unsigned c = 9; c != 8; ++c)",
                  "the loop at line 1 ends where `c != N`, and its unsigned "
                  "first value is not known to be at most N")}) {
    const KernelModel &M =
        model(std::string("__global__ void k(float *y, int n, unsigned m) { ") +
              Loop + " y[c] = 0; }");
    ASSERT_EQ(M.loops().size(), 1u);
    EXPECT_FALSE(M.loops()[0].counted()) << Loop;
    EXPECT_EQ(M.loops()[0].Why, Why) << Loop;
  }
}

TEST_F(KernelModelTest, LoopsCountingDownTakeTheSameValues) {
  // Counting down by one, every spelling takes the values of the loop
  // counting up: First..End as a set.
  std::vector<std::string> Seen;
  for (const char *Loop :
       {"for (int c = n - 1; c >= 0; --c)", "for (int c = n - 1; c > -1; c--)",
        "for (int c = n; c > 0; c -= 1)",
        "for (long c = n - 1; 0 <= c; c = c - 1)",
        "for (int c = 7; c >= 3; --c)", "for (int c = n - 1; 2 < c; --c)",
        "for (int c = n; c != 0; --c)",
        // An unsigned counter that stops above zero never wraps.
        "for (unsigned c = n; c > 0; --c)",
        "for (unsigned c = n - 1; c >= 2u; c--)",
        // A condition that decrements: the body sees the values below.
        "for (int c = n; c-- > 0;)", "for (unsigned c = n; c--;)",
        "for (unsigned c = n; c-- != 0;)", "for (int c = n; 2 <= c--;)",
        "for (unsigned c = n + 1; c-- > 1u;)"}) {
    const KernelModel &M =
        model(std::string("__global__ void k(const float *a, float *y, int n) {"
                          " int r = blockIdx.x * blockDim.x + threadIdx.x;"
                          " float s = 0; ") +
              Loop + " s += a[r * 8 + c]; y[r] = s; }");
    ASSERT_EQ(M.loops().size(), 1u);
    const ModelLoop &L = M.loops()[0];
    EXPECT_TRUE(L.counted()) << Loop << ": " << L.Why;
    EXPECT_TRUE(L.Descending) << Loop;
    EXPECT_EQ(L.EndExpr, nullptr) << Loop;
    EXPECT_EQ(L.Step.str(), "1") << Loop;
    Seen.push_back(L.First.str() + ".." + L.End.str());
    // The sum is a reduction of this loop, as counting up.
    ASSERT_EQ(M.reductions().size(), 1u) << Loop;
    EXPECT_EQ(M.reductions()[0].Loop, 0u) << Loop;
  }
  EXPECT_EQ(Seen, (std::vector<std::string>{"0..n", "0..n", "1..n + 1", "0..n",
                                            "3..8", "3..n", "1..n + 1",
                                            "1..n + 1", "2..n", "0..n", "0..n",
                                            "0..n", "1..n", "1..n + 1"}));
  EXPECT_EQ(model("__global__ void k(float *y) {"
                  " for (int c = 7; c >= 3; --c) y[c] = 0; }")
                .loops()[0]
                .TripCount,
            std::optional<int64_t>(5));
  // A `while` loop counting down is read alike.
  const KernelModel &W =
      model("__global__ void k(float *y, int n) { int c = n - 1;"
            " while (c >= 0) { y[c] = 0; --c; } }");
  ASSERT_EQ(W.loops().size(), 1u);
  EXPECT_TRUE(W.loops()[0].counted()) << W.loops()[0].Why;
  EXPECT_EQ(W.loops()[0].First.str() + ".." + W.loops()[0].End.str(), "0..n");

  // Not counted: steps other than one, unsigned counters, bounds that are
  // not a low bound.
  for (auto [Loop, Why] :
       {std::pair("for (int c = n; c >= 0; c -= 2)",
                  "the loop at line 1 counts `c` down by 2; loops counting "
                  "down are read by ones"),
        std::pair("for (unsigned c = n; c >= 0; --c)",
                  "the loop at line 1 counts `c` down in an unsigned type"),
        std::pair("for (unsigned c = n; c >= m; --c)",
                  "the loop at line 1 counts `c` down in an unsigned type"),
        std::pair("for (int c = n; c >= 0u; --c)",
                  "the loop at line 1 counts `c` down in an unsigned type"),
        std::pair("for (int c = n; c < 100; --c)",
                  "the loop at line 1 does not end at a bound `c >= N`"),
        std::pair("for (int c = n; c == 0; --c)",
                  "the loop at line 1 does not end at a bound `c >= N`"),
        // A signed `c--` alone stops at zero only from above it.
        std::pair("for (int c = n; c--;)",
                  "the loop at line 1 does not step `c` by a fixed amount"),
        std::pair("for (unsigned c = n; c-- >= 0u;)",
                  "the loop at line 1 counts `c` down in an unsigned type"),
        std::pair("for (int c = n; c-- > 0; --c)",
                  "the loop at line 1 does not end at a bound `c >= N`")}) {
    const KernelModel &M =
        model(std::string("__global__ void k(float *y, int n, unsigned m) { ") +
              Loop + " y[c] = 0; }");
    ASSERT_EQ(M.loops().size(), 1u);
    EXPECT_FALSE(M.loops()[0].counted()) << Loop;
    EXPECT_EQ(M.loops()[0].Why, Why) << Loop;
  }
}

TEST_F(KernelModelTest, PerIndex2DIsTheSameForEverySpelling) {
  auto Text = [&](const std::string &Body) {
    std::string Why;
    std::optional<PerIndex2DKernel> K = matchPerIndex2D(
        model("__global__ void k(const float *a, float *b, int w, int h) {" +
              Body + "}"),
        Why);
    return K ? K->BoundX.str() + " " + K->BoundY.str() : "? " + Why;
  };
  // Locals or inline, either order, early returns or a conjunction, a
  // lower bound, the column written into a sum of the row's offset.
  for (const char *Body :
       {"int x = blockIdx.x * blockDim.x + threadIdx.x;"
        " int y = blockIdx.y * blockDim.y + threadIdx.y;"
        " if (x < w && y < h) b[y * w + x] = a[y * w + x];",
        "int y = threadIdx.y + blockDim.y * blockIdx.y;"
        " if (y >= h) return;"
        " int x = threadIdx.x + blockIdx.x * blockDim.x;"
        " if (x >= w) return; if (x < 1) return;"
        " b[y * w + x] = a[y * w + x - 1];",
        "if (blockIdx.y * blockDim.y + threadIdx.y < h &&"
        " blockIdx.x * blockDim.x + threadIdx.x < w)"
        " b[(blockIdx.y * blockDim.y + threadIdx.y) * w + blockIdx.x *"
        " blockDim.x + threadIdx.x] = 0;"})
    EXPECT_EQ(Text(Body), "w h") << Body;
  // The thread hierarchy read otherwise, or a dimension unbounded.
  EXPECT_EQ(Text("int x = blockIdx.x * blockDim.x + threadIdx.x;"
                 " int y = blockIdx.y * blockDim.y + threadIdx.y;"
                 " if (x < w && y < h) b[y * w + x] = a[blockIdx.x * 2 +"
                 " threadIdx.x];"),
            "? `blockIdx.x` at line 1 is read other than in the global "
            "indices x and y");
  EXPECT_EQ(Text("int x = blockIdx.x * blockDim.x + threadIdx.x;"
                 " if (x < w) b[x] = 0;"),
            "? its guard does not bound the global index blockIdx.y * "
            "blockDim.y + threadIdx.y");
}

TEST_F(KernelModelTest, AFixedBlockSizeReadsAsTheBlock) {
  // The CUDA samples' index: blockIdx.x * BLOCK_SIZE + threadIdx.x, with
  // every launch in blocks of BLOCK_SIZE.
  std::string Kernel = "#define BLOCK_SIZE 256\n"
                       "__global__ void k(float *y, int n) {"
                       " int i = blockIdx.x * BLOCK_SIZE + threadIdx.x;"
                       " if (i < n) y[i] = 0; }\n";
  const KernelModel &Same =
      model(Kernel + "void go(float *y, int n) {"
                     " k<<<(n + 255) / 256, BLOCK_SIZE>>>(y, n);"
                     " k<<<4, dim3(256)>>>(y, n); }");
  ASSERT_TRUE(Same.fixedBlock());
  EXPECT_EQ((*Same.fixedBlock())[0], 256);
  EXPECT_EQ(guardText(Same), "blockIdx.x * blockDim.x + threadIdx.x < n");
  EXPECT_EQ(Same.blockSizeWhy(),
            "`blockIdx.x * BLOCK_SIZE + threadIdx.x` at line 2 takes the "
            "block's size as the constant of its launches");
  // Blocks of 128: two blocks' worth per block, still bound to the size.
  const KernelModel &Half =
      model(Kernel +
            "void go(float *y, int n) { k<<<(n + 127) / 128, 128>>>(y, n); }");
  EXPECT_EQ(guardText(Half), "2 * blockIdx.x * blockDim.x + threadIdx.x < n");
  EXPECT_NE(Half.blockSizeWhy(), "");
  // Launches of several sizes: the constant is a constant.
  const KernelModel &Mixed = model(
      Kernel +
      "void go(float *y, int n) { k<<<4, 256>>>(y, n); k<<<8, 128>>>(y, n); }");
  EXPECT_FALSE(Mixed.fixedBlock());
  EXPECT_EQ(guardText(Mixed), "threadIdx.x + 256 * blockIdx.x < n");
  EXPECT_EQ(Mixed.blockSizeWhy(), "");
  // A kernel that reads blockDim is not bound to the launches' size.
  const KernelModel &Dim =
      model("__global__ void k(float *y, int n) {"
            " int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (i < n) y[i] = 0; }"
            "void go(float *y, int n) { k<<<4, 256>>>(y, n); }");
  EXPECT_EQ(Dim.blockSizeWhy(), "");
}

// `const float *p = &A[i]` takes an address: the accesses are those made
// through p, at i on; a pointer to writable memory keeps the address as a
// write, since anything may be stored through it.
TEST_F(KernelModelTest, AnAddressTakenIntoAReadOnlyPointerIsNoAccess) {
  const KernelModel &M =
      model("__global__ void k(const float *A, float *y, int n) {"
            " int i = blockIdx.x * blockDim.x + threadIdx.x;"
            " const float *p = &A[i * n];"
            " float s = 0; for (int j = 0; j < n; ++j) s += p[j];"
            " y[i] = s; }");
  std::vector<std::string> Text = accessText(M);
  ASSERT_EQ(Text.size(), 2u);
  EXPECT_EQ(Text[0].substr(0, 2), "A[");
  EXPECT_EQ(Text[0].substr(Text[0].size() - 2), " r");
  EXPECT_EQ(Text[1].substr(0, 2), "y[");
  const KernelModel &W = model("__global__ void k(float *A, int n) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " float *p = &A[i * n]; p[0] = 1; }");
  std::vector<std::string> Writes = accessText(W);
  ASSERT_EQ(Writes.size(), 2u);
  EXPECT_EQ(Writes[0], "A[blockIdx.x * blockDim.x * n + threadIdx.x * n] rw");
}

TEST_F(KernelModelTest, FieldsOfAParameterByValueAreParameters) {
  std::string Struct = "struct Dims { int rows, cols; };\n";
  const KernelModel &M =
      model(Struct + "__global__ void k(float *y, Dims d) {"
                     " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                     " if (i < d.rows) y[i * d.cols] = 0; }");
  EXPECT_EQ(guardText(M), "blockIdx.x * blockDim.x + threadIdx.x < d.rows");
  ASSERT_EQ(M.accesses().size(), 1u);
  ASSERT_TRUE(M.accesses()[0].Index);
  EXPECT_TRUE(isOfParameters(M.guard()[0].Rhs));
  // Two fields are two values.
  EXPECT_EQ(M.accesses()[0].Index->str(),
            "blockIdx.x * blockDim.x * d.cols + threadIdx.x * d.cols");
  // A kernel that changes a field, or takes the struct's address, reads
  // no parameter there.
  for (const char *Body : {"if (i < d.rows) { d.cols = 3; y[i] = 0; }",
                           "Dims *p = &d; if (i < d.rows) y[i] = p->cols;"}) {
    const KernelModel &W =
        model(Struct +
              "__global__ void k(float *y, Dims d) {"
              " int i = blockIdx.x * blockDim.x + threadIdx.x; " +
              Body + "}");
    EXPECT_NE(guardText(W).find("?"), std::string::npos) << Body;
  }
}

} // namespace

TEST_F(KernelModelTest, TransparentHelpersAreSeenThrough) {
  const char *Helpers = R"cu(
__device__ __forceinline__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ inline int at(int r, int c, int ld) { return r * ld + c; }
static __device__ int twice(int v) { return at(v, v, 1); }
__device__ float sq(float v) { return v * v; }
__device__ int loads(const int *p, int i) { return p[i]; }
__device__ int counts(int v) { int w = v; return w; }
)cu";
  // A per-index kernel whose index comes from a helper.
  const KernelModel &M = model(std::string(Helpers) +
                               "__global__ void k(const float *x, float *y, "
                               "int n) { int i = gid(); if (i < n) y[i] = "
                               "sq(x[i]); }");
  EXPECT_EQ(M.cooperationWhy(), "");
  EXPECT_EQ(guardText(M), "blockIdx.x * blockDim.x + threadIdx.x < n");
  EXPECT_EQ(perIndexText(M), "guarded n i work=1");
  ASSERT_EQ(M.builtinUses().size(), 1u);

  // Row-major indices through a helper with arguments, nested helpers.
  const KernelModel &R =
      model(std::string(Helpers) +
            "__global__ void k(const float *A, float *B, int rows, int cols) {"
            " int r = blockIdx.y * blockDim.y + threadIdx.y;"
            " int c = gid();"
            " if (r < rows && c < cols) B[at(c, r, rows)] = A[at(r, c, cols)]"
            " + A[twice(r)]; }");
  EXPECT_EQ(R.cooperationWhy(), "");
  EXPECT_EQ(accessText(R),
            (std::vector<std::string>{
                "B[blockIdx.x * blockDim.x * rows + threadIdx.x * rows + "
                "blockIdx.y * blockDim.y + threadIdx.y] w",
                "A[blockIdx.y * blockDim.y * cols + threadIdx.y * cols + "
                "blockIdx.x * blockDim.x + threadIdx.x] r",
                "A[2 * blockIdx.y * blockDim.y + 2 * threadIdx.y] r"}));

  // A helper that holds more than a return is opaque, and the kernel's
  // threads may then depend on each other; one that returns an element it
  // reads is a load (LoadHelpersAreAccesses), whose value is not an index.
  const KernelModel &O =
      model(std::string(Helpers) + "__global__ void k(const int *p, float *y) {"
                                   " y[loads(p, threadIdx.x)] = 0;"
                                   " y[counts(threadIdx.x)] = 1; }");
  EXPECT_EQ(O.cooperationWhy(),
            "it calls `counts`, whose body the model does not read");
  EXPECT_EQ(accessText(O)[0], "y[? `loads(p, threadIdx.x)` at line 8 is not "
                              "a sum of products of indices, parameters and "
                              "constants] w");
}

// `__umul24(a, b)` and `__mul24(a, b)`, the 24-bit multiplies of older CUDA
// code, are the products of their operands.
TEST_F(KernelModelTest, TwentyFourBitMultipliesAreProducts) {
  const char *Spellings[] = {
      R"cu(__global__ void k(const float *A, float *B, unsigned w, unsigned h) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) B[x * h + y] = A[y * w + x];
})cu",
      R"cu(__global__ void k(const float *A, float *B, unsigned w, unsigned h) {
  const unsigned x = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  const unsigned y = __umul24(blockDim.y, blockIdx.y) + threadIdx.y;
  if (x < w && y < h) B[__umul24(x, h) + y] = A[__umul24(y, w) + x];
})cu",
      R"cu(__global__ void k(const float *A, float *B, unsigned w, unsigned h) {
  int x = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
  int y = threadIdx.y + __mul24(blockIdx.y, blockDim.y);
  if (y >= h || x >= w) return;
  B[__mul24(x, h) + y] = A[__mul24(y, w) + x];
})cu",
  };
  std::vector<std::string> Guards;
  std::vector<std::vector<std::string>> Accesses;
  for (const char *Code : Spellings) {
    const KernelModel &M = model(Code);
    EXPECT_EQ(M.cooperationWhy(), "");
    Guards.push_back(guardText(M));
    Accesses.push_back(accessText(M));
  }
  EXPECT_EQ(Accesses[0],
            (std::vector<std::string>{
                "B[blockIdx.x * blockDim.x * h + threadIdx.x * h + "
                "blockIdx.y * blockDim.y + threadIdx.y] w",
                "A[blockIdx.y * blockDim.y * w + threadIdx.y * w + "
                "blockIdx.x * blockDim.x + threadIdx.x] r"}));
  EXPECT_EQ(Accesses[1], Accesses[0]);
  EXPECT_EQ(Accesses[2], Accesses[0]);
  EXPECT_EQ(Guards[1], Guards[0]);
  EXPECT_EQ(Guards[2], "blockIdx.y * blockDim.y + threadIdx.y < h && "
                       "blockIdx.x * blockDim.x + threadIdx.x < w");

  // Any other call stays opaque.
  const KernelModel &O = model(
      "__global__ void k(float *y) { y[__umulhi(threadIdx.x, 3u)] = 0; }");
  EXPECT_EQ(accessText(O)[0],
            "y[? `__umulhi(threadIdx.x, 3u)` at line 1 is not a sum of "
            "products of indices, parameters and constants] w");
}

TEST_F(KernelModelTest, LoadHelpersAreAccesses) {
  const char *Helpers = R"cu(
__device__ __forceinline__ float at(const float *p, int i) { return p[i]; }
static __device__ float elem(const float *__restrict__ m, int r, int c, int ld) {
  return __ldg(&m[r * ld + c]);
}
__device__ float bump(float *p, int i) { return p[i]++; }
__device__ float gather(const float *p, const int *ix, int i) { return p[ix[i]]; }
__device__ float twice(const float *p, int i) { return 2 * p[i]; }
)cu";
  // Each call is a read of its pointer argument's element, at the index
  // the helper computes from the arguments, through offsets of the
  // argument.
  const KernelModel &M = model(
      std::string(Helpers) +
      "__global__ void k(const float *a, const float *b, float *y, int n) {"
      " int r = blockIdx.x * blockDim.x + threadIdx.x; float s = 0;"
      " for (int c = 0; c < n; ++c) s += at(a, r * n + c) * elem(b + n, c, r, "
      "n);"
      " y[r] = s; }");
  EXPECT_EQ(M.cooperationWhy(), "");
  EXPECT_EQ(accessText(M),
            (std::vector<std::string>{
                "a[blockIdx.x * blockDim.x * n + threadIdx.x * n + c] r",
                "b[blockIdx.x * blockDim.x + n * c + threadIdx.x + n] r",
                "y[blockIdx.x * blockDim.x + threadIdx.x] w"}));
  ASSERT_EQ(M.reductions().size(), 1u);
  EXPECT_TRUE(M.isPure(M.reductions()[0].Term));
  ASSERT_TRUE(loadHelper(
      M.context(),
      llvm::cast<clang::CallExpr>(M.accesses()[0].E)->getDirectCallee()));

  // Not loads: a helper that writes, one whose index reads memory, one
  // that computes with the element.
  for (const char *Call : {"bump(y, r)", "gather(a, ix, r)", "twice(a, r)"}) {
    const KernelModel &O =
        model(std::string(Helpers) +
              "__global__ void k(const float *a, const int *ix, float *y) {"
              " int r = threadIdx.x; float v = " +
              Call + "; y[r] = v; }");
    EXPECT_NE(O.cooperationWhy(), "") << Call;
    EXPECT_EQ(accessText(O).size(), 1u) << Call;
  }
}

TEST_F(KernelModelTest, PointerFieldsOfStructsAreArrays) {
  // The programming guide's `Matrix` by value: its pointer field is the
  // array, its integer fields are parameters, as with separate
  // parameters.
  const char *Matrix = R"cu(
struct Matrix { int width; int height; int stride; float *elements; };
struct Pair { const float *x; const float *y; };
)cu";
  const KernelModel &F =
      model(std::string(Matrix) +
                "__global__ void mm(Matrix A, Matrix B, Matrix C) {"
                " float v = 0; int row = blockIdx.y * blockDim.y + threadIdx.y;"
                " int col = blockIdx.x * blockDim.x + threadIdx.x;"
                " for (int e = 0; e < A.width; ++e)"
                "   v += A.elements[row * A.stride + e] * B.elements[e * "
                "B.stride + col];"
                " C.elements[row * C.stride + col] = v; }",
            "mm");
  EXPECT_EQ(F.cooperationWhy(), "");
  EXPECT_EQ(accessText(F),
            (std::vector<std::string>{
                "A.elements[blockIdx.y * blockDim.y * A.stride + threadIdx.y "
                "* A.stride + e] r",
                "B.elements[blockIdx.x * blockDim.x + B.stride * e + "
                "threadIdx.x] r",
                "C.elements[blockIdx.y * blockDim.y * C.stride + threadIdx.y "
                "* C.stride + blockIdx.x * blockDim.x + threadIdx.x] w"}));
  ASSERT_EQ(F.reductions().size(), 1u);
  // Through the guide's `GetElement`, by value and by const reference:
  // the same reads.
  for (const char *Param : {"const Matrix A", "const Matrix &A"}) {
    const KernelModel &G = model(
        std::string(Matrix) + "__device__ float GetElement(" + Param +
            ", int row, int col) { return A.elements[row * A.stride + col]; }"
            "__global__ void mm(Matrix A, Matrix B, Matrix C) {"
            " float v = 0; int row = blockIdx.y * blockDim.y + threadIdx.y;"
            " int col = blockIdx.x * blockDim.x + threadIdx.x;"
            " for (int e = 0; e < A.width; ++e)"
            "   v += GetElement(A, row, e) * GetElement(B, e, col);"
            " C.elements[row * C.stride + col] = v; }",
        "mm");
    EXPECT_EQ(G.cooperationWhy(), "") << Param;
    EXPECT_EQ(accessText(G), accessText(F)) << Param;
    ASSERT_EQ(G.reductions().size(), 1u) << Param;
    EXPECT_TRUE(G.isPure(G.reductions()[0].Term)) << Param;
  }
  // One field of two parameters, two fields of one: distinct arrays; one
  // field read twice: one array.
  EXPECT_NE(F.accesses()[0].Array, F.accesses()[1].Array);
  const KernelModel &P = model(std::string(Matrix) +
                               "__global__ void k(Pair p, float *out) {"
                               " int i = blockIdx.x * blockDim.x + threadIdx.x;"
                               " out[i] = p.x[i] + p.y[i] + p.x[i + 1]; }");
  ASSERT_EQ(P.accesses().size(), 4u);
  // out[i], p.x[i], p.y[i], p.x[i + 1].
  EXPECT_NE(P.accesses()[1].Array, P.accesses()[2].Array);
  EXPECT_EQ(P.accesses()[1].Array, P.accesses()[3].Array);
  EXPECT_EQ(P.accesses()[2].Array.name(), "p.y");

  // A field the kernel changes, a copy of the struct, a struct through a
  // pointer: memory the model does not name.
  for (const char *Body : {"A.elements += 1; A.elements[i] = 0;",
                           "Matrix a = A; a.elements[i] = 0;",
                           "Matrix *q = &A; q->elements[i] = 0;"}) {
    const KernelModel &W =
        model(std::string(Matrix) +
              "__global__ void k(Matrix A) {"
              " int i = blockIdx.x * blockDim.x + threadIdx.x; " +
              Body + " }");
    ASSERT_FALSE(W.accesses().empty()) << Body;
    EXPECT_FALSE(W.accesses().back().Array) << Body;
    EXPECT_NE(W.accesses().back().Why, "") << Body;
  }
}

TEST_F(KernelModelTest, HelpersTakeStructsAndReferences) {
  // A 3-D index through a helper that takes the kernel's shape struct by
  // const reference, by value, and through another helper: the same
  // accesses as the index written out.
  const char *Shape = R"cu(
struct Shape { int nx, ny, nz; };
__host__ __device__ inline long at3(int x, int y, int z, const Shape &s) {
  return ((long)z * s.ny + y) * s.nx + x;
}
__device__ long byValue(Shape s, int x, int y) { return at3(x, y, 0, s); }
__device__ int plane(const int &nx, const int &ny) { return nx * ny; }
)cu";
  const KernelModel &H =
      model(std::string(Shape) +
            "__global__ void k(const float *in, float *out, Shape g) {"
            " int x = blockIdx.x * blockDim.x + threadIdx.x;"
            " int y = blockIdx.y * blockDim.y + threadIdx.y;"
            " if (x < g.nx && y < g.ny) out[at3(x, y, 1, g)] ="
            " in[byValue(g, x, y)] + in[plane(g.nx, g.ny) + x]; }");
  const KernelModel &W =
      model(std::string(Shape) +
            "__global__ void k(const float *in, float *out, Shape g) {"
            " int x = blockIdx.x * blockDim.x + threadIdx.x;"
            " int y = blockIdx.y * blockDim.y + threadIdx.y;"
            " if (x < g.nx && y < g.ny) out[((long)1 * g.ny + y) * g.nx + x] ="
            " in[((long)0 * g.ny + y) * g.nx + x] + in[g.nx * g.ny + x]; }");
  EXPECT_EQ(H.cooperationWhy(), "");
  EXPECT_EQ(accessText(H), accessText(W));
  EXPECT_EQ(accessText(H)[0].back(), 'w');
  EXPECT_EQ(accessText(H)[1].back(), 'r');
  EXPECT_EQ(accessText(H)[0].find('?'), std::string::npos) << accessText(H)[0];

  // A helper that writes through its reference is not transparent, and
  // the struct it is given may change.
  const KernelModel &O = model(
      std::string(Shape) + "__device__ int grow(Shape &s) { return s.nx++; }"
                           "__global__ void k(float *out, Shape g) {"
                           " int x = blockIdx.x * blockDim.x + threadIdx.x;"
                           " if (x < g.nx) out[x + grow(g)] = 0; }");
  EXPECT_NE(O.cooperationWhy(), "");
  EXPECT_NE(accessText(O)[0].find('?'), std::string::npos);
}

TEST_F(KernelModelTest, WhileLoopsAreCountedLikeFor) {
  // A row sum as a `for`, as a `while` and as a `for` whose variable is
  // declared before it: the same loop, accesses and reduction.
  const KernelModel &F =
      model("__global__ void k(const float *A, float *y, int rows, int cols) {"
            " int r = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (r < rows) { float s = 0;"
            " for (int c = 0; c < cols; c += 2) s += A[r * cols + c];"
            " y[r] = s; } }");
  const KernelModel &W =
      model("__global__ void k(const float *A, float *y, int rows, int cols) {"
            " int r = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (r < rows) { float s = 0; int c = 0;"
            " while (c < cols) { s += A[r * cols + c]; c += 2; }"
            " y[r] = s; } }");
  const KernelModel &E =
      model("__global__ void k(const float *A, float *y, int rows, int cols) {"
            " int r = blockIdx.x * blockDim.x + threadIdx.x;"
            " if (r < rows) { int c = 0; float s = 0;"
            " for (; c < cols; c = c + 2) s += A[r * cols + c];"
            " y[r] = s; } }");
  EXPECT_EQ(accessText(F), accessText(E));
  EXPECT_NE(E.loops()[0].VarDeclStmt, nullptr);
  for (const KernelModel *M : {&F, &W, &E}) {
    ASSERT_EQ(M->loops().size(), 1u);
    const ModelLoop &L = M->loops()[0];
    EXPECT_TRUE(L.counted()) << L.Why;
    EXPECT_EQ(L.First.str(), "0");
    EXPECT_EQ(L.End.str(), "cols");
    EXPECT_EQ(L.Step.str(), "2");
    ASSERT_EQ(M->reductions().size(), 1u);
    EXPECT_NE(M->reductions()[0].Scalar, nullptr);
    EXPECT_EQ(loopBody(L).size(), 1u);
  }
  EXPECT_EQ(accessText(F), accessText(W));
  EXPECT_NE(W.loops()[0].VarDeclStmt, nullptr);

  // The grid-stride loop of "CUDA by Example", with a `while`.
  EXPECT_EQ(
      perIndexText(model("__global__ void k(const float *a, float *c, int n) {"
                         " int tid = threadIdx.x + blockIdx.x * blockDim.x;"
                         " while (tid < n) { c[tid] = a[tid] * 2;"
                         " tid += blockDim.x * gridDim.x; } }")),
      "stride n tid work=1");
  // ... refused when its variable is read outside it.
  EXPECT_EQ(
      perIndexText(model("__global__ void k(float *c, int n) {"
                         " int tid = threadIdx.x + blockIdx.x * blockDim.x;"
                         " c[tid] = 0;"
                         " while (tid < n) { c[tid] = 1;"
                         " tid += blockDim.x * gridDim.x; } }")),
      "? the statement at line 1 comes before the grid-stride loop and "
      "is not a declaration");

  // ... and so is the grid-stride `for` without an init statement.
  EXPECT_EQ(
      perIndexText(model("__global__ void k(const float *a, float *c, int n) {"
                         " int tid = threadIdx.x + blockIdx.x * blockDim.x;"
                         " const int step = blockDim.x * gridDim.x;"
                         " for (; tid < n; tid += step) c[tid] = a[tid]; }")),
      "stride n tid work=1");

  // A counter read outside its loop: the rewrites that change the values
  // it takes are told where.
  for (const char *Body :
       {"int c = 0; float f = y[c]; for (; c < n; ++c) y[c] = f;",
        "int c = 0; for (; c < n; ++c) y[c] = 0; y[0] = c;",
        "int c; for (c = 0; c < n; ++c) y[c] = 0; y[0] = c;",
        "int c = 0; while (c < n) { y[c] = 0; ++c; } y[0] = c;",
        "int c = 0, e = c + 4; for (; c < n; ++c) y[c] = 0; y[0] = e;"}) {
    const KernelModel &M =
        model(std::string("__global__ void k(float *y, int n) {") + Body + "}");
    ASSERT_EQ(M.loops().size(), 1u);
    EXPECT_TRUE(M.loops()[0].counted()) << Body;
    EXPECT_NE(M.counterOutside(M.loops()[0]), nullptr) << Body;
  }
  EXPECT_EQ(F.counterOutside(F.loops()[0]), nullptr);
  EXPECT_EQ(E.counterOutside(E.loops()[0]), nullptr);
  EXPECT_EQ(W.counterOutside(W.loops()[0]), nullptr);

  // Not counted: the variable changes before the loop, or in the body, or
  // the body does not end with its step.
  for (const char *Body :
       {"int c = 0; c = 1; while (c < n) { y[c] = 0; ++c; }",
        "int c = 0; c = 1; for (; c < n; ++c) y[c] = 0;",
        "int c = 0; for (; c < n;) y[c++] = 0;",
        "int c = 0; while (c < n) { y[c] = 0; ++c; c += y[0]; }",
        "int c = 0; while (c < n) { ++c; y[c] = 0; }"}) {
    const KernelModel &M =
        model(std::string("__global__ void k(float *y, int n) {") + Body + "}");
    ASSERT_EQ(M.loops().size(), 1u);
    EXPECT_FALSE(M.loops()[0].counted()) << Body;
    EXPECT_NE(M.loops()[0].Why, "") << Body;
  }
}

TEST_F(KernelModelTest, CompoundAssignmentsOfLocalsAreLocalSets) {
  // `m /= n` sets m as `m = m / n` does; a store, a parameter's update, an
  // update with a side effect and a volatile local are not local sets.
  const KernelModel &M =
      model("__global__ void k(const float *a, float *y, int n, int *p) {"
            " int r = blockIdx.x * blockDim.x + threadIdx.x; float m = a[r];"
            " volatile float v = 0;"
            " m /= n; m = m + 1; m -= a[r + 1]; y[r] = m; n += 1; m += p[r]++;"
            " v *= 2; }");
  std::vector<bool> Sets;
  for (const clang::Stmt *S : M.work())
    if (llvm::isa<clang::BinaryOperator>(S))
      Sets.push_back(M.isLocalSet(S));
  EXPECT_EQ(Sets,
            (std::vector<bool>{true, true, true, false, false, false, false}));
}

TEST_F(KernelModelTest, StoreTargetsAreElementsOfMemory) {
  // Stores through subscripts and pointers, plain or compound, name the
  // access they store to; a local's or a local struct member's assignment
  // names none, nor does a read.
  const KernelModel &M = model(
      "struct P { float lo, hi; };"
      "__global__ void k(const float *a, float *y, int n) {"
      " int r = blockIdx.x * blockDim.x + threadIdx.x; P s = {0.0f, 0.0f};"
      " float m = a[r]; y[r] = m; *(y + r + n) -= m; s.hi = m; m = a[r + 1];"
      " y[2 * r] += s.hi; }");
  std::vector<std::string> Targets;
  for (const clang::Stmt *S : M.work())
    if (llvm::isa<clang::BinaryOperator>(S)) {
      const ModelAccess *A = M.storeTarget(S);
      Targets.push_back(A ? A->Array.name() + "[" +
                                (A->Index ? A->Index->str() : "?") + "]"
                          : "-");
    }
  EXPECT_EQ(Targets,
            (std::vector<std::string>{
                "y[blockIdx.x * blockDim.x + threadIdx.x]",
                "y[blockIdx.x * blockDim.x + threadIdx.x + n]", "-", "-",
                "y[2 * blockIdx.x * blockDim.x + 2 * threadIdx.x]"}));
}

TEST_F(KernelModelTest, ArgExtremeSpellingsAgree) {
  // Where the greatest or least value is first reached, written with the
  // extreme on either side of the comparison and the two assignments in
  // either order; `>=`, a position another statement reads, and a term of
  // another type than the extreme are not such a search.
  struct Case {
    std::string Body;
    bool Found, Greatest;
  };
  std::vector<Case> Cases = {
      {"float b = -1e30f; int p = 0; for (int j = 0; j < n; ++j)"
       " { float v = a[j]; if (v > b) { b = v; p = j; } } y[0] = p;",
       true, true},
      {"float b = a[0]; long p = 0; for (int j = 1; j < n; j++)"
       " if (b > a[j]) { p = j; b = a[j]; } y[0] = p;",
       true, false},
      {"float b = a[0]; int p = 0; int j = 0; while (j < n)"
       " { if (b < a[j]) { b = a[j]; p = j + 1; } j += 1; } y[0] = p;",
       true, true},
      {"float b = a[0]; int p = 0; for (int j = 0; j < n; ++j)"
       " if (a[j] >= b) { b = a[j]; p = j; } y[0] = p;",
       false, true},
      {"float b = a[0]; int p = 0, q = 0; for (int j = 0; j < n; ++j)"
       " { if (a[j] > b) { b = a[j]; p = j; } q += p; } y[0] = q;",
       false, true},
      {"float b = a[0]; int p = 0; for (int j = 0; j < n; ++j)"
       " { double v = a[j]; if (v > b) { b = v; p = j; } } y[0] = p;",
       false, true},
      // The extreme compared through a conversion.
      {"float b = a[0]; int p = 0; for (int j = 0; j < n; ++j)"
       " { float v = a[j]; if (v > (int)b) { b = v; p = j; } } y[0] = p;",
       false, true},
  };
  for (const Case &C : Cases) {
    const KernelModel &M = model(
        "__global__ void k(const float *a, int *y, int n) {" + C.Body + "}");
    ASSERT_EQ(M.argExtremes().size(), C.Found ? 1u : 0u) << C.Body;
    if (!C.Found)
      continue;
    const ModelArgExtreme &A = M.argExtremes()[0];
    EXPECT_EQ(A.Greatest, C.Greatest) << C.Body;
    EXPECT_EQ(A.Extreme->getName(), "b") << C.Body;
    EXPECT_EQ(A.Position->getName(), "p") << C.Body;
    EXPECT_EQ(M.value(A.PositionValue)
                  .Value->coefficient(Symbol::loopVar(A.Loop, "")),
              Polynomial::constant(1))
        << C.Body;
  }
}

TEST_F(KernelModelTest, ExtremesAsChoicesAreReductions) {
  // A maximum or minimum written as a choice that takes the new value only
  // where it lies beyond (never where it is a NaN) is the same reduction as
  // the call; a choice that would take a NaN, a value of another type, or
  // another value than the one compared is none.
  struct Case {
    std::string Type, Update, Combine;
  };
  std::vector<Case> Cases = {
      {"float", "m = fmaxf(m, v);", "fmaxf"},
      {"float", "m = v > m ? v : m;", "fmaxf"},
      {"float", "m = (m < v) ? v : m;", "fmaxf"},
      {"float", "if (v > m) m = v;", "fmaxf"},
      {"float", "if (m <= v) { m = v; }", "fmaxf"},
      {"float", "if (v < m) m = v;", "fminf"},
      {"double", "m = v <= m ? v : m;", "fmin"},
      {"int", "m = m > v ? m : v;", "max"},
      {"unsigned", "m = m < v ? m : v;", "min"},
      {"float", "m = m > v ? m : v;", ""},
      {"float", "if (v > m) m = v + 1;", ""},
      {"float", "if (v > m) m = v; else m = 0;", ""},
      {"short", "if (v > m) m = v;", ""},
      // Compared through a conversion: other values than m's.
      {"float", "m = v > (int)m ? v : m;", ""},
      {"float", "if ((int)v > m) m = v;", ""},
      {"int", "m = (float)v > m ? v : m;", ""},
  };
  for (const Case &C : Cases) {
    const KernelModel &M =
        model("__global__ void k(const " + C.Type + " *a, " + C.Type +
              " *y, int n) { " + C.Type +
              " m = a[0];"
              " for (int j = 1; j < n; ++j) { " +
              C.Type + " v = a[j]; " + C.Update + " } y[0] = m; }");
    std::string Found;
    for (const ModelReduction &R : M.reductions())
      if (R.Scalar && R.Scalar->getName() == "m" && !R.Guard)
        Found = R.Combine;
    EXPECT_EQ(Found, C.Combine) << C.Type << " " << C.Update;
  }
  // A value of another type is compared in the wider one.
  const KernelModel &M =
      model("__global__ void k(const float *a, float *y, int n) { float m = "
            "a[0]; for (int j = 1; j < n; ++j) { double v = a[j] * 2.0; "
            "if (v > m) m = v; } y[0] = m; }");
  EXPECT_TRUE(M.reductions().empty());
}

TEST_F(KernelModelTest, SkipsOfForLoops) {
  // `if (c) continue;` with a pure c skips the rest of a `for` loop's
  // iteration; a `break`, a condition that changes something, an `else`
  // and a `while` loop's `continue` (which skips the step) are no skips.
  const KernelModel &M =
      model("__global__ void k(const float *a, float *y, int n) { float s = 0; "
            "int m = 0; for (int j = 0; j < n; ++j) { if (a[j] == 0) continue; "
            "if (!(a[j] > 1)) { continue; } if (a[j] < -1) break; if (++m > 3) "
            "continue; if (a[j] > 2) continue; else s += 1; s += a[j]; } "
            "int i = 0; while (i < n) { if (a[i] == 0) continue; s += a[i]; "
            "i += 1; } y[0] = s; }");
  ASSERT_EQ(M.loops().size(), 2u);
  std::vector<bool> Skips;
  for (const ModelLoop &L : M.loops())
    for (const clang::Stmt *S : loopBody(L))
      if (llvm::isa<clang::IfStmt>(S))
        Skips.push_back(M.isSkip(S, L));
  EXPECT_EQ(Skips, (std::vector<bool>{true, true, false, false, false, false}));
}

// A loop's known count, however it is written, decides whether threads
// that share it would stay idle; a count an instantiation gives does not.
TEST_F(KernelModelTest, FewerIterationsThanThreads) {
  const char *Short[] = {
      R"cu(__global__ void k(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int t = 0; t < 5; ++t) s += a[i * 5 + t];
  o[i] = s;
})cu",
      R"cu(__global__ void k(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int t = -2; t <= 2; t++) s += a[i + t];
  o[i] = s;
})cu",
      R"cu(constexpr int kTaps = 5;
__global__ void k(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  int t = 0;
  while (t != kTaps) { s += a[i * kTaps + t]; t += 1; }
  o[i] = s;
})cu",
  };
  for (const char *Code : Short) {
    const KernelModel &M = model(Code);
    ASSERT_EQ(M.loops().size(), 1u) << Code;
    EXPECT_EQ(M.loops()[0].TripCount, 5) << Code;
    std::string Why = M.fewerIterationsWhy({0}, 32);
    EXPECT_NE(Why.find("runs 5 iterations, fewer than the 32 threads"),
              std::string::npos)
        << Why;
    EXPECT_EQ(M.fewerIterationsWhy({0}, 5), "") << Code;
    EXPECT_EQ(M.fewerIterationsWhy({}, 32), "");
  }

  // A count known only at run time, or a second loop of 40.
  const KernelModel &Open = model(
      R"cu(__global__ void k(const float *a, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0, t = 0;
  for (int c = 0; c < 4; ++c) s += a[c];
  for (int c = 0; c < n; ++c) t += a[c];
  for (int c = 0; c < 40; ++c) t += a[c];
  o[i] = s + t;
})cu");
  ASSERT_EQ(Open.loops().size(), 3u);
  EXPECT_NE(Open.fewerIterationsWhy({0}, 32), "");
  EXPECT_EQ(Open.fewerIterationsWhy({0, 1}, 32), "");
  EXPECT_EQ(Open.fewerIterationsWhy({0, 2}, 32), "");

  // In an instantiation, a count its argument gives is not the template's.
  for (bool ByArgument : {true, false}) {
    std::string Code =
        std::string("template <int W> __global__ void k(const float *a, "
                    "float *o) {\n  constexpr int Len = ") +
        (ByArgument ? "W" : "4") +
        ";\n  int i = threadIdx.x;\n  float s = 0;\n"
        "  for (int c = 0; c < Len; ++c) s += a[i * W + c];\n  o[i] = s;\n}\n"
        "template __global__ void k<4>(const float *, float *);\n";
    ASTs.push_back(clang::tooling::buildASTFromCodeWithArgs(
        Code,
        {"-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90",
         "--cuda-path=" AUTOPROF_TEST_CUDA_PATH, "-Wno-unknown-cuda-version",
         "-resource-dir=" AUTOPROF_TEST_RESOURCE_DIR, "-std=c++17"},
        "input.cu"));
    clang::ASTContext &Ctx = ASTs.back()->getASTContext();
    ASSERT_FALSE(ASTs.back()->getDiagnostics().hasErrorOccurred());
    const clang::FunctionDecl *Spec = nullptr;
    for (clang::Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (auto *FT = llvm::dyn_cast<clang::FunctionTemplateDecl>(D))
        for (clang::FunctionDecl *S : FT->specializations())
          Spec = S;
    ASSERT_NE(Spec, nullptr);
    KernelModel M(Ctx, *Spec);
    ASSERT_EQ(M.loops().size(), 1u);
    EXPECT_EQ(M.loops()[0].TripCount, 4);
    EXPECT_EQ(M.fewerIterationsWhy({0}, 32).empty(), ByArgument) << Code;
  }
}
