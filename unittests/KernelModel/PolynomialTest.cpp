//===- PolynomialTest.cpp - The algebra of the kernel model ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/KernelModel/Polynomial.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

Polynomial sym(const Symbol &S) { return Polynomial::symbol(S); }
Polynomial num(int64_t V) { return Polynomial::constant(V); }

TEST(PolynomialTest, SumsAndProductsNormalise) {
  Polynomial Row = globalIndex(1);
  Polynomial Cols = sym(Symbol::param(4, "cols"));
  Polynomial C = sym(Symbol::loopVar(0, "c"));
  // (Row * Cols + C) written in two orders is the same value.
  auto A = Polynomial::add(*Polynomial::mul(Row, Cols), C);
  auto B = Polynomial::add(C, *Polynomial::mul(Cols, Row));
  ASSERT_TRUE(A && B);
  EXPECT_EQ(*A, *B);
  EXPECT_EQ(A->str(),
            "blockIdx.y * blockDim.y * cols + threadIdx.y * cols + c");
  auto Z = Polynomial::sub(*A, *B);
  ASSERT_TRUE(Z);
  EXPECT_TRUE(Z->isZero());
  EXPECT_EQ(Z->str(), "0");
}

TEST(PolynomialTest, CoefficientOfASymbol) {
  Polynomial Row = globalIndex(0);
  Polynomial Cols = sym(Symbol::param(1, "cols"));
  auto Idx = Polynomial::add(*Polynomial::mul(Row, Cols), num(3));
  auto K = Idx->coefficient(Symbol::threadIdx(0));
  ASSERT_TRUE(K);
  EXPECT_EQ(*K, Cols);
  auto None = Idx->coefficient(Symbol::threadIdx(1));
  ASSERT_TRUE(None);
  EXPECT_TRUE(None->isZero());
  // threadIdx.x squared is not affine in it.
  auto Sq =
      Polynomial::mul(sym(Symbol::threadIdx(0)), sym(Symbol::threadIdx(0)));
  EXPECT_FALSE(Sq->coefficient(Symbol::threadIdx(0)));
}

TEST(PolynomialTest, ConstantsAndDivision) {
  EXPECT_EQ(num(0), Polynomial());
  EXPECT_EQ(num(7).constantValue(), 7);
  EXPECT_FALSE(globalIndex(0).constantValue());
  auto Even = Polynomial::add(
      *Polynomial::mul(num(4), sym(Symbol::threadIdx(0))), num(8));
  auto Half = Polynomial::divExact(*Even, 4);
  ASSERT_TRUE(Half);
  EXPECT_EQ(Half->str(), "threadIdx.x + 2");
  EXPECT_FALSE(Polynomial::divExact(*Even, 3));
  EXPECT_FALSE(Polynomial::divExact(*Even, 0));
  EXPECT_EQ(Polynomial::sub(num(1), sym(Symbol::param(0, "n")))->str(),
            "-n + 1");
}

TEST(PolynomialTest, OverflowGivesNoValue) {
  EXPECT_FALSE(Polynomial::add(num(INT64_MAX), num(1)));
  EXPECT_FALSE(Polynomial::mul(num(INT64_MAX), num(2)));
  EXPECT_FALSE(Polynomial::sub(num(0), num(INT64_MIN)));
  EXPECT_TRUE(Polynomial::add(num(INT64_MAX), num(-1)));
}

TEST(PolynomialTest, SubstituteAndDependence) {
  Polynomial I = sym(Symbol::loopVar(2, "i"));
  auto P = Polynomial::add(*Polynomial::mul(I, num(32)), globalIndex(0));
  EXPECT_TRUE(P->dependsOn(Symbol::loopVar(2, "other name, same loop")));
  EXPECT_TRUE(P->dependsOn([](const Symbol &S) { return S.mayVaryInBlock(); }));
  auto Q = P->substitute(Symbol::loopVar(2, "i"), num(1));
  ASSERT_TRUE(Q);
  EXPECT_FALSE(Q->dependsOn(Symbol::loopVar(2, "i")));
  EXPECT_EQ(Q->constantTerm(), 32);
  EXPECT_EQ(Q->symbols().size(), 3u);
}

} // namespace
