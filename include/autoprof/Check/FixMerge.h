//===- FixMerge.h - The fixes of a check run, merged per file ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `check --fix` and `--export-fixes` take the findings' fixes in the
/// findings' order, merged per file; a fix that repeats or overlaps one
/// already taken is left out whole, so that every fix applied is applied as
/// its check wrote it.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_FIXMERGE_H
#define AUTOPROF_CHECK_FIXMERGE_H

#include "autoprof/Check/Check.h"
#include "autoprof/Rewrite/Transformation.h"

#include "llvm/ADT/ArrayRef.h"

#include <vector>

namespace autoprof {

/// The fixes of a run, merged.
struct MergedFixes {
  /// The edits taken, by file.
  FileEdits Edits;
  /// Findings with a fix, and those whose fix was taken.
  unsigned Suggested = 0, Merged = 0;
  /// Per finding: whether its fix was taken.
  std::vector<bool> Applied;
};

/// Merges the fixes of \p Findings in their order.
MergedFixes mergeFixes(llvm::ArrayRef<Finding> Findings);

} // namespace autoprof

#endif // AUTOPROF_CHECK_FIXMERGE_H
