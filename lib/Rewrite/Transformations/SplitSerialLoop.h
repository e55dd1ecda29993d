//===- SplitSerialLoop.h - Split each thread's loop over 32 threads -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `split-serial-loop`: a kernel of one thread per output whose threads each
/// reduce a long loop (a column sum, mean and variance, a count per column,
/// a matrix-vector product by columns) runs too few threads for the GPU when
/// the outputs are few. The rewrite gives each output 32 threads: blocks of
/// 1024 threads hold 32 consecutive outputs (so that a warp still reads 32
/// consecutive elements) and 32 slices of each output's loop; slice s takes
/// the iterations s, s + 32, ...; after each reduction loop the slices'
/// partial results meet in shared memory, where every slice reads the
/// output's total; slice 0 stores. Every launch gets blocks of 1024 threads
/// and a grid that covers the same outputs (G * B / 32 blocks for blocks of
/// B threads).
///
/// What the kernel model must show: threadIdx.x, blockIdx.x and blockDim.x
/// read only in the thread's global index (the output); threads that do not
/// cooperate; a guard of early returns or enclosing `if`s before any other
/// statement but declarations that read no memory; and work made of
///   - declarations that read no memory,
///   - counted loops of step 1 whose body only reduces scalars declared
///     before them (`s += e`, `s = f(s, e)` with f a minimum or maximum; a
///     sum starting at a constant zero) and declares values for that,
///   - stores `X[...] = e`, done by slice 0 of a thread that passes the
///     guard.
/// Threads that fail the guard no longer return: they take part in the
/// barriers with no iterations and store nothing. Every launch has a
/// constant block of whole warps and a grid without side effects.
///
/// Trigger (too few threads to fill the GPU):
/// `launch__waves_per_multiprocessor` < 1, or
/// `sm__warps_active.avg.pct_of_peak_sustained_active` < 30.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_SPLITSERIALLOOP_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_SPLITSERIALLOOP_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class SplitSerialLoop : public Transformation {
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

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_SPLITSERIALLOOP_H
