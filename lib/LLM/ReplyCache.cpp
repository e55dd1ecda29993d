//===- ReplyCache.cpp - On-disk cache of chat-completions replies ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ReplyCache.h"

#include "autoprof/JSON/BoundedParse.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

using namespace autoprof;
using namespace llvm;

namespace {

constexpr const char *EntryFormat = "autoprof-llm-reply/1";

template <typename Writer> void writeString(Writer &W, const std::string &S) {
  W.String(S.data(), static_cast<rapidjson::SizeType>(S.size()));
}

/// The request's parameters; an unset seed is null when \p NullSeed, left
/// out otherwise.
template <typename Writer>
void writeRequest(Writer &W, const ChatRequest &R, bool NullSeed) {
  W.StartObject();
  W.Key("model");
  writeString(W, R.Model);
  W.Key("messages");
  W.StartArray();
  for (const ChatMessage &M : R.Messages) {
    W.StartObject();
    W.Key("role");
    writeString(W, M.Role);
    W.Key("content");
    writeString(W, M.Content);
    W.EndObject();
  }
  W.EndArray();
  W.Key("temperature");
  W.Double(R.Temperature);
  W.Key("max_tokens");
  W.Uint(R.MaxTokens);
  if (R.Seed) {
    W.Key("seed");
    W.Int64(*R.Seed);
  } else if (NullSeed) {
    W.Key("seed");
    W.Null();
  }
  W.EndObject();
}

/// The request stored in an entry, or nullopt when it is not well formed.
std::optional<ChatRequest> readRequest(const rapidjson::Value &V) {
  if (!V.IsObject())
    return std::nullopt;
  ChatRequest R;
  auto Model = V.FindMember("model");
  auto Messages = V.FindMember("messages");
  auto Temperature = V.FindMember("temperature");
  auto MaxTokens = V.FindMember("max_tokens");
  if (Model == V.MemberEnd() || !Model->value.IsString() ||
      Messages == V.MemberEnd() || !Messages->value.IsArray() ||
      Temperature == V.MemberEnd() || !Temperature->value.IsNumber() ||
      MaxTokens == V.MemberEnd() || !MaxTokens->value.IsUint())
    return std::nullopt;
  R.Model = Model->value.GetString();
  for (const rapidjson::Value &M : Messages->value.GetArray()) {
    if (!M.IsObject() || !M.HasMember("role") || !M["role"].IsString() ||
        !M.HasMember("content") || !M["content"].IsString())
      return std::nullopt;
    R.Messages.push_back(
        {M["role"].GetString(), std::string(M["content"].GetString(),
                                            M["content"].GetStringLength())});
  }
  R.Temperature = Temperature->value.GetDouble();
  R.MaxTokens = MaxTokens->value.GetUint();
  auto Seed = V.FindMember("seed");
  if (Seed != V.MemberEnd() && !Seed->value.IsNull()) {
    if (!Seed->value.IsInt64())
      return std::nullopt;
    R.Seed = Seed->value.GetInt64();
  }
  return R;
}

} // namespace

ReplyCache::ReplyCache(std::string Directory, Mode M)
    : Directory(std::move(Directory)), CacheMode(M) {}

std::string ReplyCache::canonicalRequest(const ChatRequest &Request) {
  rapidjson::StringBuffer Buffer;
  rapidjson::Writer<rapidjson::StringBuffer> W(Buffer);
  W.StartArray();
  W.String("autoprof-llm-request/1");
  writeRequest(W, Request, /*NullSeed=*/true);
  W.EndArray();
  return std::string(Buffer.GetString(), Buffer.GetSize());
}

std::string ReplyCache::key(const ChatRequest &Request) {
  std::array<uint8_t, 32> Hash =
      SHA256::hash(arrayRefFromStringRef<uint8_t>(canonicalRequest(Request)));
  return toHex(Hash, /*LowerCase=*/true);
}

std::string ReplyCache::path(const ChatRequest &Request) const {
  SmallString<256> P(Directory);
  sys::path::append(P, key(Request) + ".json");
  return std::string(P);
}

