//===- ExportFixes.h - Findings for clang-apply-replacements ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `check --export-fixes`: the findings of a run in clang-tidy's layout,
/// written by Clang's own YAML traits (clang/Tooling/DiagnosticsYaml.h), so
/// that clang-apply-replacements and the tools that read clang-tidy's
/// exports read them.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_EXPORTFIXES_H
#define AUTOPROF_CHECK_EXPORTFIXES_H

#include "autoprof/Check/Check.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace autoprof {

/// A `TranslationUnitDiagnostics` document: `MainSourceFile`, then under
/// `Diagnostics` every finding, of every file of the run, with its check's
/// name, message, file, offset, level and \p BuildDirectory. A finding
/// whose \p Applied flag is set carries its fix's replacements, grouped by
/// file; the others (no fix, or one that overlaps a fix taken before it)
/// carry none, so that applying the export gives what `--fix` gives.
/// \p Applied has one flag per finding.
std::string exportFindingsYAML(llvm::StringRef MainSourceFile,
                               llvm::ArrayRef<Finding> Findings,
                               const std::vector<bool> &Applied,
                               llvm::StringRef BuildDirectory);

} // namespace autoprof

#endif // AUTOPROF_CHECK_EXPORTFIXES_H
