//===- UnifiedDiff.cpp - Unified diffs of two texts -----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/UnifiedDiff.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <vector>

using namespace llvm;
using namespace autoprof;

namespace {

/// The lines of a text, without their line ends; whether the last one ends
/// with a newline.
struct Lines {
  std::vector<StringRef> Text;
  bool LastHasNewline = true;
};

Lines splitLines(StringRef S) {
  Lines L;
  while (!S.empty()) {
    size_t N = S.find('\n');
    if (N == StringRef::npos) {
      L.Text.push_back(S);
      L.LastHasNewline = false;
      break;
    }
    L.Text.push_back(S.take_front(N));
    S = S.drop_front(N + 1);
  }
  return L;
}

enum class Op { Equal, Delete, Insert };

struct Edit {
  Op Kind;
  size_t OldLine; // index into the old lines (Equal, Delete)
  size_t NewLine; // index into the new lines (Equal, Insert)
};

/// Aligns the lines by a longest common subsequence of what lies between
/// the common prefix and the common suffix.
std::vector<Edit> diffLines(const std::vector<StringRef> &A,
                            const std::vector<StringRef> &B) {
  size_t Prefix = 0;
  while (Prefix < A.size() && Prefix < B.size() && A[Prefix] == B[Prefix])
    ++Prefix;
  size_t Suffix = 0;
  while (Suffix < A.size() - Prefix && Suffix < B.size() - Prefix &&
         A[A.size() - 1 - Suffix] == B[B.size() - 1 - Suffix])
    ++Suffix;
  size_t N = A.size() - Prefix - Suffix, M = B.size() - Prefix - Suffix;

  std::vector<Edit> Script;
  for (size_t I = 0; I < Prefix; ++I)
    Script.push_back({Op::Equal, I, I});

  // Lengths of common subsequences of A[Prefix+i..] and B[Prefix+j..]; a
  // middle too large for the table is replaced as one block.
  constexpr size_t MaxCells = 16u << 20;
  if (N && M && (N + 1) * (M + 1) <= MaxCells) {
    std::vector<unsigned> L((N + 1) * (M + 1), 0);
    auto At = [&](size_t I, size_t J) -> unsigned & {
      return L[I * (M + 1) + J];
    };
    for (size_t I = N; I-- > 0;)
      for (size_t J = M; J-- > 0;)
        At(I, J) = A[Prefix + I] == B[Prefix + J]
                       ? At(I + 1, J + 1) + 1
                       : std::max(At(I + 1, J), At(I, J + 1));
    size_t I = 0, J = 0;
    while (I < N || J < M) {
      if (I < N && J < M && A[Prefix + I] == B[Prefix + J]) {
        Script.push_back({Op::Equal, Prefix + I, Prefix + J});
        ++I;
        ++J;
      } else if (I < N && (J == M || At(I + 1, J) >= At(I, J + 1))) {
        Script.push_back({Op::Delete, Prefix + I, Prefix + J});
        ++I;
      } else {
        Script.push_back({Op::Insert, Prefix + I, Prefix + J});
        ++J;
      }
    }
  } else {
    for (size_t I = 0; I < N; ++I)
      Script.push_back({Op::Delete, Prefix + I, Prefix});
    for (size_t J = 0; J < M; ++J)
      Script.push_back({Op::Insert, Prefix + N, Prefix + J});
  }

  for (size_t I = 0; I < Suffix; ++I)
    Script.push_back({Op::Equal, A.size() - Suffix + I, B.size() - Suffix + I});
  return Script;
}

void printLine(raw_ostream &OS, char Mark, const Lines &L, size_t I) {
  OS << Mark << L.Text[I] << "\n";
  if (I + 1 == L.Text.size() && !L.LastHasNewline)
    OS << "\\ No newline at end of file\n";
}

/// "start,count" of a hunk side; the start is the line before an empty side.
std::string range(size_t Start, size_t Count) {
  return std::to_string(Count ? Start + 1 : Start) + "," +
         std::to_string(Count);
}

} // namespace

std::string autoprof::unifiedDiff(StringRef Path, StringRef Old, StringRef New,
                                  unsigned Context) {
  if (Old == New)
    return "";
  Lines A = splitLines(Old), B = splitLines(New);
  std::vector<Edit> Script = diffLines(A.Text, B.Text);
  // A last line that differs only in its newline is a change.
  if (!Script.empty() && A.LastHasNewline != B.LastHasNewline &&
      !A.Text.empty() && !B.Text.empty()) {
    Edit &Last = Script.back();
    if (Last.Kind == Op::Equal && Last.OldLine + 1 == A.Text.size() &&
        Last.NewLine + 1 == B.Text.size()) {
      size_t OldLine = Last.OldLine, NewLine = Last.NewLine;
      Script.pop_back();
      Script.push_back({Op::Delete, OldLine, NewLine});
      Script.push_back({Op::Insert, OldLine + 1, NewLine});
    }
  }

  std::string Out;
  raw_string_ostream OS(Out);
  bool Absolute = Path.starts_with("/");
  OS << "--- " << (Absolute ? "" : "a/") << Path << "\n+++ "
     << (Absolute ? "" : "b/") << Path << "\n";
  size_t I = 0;
  while (I < Script.size()) {
    while (I < Script.size() && Script[I].Kind == Op::Equal)
      ++I;
    if (I == Script.size())
      break;
    // A hunk: changes closer than 2 * Context equal lines are joined.
    size_t Begin = I >= Context ? I - Context : 0;
    size_t End = I;
    while (End < Script.size()) {
      if (Script[End].Kind != Op::Equal) {
        ++End;
        continue;
      }
      size_t Run = End;
      while (Run < Script.size() && Script[Run].Kind == Op::Equal)
        ++Run;
      if (Run == Script.size() || Run - End > 2 * Context) {
        End = std::min(Run, End + Context);
        break;
      }
      End = Run;
    }
    size_t OldStart = Script[Begin].OldLine, NewStart = Script[Begin].NewLine;
    size_t OldCount = 0, NewCount = 0;
    for (size_t K = Begin; K < End; ++K) {
      OldCount += Script[K].Kind != Op::Insert;
      NewCount += Script[K].Kind != Op::Delete;
    }
    OS << "@@ -" << range(OldStart, OldCount) << " +"
       << range(NewStart, NewCount) << " @@\n";
    for (size_t K = Begin; K < End; ++K) {
      const Edit &E = Script[K];
      if (E.Kind == Op::Equal)
        printLine(OS, ' ', A, E.OldLine);
      else if (E.Kind == Op::Delete)
        printLine(OS, '-', A, E.OldLine);
      else
        printLine(OS, '+', B, E.NewLine);
    }
    I = End;
  }
  return Out;
}
