//===- IndexForm.cpp - How an index varies across a warp ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/IndexForm.h"

using namespace autoprof;

const char *autoprof::accessClassName(AccessClass C) {
  switch (C) {
  case AccessClass::Coalesced:
    return "coalesced";
  case AccessClass::Strided:
    return "strided";
  case AccessClass::Uniform:
    return "uniform";
  case AccessClass::Indirect:
    return "indirect";
  }
  return "strided";
}

IndexForm IndexForm::constant(int64_t V) {
  IndexForm F;
  F.Constant = V;
  return F;
}

IndexForm IndexForm::uniform() { return IndexForm(); }

IndexForm IndexForm::threadIdxX() {
  IndexForm F;
  F.Stride = 1;
  F.ThreadDependent = true;
  return F;
}

IndexForm IndexForm::threadIdxYZ() {
  IndexForm F;
  F.ThreadDependent = true;
  return F;
}

IndexForm IndexForm::unknownVarying() {
  IndexForm F;
  F.Stride.reset();
  F.ThreadDependent = true;
  return F;
}

static IndexForm combineFlags(const IndexForm &A, const IndexForm &B) {
  IndexForm F;
  F.ThreadDependent = A.ThreadDependent || B.ThreadDependent;
  F.Indirect = A.Indirect || B.Indirect;
  return F;
}

IndexForm IndexForm::join(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.Constant && B.Constant && *A.Constant == *B.Constant)
    F.Constant = A.Constant;
  if (A.Stride && B.Stride && *A.Stride == *B.Stride)
    F.Stride = A.Stride;
  else
    F.Stride.reset();
  return F;
}

IndexForm IndexForm::add(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.Constant && B.Constant)
    F.Constant = *A.Constant + *B.Constant;
  if (A.Stride && B.Stride)
    F.Stride = *A.Stride + *B.Stride;
  else
    F.Stride.reset();
  return F;
}

IndexForm IndexForm::sub(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.Constant && B.Constant)
    F.Constant = *A.Constant - *B.Constant;
  if (A.Stride && B.Stride)
    F.Stride = *A.Stride - *B.Stride;
  else
    F.Stride.reset();
  return F;
}

IndexForm IndexForm::mul(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.Constant && B.Constant)
    F.Constant = *A.Constant * *B.Constant;
  if (!A.dependsOnThreadIdxX() && !B.dependsOnThreadIdxX()) {
    F.Stride = 0;
  } else if (A.dependsOnThreadIdxX() && B.dependsOnThreadIdxX()) {
    F.Stride.reset(); // Quadratic in threadIdx.x.
  } else {
    const IndexForm &Varying = A.dependsOnThreadIdxX() ? A : B;
    const IndexForm &Factor = A.dependsOnThreadIdxX() ? B : A;
    if (Varying.Stride && Factor.Constant)
      F.Stride = *Varying.Stride * *Factor.Constant;
    else
      F.Stride.reset(); // Scaled by a run-time value such as a row length.
  }
  return F;
}

IndexForm IndexForm::div(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.Constant && B.Constant && *B.Constant != 0)
    F.Constant = *A.Constant / *B.Constant;
  if (!A.dependsOnThreadIdxX() && !B.dependsOnThreadIdxX())
    F.Stride = 0;
  else if (A.Stride && *A.Stride == 1 && B.Constant && *B.Constant > 0 &&
           *B.Constant % 32 == 0)
    F.Stride = 0;
  else
    F.Stride.reset();
  return F;
}

IndexForm IndexForm::rem(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.Constant && B.Constant && *B.Constant != 0)
    F.Constant = *A.Constant % *B.Constant;
  if (!A.dependsOnThreadIdxX() && !B.dependsOnThreadIdxX())
    F.Stride = 0;
  else if (A.Stride && B.Constant && *B.Constant > 0 && *B.Constant % 32 == 0 &&
           !B.dependsOnThreadIdxX())
    F.Stride = A.Stride;
  else
    F.Stride.reset();
  return F;
}

IndexForm IndexForm::opaque(const IndexForm &A, const IndexForm &B) {
  IndexForm F = combineFlags(A, B);
  if (A.dependsOnThreadIdxX() || B.dependsOnThreadIdxX())
    F.Stride.reset();
  return F;
}

IndexForm IndexForm::withUnknownConstant() const {
  IndexForm F = *this;
  F.Constant.reset();
  return F;
}

IndexForm IndexForm::loadedThrough() const {
  IndexForm F;
  F.Indirect = true;
  F.ThreadDependent = ThreadDependent;
  if (dependsOnThreadIdxX())
    F.Stride.reset();
  return F;
}

AccessClass autoprof::classifyIndex(const IndexForm &F) {
  if (F.Indirect)
    return AccessClass::Indirect;
  if (!F.Stride)
    return AccessClass::Strided;
  if (*F.Stride == 0)
    return AccessClass::Uniform;
  if (*F.Stride == 1 || *F.Stride == -1)
    return AccessClass::Coalesced;
  return AccessClass::Strided;
}
