//===- TextEdits.h - Edits of a slice of source text ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// For rewrites that replace a whole statement or region with new text
/// built from its old text: the file range of a statement, and small edits
/// at file offsets applied to a slice of the file.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_TEXTEDITS_H
#define AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_TEXTEDITS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Stmt;
} // namespace clang

namespace autoprof {

/// A range of one file, as offsets.
struct FileRange {
  clang::FileID File;
  unsigned Begin = 0, End = 0;
};

/// The file range of \p S's tokens, or nullopt inside a macro or across
/// files.
std::optional<FileRange> rangeOf(const clang::ASTContext &Ctx,
                                 const clang::Stmt *S);

/// rangeOf(), extended over the `;` that ends \p S when its range stops
/// before it (an expression, a `return`, an `if` or a loop whose last
/// statement is one of those); nullopt when that `;` is not there.
std::optional<FileRange> statementRange(const clang::ASTContext &Ctx,
                                        const clang::Stmt *S);

/// One edit at offsets of a file.
struct TextEdit {
  unsigned Offset, Length;
  std::string Text;
};

/// The text of \p File from \p Begin to \p End with the edits of \p Edits
/// that lie inside it made. Insertions at one offset keep their order.
std::string editedSlice(const clang::ASTContext &Ctx, clang::FileID File,
                        unsigned Begin, unsigned End,
                        const std::vector<TextEdit> &Edits);

/// The words of \p Text: its runs of letters, digits and `_` (identifiers
/// and numbers).
std::set<std::string> wordsOf(llvm::StringRef Text);

/// \p Text with \p Indent after every line break.
std::string indented(llvm::StringRef Text, llvm::StringRef Indent);

} // namespace autoprof

#endif // AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_TEXTEDITS_H