Expected<std::optional<ChatReply>>
ReplyCache::lookup(const ChatRequest &Request) const {
  std::string File = path(Request);
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(File, /*IsText=*/false,
                            /*RequiresNullTerminator=*/false);
  if (!Buffer) {
    if (Buffer.getError() == std::errc::no_such_file_or_directory)
      return std::nullopt;
    return createStringError(formatv("cannot read the cached reply {0}: {1}",
                                     File, Buffer.getError().message())
                                 .str());
  }
  auto Bad = [&](StringRef Why) {
    return createStringError(
        formatv("{0} is not a reply cache entry ({1}); delete it", File, Why)
            .str());
  };
  StringRef Text = (*Buffer)->getBuffer();
  rapidjson::Document D;
  std::string JSONError;
  if (!json::parseBounded(Text.data(), Text.size(), D, JSONError) ||
      !D.IsObject())
    return Bad("not a JSON object");
  auto Format = D.FindMember("format");
  if (Format == D.MemberEnd() || !Format->value.IsString() ||
      StringRef(Format->value.GetString()) != EntryFormat)
    return Bad(formatv("format is not {0}", EntryFormat).str());
  auto Stored = D.FindMember("request");
  std::optional<ChatRequest> R;
  if (Stored != D.MemberEnd())
    R = readRequest(Stored->value);
  if (!R)
    return Bad("no well-formed request");
  if (canonicalRequest(*R) != canonicalRequest(Request))
    return Bad("it holds another request");
  auto ReplyIt = D.FindMember("reply");
  if (ReplyIt == D.MemberEnd() || !ReplyIt->value.IsObject() ||
      !ReplyIt->value.HasMember("text") || !ReplyIt->value["text"].IsString())
    return Bad("no reply text");
  const rapidjson::Value &V = ReplyIt->value;
  ChatReply Reply;
  Reply.Text.assign(V["text"].GetString(), V["text"].GetStringLength());
  if (V.HasMember("finish_reason") && V["finish_reason"].IsString())
    Reply.FinishReason = V["finish_reason"].GetString();
  if (V.HasMember("usage") && V["usage"].IsObject()) {
    const rapidjson::Value &U = V["usage"];
    auto Count = [&](const char *Name) -> uint64_t {
      return U.HasMember(Name) && U[Name].IsUint64() ? U[Name].GetUint64() : 0;
    };
    Reply.Usage = ChatUsage{Count("prompt_tokens"), Count("completion_tokens"),
                            Count("total_tokens")};
  }
  Reply.FromCache = true;
  return Reply;
}

Error ReplyCache::store(const ChatRequest &Request,
                        const ChatReply &Reply) const {
  rapidjson::StringBuffer Buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> W(Buffer);
  W.SetIndent(' ', 2);
  std::string Key = key(Request);
  W.StartObject();
  W.Key("format");
  W.String(EntryFormat);
  W.Key("key");
  writeString(W, Key);
  W.Key("request");
  writeRequest(W, Request, /*NullSeed=*/false);
  W.Key("reply");
  W.StartObject();
  W.Key("text");
  writeString(W, Reply.Text);
  if (!Reply.FinishReason.empty()) {
    W.Key("finish_reason");
    writeString(W, Reply.FinishReason);
  }
  if (Reply.Usage) {
    W.Key("usage");
    W.StartObject();
    W.Key("prompt_tokens");
    W.Uint64(Reply.Usage->PromptTokens);
    W.Key("completion_tokens");
    W.Uint64(Reply.Usage->CompletionTokens);
    W.Key("total_tokens");
    W.Uint64(Reply.Usage->TotalTokens);
    W.EndObject();
  }
  W.EndObject();
  W.EndObject();

  if (std::error_code EC = sys::fs::create_directories(Directory))
    return createStringError(formatv("cannot create the reply cache {0}: {1}",
                                     Directory, EC.message())
                                 .str());
  std::string File = path(Request);
  SmallString<256> Temp;
  int FD;
  if (std::error_code EC =
          sys::fs::createUniqueFile(File + ".tmp-%%%%%%%%", FD, Temp))
    return createStringError(formatv("cannot write to the reply cache {0}: {1}",
                                     Directory, EC.message())
                                 .str());
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << StringRef(Buffer.GetString(), Buffer.GetSize()) << "\n";
    OS.close();
    if (OS.has_error()) {
      std::string Why = OS.error().message();
      OS.clear_error();
      sys::fs::remove(Temp);
      return createStringError(
          formatv("cannot write {0}: {1}", Temp, Why).str());
    }
  }
  if (std::error_code EC = sys::fs::rename(Temp, File)) {
    sys::fs::remove(Temp);
    return createStringError(
        formatv("cannot rename {0} to {1}: {2}", Temp, File, EC.message())
            .str());
  }
  return Error::success();
}

Expected<ChatReply> ReplyCache::complete(ChatClient &Client,
                                         const ChatRequest &Request) const {
  Expected<std::optional<ChatReply>> Cached = lookup(Request);
  if (!Cached)
    return Cached.takeError();
  if (*Cached)
    return std::move(**Cached);
  if (CacheMode == Mode::ReplayOnly)
    return createStringError(
        formatv("no cached reply for this request in {0}; rerun without "
                "--llm-replay-only",
                Directory)
            .str());
  Expected<ChatReply> Reply = Client.complete(Request);
  if (!Reply)
    return Reply.takeError();
  if (Error E = store(Request, *Reply))
    return std::move(E);
  return Reply;
}
