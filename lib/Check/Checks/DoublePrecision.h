//===- DoublePrecision.h - autoprof-double-precision ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-double-precision`: double-precision literals and math
/// functions that turn single-precision arithmetic into double (`x * 1.0`,
/// `exp(x)` with float x). Fix: `1.0f`, `expf`.
/// docs/checks/autoprof-double-precision.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_DOUBLEPRECISION_H
#define AUTOPROF_LIB_CHECK_CHECKS_DOUBLEPRECISION_H

#include "autoprof/Check/Check.h"

namespace autoprof {

class DoublePrecisionCheck : public Check {
public:
  llvm::StringRef name() const override { return "autoprof-double-precision"; }
  llvm::StringRef summary() const override;
  llvm::StringRef help() const override;
  void check(const KernelContext &K, FindingSink &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_DOUBLEPRECISION_H
