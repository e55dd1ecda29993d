//===- CoveringLaunch.h - Launches whose grid covers the bounds -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Launches of a 2-D kernel of one thread per index pair rewritten with
/// blocks of another shape and a grid written from the kernel's bounds, for
/// rewrites that choose the block (block-shape, tile-matmul-smem).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_COVERINGLAUNCH_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_COVERINGLAUNCH_H

#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/PerIndex.h"

#include "clang/Tooling/Core/Replacement.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

class KernelModel;

/// The 2-D per-index shape of the kernel of \p M when its launches may
/// change: no __launch_bounds__, threads that do not cooperate but through
/// atomic operations; else nullopt with the reason in \p Why.
std::optional<PerIndex2DKernel> reshapableKernel(const KernelModel &M,
                                                 std::string &Why);

/// What a launch of a kernel of shape PerIndex2DKernel is: its constant
/// block, and its bounds as written at it.
struct LaunchFacts {
  Dim3 Block;
  std::string NX, NY;
};

/// The facts of \p L: a constant block of depth 1, a grid of depth 1 with
/// an x and a y dimension that provably cover the bounds of \p K with it
/// (so a new grid written from the bounds runs the same index pairs), and
/// bounds written without macros or side effects; else nullopt with the
/// reason in \p Why.
std::optional<LaunchFacts> launchFacts(const KernelModel &M,
                                       const PerIndex2DKernel &K,
                                       const KernelLaunch &L, std::string &Why);

/// Adds to \p Edits the edits that give \p L, whose facts are \p F, blocks
/// of \p BX x \p BY threads and the grid that covers its bounds with them
/// (none when it has that block); false with the reason in \p Why when its
/// grid or block is written through a macro.
bool coveringLaunch(const KernelModel &M, const KernelLaunch &L,
                    const LaunchFacts &F, int64_t BX, int64_t BY,
                    std::vector<clang::tooling::Replacement> &Edits,
                    std::string &Why);

} // namespace autoprof

#endif
