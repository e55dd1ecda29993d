//===- LaunchBounds.h - The launch-bounds transformation --------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `launch-bounds`: adds `__launch_bounds__(B)` to a kernel when every
/// launch of it in the translation unit uses the same constant block size
/// B, so that the compiler may budget registers for B threads.
///
/// Precondition: the kernel is not a template and has no launch bounds.
/// It is edited when the kernel model finds all its launches
/// (findLaunches: plain launches in the source or the headers it includes)
/// and every one has the same compile-time block size of 1 to 1024 threads;
/// the attribute is inserted before the kernel's return type.
///
/// Trigger (occupancy limited by registers):
/// `launch__occupancy_limit_registers` < `launch__occupancy_limit_warps`, both
/// collected.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_LAUNCHBOUNDS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_LAUNCHBOUNDS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class LaunchBoundsTransformation : public Transformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  bool precondition(const KernelRecord &K) const override;
  std::vector<std::string> triggerMetrics() const override;
  std::optional<std::string> trigger(const MetricValues &M) const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  std::string explain(const KernelModel &M) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_LAUNCHBOUNDS_H
