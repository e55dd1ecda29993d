//===- NoLint.h - NOLINT comments, as clang-tidy reads them -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Whether a comment silences a finding: `NOLINT` on the finding's line,
/// `NOLINTNEXTLINE` on the line before, or a `NOLINTBEGIN` ... `NOLINTEND`
/// region around it; each optionally followed at once by a parenthesised
/// list of check globs (`NOLINT(autoprof-missing-restrict)`,
/// `NOLINTNEXTLINE(autoprof-*)`), without which it silences every check.
/// A `NOLINTEND` closes the last open `NOLINTBEGIN` with the same list; a
/// `NOLINTBEGIN` never closed silences nothing, as in clang-tidy.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_NOLINT_H
#define AUTOPROF_CHECK_NOLINT_H

#include "llvm/ADT/StringRef.h"

namespace autoprof {

/// Whether a finding of \p Check at line \p Line (1-based) of the file
/// whose text is \p Text is silenced.
bool silencedByNoLint(llvm::StringRef Text, unsigned Line,
                      llvm::StringRef Check);

} // namespace autoprof

#endif // AUTOPROF_CHECK_NOLINT_H
