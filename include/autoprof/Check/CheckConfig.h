//===- CheckConfig.h - The .clang-autoprof configuration file ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads the `.clang-autoprof` YAML file that selects checks for the sources
/// of a directory tree:
///
///     Checks: 'autoprof-*,-autoprof-double-precision'
///     WarningsAsErrors: 'autoprof-missing-bounds-check'
///
/// The file nearest to a source (its directory, then each parent) applies;
/// options given on the command line override its keys.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECKCONFIG_H
#define AUTOPROF_CHECK_CHECKCONFIG_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace autoprof {

/// The name of the configuration file.
constexpr const char *CheckConfigFileName = ".clang-autoprof";

/// The keys of a configuration file; an absent key is nullopt.
struct CheckConfig {
  std::optional<std::string> Checks;
  std::optional<std::string> WarningsAsErrors;
  /// The file it was read from; empty when none was found.
  std::string Path;
};

/// Parses the configuration \p Text read from \p Path. Fails with one line
/// naming \p Path, the line and column, on malformed YAML, an unknown key
/// or a value that is not a string.
llvm::Expected<CheckConfig> parseCheckConfig(llvm::StringRef Text,
                                             llvm::StringRef Path);

/// The configuration that applies to \p Source: the nearest
/// `.clang-autoprof` in its directory or a parent, parsed; an empty config
/// when there is none.
llvm::Expected<CheckConfig> findCheckConfig(llvm::StringRef Source);

struct CheckSelection;
class GlobList;

/// Parses \p Text (from \p Origin, named in the error) into a glob list
/// whose every glob selects at least one known check.
llvm::Expected<GlobList> parseCheckGlobs(llvm::StringRef Text,
                                         llvm::StringRef Origin);

/// The checks and the promoted warnings for \p Source, as clang-tidy
/// layers them: every check, then the `.clang-autoprof` file found from the
/// source's folder up (its `Checks` and `WarningsAsErrors`), then the
/// command line's \p Checks and \p WarningsAsErrors (null when not given).
/// \p Name names the source in the error when no check is left (empty:
/// the source's path).
llvm::Expected<CheckSelection>
checkSelectionFor(llvm::StringRef Source, const std::string *Checks,
                  const std::string *WarningsAsErrors,
                  llvm::StringRef Name = "");

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECKCONFIG_H
