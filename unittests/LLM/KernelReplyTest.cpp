//===- KernelReplyTest.cpp - Tests of the reply contract ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/KernelReply.h"

#include "gtest/gtest.h"

using namespace autoprof;

namespace {

TEST(KernelReplyTest, TakesTheOneBlock) {
  KernelReply R = extractKernelCode(
      "Here it is:\n```cuda\n__global__ void k() {}\n```\nEnjoy.\n");
  ASSERT_TRUE(R.ok()) << R.Reason;
  EXPECT_EQ(R.Code, "__global__ void k() {}\n");
  // No language, tildes, a longer fence, CRLF, an unclosed block.
  EXPECT_EQ(extractKernelCode("```\nA\n```").Code, "A\n");
  EXPECT_EQ(extractKernelCode("~~~cpp\nA\n~~~\n").Code, "A\n");
  EXPECT_EQ(extractKernelCode("````cuda\n```\n````\n").Code, "```\n");
  EXPECT_EQ(extractKernelCode("```cuda\r\nA\r\n```\r\n").Code, "A\n");
  EXPECT_EQ(extractKernelCode("```cuda\nA\nB").Code, "A\nB\n");
}

TEST(KernelReplyTest, RefusesControlCharacters) {
  KernelReply R = extractKernelCode(
      std::string("```cuda\n__global__ void k() {\n  int a;\x1b[2J\n}\n```"));
  EXPECT_EQ(R.P, KernelReply::Problem::ControlCharacter);
  EXPECT_EQ(R.Reason, "the reply's code has a control character (byte 27) "
                      "at its line 2; source code holds none");
  EXPECT_TRUE(R.Code.empty());
  R = extractKernelCode(std::string("```cuda\nint a;\0\n```", 19));
  EXPECT_EQ(R.P, KernelReply::Problem::ControlCharacter);
  // White space is source code's own.
  EXPECT_TRUE(extractKernelCode("```cuda\n\tint a;\f\v\r\n```").ok());
}

TEST(KernelReplyTest, SaysWhetherTheBlockWasLeftOpen) {
  EXPECT_FALSE(extractKernelCode("```cuda\nA\n```\nB").Unclosed);
  EXPECT_TRUE(extractKernelCode("```cuda\nA\nB").Unclosed);
  // The block with the kernel is the one taken.
  EXPECT_TRUE(extractKernelCode("```\nnote\n```\n```cuda\n__global__ void k(")
                  .Unclosed);
  EXPECT_FALSE(
      extractKernelCode("```cuda\n__global__ void k() {}\n```\n```\nnote")
          .Unclosed);
}

TEST(KernelReplyTest, RejectsNoBlock) {
  KernelReply R = extractKernelCode("__global__ void k() {}");
  EXPECT_EQ(R.P, KernelReply::Problem::NoCodeBlock);
  EXPECT_EQ(R.Reason, "the reply has no fenced code block (```cuda ... ```)");
  EXPECT_EQ(extractKernelCode("```cuda\n\n```\n").P,
            KernelReply::Problem::NoCodeBlock);
  EXPECT_EQ(extractKernelCode("").P, KernelReply::Problem::NoCodeBlock);
}

TEST(KernelReplyTest, SeveralBlocks) {
  // One block with a kernel and one without: the kernel's.
  KernelReply R = extractKernelCode("```\nnvcc -O3 k.cu\n```\nand\n```cuda\n"
                                    "__global__ void k() {}\n```\n");
  ASSERT_TRUE(R.ok());
  EXPECT_EQ(R.Code, "__global__ void k() {}\n");
  R = extractKernelCode("```cuda\n__global__ void a() {}\n```\n```cuda\n"
                        "__global__ void b() {}\n```\n");
  EXPECT_EQ(R.P, KernelReply::Problem::SeveralBlocks);
  EXPECT_EQ(R.Reason, "the reply has 2 code blocks, 2 of them with a kernel; "
                      "the contract asks for one");
  R = extractKernelCode("```\na\n```\n```\nb\n```\n");
  EXPECT_EQ(R.P, KernelReply::Problem::SeveralBlocks);
}

TEST(KernelReplyTest, RejectsOversized) {
  std::string Big = "```cuda\n" + std::string(100, 'x') + "\n```\n";
  KernelReply R = extractKernelCode(Big, 64);
  EXPECT_EQ(R.P, KernelReply::Problem::TooLarge);
  EXPECT_EQ(R.Reason, "the reply has " + std::to_string(Big.size()) +
                          " bytes, more than the 64 allowed for one kernel");
  EXPECT_TRUE(extractKernelCode(Big).ok());
}

/// The line of the directive extractKernelCode finds in \p Code, or 0.
unsigned directiveLine(const std::string &Code) {
  KernelReply R = extractKernelCode("```cuda\n" + Code + "\n```\n");
  if (R.ok())
    return 0;
  EXPECT_EQ(R.P, KernelReply::Problem::Directive) << R.Reason;
  EXPECT_TRUE(R.Code.empty());
  std::string Key = "at its line ";
  size_t At = R.Reason.find(Key);
  return At == std::string::npos ? ~0u
                                 : std::stoul(R.Reason.substr(At + Key.size()));
}

TEST(KernelReplyTest, RefusesDirectivesHoweverWritten) {
  EXPECT_EQ(directiveLine("#include \"/etc/passwd\"\n__global__ void k() {}"),
            1u);
  EXPECT_EQ(directiveLine("__global__ void k() {\n   #  define X 1\n}"), 2u);
  // After a comment on its line, or a comment that ends a line before.
  EXPECT_EQ(directiveLine("__global__ void k() {\n/* c */ #pragma once\n}"),
            2u);
  EXPECT_EQ(directiveLine("/* a\n b */ #include <x>"), 2u);
  // Spliced by backslash-newlines: before the `#`, inside `*/`.
  EXPECT_EQ(directiveLine("int a;\n  \\\n#include \"f\""), 3u);
  EXPECT_EQ(directiveLine("/* *\\\n/\n#include \"f\"\n// */"), 3u);
  // Digraphs, trigraphs and the pragma operator.
  EXPECT_EQ(directiveLine("%:include \"f\""), 1u);
  EXPECT_EQ(directiveLine("x;\n?\?=include \"f\""), 2u);
  EXPECT_EQ(directiveLine("__global__ void k() { _Pragma(\"unroll\") }"), 1u);
  // A raw string cannot hide a comment's start.
  EXPECT_EQ(directiveLine("auto s = R\"x(\")/*)x\";\n#include \"f\"\n// */"),
            2u);
  // `#` inside literals and comments, and a raw string's lines, are code.
  EXPECT_EQ(directiveLine("__global__ void k(char *p) {\n  p[0] = '#';\n"
                          "  const char *s = \"#include\";\n"
                          "  // #define X\n  /* #x */\n}"),
            0u);
  EXPECT_EQ(directiveLine("const char *s = R\"(\n#include \"f\"\n)\";"), 0u);
  EXPECT_EQ(directiveLine("int a = 5 % 2; int b = c ? 1 : 2;"), 0u);
  // `#pragma unroll` reads and defines nothing: allowed, and only it.
  EXPECT_EQ(directiveLine("for (;;) {\n  #pragma unroll 4\n  # pragma "
                          "nounroll\n%:pragma unroll(8)\n}"),
            0u);
  EXPECT_EQ(directiveLine("#pragma unroll\n#pragma push_macro(\"x\")"), 2u);
  EXPECT_EQ(directiveLine("#pragma unroll /*\n#include \"f\"\n*/"), 1u);
  EXPECT_EQ(directiveLine("#pragma unroll \\\n 4\n#define X"), 3u);
}

} // namespace
