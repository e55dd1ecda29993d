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
    return R;
  }
  std::vector<size_t> WithKernel;
  for (size_t I = 0; I < Blocks.size(); ++I)
    if (StringRef(Blocks[I]).contains("__global__"))
      WithKernel.push_back(I);
  if (WithKernel.size() == 1) {
    R.Code = std::move(Blocks[WithKernel.front()]);
    R.Unclosed = Open[WithKernel.front()];
    return R;
  }
  R.P = KernelReply::Problem::SeveralBlocks;
  R.Reason = ("the reply has " + Twine(Blocks.size()) + " code blocks, " +
              Twine(WithKernel.size()) +
              " of them with a kernel; the contract asks for one")
                 .str();
  return R;
}
