//===- ChatClientTest.cpp - Tests of the chat-completions client ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatClient.h"

#include "TestChatServer.h"

#include "gtest/gtest.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <thread>

using namespace autoprof;
using namespace autoprof::test;
using namespace std::chrono_literals;

namespace {

const char *const Key = "sk-test-0123456789abcdef";

std::vector<ChatMessage> hello() {
  return {{"system", "You rewrite CUDA kernels."}, {"user", "hello"}};
}

/// Records the client's sleeps instead of sleeping.
struct Sleeps {
  std::mutex M;
  std::vector<std::chrono::milliseconds> Seen;

  void attach(ChatClient &Client) {
    Client.setSleepFunction([this](std::chrono::milliseconds D) {
      std::lock_guard<std::mutex> L(M);
      Seen.push_back(D);
    });
  }
};

std::string errorOf(llvm::Expected<ChatReply> Reply) {
  if (Reply)
    return "(no error; reply '" + Reply->Text + "')";
  return llvm::toString(Reply.takeError());
}

/// The error that a request under \p Config ends in.
std::string failure(ChatConfig Config) {
  ChatClient Client(std::move(Config));
  Sleeps S;
  S.attach(Client);
  return errorOf(Client.complete(hello()));
}

#define SERVER_OR_SKIP(Var)                                                    \
  TestChatServer *Var = TestChatServer::get();                                 \
  if (!Var)                                                                    \
  return

TEST(ChatClientTest, Success) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("ok-basic");
  C.Temperature = 0.5;
  C.MaxTokens = 123;
  ChatClient Client(C);
  auto Reply = Client.complete(hello());
  ASSERT_TRUE(bool(Reply)) << llvm::toString(Reply.takeError());
  EXPECT_EQ(Reply->Text, "reply to: hello");
  EXPECT_EQ(Reply->FinishReason, "stop");
  EXPECT_EQ(Reply->Attempts, 1u);
  EXPECT_FALSE(Reply->FromCache);
  ASSERT_TRUE(Reply->Usage.has_value());
  EXPECT_EQ(Reply->Usage->PromptTokens, 11u);
  EXPECT_EQ(Reply->Usage->CompletionTokens, 7u);
  EXPECT_EQ(Reply->Usage->TotalTokens, 18u);

  auto Seen = Server->requests("ok-basic");
  ASSERT_EQ(Seen.size(), 1u);
  const rapidjson::Value &R = Seen[0];
  EXPECT_STREQ(R["path"].GetString(), "/v1/chat/completions");
  const rapidjson::Value &Headers = R["headers"];
  EXPECT_EQ(std::string(Headers["authorization"].GetString()),
            std::string("Bearer ") + Key);
  EXPECT_STREQ(Headers["content-type"].GetString(), "application/json");
  EXPECT_STREQ(Headers["accept"].GetString(), "application/json");
  EXPECT_STREQ(Headers["user-agent"].GetString(), "clang-autoprof");
  std::vector<std::string> Names;
  for (const auto &H : Headers.GetObject())
    Names.push_back(H.name.GetString());
  std::sort(Names.begin(), Names.end());
  EXPECT_EQ(Names, (std::vector<std::string>{"accept", "authorization",
                                             "content-length", "content-type",
                                             "host", "user-agent"}));
  const rapidjson::Value &Body = R["body"];
  EXPECT_STREQ(Body["model"].GetString(), "ok-basic");
  ASSERT_TRUE(Body["messages"].IsArray());
  ASSERT_EQ(Body["messages"].Size(), 2u);
  EXPECT_STREQ(Body["messages"][0]["role"].GetString(), "system");
  EXPECT_STREQ(Body["messages"][0]["content"].GetString(),
               "You rewrite CUDA kernels.");
  EXPECT_STREQ(Body["messages"][1]["role"].GetString(), "user");
  EXPECT_STREQ(Body["messages"][1]["content"].GetString(), "hello");
  EXPECT_EQ(Body["temperature"].GetDouble(), 0.5);
  EXPECT_EQ(Body["max_tokens"].GetUint(), 123u);
  EXPECT_FALSE(Body.HasMember("seed"));
  EXPECT_EQ(Body.MemberCount(), 4u);
}

