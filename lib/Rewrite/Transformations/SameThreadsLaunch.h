//===- SameThreadsLaunch.h - Other blocks, the same threads ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A kernel launch rewritten to use blocks of another shape while running
/// exactly the threads it ran, for rewrites that change a launch's block
/// where its grid is not known to cover the kernel's bounds.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_SAMETHREADSLAUNCH_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_SAMETHREADSLAUNCH_H

#include "clang/Tooling/Core/Replacement.h"

#include <cstdint>
#include <optional>
#include <string>

namespace autoprof {

class KernelModel;
struct KernelLaunch;

/// The launch \p L with blocks of \p BX x \p BY threads and a grid that
/// runs the same threads, for a launch whose grid is not known to cover
/// the kernel's bounds (bounds in `__constant__` memory, a grid rounded
/// down, sizes the launch site does not name): when the launch's threads
/// along x and along y divide by the new block's, the new launch has
/// exactly the index pairs of the old one, and a kernel that reads the
/// thread hierarchy only through its global indices computes the same;
/// otherwise the original launch runs. The check is made at run time, in
/// a lambda that evaluates the grid once and makes one of the two launches,
/// so the arguments are evaluated once too.
/// Nullopt when the launch's block is not a constant of depth one (which
/// reading twice cannot change), and with the reason in \p Why when its
/// grid or block are written through macros.
std::optional<clang::tooling::Replacement>
sameThreadsLaunch(const KernelModel &M, const KernelLaunch &L, int64_t BX,
                  int64_t BY, std::string &Why);

} // namespace autoprof

#endif
