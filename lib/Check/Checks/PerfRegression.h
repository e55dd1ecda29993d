//===- PerfRegression.h - autoprof-perf-regression --------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `autoprof-perf-regression`: a kernel slower than its performance
/// baseline. Nothing in the AST shows it: its findings come from the
/// performance gate of `check` (autoprof/Check/PerfGate.h), which times the
/// kernels in runs of the program. It is registered so that --checks and
/// .clang-autoprof select it like the others and SARIF lists its rule.
/// docs/checks/autoprof-perf-regression.md has examples.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_PERFREGRESSION_H
#define AUTOPROF_LIB_CHECK_CHECKS_PERFREGRESSION_H

#include "autoprof/Check/Check.h"
#include "autoprof/Check/PerfGate.h"

namespace autoprof {

class PerfRegressionCheck : public Check {
public:
  llvm::StringRef name() const override { return PerfRegressionCheckName; }
  llvm::StringRef summary() const override;
  Severity severity() const override { return Severity::Error; }
  llvm::StringRef help() const override;
  /// Reports nothing: the gate reports its findings.
  void check(const KernelContext &, FindingSink &) const override {}
};

} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_PERFREGRESSION_H
