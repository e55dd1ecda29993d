//===- KernelReply.cpp - The code block of a model's reply ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/KernelReply.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <vector>

using namespace autoprof;
using namespace llvm;

namespace {

/// The fence that \p Line opens or closes: its character and length, or 0.
size_t fenceLength(StringRef Line, char &C) {
  StringRef T = Line.ltrim(" ");
  if (Line.size() - T.size() > 3 || T.empty() || (T[0] != '`' && T[0] != '~'))
    return 0;
  C = T[0];
  size_t N = T.find_first_not_of(C);
  N = N == StringRef::npos ? T.size() : N;
  return N >= 3 ? N : 0;
}

/// The line (from 1) of the first preprocessor directive or `_Pragma` of
/// \p Code, or 0. Lines are spliced at backslash-newlines first; comments,
/// string and character literals (raw strings too) are skipped, so that
/// `/* */ #include` is found and `"#"` is not.
unsigned firstDirectiveLine(StringRef Code) {
  unsigned Line = 1;
  bool LineStart = true;
  size_t I = 0, N = Code.size();
  // The next character after backslash-newlines, counting lines.
  auto Splice = [&](size_t &J) {
    unsigned Lines = 0;
    while (J + 1 < N && Code[J] == '\\' &&
           (Code[J + 1] == '\n' ||
            (Code[J + 1] == '\r' && J + 2 < N && Code[J + 2] == '\n'))) {
      J += Code[J + 1] == '\n' ? 2 : 3;
      ++Lines;
    }
    return Lines;
  };
  auto Skip = [&](size_t &J) { Line += Splice(J); };
  // The character at J after backslash-newlines, without moving.
  auto At = [&](size_t J) -> char {
    Splice(J);
    return J < N ? Code[J] : '\0';
  };
  while (true) {
    Skip(I);
    if (I >= N)
      return 0;
    char C = Code[I];
    if (C == '\n') {
      ++Line;
      LineStart = true;
      ++I;
      continue;
    }
    if (C == ' ' || C == '\t' || C == '\r' || C == '\f' || C == '\v') {
      ++I;
      continue;
    }
    if (C == '/' && At(I + 1) == '/') {
      while (I < N && Code[I] != '\n')
        ++I; // A backslash-newline continues it: counted as its own line.
      continue;
    }
    if (C == '/' && At(I + 1) == '*') {
      size_t J = I + 1;
      Skip(J);
      I = J + 1;
      // Up to `*/`, which a backslash-newline may split too.
      while (true) {
        Skip(I);
        if (I >= N)
          return 0;
        if (Code[I] == '\n') {
          ++Line;
          LineStart = true;
        } else if (Code[I] == '*' && At(I + 1) == '/') {
          J = I + 1;
          Skip(J);
          I = J + 1;
          break;
        }
        ++I;
      }
      continue;
    }
    if (LineStart && (C == '#' || (C == '%' && At(I + 1) == ':'))) {
      // Only `#pragma unroll` and `#pragma nounroll` are allowed: they
      // read nothing and define nothing.
      size_t J = I + 1;
      if (C == '%') {
        Splice(J);
        ++J;
      }
      std::string Words;
      while (true) {
        Splice(J);
        if (J >= N || Code[J] == '\n')
          break;
        Words += Code[J] == '\t' ? ' ' : Code[J];
        ++J;
      }
      SmallVector<StringRef, 4> W;
      StringRef(Words).split(W, ' ', -1, /*KeepEmpty=*/false);
      bool Unroll = W.size() >= 2 && W[0] == "pragma" &&
                    (W[1] == "unroll" || W[1] == "nounroll" ||
                     W[1].starts_with("unroll(")) &&
                    !StringRef(Words).contains("/*") &&
                    !StringRef(Words).contains('"');
      if (!Unroll)
        return Line;
      for (size_t K = I; K < J && K < N; ++K)
        Line += Code[K] == '\n';
      I = J;
      LineStart = false;
      continue;
    }
    LineStart = false;
    if (C == '?' && (Code.substr(I).starts_with("?\?=") ||
                     Code.substr(I).starts_with("?\?/")))
      return Line; // Trigraphs of `#` and of a backslash.
    if (C == '_' && Code.substr(I).starts_with("_Pragma"))
      return Line;
    if (C == '"' || C == '\'') {
      ++I;
      while (I < N && Code[I] != C && Code[I] != '\n')
        I += Code[I] == '\\' ? 2 : 1;
      if (I < N && Code[I] == C)
        ++I;
      continue;
    }
    if (isalnum(static_cast<unsigned char>(C)) || C == '_') {
      size_t Start = I;
      while (I < N &&
             (isalnum(static_cast<unsigned char>(Code[I])) || Code[I] == '_'))
        ++I;
      StringRef Word = Code.slice(Start, I);
      if (I < N && Code[I] == '"' &&
          (Word == "R" || Word == "LR" || Word == "uR" || Word == "UR" ||
           Word == "u8R")) {
        // A raw string, R"delim( ... )delim", may hold anything.
        size_t Open = Code.find('(', I + 1);
        if (Open == StringRef::npos)
          return Line; // Malformed: what follows cannot be vouched for.
        std::string Close = (")" + Code.slice(I + 1, Open) + "\"").str();
        size_t End = Code.find(Close, Open + 1);
        if (End == StringRef::npos)
          return Line;
        End += Close.size();
        Line += Code.slice(I, End).count('\n');
        I = End;
      }
      continue;
    }
    ++I;
  }
}

KernelReply &refuseDirectives(KernelReply &R) {
  // Source code holds no control character but white space: a NUL or an
  // escape sequence would reach the diff printed on a terminal.
  unsigned LineNo = 1;
  for (char C : R.Code) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '\n')
      ++LineNo;
    else if ((U < 0x20 && C != '\t' && C != '\r' && C != '\f' && C != '\v') ||
             U == 0x7f) {
      R.P = KernelReply::Problem::ControlCharacter;
      R.Reason = ("the reply's code has a control character (byte " +
                  Twine(unsigned(U)) + ") at its line " + Twine(LineNo) +
                  "; source code holds none")
                     .str();
      R.Code.clear();
      return R;
    }
  }
  if (unsigned Line = firstDirectiveLine(R.Code)) {
    R.P = KernelReply::Problem::Directive;
    R.Reason = ("the reply's code has a preprocessor directive or _Pragma at "
                "its line " +
                Twine(Line) +
                "; the contract allows only the kernel's "
                "definition")
                   .str();
    R.Code.clear();
  }
  return R;
}

} // namespace

