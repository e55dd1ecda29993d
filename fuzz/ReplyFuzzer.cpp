//===- ReplyFuzzer.cpp - Fuzzing the reading of a model's reply -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatProtocol.h"
#include "autoprof/LLM/KernelReply.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>

using namespace autoprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  // The reply's body as the server sends it, and its text as the model
  // writes it.
  llvm::consumeError(parseChatReply(Text, "fuzz").takeError());
  chatErrorMessage(Text);
  extractKernelCode(Text);
  return 0;
}
