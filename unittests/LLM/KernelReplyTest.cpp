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

} // namespace
