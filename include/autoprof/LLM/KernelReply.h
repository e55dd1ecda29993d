//===- KernelReply.h - The code block of a model's reply --------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The reply contract: a model answers with the rewritten kernel in one
/// fenced code block (```cuda ... ```). This takes the block out of a
/// reply's text or says, in one line, why the reply breaks the contract.
/// Clang-free: whether the code is the same kernel is checked by the
/// rewrite engine (autoprof/Rewrite/KernelSplice.h).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_KERNELREPLY_H
#define AUTOPROF_LLM_KERNELREPLY_H

#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <string>

namespace autoprof {

/// What extractKernelCode() found.
struct KernelReply {
  enum class Problem {
    None,
    NoCodeBlock,      ///< No fenced block, or only empty ones.
    SeveralBlocks,    ///< Several blocks, not exactly one with a kernel.
    TooLarge,         ///< The reply is longer than allowed.
    Directive,        ///< The code has a preprocessor directive or _Pragma.
    ControlCharacter, ///< The code has a control character (a NUL, ESC).
  };
  Problem P = Problem::None;
  /// The block's code (without its fences) when P is None.
  std::string Code;
  /// One line saying why, when P is not None.
  std::string Reason;
  /// Whether the block taken runs to the end of the reply, never closed.
  bool Unclosed = false;

  bool ok() const { return P == Problem::None; }
};

/// The most bytes of a reply that are read as a kernel.
constexpr size_t DefaultMaxReplyCodeBytes = 64 * 1024;

/// The single fenced code block of \p Reply. A block opens with a line
/// starting with three or more backticks (or tildes), optionally followed
/// by a language name, and closes with a line of at least as many of the
/// same character; a block left open at the end of the reply runs to the
/// end. When there are several non-empty blocks, the one that contains
/// `__global__` is taken if it is the only one that does; otherwise the
/// reply is rejected. A reply longer than \p MaxBytes is rejected unread.
/// The code taken may hold no preprocessor directive (`#` or `%:` first on
/// a logical line, after white space and comments) and no `_Pragma`: a
/// reply defines the kernel and nothing else, and may not make the build
/// read other files, nor a control character other than white space.
KernelReply extractKernelCode(llvm::StringRef Reply,
                              size_t MaxBytes = DefaultMaxReplyCodeBytes);

} // namespace autoprof

#endif // AUTOPROF_LLM_KERNELREPLY_H
