//===- BoundedParseTest.cpp - JSON parsing with limits --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/JSON/BoundedParse.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::json;

namespace {

std::string parseError(const std::string &Text,
                       const ParseLimits &L = ParseLimits()) {
  rapidjson::Document D;
  std::string Error;
  EXPECT_FALSE(parseBounded(Text, D, Error, L)) << Text.substr(0, 80);
  return Error;
}

TEST(BoundedParseTest, ParsesWhatIsWithinTheLimits) {
  rapidjson::Document D;
  std::string Error;
  ASSERT_TRUE(
      parseBounded("{\"a\": [1, {\"b\": \"x\"}], \"c\": null}", D, Error))
      << Error;
  EXPECT_EQ(std::string(D["a"][1]["b"].GetString()), "x");
  // The same key in different objects is no duplicate.
  ASSERT_TRUE(parseBounded("[{\"k\": 1}, {\"k\": 2}]", D, Error)) << Error;
}

TEST(BoundedParseTest, DeepNestingIsAnErrorNotACrash) {
  // Far deeper than a recursive parser survives on a default stack.
  std::string Deep = std::string(300000, '[') + std::string(300000, ']');
  EXPECT_EQ(parseError(Deep).substr(0, 9), "$[0][0][0");
  EXPECT_NE(parseError(Deep).find(": nested deeper than 64 levels"),
            std::string::npos);
  std::string Objects;
  for (int I = 0; I < 100000; ++I)
    Objects += "{\"a\":";
  Objects += "1" + std::string(100000, '}');
  EXPECT_NE(parseError(Objects).find("$.a.a.a"), std::string::npos);
  // Unbalanced: still an error, found without recursion.
  EXPECT_NE(parseError(std::string(200000, '[')).find("nested deeper"),
            std::string::npos);
  ParseLimits Shallow;
  Shallow.MaxDepth = 2;
  EXPECT_EQ(parseError("{\"a\": {\"b\": [1]}}", Shallow),
            "$.a.b: nested deeper than 2 levels");
}

TEST(BoundedParseTest, DuplicateKeysAreRefused) {
  EXPECT_EQ(parseError("{\"a\": 1, \"b\": {\"c\": 1, \"c\": 2}}"),
            "$.b: duplicate key 'c'");
  EXPECT_EQ(parseError("{\"x\": [0, {\"k\": 1, \"k\": 1}]}"),
            "$.x[1]: duplicate key 'k'");
}

TEST(BoundedParseTest, SyntaxEncodingAndSize) {
  EXPECT_EQ(parseError("{\"version\": 1,"),
            "1:15: malformed JSON: Missing a name for object member.");
  EXPECT_EQ(parseError("{\"a\":\n \"\xff\"}"),
            "2:3: malformed JSON: Invalid encoding in string.");
  ParseLimits Small;
  Small.MaxBytes = 8;
  EXPECT_EQ(parseError("{\"a\": 12345}", Small), "larger than 8 bytes");
}

TEST(BoundedParseTest, EscapesDecodeToText) {
  // A lone surrogate would decode to bytes that are not UTF-8, and a NUL
  // would cut the string short wherever it is used as C text.
  const char *Why = "a string holds a NUL character or an escaped surrogate "
                    "that is not part of a pair";
  EXPECT_EQ(parseError("{\"a\": [\"x\", \"\\udead\"]}"),
            std::string("$.a[1]: ") + Why);
  // A lone high surrogate is RapidJSON's own error.
  EXPECT_EQ(parseError("{\"a\": \"\\ud83d\"}"),
            "1:8: malformed JSON: The surrogate pair in string is invalid.");
  EXPECT_EQ(parseError("{\"b\\u0000\": 1}"), std::string("$: ") + Why);
  rapidjson::Document D;
  std::string Error;
  ASSERT_TRUE(parseBounded("[\"\\ud83d\\ude00\", \"\\u00e9\"]", D, Error))
      << Error;
  EXPECT_EQ(std::string(D[0].GetString()), "\xf0\x9f\x98\x80");
}

TEST(BoundedParseTest, KeysInMessagesArePrintable) {
  EXPECT_EQ(parseError("{\"\\u001b[2J\": 1, \"\\u001b[2J\": 2}"),
            "$: duplicate key '\\x1b[2J'");
}

TEST(PrintableTextTest, EscapesWhatATerminalWouldInterpret) {
  EXPECT_EQ(printableText("plain text"), "plain text");
  EXPECT_EQ(printableText("a\nb\tc\r"), "a\\nb\\tc\\r");
  EXPECT_EQ(printableText(std::string("x\0y", 3)), "x\\x00y");
  EXPECT_EQ(printableText("\x1b[2J"), "\\x1b[2J");
  EXPECT_EQ(printableText("back\\slash"), "back\\\\slash");
  // UTF-8 stays; bytes that are not UTF-8 and C1 controls are escaped.
  EXPECT_EQ(printableText("caf\xc3\xa9"), "caf\xc3\xa9");
  EXPECT_EQ(printableText("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printableText("\xc2\x85"), "\\u0085");
  EXPECT_EQ(printableText("\xc0\xaf"), "\\xc0\\xaf"); // Overlong.
  EXPECT_EQ(printableText(std::string(1000, 'x'), 10), "xxxxxxxxxx...");
  // Messages that quote paths or regular expressions keep their
  // backslashes; control characters are still escaped.
  EXPECT_EQ(printableText("'^tile_\\w+$'\x1b[0m", 200,
                          /*EscapeBackslash=*/false),
            "'^tile_\\w+$'\\x1b[0m");
}

} // namespace
