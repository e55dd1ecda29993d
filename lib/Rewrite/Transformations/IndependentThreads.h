//===- IndependentThreads.h - Kernels whose threads never meet -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The static-feature test of independent threads that the preconditions of
/// the transformations which regroup a kernel's work share; the kernel
/// model (autoprof/KernelModel) answers the same question on the AST, with
/// its reason, in KernelModel::cooperationWhy().
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_INDEPENDENTTHREADS_H
#define AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_INDEPENDENTTHREADS_H

#include "autoprof/Features/KernelRecord.h"

namespace autoprof {

/// Whether \p K is a plain function or an instantiation (not a template's
/// pattern) whose threads do not cooperate: no `__shared__` arrays,
/// barriers, warp shuffles or votes, or cooperative groups. Rewrites that
/// regroup its work over threads or blocks need this.
bool hasIndependentThreads(const KernelRecord &K);

} // namespace autoprof

#endif // AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_INDEPENDENTTHREADS_H
