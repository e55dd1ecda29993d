//===- IndexFormTest.cpp - Tests of the index algebra ---------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/IndexForm.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

const IndexForm Tid = IndexForm::threadIdxX();
const IndexForm Uni = IndexForm::uniform();
IndexForm c(int64_t V) { return IndexForm::constant(V); }

TEST(IndexFormTest, GlobalThreadIndexIsCoalesced) {
  // blockIdx.x * blockDim.x + threadIdx.x
  IndexForm I = IndexForm::add(IndexForm::mul(Uni, Uni), Tid);
  EXPECT_EQ(classifyIndex(I), AccessClass::Coalesced);
  EXPECT_TRUE(I.ThreadDependent);
}

TEST(IndexFormTest, ScaledByConstantIsStrided) {
  IndexForm I = IndexForm::mul(Tid, c(2));
  ASSERT_TRUE(I.Stride);
  EXPECT_EQ(*I.Stride, 2);
  EXPECT_EQ(classifyIndex(I), AccessClass::Strided);
}

TEST(IndexFormTest, ScaledByRuntimeValueIsStrided) {
  // threadIdx.x * N + k
  IndexForm I = IndexForm::add(IndexForm::mul(Tid, Uni), Uni);
  EXPECT_FALSE(I.Stride);
  EXPECT_EQ(classifyIndex(I), AccessClass::Strided);
}

TEST(IndexFormTest, IndependentOfThreadIsUniform) {
  IndexForm I =
      IndexForm::add(IndexForm::mul(Uni, c(64)), IndexForm::threadIdxYZ());
  EXPECT_EQ(classifyIndex(I), AccessClass::Uniform);
  EXPECT_TRUE(I.ThreadDependent);
}

TEST(IndexFormTest, LoadedIndexIsIndirect) {
  IndexForm Loaded = Tid.loadedThrough();
  EXPECT_EQ(classifyIndex(IndexForm::add(Loaded, c(1))), AccessClass::Indirect);
  // A value loaded at a uniform address is still data from memory.
  EXPECT_EQ(classifyIndex(Uni.loadedThrough()), AccessClass::Indirect);
}

TEST(IndexFormTest, CancellingStrideIsUniform) {
  IndexForm I = IndexForm::sub(IndexForm::add(Tid, Uni), Tid);
  EXPECT_EQ(classifyIndex(I), AccessClass::Uniform);
}

TEST(IndexFormTest, NegatedThreadIndexIsCoalesced) {
  IndexForm I = IndexForm::sub(c(1023), Tid);
  EXPECT_EQ(classifyIndex(I), AccessClass::Coalesced);
}

TEST(IndexFormTest, QuadraticIsStrided) {
  EXPECT_EQ(classifyIndex(IndexForm::mul(Tid, Tid)), AccessClass::Strided);
}

TEST(IndexFormTest, WarpIdIsUniformLaneIsCoalesced) {
  EXPECT_EQ(classifyIndex(IndexForm::div(Tid, c(32))), AccessClass::Uniform);
  EXPECT_EQ(classifyIndex(IndexForm::rem(Tid, c(32))), AccessClass::Coalesced);
  // Division by less than a warp mixes lanes: not unit stride.
  EXPECT_EQ(classifyIndex(IndexForm::div(Tid, c(4))), AccessClass::Strided);
}

TEST(IndexFormTest, ConstantsFold) {
  IndexForm I = IndexForm::mul(IndexForm::add(c(3), c(4)), c(2));
  ASSERT_TRUE(I.Constant);
  EXPECT_EQ(*I.Constant, 14);
  EXPECT_EQ(classifyIndex(I), AccessClass::Uniform);
}

TEST(IndexFormTest, JoinKeepsOnlyWhatBothShare) {
  IndexForm J = IndexForm::join(Tid, IndexForm::add(Tid, Uni));
  ASSERT_TRUE(J.Stride);
  EXPECT_EQ(*J.Stride, 1);
  IndexForm K = IndexForm::join(Tid, c(0));
  EXPECT_FALSE(K.Stride);
  EXPECT_TRUE(K.ThreadDependent);
  EXPECT_FALSE(IndexForm::join(c(1), c(2)).Constant);
}

TEST(IndexFormTest, LoopUpdateForgetsTheConstant) {
  IndexForm I = c(0).withUnknownConstant();
  EXPECT_FALSE(I.Constant);
  EXPECT_EQ(classifyIndex(I), AccessClass::Uniform);
}

TEST(IndexFormTest, OpaqueOperationLosesStride) {
  IndexForm I = IndexForm::opaque(Tid, Uni);
  EXPECT_EQ(classifyIndex(I), AccessClass::Strided);
  EXPECT_EQ(classifyIndex(IndexForm::opaque(Uni, c(3))), AccessClass::Uniform);
}

} // namespace
