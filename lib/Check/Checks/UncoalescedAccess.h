//===- UncoalescedAccess.h - autoprof-uncoalesced-access --------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-uncoalesced-access`: global loads and stores in loops whose
/// address varies across a warp with a stride other than one element.
/// docs/checks/autoprof-uncoalesced-access.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_UNCOALESCEDACCESS_H
#define AUTOPROF_LIB_CHECK_CHECKS_UNCOALESCEDACCESS_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class UncoalescedAccessCheck : public Check {
public:
  llvm::StringRef name() const override {
    return "autoprof-uncoalesced-access";
  }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_UNCOALESCEDACCESS_H
