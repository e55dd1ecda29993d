//===- FastMathIntrinsics.h - fast-math-intrinsics --------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `fast-math-intrinsics`: replaces calls to `expf`, `logf`, `sinf`,
/// `cosf` and `powf` in a kernel's body by the CUDA intrinsics
/// `__expf`, `__logf`, `__sinf`, `__cosf` and `__powf`, which run on
/// the special function unit at reduced accuracy.
///
/// Precondition: feature `transcendentals` > 0. Calls written with a
/// qualifier (`std::expf`) or through a macro, and calls in the device
/// functions the kernel calls, are left alone.
///
/// Trigger: `sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active`
/// >= 3.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_FASTMATHINTRINSICS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_FASTMATHINTRINSICS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class FastMathIntrinsics : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_FASTMATHINTRINSICS_H
