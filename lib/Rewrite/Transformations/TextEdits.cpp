//===- TextEdits.cpp - Edits of a slice of source text --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TextEdits.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <cctype>

using namespace clang;
using namespace autoprof;

std::optional<FileRange> autoprof::rangeOf(const ASTContext &Ctx,
                                           const Stmt *S) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(S->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  auto [BF, B] = SM.getDecomposedLoc(R.getBegin());
  auto [EF, E] = SM.getDecomposedLoc(R.getEnd());
  if (BF != EF || E < B)
    return std::nullopt;
  return FileRange{BF, B, E};
}

std::optional<FileRange> autoprof::statementRange(const ASTContext &Ctx,
                                                  const Stmt *S) {
  std::optional<FileRange> R = rangeOf(Ctx, S);
  if (!R || R->End == R->Begin)
    return R;
  StringRef Buffer = Ctx.getSourceManager().getBufferData(R->File);
  char Last = Buffer[R->End - 1];
  if (Last == ';' || Last == '}')
    return R;
  // An expression, a `return`, or a statement that ends in one (`if (c)
  // return`, a loop whose body is one expression): its `;` follows.
  size_t Semi = Buffer.find_first_not_of(" \t\r\n", R->End);
  if (Semi == StringRef::npos || Buffer[Semi] != ';')
    return std::nullopt;
  R->End = Semi + 1;
  return R;
}

std::string autoprof::editedSlice(const ASTContext &Ctx, FileID File,
                                  unsigned Begin, unsigned End,
                                  const std::vector<TextEdit> &Edits) {
  StringRef Buffer = Ctx.getSourceManager().getBufferData(File);
  std::vector<TextEdit> Inside;
  for (const TextEdit &E : Edits)
    if (E.Offset >= Begin && E.Offset + E.Length <= End)
      Inside.push_back(E);
  std::stable_sort(
      Inside.begin(), Inside.end(),
      [](const TextEdit &A, const TextEdit &B) { return A.Offset < B.Offset; });
  std::string Out;
  unsigned At = Begin;
  for (const TextEdit &E : Inside) {
    if (E.Offset < At)
      continue; // overlaps the one before; callers do not make these
    Out += Buffer.slice(At, E.Offset).str();
    Out += E.Text;
    At = E.Offset + E.Length;
  }
  Out += Buffer.slice(At, End).str();
  return Out;
}

std::string autoprof::indented(StringRef Text, StringRef Indent) {
  std::string Out;
  for (char C : Text) {
    Out += C;
    if (C == '\n')
      Out += Indent;
  }
  return Out;
}

std::set<std::string> autoprof::wordsOf(StringRef Text) {
  std::set<std::string> Words;
  size_t I = 0;
  while (I < Text.size()) {
    if (!isalnum(static_cast<unsigned char>(Text[I])) && Text[I] != '_') {
      ++I;
      continue;
    }
    size_t J = I;
    while (J < Text.size() &&
           (isalnum(static_cast<unsigned char>(Text[J])) || Text[J] == '_'))
      ++J;
    Words.insert(Text.slice(I, J).str());
    I = J;
  }
  return Words;
}
