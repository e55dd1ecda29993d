//===- BoundedParse.h - JSON parsing with limits ----------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one way the project parses JSON: RapidJSON's iterative parser (its
/// recursive one overflows the stack on deep nesting), strict UTF-8, and
/// limits on size and nesting, with duplicate keys refused. Every reader of
/// a file, a reply or a configuration calls parseBounded(). Uses neither
/// LLVM nor Clang: the injection library links it.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_JSON_BOUNDEDPARSE_H
#define AUTOPROF_JSON_BOUNDEDPARSE_H

#include "rapidjson/document.h"

#include <cstddef>
#include <string>

namespace autoprof {
namespace json {

struct ParseLimits {
  /// The most bytes a text may have.
  size_t MaxBytes = size_t(64) << 20;
  /// The deepest nesting of arrays and objects; the formats need fewer
  /// than ten levels.
  unsigned MaxDepth = 64;
};

/// Parses \p Size bytes at \p Text into \p Doc. On failure returns false
/// with one line in \p Error, without a file name (the caller adds it):
/// "<line>:<col>: malformed JSON: <why>" (also for invalid UTF-8),
/// "<path>: nested deeper than <N> levels", "<path of the object>: duplicate key '<k>'"
/// or "larger than <N> bytes". Paths are written `$.a[2].b`; a key in a
/// path or a message is printed with printableText().
bool parseBounded(const char *Text, size_t Size, rapidjson::Document &Doc,
                  std::string &Error, const ParseLimits &L = ParseLimits());
inline bool parseBounded(const std::string &Text, rapidjson::Document &Doc,
                         std::string &Error,
                         const ParseLimits &L = ParseLimits()) {
  return parseBounded(Text.data(), Text.size(), Doc, Error, L);
}

/// \p Text as it is safe to print on one line of a terminal: control
/// characters and bytes that are not UTF-8 escaped (`\n`, `\x1b`), `\`
/// too unless \p EscapeBackslash is false (a message that quotes a path or
/// a regular expression), and cut to \p MaxChars characters with "..."
/// when longer. Every message that prints text read from an input passes
/// it through this.
std::string printableText(const std::string &Text, size_t MaxChars = 200,
                          bool EscapeBackslash = true);

} // namespace json
} // namespace autoprof

#endif // AUTOPROF_JSON_BOUNDEDPARSE_H
