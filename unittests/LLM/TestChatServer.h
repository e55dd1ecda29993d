//===- TestChatServer.h - The chat_server.py process for tests --*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Starts unittests/LLM/chat_server.py once per test program, and reads the
/// requests it logged.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_UNITTESTS_LLM_TESTCHATSERVER_H
#define AUTOPROF_UNITTESTS_LLM_TESTCHATSERVER_H

#include "autoprof/LLM/ChatClient.h"

#include <rapidjson/document.h>

#include <string>
#include <vector>

namespace autoprof {
namespace test {

/// The running server; fails the calling test when it cannot start.
class TestChatServer {
public:
  /// The server, started on first use and stopped at exit; nullptr when it
  /// could not start (the failure is reported).
  static TestChatServer *get();

  unsigned port() const { return Port; }

  /// "http://127.0.0.1:<port>/v1".
  std::string baseURL() const;

  /// A configuration for \p Model on this server with fast retries.
  ChatConfig config(const std::string &Model) const;

  /// The logged requests whose body names \p Model, oldest first.
  std::vector<rapidjson::Document> requests(const std::string &Model) const;

  ~TestChatServer();

private:
  TestChatServer() = default;
  bool start();

  int Pid = 0;
  unsigned Port = 0;
  std::string Directory;
  std::string LogPath;
};

/// A fresh empty directory under the system's temporary directory.
std::string makeTempDirectory(const char *Prefix);

/// The text of \p Path, or empty when it cannot be read.
std::string readFile(const std::string &Path);

} // namespace test
} // namespace autoprof

#endif // AUTOPROF_UNITTESTS_LLM_TESTCHATSERVER_H
