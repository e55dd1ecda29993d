//===- UnifiedDiff.h - Unified diffs of two texts ---------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Renders the difference between two versions of a file as a unified diff
/// that `patch -p1` and `git apply` read.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_UNIFIEDDIFF_H
#define AUTOPROF_REWRITE_UNIFIEDDIFF_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace autoprof {

/// The unified diff from \p Old to \p New with \p Context lines of context,
/// headed `--- a/<Path>` and `+++ b/<Path>` (`--- <Path>` and `+++ <Path>`
/// for an absolute path); empty when the texts are equal.
/// Lines are compared after trimming the common prefix and suffix, by a
/// longest common subsequence of the rest.
std::string unifiedDiff(llvm::StringRef Path, llvm::StringRef Old,
                        llvm::StringRef New, unsigned Context = 3);

} // namespace autoprof

#endif // AUTOPROF_REWRITE_UNIFIEDDIFF_H
