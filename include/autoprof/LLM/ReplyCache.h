//===- ReplyCache.h - On-disk cache of chat-completions replies -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A directory of replies, one file per request: `<key>.json`, where the key
/// is the SHA-256 (hex) of a canonical serialisation of the request's model,
/// messages, temperature, max_tokens and seed. The server's address and the
/// API key are not part of the key and are never written. A file holds the
/// request's parameters and the reply's text; it is written to a temporary
/// file and renamed into place, so readers never see half a file.
///
/// In replay-only mode the cache answers from its files and never calls the
/// network: a request it has no reply for is an error.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_REPLYCACHE_H
#define AUTOPROF_LLM_REPLYCACHE_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/LLM/ChatProtocol.h"

#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace autoprof {

class ReplyCache {
public:
  enum class Mode {
    ReadWrite,  ///< Look up first; call the server on a miss and store.
    ReplayOnly, ///< Look up only; a miss is an error.
  };

  explicit ReplyCache(std::string Directory, Mode M = Mode::ReadWrite);

  const std::string &directory() const { return Directory; }
  Mode mode() const { return CacheMode; }

  /// The canonical serialisation that the key hashes.
  static std::string canonicalRequest(const ChatRequest &Request);

  /// The key of \p Request: 64 lower-case hex digits.
  static std::string key(const ChatRequest &Request);

  /// The file that holds (or would hold) the reply to \p Request.
  std::string path(const ChatRequest &Request) const;

  /// The stored reply to \p Request, or nullopt when there is none. Fails
  /// when the file exists but cannot be read or is not a cache entry.
  llvm::Expected<std::optional<ChatReply>>
  lookup(const ChatRequest &Request) const;

  /// Stores \p Reply as the reply to \p Request, creating the directory when
  /// it is missing, atomically replacing any earlier entry.
  llvm::Error store(const ChatRequest &Request, const ChatReply &Reply) const;

  /// The cached reply to \p Request; on a miss, in read-write mode, the
  /// client's reply, stored before it is returned. In replay-only mode a miss
  /// fails with "no cached reply for this request in <dir>; rerun without
  /// --llm-replay-only" and \p Client is not called.
  llvm::Expected<ChatReply> complete(ChatClient &Client,
                                     const ChatRequest &Request) const;

private:
  std::string Directory;
  Mode CacheMode;
};

} // namespace autoprof

#endif // AUTOPROF_LLM_REPLYCACHE_H
