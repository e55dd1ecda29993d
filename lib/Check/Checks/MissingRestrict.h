//===- MissingRestrict.h - autoprof-missing-restrict ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-missing-restrict`: pointer parameters that a kernel only
/// reads through, declared without `const` and `__restrict__`. Fix: add
/// them.
/// docs/checks/autoprof-missing-restrict.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_MISSINGRESTRICT_H
#define AUTOPROF_LIB_CHECK_CHECKS_MISSINGRESTRICT_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class MissingRestrictCheck : public Check {
public:
  llvm::StringRef name() const override { return "autoprof-missing-restrict"; }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_MISSINGRESTRICT_H
