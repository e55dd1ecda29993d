//===- NonconstDivmod.h - autoprof-nonconst-divmod --------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-nonconst-divmod`: integer division or modulo by a value
/// that is not a compile-time constant, inside a loop.
/// docs/checks/autoprof-nonconst-divmod.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_NONCONSTDIVMOD_H
#define AUTOPROF_LIB_CHECK_CHECKS_NONCONSTDIVMOD_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class NonconstDivmodCheck : public Check {
public:
  llvm::StringRef name() const override { return "autoprof-nonconst-divmod"; }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_NONCONSTDIVMOD_H
