//===- ChatClient.h - OpenAI-compatible chat-completions client -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A client of the OpenAI-compatible chat-completions protocol (OpenAI,
/// vLLM, Ollama, llama.cpp's server): `POST {base}/chat/completions` over
/// libcurl, with timeouts, a bound on the reply's size, a limit on the
/// requests in flight, and retries with exponential backoff on HTTP 429, 5xx
/// and connection errors. docs/llm.md describes what is sent.
///
/// The API key is sent only in the `Authorization: Bearer` header; it never
/// appears in an error message.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_CHATCLIENT_H
#define AUTOPROF_LLM_CHATCLIENT_H

#include "autoprof/LLM/ChatProtocol.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// Where to send requests, what to ask for, and how patiently.
struct ChatConfig {
  /// The API's base URL, up to and including its version (".../v1"). The
  /// endpoint is `{BaseURL}/chat/completions`.
  std::string BaseURL;
  std::string Model;
  /// Sent as `Authorization: Bearer <APIKey>`; no such header when empty.
  std::string APIKey;

  double Temperature = 0.0;
  unsigned MaxTokens = 4096;
  std::optional<int64_t> Seed; ///< Sent only when set.

  std::chrono::milliseconds ConnectTimeout{10000};
  /// The limit on one HTTP request, connection included.
  std::chrono::milliseconds Timeout{300000};

  /// Retries after the first attempt, on HTTP 429, 5xx, timeouts and
  /// connection errors.
  unsigned MaxRetries = 4;
  /// The backoff before retry N (N >= 1) is uniform in
  /// [0, min(RetryMaxDelay, RetryBaseDelay * 2^(N-1))].
  std::chrono::milliseconds RetryBaseDelay{1000};
  std::chrono::milliseconds RetryMaxDelay{30000};
  /// A server's `Retry-After` (in seconds) replaces the backoff, capped here.
  std::chrono::milliseconds MaxRetryAfter{60000};

  /// A longer reply body is an error.
  size_t MaxReplyBytes = 8u << 20;
  /// Turns TLS certificate and host name verification off.
  bool Insecure = false;
  /// The most requests one client has in flight at once, over all threads.
  unsigned MaxInFlight = 4;

  /// The defaults, with BaseURL, Model and APIKey taken from
  /// AUTOPROF_LLM_BASE_URL, AUTOPROF_LLM_MODEL and AUTOPROF_LLM_API_KEY (or,
  /// when that is unset or empty, OPENAI_API_KEY).
  static ChatConfig fromEnvironment();

  /// The request that \p Messages make under this configuration.
  ChatRequest makeRequest(std::vector<ChatMessage> Messages) const;
};

/// Sends chat-completions requests. One client may be used from several
/// threads at once; it keeps at most ChatConfig::MaxInFlight requests in
/// flight and makes the others wait.
class ChatClient {
public:
  /// Sleeps between attempts; replaceable so that tests need not wait.
  using SleepFunction = std::function<void(std::chrono::milliseconds)>;

  explicit ChatClient(ChatConfig Config);
  ~ChatClient();
  ChatClient(const ChatClient &) = delete;
  ChatClient &operator=(const ChatClient &) = delete;

  const ChatConfig &config() const { return Config; }

  /// The endpoint, `{BaseURL}/chat/completions`.
  std::string endpoint() const;

  /// The endpoint without any user name or password, for messages.
  std::string displayEndpoint() const;

  void setSleepFunction(SleepFunction Sleep);

  /// Sends \p Request and returns its reply, retrying as the configuration
  /// says. Every failure is one line: the reply is not JSON, has no choices
  /// or no content, the server refused the request (HTTP 4xx other than 429,
  /// with its `error.message`), it kept failing (the attempts and the last
  /// status), the request timed out, the connection was refused, or the
  /// reply was larger than ChatConfig::MaxReplyBytes.
  llvm::Expected<ChatReply> complete(const ChatRequest &Request);

  /// complete(config().makeRequest(Messages)).
  llvm::Expected<ChatReply> complete(std::vector<ChatMessage> Messages);

  /// The backoff before retry \p Retry (1 for the first) with full jitter:
  /// \p Uniform01 is a number in [0, 1].
  static std::chrono::milliseconds backoff(const ChatConfig &Config,
                                           unsigned Retry, double Uniform01);

private:
  struct State;
  ChatConfig Config;
  std::unique_ptr<State> S;
};

} // namespace autoprof

#endif // AUTOPROF_LLM_CHATCLIENT_H
