//===- IndexForm.h - How an index varies across a warp ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// An abstract value of an integer expression in a kernel: whether it is a
/// compile-time constant, how it depends on `threadIdx.x` (its stride), and
/// whether it depends on a value loaded from memory. Global accesses are
/// classified by the IndexForm of their element offset.
///
/// This is plain algebra with no dependence on Clang, so that the classifier
/// can be tested on its own.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_FEATURES_INDEXFORM_H
#define AUTOPROF_FEATURES_INDEXFORM_H

#include <cstdint>
#include <optional>

namespace autoprof {

/// The class of a memory access across the threads of a warp.
enum class AccessClass {
  Coalesced, ///< Consecutive threads touch consecutive elements.
  Strided,   ///< A non-unit or unknown stride in threadIdx.x.
  Uniform,   ///< Every thread of the warp touches the same element.
  Indirect,  ///< The index is loaded from memory.
};

/// Name of \p C as used in feature keys ("coalesced", ...).
const char *accessClassName(AccessClass C);

/// The abstract value of an integer expression.
struct IndexForm {
  /// The value when it is a known compile-time constant.
  std::optional<int64_t> Constant;
  /// The coefficient of threadIdx.x when the expression is affine in it with
  /// a known coefficient (0 when it does not depend on threadIdx.x).
  std::optional<int64_t> Stride = 0;
  /// Depends on any threadIdx component, directly or through data.
  bool ThreadDependent = false;
  /// Depends on a value loaded from memory.
  bool Indirect = false;

  /// A compile-time constant.
  static IndexForm constant(int64_t V);
  /// A value that is the same for every thread (a parameter, blockIdx.x).
  static IndexForm uniform();
  /// threadIdx.x itself.
  static IndexForm threadIdxX();
  /// threadIdx.y or threadIdx.z: thread-dependent, stride 0 in x.
  static IndexForm threadIdxYZ();
  /// Thread-varying with no known structure (for example a shuffle result).
  static IndexForm unknownVarying();

  bool dependsOnThreadIdxX() const { return !Stride || *Stride != 0; }

  /// The least form that describes both \p A and \p B (a variable assigned
  /// in several places).
  static IndexForm join(const IndexForm &A, const IndexForm &B);
  static IndexForm add(const IndexForm &A, const IndexForm &B);
  static IndexForm sub(const IndexForm &A, const IndexForm &B);
  static IndexForm mul(const IndexForm &A, const IndexForm &B);
  /// A / B and A >> B: exact when both are constants; threadIdx.x / C with
  /// C a multiple of 32 is uniform across an aligned warp.
  static IndexForm div(const IndexForm &A, const IndexForm &B);
  /// A % B: threadIdx.x % C keeps unit stride within a warp when C is a
  /// multiple of 32.
  static IndexForm rem(const IndexForm &A, const IndexForm &B);
  /// Any other operation: combines dependences, loses the structure.
  static IndexForm opaque(const IndexForm &A, const IndexForm &B);
  /// The form after a loop-carried update by a uniform amount (`i += s`).
  IndexForm withUnknownConstant() const;
  /// The form of a value loaded through an index of this form.
  IndexForm loadedThrough() const;
};

/// Classifies an access whose element offset has form \p F.
AccessClass classifyIndex(const IndexForm &F);

} // namespace autoprof

#endif // AUTOPROF_FEATURES_INDEXFORM_H
