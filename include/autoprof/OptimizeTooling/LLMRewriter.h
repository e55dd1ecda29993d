//===- LLMRewriter.h - The model as a rewriter ------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The model as a rewriter: builds a kernel's prompt, asks the server (or
/// the reply cache), and turns the reply into a candidate source text, or
/// into the verdict and reason of a rejected reply (the reply contract of
/// docs/llm.md). LLMRounds gives an optimize session the model's rounds.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_LLMREWRITER_H
#define AUTOPROF_OPTIMIZETOOLING_LLMREWRITER_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/LLM/PromptBuilder.h"
#include "autoprof/LLM/ReplyCache.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Optimize/Session.h"
#include "autoprof/OptimizeTooling/EngineModel.h"
#include "autoprof/Rewrite/KernelReach.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/Judge.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class DiagnosticConsumer;
} // namespace clang

namespace autoprof {

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

/// Where the model is and how it is asked.
struct LLMRewriterOptions {
  /// The server and the model; empty: AUTOPROF_LLM_BASE_URL and
  /// AUTOPROF_LLM_MODEL (the key comes from the environment only).
  std::string BaseURL, Model;
  /// Retries of a failed request, and seconds a request may take (0: the
  /// client's default).
  unsigned Retries = 2, TimeoutSeconds = 0;
  /// The reply cache's folder (empty for none), and whether it alone
  /// answers.
  std::string Cache;
  bool ReplayOnly = false;
  /// The prompt templates' folder and the metric catalog.
  std::string Prompts, Catalog;
  /// False when nothing will be sent (the prompts are only shown): no
  /// server or model is needed then.
  bool Send = true;
  /// How a candidate is parsed; the driver's messages go to Messages.
  SourceSettings Parse;
  SourceMessages Messages;
};

class LLMRewriter {
public:
  /// The rewriter \p O describes: the server and the model (options over
  /// the environment), the reply cache, the prompt templates and the
  /// metric catalog. Fails with one line.
  static llvm::Expected<std::unique_ptr<LLMRewriter>>
  create(LLMRewriterOptions O);

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
  /// Runs \p Engine over \p Source quietly, with \p Texts in place of the
  /// files on disk; the driver's status.
  int parse(RewriteEngine &Engine, const std::string &Source,
            std::map<std::string, std::string> Texts,
            clang::DiagnosticConsumer &Diagnostics) const;

  SourceSettings Parse;
  SourceMessages Messages;
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

/// The model's rounds for an optimize session: each asks the model with the
/// kernel's profile (and the previous round's failure), checks the reply,
/// and makes the candidate through \p Edits.
class LLMRounds : public optimize::ModelRewriter {
public:
  LLMRounds(LLMRewriter &LLM, const RewriteEngine &Engine,
            const std::string &Source, EngineModel &Edits)
      : LLM(LLM), Engine(Engine), Source(Source), Edits(Edits) {}
  const std::string &model() const override { return LLM.model(); }
  llvm::Expected<optimize::ModelRound>
  round(const optimize::SessionKernel &K, const optimize::ProfiledKernel &P,
        const std::optional<optimize::RoundFailure> &Previous) override;

private:
  LLMRewriter &LLM;
  const RewriteEngine &Engine;
  std::string Source;
  EngineModel &Edits;
};

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_LLMREWRITER_H
