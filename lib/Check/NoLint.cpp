//===- NoLint.cpp - NOLINT comments, as clang-tidy reads them -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/NoLint.h"

#include "autoprof/Check/CheckRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;
using namespace autoprof;

namespace {

enum class Kind { Line, NextLine, Begin, End };

struct Directive {
  Kind K;
  /// The text between the parentheses; nullopt when there are none.
  std::optional<std::string> Globs;
};

/// The directives written on \p Line, in order.
std::vector<Directive> directives(StringRef Line) {
  std::vector<Directive> Out;
  for (size_t At = Line.find("NOLINT"); At != StringRef::npos;
       At = Line.find("NOLINT", At + 1)) {
    StringRef Rest = Line.substr(At + strlen("NOLINT"));
    Kind K = Kind::Line;
    if (Rest.consume_front("NEXTLINE"))
      K = Kind::NextLine;
    else if (Rest.consume_front("BEGIN"))
      K = Kind::Begin;
    else if (Rest.consume_front("END"))
      K = Kind::End;
    // NOLINTX or FOO_NOLINT is not a directive.
    if ((!Rest.empty() && (isAlnum(Rest.front()) || Rest.front() == '_')) ||
        (At > 0 && (isAlnum(Line[At - 1]) || Line[At - 1] == '_')))
      continue;
    Directive D{K, std::nullopt};
    if (Rest.consume_front("(")) {
      size_t Close = Rest.find(')');
      if (Close == StringRef::npos)
        continue; // An unclosed list is not a directive.
      D.Globs = Rest.take_front(Close).str();
    }
    Out.push_back(std::move(D));
  }
  return Out;
}

bool covers(const Directive &D, StringRef Check) {
  if (!D.Globs)
    return true;
  Expected<GlobList> G = GlobList::parse(*D.Globs);
  if (!G) {
    consumeError(G.takeError());
    return false;
  }
  return G->contains(Check);
}

} // namespace

bool autoprof::silencedByNoLint(StringRef Text, unsigned Line,
                                StringRef Check) {
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  if (Line == 0 || Line > Lines.size())
    return false;
  for (const Directive &D : directives(Lines[Line - 1]))
    if (D.K == Kind::Line && covers(D, Check))
      return true;
  if (Line > 1)
    for (const Directive &D : directives(Lines[Line - 2]))
      if (D.K == Kind::NextLine && covers(D, Check))
        return true;
  // Regions: those open at the line must also close after it.
  std::vector<Directive> Open;
  for (unsigned I = 0; I + 1 < Line; ++I)
    for (Directive &D : directives(Lines[I])) {
      if (D.K == Kind::Begin)
        Open.push_back(std::move(D));
      else if (D.K == Kind::End)
        for (size_t J = Open.size(); J > 0; --J)
          if (Open[J - 1].Globs == D.Globs) {
            Open.erase(Open.begin() + (J - 1));
            break;
          }
    }
  for (const Directive &B : Open) {
    if (!covers(B, Check))
      continue;
    // Closed somewhere after the finding's line.
    unsigned Depth = 0;
    for (unsigned I = Line - 1; I < Lines.size(); ++I)
      for (const Directive &D : directives(Lines[I])) {
        if (D.Globs != B.Globs)
          continue;
        if (D.K == Kind::Begin)
          ++Depth;
        else if (D.K == Kind::End && Depth-- == 0)
          return true;
      }
  }
  return false;
}
