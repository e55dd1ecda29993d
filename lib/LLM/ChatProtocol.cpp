//===- ChatProtocol.cpp - OpenAI-compatible chat-completions JSON ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatProtocol.h"

#include "autoprof/JSON/BoundedParse.h"
#include "llvm/Support/FormatVariadic.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

using namespace autoprof;
using namespace llvm;

namespace {

/// \p Text on one line, cut to \p Max bytes.
std::string oneLine(StringRef Text, size_t Max = 300) {
  std::string Out;
  for (char C : Text.trim()) {
    if (Out.size() >= Max) {
      Out += "...";
      break;
    }
    Out += (C == '\n' || C == '\r' || C == '\t') ? ' ' : C;
  }
  return Out;
}

std::optional<uint64_t> tokenCount(const rapidjson::Value &Usage,
                                   const char *Name) {
  auto It = Usage.FindMember(Name);
  if (It == Usage.MemberEnd() || !It->value.IsUint64())
    return std::nullopt;
  return It->value.GetUint64();
}

} // namespace

std::string autoprof::chatRequestBody(const ChatRequest &Request) {
  rapidjson::StringBuffer Buffer;
  rapidjson::Writer<rapidjson::StringBuffer> W(Buffer);
  W.StartObject();
  W.Key("model");
  W.String(Request.Model.data(), Request.Model.size());
  W.Key("messages");
  W.StartArray();
  for (const ChatMessage &M : Request.Messages) {
    W.StartObject();
    W.Key("role");
    W.String(M.Role.data(), M.Role.size());
    W.Key("content");
    W.String(M.Content.data(), M.Content.size());
    W.EndObject();
  }
  W.EndArray();
  W.Key("temperature");
  W.Double(Request.Temperature);
  W.Key("max_tokens");
  W.Uint(Request.MaxTokens);
  if (Request.Seed) {
    W.Key("seed");
    W.Int64(*Request.Seed);
  }
  W.EndObject();
  return std::string(Buffer.GetString(), Buffer.GetSize());
}

Expected<ChatReply> autoprof::parseChatReply(StringRef Body, StringRef Origin) {
  rapidjson::Document D;
  std::string JSONError;
  if (!json::parseBounded(Body.data(), Body.size(), D, JSONError))
    return createStringError(
        formatv("LLM reply from {0} is not valid JSON: {1}", Origin, JSONError)
            .str());
  if (!D.IsObject())
    return createStringError(
        formatv("LLM reply from {0} is not a JSON object", Origin).str());
  auto Choices = D.FindMember("choices");
  if (Choices == D.MemberEnd() || !Choices->value.IsArray() ||
      Choices->value.Empty())
    return createStringError(
        formatv("LLM reply from {0} has no choices", Origin).str());
  const rapidjson::Value &First = Choices->value[0];
  const rapidjson::Value *Content = nullptr;
  if (First.IsObject()) {
    auto Message = First.FindMember("message");
    if (Message != First.MemberEnd() && Message->value.IsObject()) {
      auto It = Message->value.FindMember("content");
      if (It != Message->value.MemberEnd() && It->value.IsString())
        Content = &It->value;
    }
  }
  if (!Content)
    return createStringError(
        formatv("LLM reply from {0} has no choices[0].message.content", Origin)
            .str());

  ChatReply Reply;
  Reply.Text.assign(Content->GetString(), Content->GetStringLength());
  auto Finish = First.FindMember("finish_reason");
  if (Finish != First.MemberEnd() && Finish->value.IsString())
    Reply.FinishReason = Finish->value.GetString();
  auto Usage = D.FindMember("usage");
  if (Usage != D.MemberEnd() && Usage->value.IsObject()) {
    ChatUsage U;
    auto Prompt = tokenCount(Usage->value, "prompt_tokens");
    auto Completion = tokenCount(Usage->value, "completion_tokens");
    auto Total = tokenCount(Usage->value, "total_tokens");
    if (Prompt || Completion || Total) {
      U.PromptTokens = Prompt.value_or(0);
      U.CompletionTokens = Completion.value_or(0);
      U.TotalTokens = Total.value_or(U.PromptTokens + U.CompletionTokens);
      Reply.Usage = U;
    }
  }
  return Reply;
}

std::string autoprof::chatErrorMessage(StringRef Body) {
  rapidjson::Document D;
  std::string JSONError;
  if (!json::parseBounded(Body.data(), Body.size(), D, JSONError) ||
      !D.IsObject())
    return "";
  auto Error = D.FindMember("error");
  if (Error != D.MemberEnd()) {
    if (Error->value.IsString())
      return oneLine(Error->value.GetString());
    if (Error->value.IsObject()) {
      auto Message = Error->value.FindMember("message");
      if (Message != Error->value.MemberEnd() && Message->value.IsString())
        return oneLine(Message->value.GetString());
    }
  }
  auto Message = D.FindMember("message");
  if (Message != D.MemberEnd() && Message->value.IsString())
    return oneLine(Message->value.GetString());
  return "";
}