TEST(ChatClientTest, SeedIsSentWhenSet) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("ok-seed");
  C.Seed = 42;
  ChatClient Client(C);
  auto Reply = Client.complete(hello());
  ASSERT_TRUE(bool(Reply)) << llvm::toString(Reply.takeError());
  auto Seen = Server->requests("ok-seed");
  ASSERT_EQ(Seen.size(), 1u);
  ASSERT_TRUE(Seen[0]["body"].HasMember("seed"));
  EXPECT_EQ(Seen[0]["body"]["seed"].GetInt64(), 42);
}

TEST(ChatClientTest, NoAuthorizationWithoutKey) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("ok-nokey");
  C.APIKey.clear();
  ChatClient Client(C);
  ASSERT_TRUE(bool(Client.complete(hello())));
  auto Seen = Server->requests("ok-nokey");
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_FALSE(Seen[0]["headers"].HasMember("authorization"));
}

TEST(ChatClientTest, TrailingSlashInBaseURL) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("ok-slash");
  C.BaseURL += "/";
  ChatClient Client(C);
  ASSERT_TRUE(bool(Client.complete(hello())));
  auto Seen = Server->requests("ok-slash");
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_STREQ(Seen[0]["path"].GetString(), "/v1/chat/completions");
}

TEST(ChatClientTest, RetriesA500) {
  SERVER_OR_SKIP(Server);
  ChatClient Client(Server->config("fail500-then-ok"));
  Sleeps S;
  S.attach(Client);
  auto Reply = Client.complete(hello());
  ASSERT_TRUE(bool(Reply)) << llvm::toString(Reply.takeError());
  EXPECT_EQ(Reply->Text, "reply to: hello");
  EXPECT_EQ(Reply->Attempts, 2u);
  EXPECT_EQ(Server->requests("fail500-then-ok").size(), 2u);
  ASSERT_EQ(S.Seen.size(), 1u);
  EXPECT_LE(S.Seen[0], 1ms); // Full jitter under the first cap.
}

TEST(ChatClientTest, HonoursRetryAfter) {
  SERVER_OR_SKIP(Server);
  ChatClient Client(Server->config("ratelimit-then-ok"));
  Sleeps S;
  S.attach(Client);
  auto Reply = Client.complete(hello());
  ASSERT_TRUE(bool(Reply)) << llvm::toString(Reply.takeError());
  EXPECT_EQ(Reply->Attempts, 2u);
  ASSERT_EQ(S.Seen.size(), 1u);
  EXPECT_EQ(S.Seen[0], 1000ms);
}

TEST(ChatClientTest, CapsRetryAfter) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("ratelimit-then-ok-capped");
  C.MaxRetryAfter = 250ms;
  ChatClient Client(C);
  Sleeps S;
  S.attach(Client);
  ASSERT_TRUE(bool(Client.complete(hello())));
  ASSERT_EQ(S.Seen.size(), 1u);
  EXPECT_EQ(S.Seen[0], 250ms);
}

TEST(ChatClientTest, RetriesExhausted) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("always500");
  C.MaxRetries = 3;
  C.RetryBaseDelay = 100ms;
  C.RetryMaxDelay = 300ms;
  ChatClient Client(C);
  Sleeps S;
  S.attach(Client);
  std::string Error = errorOf(Client.complete(hello()));
  EXPECT_EQ(Error, "LLM server at " + Server->baseURL() +
                       "/chat/completions still failing after 4 attempts; "
                       "last status HTTP 500: the server is overloaded");
  EXPECT_EQ(Server->requests("always500").size(), 4u);
  ASSERT_EQ(S.Seen.size(), 3u);
  EXPECT_LE(S.Seen[0], 100ms);
  EXPECT_LE(S.Seen[1], 200ms);
  EXPECT_LE(S.Seen[2], 300ms);
}

TEST(ChatClientTest, Backoff) {
  ChatConfig C;
  C.RetryBaseDelay = 100ms;
  C.RetryMaxDelay = 1000ms;
  EXPECT_EQ(ChatClient::backoff(C, 1, 1.0), 100ms);
  EXPECT_EQ(ChatClient::backoff(C, 2, 1.0), 200ms);
  EXPECT_EQ(ChatClient::backoff(C, 3, 0.5), 200ms);
  EXPECT_EQ(ChatClient::backoff(C, 5, 1.0), 1000ms);
  EXPECT_EQ(ChatClient::backoff(C, 60, 1.0), 1000ms);
  EXPECT_EQ(ChatClient::backoff(C, 1, 0.0), 0ms);
}

