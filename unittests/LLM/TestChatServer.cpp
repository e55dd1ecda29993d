//===- TestChatServer.cpp - The chat_server.py process for tests ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TestChatServer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include "gtest/gtest.h"

#include <chrono>
#include <memory>
#include <thread>

#include <signal.h>
#include <sys/wait.h>

using namespace autoprof;
using namespace autoprof::test;
using namespace llvm;

std::string autoprof::test::makeTempDirectory(const char *Prefix) {
  SmallString<128> Dir;
  if (std::error_code EC = sys::fs::createUniqueDirectory(Prefix, Dir)) {
    ADD_FAILURE() << "cannot create a temporary directory: " << EC.message();
    return "";
  }
  return std::string(Dir);
}

std::string autoprof::test::readFile(const std::string &Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

TestChatServer *TestChatServer::get() {
  static std::unique_ptr<TestChatServer> Server = [] {
    std::unique_ptr<TestChatServer> S(new TestChatServer());
    if (!S->start())
      S.reset();
    return S;
  }();
  if (!Server)
    ADD_FAILURE() << "the test chat server " << AUTOPROF_TEST_CHAT_SERVER
                  << " did not start";
  return Server.get();
}

bool TestChatServer::start() {
  Directory = makeTempDirectory("autoprof-llm-server");
  if (Directory.empty())
    return false;
  SmallString<128> Out(Directory), Log(Directory);
  sys::path::append(Out, "stdout.txt");
  sys::path::append(Log, "requests.jsonl");
  LogPath = std::string(Log);
  std::string Python = AUTOPROF_TEST_PYTHON;
  std::string Script = AUTOPROF_TEST_CHAT_SERVER;
  StringRef Args[] = {Python, Script, "--log", LogPath};
  std::optional<StringRef> Redirects[] = {StringRef(""), StringRef(Out),
                                          std::nullopt};
  std::string Message;
  bool Failed = false;
  sys::ProcessInfo PI = sys::ExecuteNoWait(Python, Args, std::nullopt,
                                           Redirects, 0, &Message, &Failed);
  if (Failed || PI.Pid <= 0) {
    ADD_FAILURE() << "cannot run " << Python << ": " << Message;
    return false;
  }
  Pid = PI.Pid;
  auto Deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < Deadline) {
    std::string Text = readFile(std::string(Out));
    size_t End = Text.find('\n');
    if (End != std::string::npos) {
      if (StringRef(Text).take_front(End).trim().getAsInteger(10, Port) ||
          Port == 0) {
        ADD_FAILURE() << "the test chat server printed '" << Text << "'";
        return false;
      }
      return true;
    }
    int Status;
    if (::waitpid(Pid, &Status, WNOHANG) == Pid) {
      Pid = 0;
      ADD_FAILURE() << "the test chat server exited before printing its port";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ADD_FAILURE() << "the test chat server printed no port within 20 s";
  return false;
}

TestChatServer::~TestChatServer() {
  if (Pid > 0) {
    ::kill(Pid, SIGTERM);
    int Status;
    ::waitpid(Pid, &Status, 0);
  }
  if (!Directory.empty())
    sys::fs::remove_directories(Directory);
}

std::string TestChatServer::baseURL() const {
  return "http://127.0.0.1:" + std::to_string(Port) + "/v1";
}

ChatConfig TestChatServer::config(const std::string &Model) const {
  ChatConfig C;
  C.BaseURL = baseURL();
  C.Model = Model;
  C.APIKey = "sk-test-0123456789abcdef";
  C.ConnectTimeout = std::chrono::milliseconds(2000);
  C.Timeout = std::chrono::milliseconds(10000);
  C.MaxRetries = 2;
  C.RetryBaseDelay = std::chrono::milliseconds(1);
  C.RetryMaxDelay = std::chrono::milliseconds(5);
  return C;
}

std::vector<rapidjson::Document>
TestChatServer::requests(const std::string &Model) const {
  std::vector<rapidjson::Document> Found;
  std::string Text = readFile(LogPath);
  SmallVector<StringRef, 0> Lines;
  StringRef(Text).split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    rapidjson::Document D;
    D.Parse(Line.data(), Line.size());
    if (D.HasParseError() || !D.IsObject() || !D.HasMember("body"))
      continue;
    const rapidjson::Value &Body = D["body"];
    if (Body.IsObject() && Body.HasMember("model") &&
        Body["model"].IsString() && Model == Body["model"].GetString())
      Found.push_back(std::move(D));
  }
  return Found;
}
