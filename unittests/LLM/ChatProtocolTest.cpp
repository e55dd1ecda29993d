//===- ChatProtocolTest.cpp - Tests of the chat-completions JSON ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ChatProtocol.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

ChatRequest request() {
  ChatRequest R;
  R.Model = "m";
  R.Messages = {{"system", "be brief"}, {"user", "say \"hi\"\n"}};
  R.Temperature = 0.25;
  R.MaxTokens = 100;
  return R;
}

std::string errorOf(llvm::Expected<ChatReply> Reply) {
  if (Reply)
    return "";
  return llvm::toString(Reply.takeError());
}

TEST(ChatProtocolTest, RequestBodyHasTheFieldsInOrder) {
  EXPECT_EQ(chatRequestBody(request()),
            "{\"model\":\"m\",\"messages\":[{\"role\":\"system\",\"content\":"
            "\"be brief\"},{\"role\":\"user\",\"content\":\"say "
            "\\\"hi\\\"\\n\"}],\"temperature\":0.25,\"max_tokens\":100}");
}

TEST(ChatProtocolTest, SeedOnlyWhenSet) {
  ChatRequest R = request();
  EXPECT_EQ(chatRequestBody(R).find("seed"), std::string::npos);
  R.Seed = -7;
  EXPECT_NE(chatRequestBody(R).find(",\"seed\":-7}"), std::string::npos);
}

TEST(ChatProtocolTest, ParsesContentAndUsage) {
  auto Reply = parseChatReply(
      R"({"choices":[{"message":{"role":"assistant","content":"hello"},
          "finish_reason":"length"}],
          "usage":{"prompt_tokens":3,"completion_tokens":4,"total_tokens":7}})",
      "here");
  ASSERT_TRUE(bool(Reply)) << llvm::toString(Reply.takeError());
  EXPECT_EQ(Reply->Text, "hello");
  EXPECT_EQ(Reply->FinishReason, "length");
  ASSERT_TRUE(Reply->Usage.has_value());
  EXPECT_EQ(Reply->Usage->PromptTokens, 3u);
  EXPECT_EQ(Reply->Usage->CompletionTokens, 4u);
  EXPECT_EQ(Reply->Usage->TotalTokens, 7u);
}

TEST(ChatProtocolTest, UsageIsOptional) {
  auto Reply =
      parseChatReply(R"({"choices":[{"message":{"content":""}}]})", "here");
  ASSERT_TRUE(bool(Reply)) << llvm::toString(Reply.takeError());
  EXPECT_EQ(Reply->Text, "");
  EXPECT_FALSE(Reply->Usage.has_value());
}

TEST(ChatProtocolTest, DistinctErrors) {
  EXPECT_EQ(errorOf(parseChatReply("{\"choices\": [", "S"))
                .rfind("LLM reply from S is not valid JSON: ", 0),
            0u);
  EXPECT_EQ(errorOf(parseChatReply("[1]", "S")),
            "LLM reply from S is not a JSON object");
  EXPECT_EQ(errorOf(parseChatReply("{\"choices\":[]}", "S")),
            "LLM reply from S has no choices");
  EXPECT_EQ(errorOf(parseChatReply("{}", "S")),
            "LLM reply from S has no choices");
  EXPECT_EQ(errorOf(parseChatReply(
                "{\"choices\":[{\"message\":{\"content\":null}}]}", "S")),
            "LLM reply from S has no choices[0].message.content");
}

TEST(ChatProtocolTest, ErrorMessages) {
  EXPECT_EQ(chatErrorMessage(R"({"error":{"message":"bad\nkey"}})"), "bad key");
  EXPECT_EQ(chatErrorMessage(R"({"error":"model not found"})"),
            "model not found");
  EXPECT_EQ(chatErrorMessage(R"({"message":"overloaded"})"), "overloaded");
  EXPECT_EQ(chatErrorMessage("<html>busy</html>"), "");
}

} // namespace
