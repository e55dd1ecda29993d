//===- ChatClient.cpp - OpenAI-compatible chat-completions client ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatClient.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <curl/curl.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>

using namespace autoprof;
using namespace llvm;

namespace {

std::string environment(const char *Name) {
  const char *Value = std::getenv(Name);
  return Value ? Value : "";
}

/// What one HTTP request came back with.
struct Attempt {
  CURLcode Code = CURLE_OK;
  long OSErrno = 0;
  bool Connected = false;
  long Status = 0;
  std::string Body;
  std::optional<unsigned> RetryAfterSeconds;
  bool Oversized = false;
  std::string CurlMessage;
};

struct WriteContext {
  Attempt *A;
  size_t Max;
};

size_t onBody(char *Data, size_t Size, size_t Count, void *User) {
  auto *C = static_cast<WriteContext *>(User);
  size_t N = Size * Count;
  if (C->A->Body.size() + N > C->Max) {
    C->A->Oversized = true;
    return 0; // Makes curl stop with CURLE_WRITE_ERROR.
  }
  C->A->Body.append(Data, N);
  return N;
}

size_t onHeader(char *Data, size_t Size, size_t Count, void *User) {
  auto *A = static_cast<Attempt *>(User);
  size_t N = Size * Count;
  StringRef Line(Data, N);
  if (Line.starts_with("HTTP/")) {
    A->RetryAfterSeconds.reset(); // A new response (after 100 Continue).
    return N;
  }
  auto [Name, Value] = Line.split(':');
  unsigned Seconds;
  if (Name.trim().equals_insensitive("retry-after") &&
      !Value.trim().getAsInteger(10, Seconds))
    A->RetryAfterSeconds = Seconds;
  return N;
}

/// The transport errors that another attempt may cure.
bool isRetryable(CURLcode Code) {
  switch (Code) {
  case CURLE_COULDNT_CONNECT:
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_OPERATION_TIMEDOUT:
  case CURLE_SEND_ERROR:
  case CURLE_RECV_ERROR:
  case CURLE_GOT_NOTHING:
  case CURLE_PARTIAL_FILE:
    return true;
  default:
    return false;
  }
}

std::string attempts(unsigned N) {
  return N == 1 ? "1 attempt" : formatv("{0} attempts", N).str();
}

void initCurlOnce() {
  static std::once_flag Once;
  std::call_once(Once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

} // namespace

ChatConfig ChatConfig::fromEnvironment() {
  ChatConfig C;
  C.BaseURL = environment("AUTOPROF_LLM_BASE_URL");
  C.Model = environment("AUTOPROF_LLM_MODEL");
  C.APIKey = environment("AUTOPROF_LLM_API_KEY");
  if (C.APIKey.empty())
    C.APIKey = environment("OPENAI_API_KEY");
  return C;
}

ChatRequest ChatConfig::makeRequest(std::vector<ChatMessage> Messages) const {
  ChatRequest R;
  R.Model = Model;
  R.Messages = std::move(Messages);
  R.Temperature = Temperature;
  R.MaxTokens = MaxTokens;
  R.Seed = Seed;
  return R;
}

struct ChatClient::State {
  std::mutex M;
  std::condition_variable Freed;
  unsigned Free = 1;
  std::mt19937_64 Random{std::random_device{}()};
  SleepFunction Sleep = [](std::chrono::milliseconds D) {
    std::this_thread::sleep_for(D);
  };

  /// Holds one of the client's request slots.
  class Slot {
  public:
    explicit Slot(State &S) : S(S) {
      std::unique_lock<std::mutex> L(S.M);
      S.Freed.wait(L, [&] { return S.Free > 0; });
      --S.Free;
    }
    ~Slot() {
      {
        std::lock_guard<std::mutex> L(S.M);
        ++S.Free;
      }
      S.Freed.notify_one();
    }

  private:
    State &S;
  };

  double uniform01() {
    std::lock_guard<std::mutex> L(M);
    return std::uniform_real_distribution<double>(0.0, 1.0)(Random);
  }

  SleepFunction sleeper() {
    std::lock_guard<std::mutex> L(M);
    return Sleep;
  }
};

ChatClient::ChatClient(ChatConfig Config)
    : Config(std::move(Config)), S(std::make_unique<State>()) {
  S->Free = std::max(1u, this->Config.MaxInFlight);
  initCurlOnce();
}

ChatClient::~ChatClient() = default;

std::string ChatClient::endpoint() const {
  StringRef Base(Config.BaseURL);
  return (Base.rtrim('/') + "/chat/completions").str();
}

std::string ChatClient::displayEndpoint() const {
  std::string URL = endpoint();
  size_t Scheme = URL.find("://");
  size_t Start = Scheme == std::string::npos ? 0 : Scheme + 3;
  size_t End = URL.find_first_of("/?#", Start);
  size_t At = URL.rfind('@', End == std::string::npos ? URL.size() : End);
  if (At != std::string::npos && At >= Start)
    URL.erase(Start, At + 1 - Start);
  return URL;
}

void ChatClient::setSleepFunction(SleepFunction Sleep) {
  std::lock_guard<std::mutex> L(S->M);
  S->Sleep = std::move(Sleep);
}

std::chrono::milliseconds ChatClient::backoff(const ChatConfig &Config,
                                              unsigned Retry,
                                              double Uniform01) {
  double Cap = static_cast<double>(Config.RetryBaseDelay.count()) *
               std::ldexp(1.0, static_cast<int>(std::min(Retry, 63u)) - 1);
  Cap = std::min(Cap, static_cast<double>(Config.RetryMaxDelay.count()));
  double U = std::clamp(Uniform01, 0.0, 1.0);
  return std::chrono::milliseconds(static_cast<int64_t>(std::floor(U * Cap)));
}

Expected<ChatReply> ChatClient::complete(std::vector<ChatMessage> Messages) {
  return complete(Config.makeRequest(std::move(Messages)));
}

Expected<ChatReply> ChatClient::complete(const ChatRequest &Request) {
  // Every message goes through here: neither the API key nor a password in
  // the base URL ever leaves in one.
  auto Fail = [&](std::string Message) -> Error {
    if (!Config.APIKey.empty())
      Message = join(split(Message, Config.APIKey), "***");
    for (char &C : Message)
      if (C == '\n' || C == '\r')
        C = ' ';
    return createStringError(Message);
  };
  if (Config.BaseURL.empty())
    return Fail("no LLM server configured: set AUTOPROF_LLM_BASE_URL (for "
                "example https://api.openai.com/v1)");
  if (Request.Model.empty())
    return Fail("no LLM model configured: set AUTOPROF_LLM_MODEL");

  const std::string URL = endpoint();
  const std::string Shown = displayEndpoint();
  const std::string Body = chatRequestBody(Request);
  const unsigned MaxAttempts = Config.MaxRetries + 1;

  auto Perform = [&]() {
    Attempt A;
    CURL *H = curl_easy_init();
    if (!H) {
      A.Code = CURLE_FAILED_INIT;
      A.CurlMessage = "cannot initialise libcurl";
      return A;
    }
    struct curl_slist *Headers = nullptr;
    Headers = curl_slist_append(Headers, "Content-Type: application/json");
    Headers = curl_slist_append(Headers, "Accept: application/json");
    Headers = curl_slist_append(Headers, "Expect:");
    std::string Authorization;
    if (!Config.APIKey.empty()) {
      Authorization = "Authorization: Bearer " + Config.APIKey;
      Headers = curl_slist_append(Headers, Authorization.c_str());
    }
    char ErrorBuffer[CURL_ERROR_SIZE] = {0};
    WriteContext W{&A, Config.MaxReplyBytes};
    curl_easy_setopt(H, CURLOPT_URL, URL.c_str());
    curl_easy_setopt(H, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(H, CURLOPT_POST, 1L);
    curl_easy_setopt(H, CURLOPT_POSTFIELDS, Body.data());
    curl_easy_setopt(H, CURLOPT_POSTFIELDSIZE_LARGE,
                     static_cast<curl_off_t>(Body.size()));
    curl_easy_setopt(H, CURLOPT_HTTPHEADER, Headers);
    curl_easy_setopt(H, CURLOPT_USERAGENT, "clang-autoprof");
    curl_easy_setopt(H, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(H, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(Config.ConnectTimeout.count()));
    curl_easy_setopt(H, CURLOPT_TIMEOUT_MS,
                     static_cast<long>(Config.Timeout.count()));
    curl_easy_setopt(H, CURLOPT_SSL_VERIFYPEER, Config.Insecure ? 0L : 1L);
    curl_easy_setopt(H, CURLOPT_SSL_VERIFYHOST, Config.Insecure ? 0L : 2L);
    curl_easy_setopt(H, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(H, CURLOPT_WRITEDATA, &W);
    curl_easy_setopt(H, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(H, CURLOPT_HEADERDATA, &A);
    curl_easy_setopt(H, CURLOPT_ERRORBUFFER, ErrorBuffer);

    A.Code = curl_easy_perform(H);
    curl_easy_getinfo(H, CURLINFO_RESPONSE_CODE, &A.Status);
    curl_easy_getinfo(H, CURLINFO_OS_ERRNO, &A.OSErrno);
    curl_off_t ConnectTime = 0;
    curl_easy_getinfo(H, CURLINFO_CONNECT_TIME_T, &ConnectTime);
    A.Connected = ConnectTime > 0;
    if (A.Code != CURLE_OK)
      A.CurlMessage = ErrorBuffer[0] ? StringRef(ErrorBuffer).trim().str()
                                     : curl_easy_strerror(A.Code);
    curl_easy_cleanup(H);
    curl_slist_free_all(Headers);
    return A;
  };

  auto TransportError = [&](const Attempt &A, unsigned N) -> Error {
    std::string Tried = attempts(N);
    if (A.Code == CURLE_OPERATION_TIMEDOUT) {
      if (!A.Connected)
        return Fail(formatv("connecting to the LLM server at {0} timed out "
                            "after {1} ms ({2})",
                            Shown, Config.ConnectTimeout.count(), Tried));
      return Fail(formatv("LLM request to {0} timed out after {1} ms ({2})",
                          Shown, Config.Timeout.count(), Tried));
    }
    if (A.Code == CURLE_COULDNT_CONNECT && A.OSErrno == ECONNREFUSED)
      return Fail(formatv("cannot connect to the LLM server at {0}: "
                          "connection refused ({1})",
                          Shown, Tried));
    if (A.Code == CURLE_COULDNT_CONNECT)
      return Fail(formatv("cannot connect to the LLM server at {0}: {1} ({2})",
                          Shown, A.CurlMessage, Tried));
    return Fail(formatv("LLM request to {0} failed: {1} ({2})", Shown,
                        A.CurlMessage, Tried));
  };

  auto StatusText = [](const Attempt &A) {
    std::string Text = formatv("HTTP {0}", A.Status).str();
    std::string Message = chatErrorMessage(A.Body);
    if (!Message.empty())
      Text += ": " + Message;
    return Text;
  };

  for (unsigned N = 1;; ++N) {
    Attempt A;
    {
      State::Slot Held(*S);
      A = Perform();
    }
    if (A.Oversized)
      return Fail(formatv("LLM reply from {0} is larger than {1} bytes", Shown,
                          Config.MaxReplyBytes));
    if (A.Code == CURLE_OK && A.Status >= 200 && A.Status < 300) {
      Expected<ChatReply> Reply = parseChatReply(A.Body, Shown);
      if (!Reply)
        return Fail(toString(Reply.takeError()));
      Reply->Attempts = N;
      return Reply;
    }
    bool Retryable = A.Code == CURLE_OK ? A.Status == 429 || A.Status >= 500
                                        : isRetryable(A.Code);
    if (!Retryable && A.Code == CURLE_OK)
      return Fail(formatv("LLM server at {0} refused the request: {1}", Shown,
                          StatusText(A)));
    if (!Retryable || (N == MaxAttempts && A.Code != CURLE_OK))
      return TransportError(A, N);
    if (N == MaxAttempts)
      return Fail(formatv("LLM server at {0} still failing after {1}; last "
                          "status {2}",
                          Shown, attempts(N), StatusText(A)));
    std::chrono::milliseconds Delay =
        A.Code == CURLE_OK && A.RetryAfterSeconds
            ? std::min<std::chrono::milliseconds>(
                  std::chrono::seconds(*A.RetryAfterSeconds),
                  Config.MaxRetryAfter)
            : backoff(Config, N, S->uniform01());
    S->sleeper()(Delay);
  }
}
