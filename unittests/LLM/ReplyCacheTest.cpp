//===- ReplyCacheTest.cpp - Tests of the on-disk reply cache --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/ReplyCache.h"

#include "TestChatServer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <fstream>

using namespace autoprof;
using namespace autoprof::test;

namespace {

/// The names of the files in \p Dir.
std::vector<std::string> filesIn(const std::string &Dir) {
  std::vector<std::string> Names;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator I(Dir, EC), E; I != E && !EC;
       I.increment(EC))
    Names.push_back(llvm::sys::path::filename(I->path()).str());
  std::sort(Names.begin(), Names.end());
  return Names;
}

ChatRequest request(const std::string &Model) {
  ChatRequest R;
  R.Model = Model;
  R.Messages = {{"system", "You rewrite CUDA kernels."},
                {"user", "__global__ void k() {}"}};
  R.Temperature = 0.2;
  R.MaxTokens = 512;
  return R;
}

class ReplyCacheTest : public ::testing::Test {
protected:
  void SetUp() override { Dir = makeTempDirectory("autoprof-llm-cache"); }
  void TearDown() override {
    if (!Dir.empty())
      llvm::sys::fs::remove_directories(Dir);
  }
  std::string Dir;
};

TEST_F(ReplyCacheTest, KeyIsSHA256OfTheParameters) {
  ChatRequest R = request("m");
  std::string K = ReplyCache::key(R);
  ASSERT_EQ(K.size(), 64u);
  EXPECT_EQ(K.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(ReplyCache::key(request("m")), K);
  EXPECT_EQ(ReplyCache::canonicalRequest(R),
            "[\"autoprof-llm-request/1\",{\"model\":\"m\",\"messages\":[{"
            "\"role\":\"system\",\"content\":\"You rewrite CUDA kernels.\"},"
            "{\"role\":\"user\",\"content\":\"__global__ void k() {}\"}],"
            "\"temperature\":0.2,\"max_tokens\":512,\"seed\":null}]");

  std::vector<ChatRequest> Others(6, R);
  Others[0].Model = "n";
  Others[1].Messages[1].Content += " ";
  Others[2].Messages[0].Role = "user";
  Others[3].Temperature = 0.3;
  Others[4].MaxTokens = 513;
  Others[5].Seed = 0;
  for (const ChatRequest &O : Others)
    EXPECT_NE(ReplyCache::key(O), K);
  ChatRequest Seeded = R;
  Seeded.Seed = 1;
  EXPECT_NE(ReplyCache::key(Seeded), ReplyCache::key(Others[5]));
}

TEST_F(ReplyCacheTest, KeyDoesNotDependOnServerOrCredentials) {
  ChatConfig A, B;
  A.Model = B.Model = "m";
  A.BaseURL = "https://api.openai.com/v1";
  A.APIKey = "sk-one";
  B.BaseURL = "http://user:pass@localhost:8000/v1";
  B.APIKey = "sk-two";
  EXPECT_EQ(ReplyCache::key(A.makeRequest({{"user", "x"}})),
            ReplyCache::key(B.makeRequest({{"user", "x"}})));
}

TEST_F(ReplyCacheTest, StoreAndLookup) {
  ReplyCache Cache(Dir + "/sub/dir");
  ChatRequest R = request("m");
  R.Seed = 9;
  auto Missing = Cache.lookup(R);
  ASSERT_TRUE(bool(Missing)) << llvm::toString(Missing.takeError());
  EXPECT_FALSE(Missing->has_value());

  ChatReply Reply;
  Reply.Text = "__global__ void k() { /* faster */ }\n";
  Reply.FinishReason = "stop";
  Reply.Usage = ChatUsage{1, 2, 3};
  Reply.Attempts = 2;
  ASSERT_FALSE(bool(Cache.store(R, Reply)));
  EXPECT_EQ(filesIn(Dir + "/sub/dir"),
            std::vector<std::string>{ReplyCache::key(R) + ".json"});
  EXPECT_EQ(Cache.path(R), Dir + "/sub/dir/" + ReplyCache::key(R) + ".json");

  auto Found = Cache.lookup(R);
  ASSERT_TRUE(bool(Found)) << llvm::toString(Found.takeError());
  ASSERT_TRUE(Found->has_value());
  EXPECT_EQ((*Found)->Text, Reply.Text);
  EXPECT_EQ((*Found)->FinishReason, "stop");
  ASSERT_TRUE((*Found)->Usage.has_value());
  EXPECT_EQ((*Found)->Usage->TotalTokens, 3u);
  EXPECT_TRUE((*Found)->FromCache);
  EXPECT_EQ((*Found)->Attempts, 0u);

  ChatRequest Other = R;
  Other.Seed = 10;
  auto Miss = Cache.lookup(Other);
  ASSERT_TRUE(bool(Miss));
  EXPECT_FALSE(Miss->has_value());
}

TEST_F(ReplyCacheTest, EntryHoldsTheRequest) {
  ReplyCache Cache(Dir);
  ChatRequest R = request("m");
  ChatReply Reply;
  Reply.Text = "t";
  ASSERT_FALSE(bool(Cache.store(R, Reply)));
  rapidjson::Document D;
  std::string Text = readFile(Cache.path(R));
  D.Parse(Text.c_str());
  ASSERT_FALSE(D.HasParseError());
  EXPECT_STREQ(D["format"].GetString(), "autoprof-llm-reply/1");
  EXPECT_EQ(std::string(D["key"].GetString()), ReplyCache::key(R));
  EXPECT_STREQ(D["request"]["model"].GetString(), "m");
  EXPECT_EQ(D["request"]["messages"].Size(), 2u);
  EXPECT_EQ(D["request"]["temperature"].GetDouble(), 0.2);
  EXPECT_EQ(D["request"]["max_tokens"].GetUint(), 512u);
  EXPECT_FALSE(D["request"].HasMember("seed"));
  EXPECT_STREQ(D["reply"]["text"].GetString(), "t");
}

TEST_F(ReplyCacheTest, BrokenEntryIsAnError) {
  ReplyCache Cache(Dir);
  ChatRequest R = request("m");
  std::ofstream(Cache.path(R)) << "{\"format\": 3}";
  auto Found = Cache.lookup(R);
  ASSERT_FALSE(bool(Found));
  EXPECT_EQ(llvm::toString(Found.takeError()),
            Cache.path(R) + " is not a reply cache entry (format is not "
                            "autoprof-llm-reply/1); delete it");
}

TEST_F(ReplyCacheTest, HitDoesNotCallTheServer) {
  TestChatServer *Server = TestChatServer::get();
  if (!Server)
    return;
  ChatClient Client(Server->config("ok-cache"));
  ReplyCache Cache(Dir);
  ChatRequest R = Client.config().makeRequest({{"user", "cache me"}});

  auto First = Cache.complete(Client, R);
  ASSERT_TRUE(bool(First)) << llvm::toString(First.takeError());
  EXPECT_EQ(First->Text, "reply to: cache me");
  EXPECT_FALSE(First->FromCache);
  EXPECT_EQ(Server->requests("ok-cache").size(), 1u);

  auto Second = Cache.complete(Client, R);
  ASSERT_TRUE(bool(Second)) << llvm::toString(Second.takeError());
  EXPECT_EQ(Second->Text, "reply to: cache me");
  EXPECT_TRUE(Second->FromCache);
  EXPECT_EQ(Server->requests("ok-cache").size(), 1u);

  ChatRequest Other = Client.config().makeRequest({{"user", "and me"}});
  auto Third = Cache.complete(Client, Other);
  ASSERT_TRUE(bool(Third)) << llvm::toString(Third.takeError());
  EXPECT_EQ(Third->Text, "reply to: and me");
  EXPECT_EQ(Server->requests("ok-cache").size(), 2u);
  EXPECT_EQ(filesIn(Dir).size(), 2u); // No temporary files are left.
}

TEST_F(ReplyCacheTest, FailedCallsAreNotStored) {
  TestChatServer *Server = TestChatServer::get();
  if (!Server)
    return;
  ChatClient Client(Server->config("nochoices-cache"));
  ReplyCache Cache(Dir);
  ChatRequest R = Client.config().makeRequest({{"user", "x"}});
  EXPECT_FALSE(bool(Cache.complete(Client, R)));
  llvm::consumeError(Cache.complete(Client, R).takeError());
  EXPECT_EQ(Server->requests("nochoices-cache").size(), 2u);
  EXPECT_TRUE(filesIn(Dir).empty());
}

TEST_F(ReplyCacheTest, ReplayOnly) {
  TestChatServer *Server = TestChatServer::get();
  if (!Server)
    return;
  ChatClient Client(Server->config("ok-replay"));
  ChatRequest R = Client.config().makeRequest({{"user", "replay me"}});
  ReplyCache Replay(Dir, ReplyCache::Mode::ReplayOnly);

  auto Missing = Replay.complete(Client, R);
  ASSERT_FALSE(bool(Missing));
  EXPECT_EQ(llvm::toString(Missing.takeError()),
            "no cached reply for this request in " + Dir +
                "; rerun without --llm-replay-only");
  EXPECT_TRUE(Server->requests("ok-replay").empty());

  ASSERT_TRUE(bool(ReplyCache(Dir).complete(Client, R)));
  EXPECT_EQ(Server->requests("ok-replay").size(), 1u);
  auto Replayed = Replay.complete(Client, R);
  ASSERT_TRUE(bool(Replayed)) << llvm::toString(Replayed.takeError());
  EXPECT_EQ(Replayed->Text, "reply to: replay me");
  EXPECT_EQ(Server->requests("ok-replay").size(), 1u);
}

TEST_F(ReplyCacheTest, TheKeyIsInNoCacheFile) {
  TestChatServer *Server = TestChatServer::get();
  if (!Server)
    return;
  ChatConfig C = Server->config("ok-secret");
  C.BaseURL =
      "http://user:hunter2@127.0.0.1:" + std::to_string(Server->port()) + "/v1";
  ASSERT_FALSE(C.APIKey.empty());
  ChatClient Client(C);
  ReplyCache Cache(Dir);
  for (int Seed = 0; Seed < 3; ++Seed) {
    ChatRequest R = C.makeRequest({{"user", "s"}});
    R.Seed = Seed;
    ASSERT_TRUE(bool(Cache.complete(Client, R)));
  }
  std::vector<std::string> Files = filesIn(Dir);
  ASSERT_EQ(Files.size(), 3u);
  for (const std::string &Name : Files) {
    EXPECT_EQ(Name.size(), 64u + 5u) << Name;
    std::string Text = readFile(Dir + "/" + Name);
    EXPECT_FALSE(Text.empty());
    EXPECT_EQ(Text.find(C.APIKey), std::string::npos) << Name;
    EXPECT_EQ(Text.find("hunter2"), std::string::npos) << Name;
    EXPECT_EQ(Text.find("127.0.0.1"), std::string::npos) << Name;
  }
}

} // namespace
