//===- PromptBuilderTest.cpp - Tests of the prompt builder ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/LLM/PromptBuilder.h"

#include "TestChatServer.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include "gtest/gtest.h"

#include <fstream>

using namespace autoprof;
using namespace autoprof::test;

namespace {

PromptInput input() {
  PromptInput In;
  In.Kernel.Name = In.Kernel.QualifiedName = "scale";
  In.Kernel.Params = {{"in", "const float *", true, true, false},
                      {"out", "float *", true, false, false},
                      {"n", "int", false, false, false}};
  In.Kernel.Features.set("global_loads", 1);
  In.Kernel.Features.set("global_stores", 1);
  In.File = "scale.cu";
  In.KernelSource = "__global__ void scale(const float *in, float *out, int "
                    "n) {\n  out[0] = in[0];\n}\n";
  In.LaunchSites = {"line 40: scale<<<N / 256, 256>>>(In, Out, N)"};
  In.Leaf = "memory-uncoalesced";
  In.Focus = "check coalescing";
  In.Metrics = {{"dram__bytes_read.sum", 1048576, "byte", "bytes read"},
                {"l1tex__t_sector_hit_rate.pct", 12.5, "%", ""}};
  return In;
}

const char *KernelTemplate = "K={{kernel_name}} F={{file}} S={{signature}}\n"
                             "{{kernel_source}}\nL:\n{{launch_sites}}\n"
                             "X:\n{{features}}\n{{leaf}}|{{focus}}\n"
                             "P:\n{{profile}}\n";
const char *RetryTemplate = "RETRY {{kernel_name}}: {{previous_verdict}} "
                            "({{previous_reason}})\n{{previous_code}}\n";

TEST(PromptBuilderTest, FillsEveryPlaceholder) {
  auto T = PromptTemplates::fromText("SYSTEM\n", KernelTemplate, RetryTemplate);
  ASSERT_TRUE(static_cast<bool>(T)) << llvm::toString(T.takeError());
  std::vector<ChatMessage> M = T->build(input());
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0].Role, "system");
  EXPECT_EQ(M[0].Content, "SYSTEM\n");
  EXPECT_EQ(M[1].Role, "user");
  EXPECT_EQ(M[1].Content,
            "K=scale F=scale.cu S=scale(const float *in, float *out, int n)\n"
            "__global__ void scale(const float *in, float *out, int n) {\n"
            "  out[0] = in[0];\n}\n"
            "L:\n- line 40: scale<<<N / 256, 256>>>(In, Out, N)\n"
            "X:\n- global_loads = 1\n- global_stores = 1\n"
            "memory-uncoalesced|check coalescing\n"
            "P:\n- dram__bytes_read.sum = 1048576 byte: bytes read\n"
            "- l1tex__t_sector_hit_rate.pct = 12.5 %\n");
  EXPECT_EQ(M[1].Content.find("RETRY"), std::string::npos);
}

TEST(PromptBuilderTest, SaysWhatIsMissing) {
  auto T = PromptTemplates::fromText("S", KernelTemplate, RetryTemplate);
  ASSERT_TRUE(static_cast<bool>(T));
  PromptInput In = input();
  In.LaunchSites.clear();
  In.Leaf.clear();
  In.Focus.clear();
  In.Metrics.clear();
  In.Kernel.Features = KernelFeatures();
  std::string U = T->build(In)[1].Content;
  EXPECT_NE(U.find("L:\n(no launch of it in this file)\n"), std::string::npos);
  EXPECT_NE(U.find("X:\n(every feature is 0)\n"), std::string::npos);
  EXPECT_NE(U.find("none (no profile was collected)|none\n"),
            std::string::npos);
  EXPECT_NE(U.find("P:\n(no metric was collected)\n"), std::string::npos);
}

TEST(PromptBuilderTest, RetrySectionOnlyOnRetry) {
  auto T =
      PromptTemplates::fromText("S", "KERNEL {{kernel_name}}\n", RetryTemplate);
  ASSERT_TRUE(static_cast<bool>(T));
  PromptInput In = input();
  EXPECT_EQ(T->build(In)[1].Content, "KERNEL scale\n");
  In.Previous = PromptFailure{"build-failed", "k.cu:3: error: oops",
                              "__global__ void scale() {}\n"};
  EXPECT_EQ(T->build(In)[1].Content,
            "KERNEL scale\n\nRETRY scale: build-failed (k.cu:3: error: "
            "oops)\n__global__ void scale() {}\n");
  In.Previous = PromptFailure{"no-code-block", "none", ""};
  EXPECT_EQ(T->build(In)[1].Content,
            "KERNEL scale\n\nRETRY scale: no-code-block (none)\n(no code)\n");
}

