//===- RestrictReadonlyParams.h - restrict-readonly-params ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `restrict-readonly-params`: declares the pointer parameters a kernel
/// never writes through `const T *__restrict__`, so that loads may go
/// through the read-only data path and be reordered.
///
/// Precondition: a pointer parameter lacks `const` or `__restrict__`.
/// A parameter qualifies when every use of it is a read: a load through
/// it (`p[i]`, `*p`, `*(p + i)`, `p[i].f`), a comparison, or an
/// argument to a pointer-to-const parameter. Stores, compound assignments,
/// increments, atomics, taking an element's address, passing it on as a
/// pointer to non-const, and changing the pointer itself all disqualify it.
/// Kernels with more than one declaration are left alone.
///
/// Trigger (a memory-bound kernel):
/// `gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed` >= 40,
/// `l1tex__t_sector_hit_rate.pct` < 50 or `lts__t_sector_hit_rate.pct` < 50.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_RESTRICTREADONLYPARAMS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_RESTRICTREADONLYPARAMS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class RestrictReadonlyParams : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  bool changesSignature() const override { return true; }
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_RESTRICTREADONLYPARAMS_H
