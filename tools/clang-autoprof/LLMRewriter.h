//===- LLMRewriter.h - optimize --rewriter=llm ------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The model as a rewriter: builds a kernel's prompt, asks the server (or
/// the reply cache), and turns the reply into a candidate source text, or
/// into the verdict and reason of a rejected reply.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLS_LLMREWRITER_H
#define AUTOPROF_TOOLS_LLMREWRITER_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/LLM/PromptBuilder.h"
#include "autoprof/LLM/ReplyCache.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Rewrite/KernelReach.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Verify/Judge.h"

#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace tool {

/// What the tree collected for a kernel.
struct KernelProfile {
  std::string Leaf;
  std::string Focus;
  MetricValues Metrics;
};

/// What became of one reply.
struct LLMRound {
  /// The code block taken from the reply; empty when there was none.
  std::string Code;
  /// The whole source with the kernel replaced, when the reply passed the
  /// checks.
  std::optional<std::string> Candidate;
  /// Why not, otherwise.
  verify::Verdict V = verify::Verdict::ReplyRejected;
  std::string Reason;
};

class LLMRewriter {
public:
  /// The rewriter of the `optimize` options: the server and the model
  /// (flags over AUTOPROF_LLM_* variables; the key from the environment
  /// only), the reply cache, the prompt templates and the metric catalog.
  /// With \p Send false (--llm-show-prompt) nothing is sent, so no server
  /// is needed. Fails with one line.
  static llvm::Expected<std::unique_ptr<LLMRewriter>> create(const char *Argv0,
                                                             bool Send);

  /// The prompt for kernel \p Kernel of \p Engine (defined in the file
  /// that \p Shown names for the user).
  std::vector<ChatMessage>
  prompt(const RewriteEngine &Engine, size_t Kernel,
         const KernelProfile &Profile,
         const std::optional<PromptFailure> &Previous) const;

  /// The reply to \p Messages, from the cache or the server.
  llvm::Expected<ChatReply> ask(std::vector<ChatMessage> Messages);

  /// Checks \p ReplyText as a rewrite of kernel \p Kernel of \p Engine (the
  /// code block, the splice, Clang's parse of the candidate, the kernel's
  /// signature). \p Source is the source as the user named it. A reply the
  /// server cut at its length limit (\p FinishReason "length") inside its
  /// code block is rejected as cut, not compiled.
  LLMRound handle(const RewriteEngine &Engine, size_t Kernel,
                  const std::string &Source, llvm::StringRef ReplyText,
                  llvm::StringRef FinishReason = "");

  /// The model's name.
  const std::string &model() const { return Config.Model; }

private:
  LLMRewriter() = default;

  ChatConfig Config;
  std::unique_ptr<ChatClient> Client;
  std::optional<ReplyCache> Cache;
  std::optional<PromptTemplates> Templates;
  std::optional<MetricCatalog> Catalog;
  /// Every kernel of the original source, unfiltered, once parsed.
  std::optional<std::vector<KernelRecord>> AllKernels;
  /// What each kernel of the original reaches outside itself, by the index
  /// of the engine's kernel, filled with AllKernels.
  std::vector<std::optional<KernelReach>> OriginalReach;
};

/// Whether kernel \p Kernel of \p Engine can be rewritten by the model in
/// \p Source: it is defined there, not through a macro. Otherwise a reason.
std::optional<std::string> llmUnsupported(const RewriteEngine &Engine,
                                          size_t Kernel,
                                          const std::string &Source);

} // namespace tool
} // namespace autoprof

#endif // AUTOPROF_TOOLS_LLMREWRITER_H
