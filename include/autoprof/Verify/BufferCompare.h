//===- BufferCompare.h - Comparing saved kernel outputs ---------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Element types of kernel pointer parameters, taken from the parameter's
/// spelling in the kernel's signature, and the element-wise comparison of
/// two saved buffers: floating-point elements within a relative and an
/// absolute tolerance, everything else exactly.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_BUFFERCOMPARE_H
#define AUTOPROF_VERIFY_BUFFERCOMPARE_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace autoprof {
namespace verify {

enum class ElementKind {
  F16,
  BF16,
  F32,
  F64,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  Bytes
};

/// The element kind a pointer parameter of type \p PointerType points to:
/// "const float *__restrict" is F32, "float4 *" F32 (its components),
/// "__half *" F16; a type it does not know (a struct) is Bytes.
ElementKind elementKindOf(llvm::StringRef PointerType);

/// The size of one element of \p K (1 for Bytes).
unsigned elementSize(ElementKind K);

/// "f32", "i32", "bytes", ...
llvm::StringRef elementKindName(ElementKind K);

struct BufferDifference {
  /// Elements outside the tolerance.
  uint64_t Mismatches = 0;
  uint64_t Elements = 0;
  /// The first element outside the tolerance, and its two values.
  uint64_t FirstIndex = 0;
  double Expected = 0;
  double Actual = 0;
  /// The sizes differ: nothing else is compared.
  bool SizeDiffers = false;

  bool equal() const { return !SizeDiffers && Mismatches == 0; }
};

/// Compares \p Actual with \p Expected as arrays of \p K. Floating-point
/// elements match when |a - e| <= ATol + RTol * |e|, or both are NaN, or
/// both are the same infinity; integers and bytes must be equal. A trailing
/// part shorter than one element is compared bytewise.
BufferDifference compareBuffers(ElementKind K, llvm::StringRef Expected,
                                llvm::StringRef Actual, double RTol,
                                double ATol);

/// How far two saved buffers of the same launch and input lie apart, as
/// arrays of \p K: the largest |a - b| over their floating-point elements,
/// 0 when they are equal, or nullopt when they differ in a way no distance
/// measures (their sizes, an integer or byte element, a NaN or an infinity
/// against another value). Two runs of one program that differ so have an
/// output that depends on the order in which its threads ran.
std::optional<double> largestDifference(ElementKind K, llvm::StringRef A,
                                        llvm::StringRef B);

/// Whether elements of \p K are floating-point numbers.
bool isFloatingPoint(ElementKind K);

/// The largest |a| over the finite floating-point elements of \p A, an
/// array of \p K; 0 for other kinds.
double largestMagnitude(ElementKind K, llvm::StringRef A);

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_BUFFERCOMPARE_H
