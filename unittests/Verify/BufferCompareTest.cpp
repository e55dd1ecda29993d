//===- BufferCompareTest.cpp - Element types and buffer comparison --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/BufferCompare.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace autoprof::verify;

namespace {

template <typename T> std::string bytes(const std::vector<T> &V) {
  std::string S(V.size() * sizeof(T), '\0');
  std::memcpy(S.data(), V.data(), S.size());
  return S;
}

TEST(ElementKindTest, FromPointerTypes) {
  EXPECT_EQ(elementKindOf("float *"), ElementKind::F32);
  EXPECT_EQ(elementKindOf("const float *__restrict"), ElementKind::F32);
  EXPECT_EQ(elementKindOf("const float *__restrict__"), ElementKind::F32);
  EXPECT_EQ(elementKindOf("float4 *"), ElementKind::F32);
  EXPECT_EQ(elementKindOf("const double2 *"), ElementKind::F64);
  EXPECT_EQ(elementKindOf("__half *"), ElementKind::F16);
  EXPECT_EQ(elementKindOf("int *"), ElementKind::I32);
  EXPECT_EQ(elementKindOf("unsigned int *"), ElementKind::U32);
  EXPECT_EQ(elementKindOf("const int64_t *"), ElementKind::I64);
  EXPECT_EQ(elementKindOf("unsigned long long *"), ElementKind::U64);
  EXPECT_EQ(elementKindOf("uint8_t *"), ElementKind::U8);
  EXPECT_EQ(elementKindOf("struct Particle *"), ElementKind::Bytes);
  EXPECT_EQ(elementSize(ElementKind::F16), 2u);
  EXPECT_EQ(elementSize(ElementKind::F64), 8u);
  EXPECT_EQ(elementKindName(ElementKind::U32), "u32");
}

TEST(BufferCompareTest, FloatsWithinTolerance) {
  std::vector<float> A = {1.0f, 100.0f, 0.0f, -3.0f};
  std::vector<float> B = {1.00001f, 100.005f, 5e-6f, -3.0f};
  BufferDifference D = compareBuffers(ElementKind::F32, bytes(A), bytes(B),
                                      /*RTol=*/1e-4, /*ATol=*/1e-5);
  EXPECT_TRUE(D.equal());
  EXPECT_EQ(D.Elements, 4u);
}

TEST(BufferCompareTest, FloatsOutsideTolerance) {
  std::vector<float> A = {1.0f, 2.0f, 3.0f, 4.0f};
  std::vector<float> B = {1.0f, 2.01f, 3.0f, 5.0f};
  BufferDifference D =
      compareBuffers(ElementKind::F32, bytes(A), bytes(B), 1e-4, 1e-5);
  EXPECT_FALSE(D.equal());
  EXPECT_EQ(D.Mismatches, 2u);
  EXPECT_EQ(D.FirstIndex, 1u);
  EXPECT_FLOAT_EQ(D.Expected, 2.0f);
  EXPECT_FLOAT_EQ(D.Actual, 2.01f);
}

TEST(BufferCompareTest, NaNAndInfinity) {
  float NaN = std::numeric_limits<float>::quiet_NaN();
  float Inf = std::numeric_limits<float>::infinity();
  std::vector<float> A = {NaN, Inf, -Inf};
  EXPECT_TRUE(
      compareBuffers(ElementKind::F32, bytes(A), bytes(A), 0, 0).equal());
  std::vector<float> B = {NaN, -Inf, -Inf};
  EXPECT_EQ(
      compareBuffers(ElementKind::F32, bytes(A), bytes(B), 1, 1).Mismatches,
      1u);
  std::vector<float> C = {1.0f, Inf, -Inf};
  EXPECT_EQ(
      compareBuffers(ElementKind::F32, bytes(A), bytes(C), 1, 1).FirstIndex,
      0u);
}

TEST(BufferCompareTest, IntegersExactly) {
  std::vector<int> A = {1, 2, 3}, B = {1, 2, 4};
  BufferDifference D =
      compareBuffers(ElementKind::I32, bytes(A), bytes(B), 1.0, 1.0);
  EXPECT_EQ(D.Mismatches, 1u);
  EXPECT_EQ(D.FirstIndex, 2u);
}

TEST(BufferCompareTest, HalfPrecision) {
  // 1.0 and 1.0009765625 (one ulp apart), and 2.0.
  std::vector<uint16_t> A = {0x3c00, 0x4000}, B = {0x3c01, 0x4000};
  EXPECT_TRUE(
      compareBuffers(ElementKind::F16, bytes(A), bytes(B), 1e-3, 0).equal());
  BufferDifference D =
      compareBuffers(ElementKind::F16, bytes(A), bytes(B), 1e-4, 0);
  EXPECT_EQ(D.Mismatches, 1u);
  EXPECT_DOUBLE_EQ(D.Expected, 1.0);
}

TEST(BufferCompareTest, SizesAndTails) {
  std::vector<float> A = {1.0f, 2.0f}, B = {1.0f};
  EXPECT_TRUE(
      compareBuffers(ElementKind::F32, bytes(A), bytes(B), 0, 0).SizeDiffers);
  // Six bytes as f32: one element and a two-byte tail.
  std::string X("\x01\x02\x03\x04\x05\x06", 6), Y = X;
  Y[5] = 7;
  BufferDifference D = compareBuffers(ElementKind::F32, X, Y, 1, 1);
  EXPECT_EQ(D.Elements, 1u);
  EXPECT_EQ(D.Mismatches, 1u);
}

} // namespace

TEST(BufferCompareTest, LargestDifferenceOfTwoRuns) {
  std::string A = bytes<float>({1.f, 2.f, 3.f});
  EXPECT_EQ(largestDifference(ElementKind::F32, A, A), 0.0);
  std::optional<double> D = largestDifference(
      ElementKind::F32, A, bytes<float>({1.f, 2.25f, 2.5f}));
  ASSERT_TRUE(D.has_value());
  EXPECT_DOUBLE_EQ(*D, 0.5);
  // NaN in both is no difference; against a number, no distance.
  float NaN = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(largestDifference(ElementKind::F32, bytes<float>({NaN, 1.f}),
                              bytes<float>({NaN, 1.f})),
            0.0);
  EXPECT_FALSE(largestDifference(ElementKind::F32, bytes<float>({NaN}),
                                 bytes<float>({1.f})));
  EXPECT_FALSE(largestDifference(
      ElementKind::F32, bytes<float>({std::numeric_limits<float>::infinity()}),
      bytes<float>({1.f})));
  // Integers that differ, and sizes that differ.
  EXPECT_FALSE(largestDifference(ElementKind::I32, bytes<int>({1, 2}),
                                 bytes<int>({2, 1})));
  EXPECT_EQ(largestDifference(ElementKind::I32, bytes<int>({1, 2}),
                              bytes<int>({1, 2})),
            0.0);
  EXPECT_FALSE(largestDifference(ElementKind::F32, A, bytes<float>({1.f})));
}