TEST(PromptBuilderTest, UnknownPlaceholderNamesTheFile) {
  auto T = PromptTemplates::fromText("S", "a\nb {{kernel}}\n", RetryTemplate,
                                     "/prompts");
  ASSERT_FALSE(static_cast<bool>(T));
  std::string E = llvm::toString(T.takeError());
  EXPECT_EQ(E.rfind("/prompts/kernel.txt:2: unknown placeholder {{kernel}}; "
                    "known: {{kernel_name}}, ",
                    0),
            0u)
      << E;
  // The retry template may not use the kernel's placeholders.
  T = PromptTemplates::fromText("S", "x", "{{profile}}", "/prompts");
  ASSERT_FALSE(static_cast<bool>(T));
  EXPECT_NE(llvm::toString(T.takeError())
                .find("/prompts/retry.txt:1: unknown placeholder {{profile}}"),
            std::string::npos);
  T = PromptTemplates::fromText("{{kernel_name}}", "x", "y", "/prompts");
  ASSERT_FALSE(static_cast<bool>(T));
  EXPECT_EQ(llvm::toString(T.takeError()),
            "/prompts/system.txt:1: unknown placeholder {{kernel_name}}; this "
            "file has none");
  T = PromptTemplates::fromText("S", "x {{kernel_name\n}}", "y", "/prompts");
  ASSERT_FALSE(static_cast<bool>(T));
  EXPECT_EQ(llvm::toString(T.takeError()),
            "/prompts/kernel.txt:1: '{{' without its '}}'");
}

TEST(PromptBuilderTest, FillTemplate) {
  auto S = fillTemplate("a {{ x }} b {{y}}{{x}}", "t.txt",
                        {{"x", "1"}, {"y", "{{x}}"}});
  ASSERT_TRUE(static_cast<bool>(S));
  // A value is not filled again.
  EXPECT_EQ(*S, "a 1 b {{x}}1");
  S = fillTemplate("ok\n{{z}}", "t.txt", {{"x", "1"}});
  ASSERT_FALSE(static_cast<bool>(S));
  EXPECT_EQ(llvm::toString(S.takeError()),
            "t.txt:2: unknown placeholder {{z}}");
}

TEST(PromptBuilderTest, LoadsFilesAndNamesAMissingOne) {
  std::string Dir = makeTempDirectory("autoprof-prompts");
  auto Write = [&](const char *Name, const char *Text) {
    llvm::SmallString<128> P(Dir);
    llvm::sys::path::append(P, Name);
    std::ofstream(std::string(P)) << Text;
  };
  Write("system.txt", "S");
  Write("kernel.txt", "{{kernel_name}}");
  auto T = PromptTemplates::load(Dir);
  ASSERT_FALSE(static_cast<bool>(T));
  EXPECT_NE(
      llvm::toString(T.takeError())
          .find("cannot read the prompt template '" + Dir + "/retry.txt'"),
      std::string::npos);
  Write("retry.txt", "{{previous_verdict}}");
  T = PromptTemplates::load(Dir);
  ASSERT_TRUE(static_cast<bool>(T));
  EXPECT_EQ(T->build(input())[1].Content, "scale");
  Write("kernel.txt", "{{kernel_name}} {{nope}}");
  T = PromptTemplates::load(Dir);
  ASSERT_FALSE(static_cast<bool>(T));
  EXPECT_NE(llvm::toString(T.takeError())
                .find(Dir + "/kernel.txt:1: unknown placeholder {{nope}}"),
            std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(PromptBuilderTest, FormatsValues) {
  EXPECT_EQ(formatPromptValue(12), "12");
  EXPECT_EQ(formatPromptValue(0.25), "0.25");
  EXPECT_EQ(formatPromptValue(1.5e20), "1.5e+20");
  EXPECT_EQ(formatPromptValue(3.14159), "3.142");
}

} // namespace