TEST(ChatClientTest, Timeout) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("slow");
  C.Timeout = 500ms;
  C.MaxRetries = 0;
  EXPECT_EQ(failure(C), "LLM request to " + Server->baseURL() +
                            "/chat/completions timed out after 500 ms "
                            "(1 attempt)");
}

TEST(ChatClientTest, MalformedJSON) {
  SERVER_OR_SKIP(Server);
  std::string Error = failure(Server->config("malformed"));
  EXPECT_EQ(Error.rfind("LLM reply from " + Server->baseURL() +
                            "/chat/completions is not valid JSON: ",
                        0),
            0u)
      << Error;
  EXPECT_EQ(Server->requests("malformed").size(), 1u);
}

TEST(ChatClientTest, NoChoices) {
  SERVER_OR_SKIP(Server);
  EXPECT_EQ(failure(Server->config("nochoices")),
            "LLM reply from " + Server->baseURL() +
                "/chat/completions has no choices");
}

TEST(ChatClientTest, NoContent) {
  SERVER_OR_SKIP(Server);
  EXPECT_EQ(failure(Server->config("nocontent")),
            "LLM reply from " + Server->baseURL() +
                "/chat/completions has no choices[0].message.content");
}

TEST(ChatClientTest, UnauthorizedIsNotRetried) {
  SERVER_OR_SKIP(Server);
  std::string Error = failure(Server->config("unauthorized"));
  EXPECT_EQ(Error, "LLM server at " + Server->baseURL() +
                       "/chat/completions refused the request: HTTP 401: "
                       "Incorrect API key provided: Bearer ***");
  EXPECT_EQ(Server->requests("unauthorized").size(), 1u);
}

TEST(ChatClientTest, OversizedReply) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("huge");
  C.MaxReplyBytes = 64 << 10;
  EXPECT_EQ(failure(C), "LLM reply from " + Server->baseURL() +
                            "/chat/completions is larger than 65536 bytes");
  EXPECT_EQ(Server->requests("huge").size(), 1u);
}

/// A port that refuses connections while the object lives: bound, never
/// listening.
class ClosedPort {
public:
  ClosedPort() {
    FD = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in A{};
    A.sin_family = AF_INET;
    A.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t Length = sizeof(A);
    if (FD >= 0 && ::bind(FD, reinterpret_cast<sockaddr *>(&A), Length) == 0 &&
        ::getsockname(FD, reinterpret_cast<sockaddr *>(&A), &Length) == 0)
      Port = ntohs(A.sin_port);
  }
  ~ClosedPort() {
    if (FD >= 0)
      ::close(FD);
  }
  int FD = -1;
  unsigned Port = 0;
};

TEST(ChatClientTest, ConnectionRefused) {
  ClosedPort Closed;
  ASSERT_NE(Closed.Port, 0u);
  ChatConfig C;
  C.BaseURL = "http://127.0.0.1:" + std::to_string(Closed.Port) + "/v1";
  C.Model = "ok";
  C.APIKey = Key;
  C.MaxRetries = 2;
  C.RetryBaseDelay = 1ms;
  ChatClient Client(C);
  Sleeps S;
  S.attach(Client);
  EXPECT_EQ(errorOf(Client.complete(hello())),
            "cannot connect to the LLM server at " + C.BaseURL +
                "/chat/completions: connection refused (3 attempts)");
  EXPECT_EQ(S.Seen.size(), 2u);
}

TEST(ChatClientTest, MissingConfiguration) {
  ChatConfig C;
  C.Model = "m";
  EXPECT_EQ(failure(C), "no LLM server configured: set AUTOPROF_LLM_BASE_URL "
                        "(for example https://api.openai.com/v1)");
  C.BaseURL = "http://127.0.0.1:1/v1";
  C.Model.clear();
  EXPECT_EQ(failure(C), "no LLM model configured: set AUTOPROF_LLM_MODEL");
}

TEST(ChatClientTest, CredentialsInTheURLAreNotShown) {
  ChatConfig C;
  C.BaseURL = "https://user:hunter2@example.com/v1";
  ChatClient Client(C);
  EXPECT_EQ(Client.endpoint(),
            "https://user:hunter2@example.com/v1/chat/completions");
  EXPECT_EQ(Client.displayEndpoint(),
            "https://example.com/v1/chat/completions");
}

