//===- SharedBankConflict.h - autoprof-shared-bank-conflict -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-shared-bank-conflict`: 2-D `__shared__` arrays of 4-byte
/// elements with rows of 32k elements, indexed column-wise (the row by
/// threadIdx.x), so that a warp's accesses fall into one bank. Fix: pad the
/// rows to 32k + 1.
/// docs/checks/autoprof-shared-bank-conflict.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_SHAREDBANKCONFLICT_H
#define AUTOPROF_LIB_CHECK_CHECKS_SHAREDBANKCONFLICT_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class SharedBankConflictCheck : public Check {
public:
  llvm::StringRef name() const override {
    return "autoprof-shared-bank-conflict";
  }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_SHAREDBANKCONFLICT_H
