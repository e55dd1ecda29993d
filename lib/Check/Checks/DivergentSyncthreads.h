//===- DivergentSyncthreads.h - autoprof-divergent-syncthreads --*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-divergent-syncthreads`: `__syncthreads()` under a
/// branch or loop whose condition depends on the thread: the threads that
/// skip it hang or break the barrier; also a barrier after a `return` that
/// only some threads take. Severity error.
/// docs/checks/autoprof-divergent-syncthreads.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_DIVERGENTSYNCTHREADS_H
#define AUTOPROF_LIB_CHECK_CHECKS_DIVERGENTSYNCTHREADS_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class DivergentSyncthreadsCheck : public Check {
public:
  llvm::StringRef name() const override {
    return "autoprof-divergent-syncthreads";
  }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  Severity severity() const override { return Severity::Error; }
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_DIVERGENTSYNCTHREADS_H