TEST(ChatClientTest, TheKeyIsInNoErrorMessage) {
  SERVER_OR_SKIP(Server);
  ClosedPort Closed;
  std::vector<ChatConfig> Configs;
  for (const char *Model :
       {"always500-key", "malformed-key", "nochoices-key", "nocontent-key",
        "unauthorized-key", "huge-key", "slow-key", "unknown-key"})
    Configs.push_back(Server->config(Model));
  Configs[5].MaxReplyBytes = 1024;
  Configs[6].Timeout = 300ms;
  Configs[6].MaxRetries = 0;
  ChatConfig Refused = Server->config("ok");
  Refused.BaseURL = "http://127.0.0.1:" + std::to_string(Closed.Port) + "/v1";
  Configs.push_back(Refused);
  for (const ChatConfig &C : Configs) {
    ASSERT_EQ(C.APIKey, Key);
    std::string Error = failure(C);
    EXPECT_FALSE(Error.empty()) << C.Model;
    EXPECT_EQ(Error.find(Key), std::string::npos) << Error;
    EXPECT_EQ(Error.find("0123456789abcdef"), std::string::npos) << Error;
    EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
  }
  // The key did reach the server, in the header and only there.
  auto Seen = Server->requests("unauthorized-key");
  ASSERT_EQ(Seen.size(), 1u);
  EXPECT_EQ(std::string(Seen[0]["headers"]["authorization"].GetString()),
            std::string("Bearer ") + Key);
  rapidjson::StringBuffer Buffer;
  rapidjson::Writer<rapidjson::StringBuffer> W(Buffer);
  Seen[0]["body"].Accept(W);
  EXPECT_EQ(std::string(Buffer.GetString()).find(Key), std::string::npos);
}

TEST(ChatClientTest, LimitsRequestsInFlight) {
  SERVER_OR_SKIP(Server);
  ChatConfig C = Server->config("concurrent");
  C.MaxInFlight = 2;
  ChatClient Client(C);
  std::vector<std::thread> Threads;
  std::mutex M;
  unsigned Succeeded = 0;
  for (int I = 0; I < 6; ++I)
    Threads.emplace_back([&, I] {
      auto Reply = Client.complete({{"user", "thread " + std::to_string(I)}});
      std::lock_guard<std::mutex> L(M);
      if (Reply)
        ++Succeeded;
      else
        ADD_FAILURE() << llvm::toString(Reply.takeError());
    });
  for (std::thread &T : Threads)
    T.join();
  EXPECT_EQ(Succeeded, 6u);
  auto Seen = Server->requests("concurrent");
  ASSERT_EQ(Seen.size(), 6u);
  unsigned Most = 0;
  for (const rapidjson::Document &D : Seen)
    Most = std::max(Most, D["in_flight"].GetUint());
  EXPECT_LE(Most, 2u);
  EXPECT_GE(Most, 1u);
}

TEST(ChatClientTest, FromEnvironment) {
  ::setenv("AUTOPROF_LLM_BASE_URL", "http://localhost:11434/v1", 1);
  ::setenv("AUTOPROF_LLM_MODEL", "qwen2.5-coder", 1);
  ::setenv("OPENAI_API_KEY", "sk-openai", 1);
  ::unsetenv("AUTOPROF_LLM_API_KEY");
  ChatConfig C = ChatConfig::fromEnvironment();
  EXPECT_EQ(C.BaseURL, "http://localhost:11434/v1");
  EXPECT_EQ(C.Model, "qwen2.5-coder");
  EXPECT_EQ(C.APIKey, "sk-openai");
  EXPECT_FALSE(C.Insecure);
  EXPECT_FALSE(C.Seed.has_value());
  ::setenv("AUTOPROF_LLM_API_KEY", "sk-autoprof", 1);
  EXPECT_EQ(ChatConfig::fromEnvironment().APIKey, "sk-autoprof");
  for (const char *Name : {"AUTOPROF_LLM_BASE_URL", "AUTOPROF_LLM_MODEL",
                           "AUTOPROF_LLM_API_KEY", "OPENAI_API_KEY"})
    ::unsetenv(Name);
  C = ChatConfig::fromEnvironment();
  EXPECT_TRUE(C.BaseURL.empty());
  EXPECT_TRUE(C.Model.empty());
  EXPECT_TRUE(C.APIKey.empty());
}

} // namespace
