//===- AtomicSameAddress.h - autoprof-atomic-same-address -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-atomic-same-address`: atomics in a loop whose global
/// address is the same for every thread of a block (its index does not
/// depend on the thread), so that the whole grid serialises on it.
/// docs/checks/autoprof-atomic-same-address.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_ATOMICSAMEADDRESS_H
#define AUTOPROF_LIB_CHECK_CHECKS_ATOMICSAMEADDRESS_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class AtomicSameAddressCheck : public Check {
public:
  llvm::StringRef name() const override {
    return "autoprof-atomic-same-address";
  }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_ATOMICSAMEADDRESS_H
