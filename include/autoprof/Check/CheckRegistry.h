//===- CheckRegistry.h - The static checks ----------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The static list of checks, looked up by name, and the clang-tidy style
/// glob lists (`autoprof-*,-autoprof-double-precision`) that select them.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECKREGISTRY_H
#define AUTOPROF_CHECK_CHECKREGISTRY_H

#include "autoprof/Check/Check.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Regex.h"

#include <memory>
#include <string>
#include <vector>

namespace autoprof {

class CheckRegistry {
public:
  /// Every check, in a fixed (alphabetical) order.
  static const std::vector<const Check *> &all();
  /// The check called \p Name, or null.
  static const Check *find(llvm::StringRef Name);
  /// The names of all(), in order.
  static std::vector<std::string> names();
};

/// A comma-separated list of globs, each optionally negated with `-`;
/// `*` matches any run of characters. The last glob that matches a name
/// decides: positive selects it, negative deselects it.
class GlobList {
public:
  /// Parses \p Text. Spaces and newlines around globs and empty entries
  /// are ignored; a lone `-` is an error.
  static llvm::Expected<GlobList> parse(llvm::StringRef Text);
  /// Whether \p Name is selected.
  bool contains(llvm::StringRef Name) const;
  /// The globs, as written (without `-`), that match no name of \p Names.
  std::vector<std::string> unmatched(llvm::ArrayRef<std::string> Names) const;
  bool empty() const { return Globs.empty(); }

private:
  struct Glob {
    bool Positive = true;
    std::string Text;
    std::shared_ptr<llvm::Regex> Pattern;
  };
  std::vector<Glob> Globs;
};

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECKREGISTRY_H
