//===- CheckOutput.h - Findings as text and SARIF ---------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Renders the findings of the checks the way Clang prints diagnostics
/// (location, severity, message, check name, source line and caret), or as
/// a SARIF 2.1.0 log.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECKOUTPUT_H
#define AUTOPROF_CHECK_CHECKOUTPUT_H

#include "autoprof/Check/Check.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <string>

namespace autoprof {

/// Gives the text of a file named by its absolute path (empty when unknown).
using FileTextLookup = std::function<llvm::StringRef(llvm::StringRef)>;

/// The findings as Clang prints diagnostics, through Clang's own
/// TextDiagnosticPrinter:
///
///     k.cu:12:5: warning: message [autoprof-name]
///        12 |     x = a[i * n];
///           |         ^
///
/// with each fix as fix-it hints (the replaced range marked, the new text
/// under it), and ANSI colours when \p Color. \p Shown gives the path to
/// print for a file. A promoted warning reads
/// `error: ... [autoprof-name,-warnings-as-errors]`.
std::string
formatFindingsText(llvm::ArrayRef<Finding> Findings, const FileTextLookup &Text,
                   const std::function<std::string(llvm::StringRef)> &Shown,
                   bool Color = false);

/// The 1-based line and column of byte \p Offset of \p Text.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef Text,
                                            unsigned Offset);

/// A SARIF 2.1.0 log of one run: the driver with a rule per check of
/// \p Rules (helpUri \p DocsURL + "/checks/<name>.md", and `help` when the
/// check has help text), and a result per finding with its location and
/// fixes.
std::string formatFindingsSarif(llvm::ArrayRef<Finding> Findings,
                                llvm::ArrayRef<const Check *> Rules,
                                const FileTextLookup &Text,
                                llvm::StringRef ToolVersion,
                                llvm::StringRef DocsURL);

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECKOUTPUT_H