KernelReply autoprof::extractKernelCode(StringRef Reply, size_t MaxBytes) {
  KernelReply R;
  if (Reply.size() > MaxBytes) {
    R.P = KernelReply::Problem::TooLarge;
    R.Reason =
        ("the reply has " + Twine(Reply.size()) + " bytes, more than the " +
         Twine(MaxBytes) + " allowed for one kernel")
            .str();
    return R;
  }
  SmallVector<StringRef, 0> Lines;
  Reply.split(Lines, '\n');
  std::vector<std::string> Blocks;
  std::vector<bool> Open;
  for (size_t I = 0; I < Lines.size(); ++I) {
    char C;
    size_t N = fenceLength(Lines[I], C);
    if (!N)
      continue;
    std::string Code;
    size_t J = I + 1;
    for (; J < Lines.size(); ++J) {
      char D;
      size_t M = fenceLength(Lines[J], D);
      if (M >= N && D == C && Lines[J].trim().size() == M)
        break;
      Code += Lines[J].rtrim("\r").str() + "\n";
    }
    if (!StringRef(Code).trim().empty()) {
      Blocks.push_back(std::move(Code));
      Open.push_back(J == Lines.size());
    }
    I = J;
  }
  if (Blocks.empty()) {
    R.P = KernelReply::Problem::NoCodeBlock;
    R.Reason = "the reply has no fenced code block (```cuda ... ```)";
    return R;
  }
  if (Blocks.size() == 1) {
    R.Code = std::move(Blocks.front());
    R.Unclosed = Open.front();
    return refuseDirectives(R);
  }
  std::vector<size_t> WithKernel;
  for (size_t I = 0; I < Blocks.size(); ++I)
    if (StringRef(Blocks[I]).contains("__global__"))
      WithKernel.push_back(I);
  if (WithKernel.size() == 1) {
    R.Code = std::move(Blocks[WithKernel.front()]);
    R.Unclosed = Open[WithKernel.front()];
    return refuseDirectives(R);
  }
  R.P = KernelReply::Problem::SeveralBlocks;
  R.Reason = ("the reply has " + Twine(Blocks.size()) + " code blocks, " +
              Twine(WithKernel.size()) +
              " of them with a kernel; the contract asks for one")
                 .str();
  return R;
}
