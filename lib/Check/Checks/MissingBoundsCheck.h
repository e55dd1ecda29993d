//===- MissingBoundsCheck.h - autoprof-missing-bounds-check -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-missing-bounds-check`: memory accesses indexed by a
/// global thread index (built from blockIdx and threadIdx) that no condition
/// bounds, in a kernel launched with a grid rounded up
/// (`(n + b - 1) / b`): the threads of the last block past the end access
/// out of bounds.
/// docs/checks/autoprof-missing-bounds-check.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_MISSINGBOUNDSCHECK_H
#define AUTOPROF_LIB_CHECK_CHECKS_MISSINGBOUNDSCHECK_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class MissingBoundsCheckCheck : public Check {
public:
  llvm::StringRef name() const override {
    return "autoprof-missing-bounds-check";
  }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_MISSINGBOUNDSCHECK_H
