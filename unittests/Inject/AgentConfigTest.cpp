//===- AgentConfigTest.cpp - Tests of the injection library's config ------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "AgentConfig.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::inject;

namespace {

/// Writes \p Text to a temporary file and reads it back as a config.
bool load(const std::string &Text, AgentConfig &Out, std::string &Error) {
  llvm::SmallString<128> Path;
  if (llvm::sys::fs::createTemporaryFile("agent", "json", Path))
    return false;
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    OS << Text;
  }
  bool Ok = loadAgentConfig(std::string(Path), Out, Error);
  llvm::sys::fs::remove(Path);
  return Ok;
}

TEST(AgentConfigTest, WhatTheToolWritesTheLibraryReads) {
  AgentRequest R;
  R.Output = "/tmp/out \"quoted\".json";
  R.Run = 2;
  R.KernelRegexText = "^tile_\\w+$";
  R.LaunchSkip = 3;
  R.LaunchCount = 2;
  R.FlushCaches = true;
  R.Metrics = {"gpu__time_duration.sum", "launch__grid_size"};
  R.RangeMetrics = {"gpu__time_duration.sum"};
  R.DerivedInputs["derived__flops"] = {"a.sum", "b.sum"};
  R.Kernels.push_back({"_Z4tilePf", {{"loops", 2.0}, {"shared_arrays", 0.0}}});
  R.Kernels.push_back({"_Z5otherv", {{"loops", std::nullopt}}});
  R.SecondRun["_Z4tilePf"] = {4, {{"gpu__time_duration.sum", 1234.5}}};

  AgentConfig C;
  std::string Error;
  ASSERT_TRUE(load(writeAgentConfig(R), C, Error)) << Error;
  EXPECT_EQ(C.Output, R.Output);
  EXPECT_EQ(C.Run, 2u);
  EXPECT_EQ(C.KernelRegexText, R.KernelRegexText);
  ASSERT_TRUE(C.KernelRegex);
  EXPECT_TRUE(std::regex_search("tile_a1", *C.KernelRegex));
  EXPECT_EQ(C.LaunchSkip, 3u);
  EXPECT_EQ(C.LaunchCount, 2u);
  EXPECT_TRUE(C.FlushCaches);
  EXPECT_EQ(C.Metrics, R.Metrics);
  EXPECT_FALSE(C.Tree);
  EXPECT_EQ(C.RangeMetrics, std::set<std::string>{"gpu__time_duration.sum"});
  EXPECT_EQ(C.DerivedInputs, R.DerivedInputs);
  ASSERT_EQ(C.Features.size(), 2u);
  EXPECT_EQ(C.Features["_Z4tilePf"].get("loops"), 2.0);
  EXPECT_EQ(C.Features["_Z4tilePf"].get("shared_arrays"), 0.0);
  EXPECT_FALSE(C.Features["_Z5otherv"].get("loops"));
  ASSERT_EQ(C.SecondRun.size(), 1u);
  EXPECT_EQ(C.SecondRun["_Z4tilePf"].Launch, 4u);
  EXPECT_EQ(C.SecondRun["_Z4tilePf"].Samples["gpu__time_duration.sum"], 1234.5);
}

TEST(AgentConfigTest, ATreeIsReadFromItsFile) {
  AgentRequest R;
  R.Output = "/tmp/out.json";
  R.TreeFile = "/no/such/tree.json";
  AgentConfig C;
  std::string Error;
  EXPECT_FALSE(load(writeAgentConfig(R), C, Error));
  EXPECT_EQ(Error, "cannot read the tree '/no/such/tree.json'");
}

TEST(AgentConfigTest, ABadRegexIsOneLine) {
  AgentRequest R;
  R.Output = "/tmp/out.json";
  R.KernelRegexText = "(";
  AgentConfig C;
  std::string Error;
  EXPECT_FALSE(load(writeAgentConfig(R), C, Error));
  EXPECT_NE(Error.find("invalid kernel regular expression '('"),
            std::string::npos);
  EXPECT_EQ(Error.find('\n'), std::string::npos);
}

TEST(AgentConfigTest, CacheControlIsAllOrNone) {
  AgentConfig C;
  std::string Error;
  ASSERT_TRUE(
      load(R"({"output": "o.json", "cache_control": "none"})", C, Error))
      << Error;
  EXPECT_FALSE(C.FlushCaches);
  AgentConfig Missing;
  ASSERT_TRUE(load(R"({"output": "o.json"})", Missing, Error)) << Error;
  EXPECT_FALSE(Missing.FlushCaches);
  AgentConfig Bad;
  EXPECT_FALSE(
      load(R"({"output": "o.json", "cache_control": "l2"})", Bad, Error));
  EXPECT_NE(Error.find("malformed cache control"), std::string::npos);
  EXPECT_FALSE(load(R"({"output": "o.json", "cache_control": 1})", Bad, Error));
}

} // namespace
