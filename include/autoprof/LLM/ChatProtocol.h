//===- ChatProtocol.h - OpenAI-compatible chat-completions JSON -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The JSON of the OpenAI-compatible chat-completions protocol: the request
/// body that is sent to `POST {base}/chat/completions`, and the parsing of a
/// reply's text and token usage. Nothing here talks to the network.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_CHATPROTOCOL_H
#define AUTOPROF_LLM_CHATPROTOCOL_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// One message of a conversation.
struct ChatMessage {
  std::string Role; ///< "system", "user" or "assistant".
  std::string Content;

  bool operator==(const ChatMessage &O) const {
    return Role == O.Role && Content == O.Content;
  }
};

/// Everything that decides a reply: the fields of the request body. It holds
/// no credentials and no server address.
struct ChatRequest {
  std::string Model;
  std::vector<ChatMessage> Messages;
  double Temperature = 0.0;
  unsigned MaxTokens = 4096;
  std::optional<int64_t> Seed; ///< Sent only when set.
};

/// The token counts of a reply's `usage` object.
struct ChatUsage {
  uint64_t PromptTokens = 0;
  uint64_t CompletionTokens = 0;
  uint64_t TotalTokens = 0;
};

/// A reply: `choices[0].message.content` and what came with it.
struct ChatReply {
  std::string Text;
  std::string FinishReason; ///< `choices[0].finish_reason`, or empty.
  std::optional<ChatUsage> Usage;
  unsigned Attempts = 0;  ///< HTTP requests made; 0 for a cached reply.
  bool FromCache = false; ///< Read from a reply cache, not the network.
};

/// The request body: model, messages (role and content), temperature,
/// max_tokens, and seed when it is set, in that order.
std::string chatRequestBody(const ChatRequest &Request);

/// Parses a reply body. Fails with a one-line message when it is not JSON,
/// has no choices, or its first choice has no string `message.content`.
/// \p Origin names where the body came from in those messages.
llvm::Expected<ChatReply> parseChatReply(llvm::StringRef Body,
                                         llvm::StringRef Origin);

/// The `error.message` of an error reply (or its `error` when that is a
/// string, or its `message`), on one line; empty when the body has none.
std::string chatErrorMessage(llvm::StringRef Body);

} // namespace autoprof

#endif // AUTOPROF_LLM_CHATPROTOCOL_H
