//===- LLMProposer.h - Tree operations proposed by a model -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `llm` proposer: each round it shows a model the tree, per-leaf
/// feedback (which kernels did badly, with which metrics, and what would
/// have served them) and the metric catalog, and takes one operation back
/// as JSON, which is validated before it is evaluated.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LLMPROPOSER_H
#define AUTOPROF_LEARN_LLMPROPOSER_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/LLM/ReplyCache.h"
#include "autoprof/Learn/Learner.h"

#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

/// Applies the operation a model's reply \p Reply describes to \p T. The
/// reply holds one JSON object (alone or in a fenced block), one of
///   {"operation": "REWRITE", "node": <leaf>, "metrics": [...]}
///   {"operation": "REWRITE", "node": <test>, "threshold": <number>}
///   {"operation": "REWRITE", "node": "stage1", "stage1": [...]}
///   {"operation": "SPLIT", "node": <leaf>, "test": {"feature" | "sample":
///    <name>, "op": <op>, "threshold": <number>}, "then": [...],
///    "else": [...]}
/// A split on a sample not in stage 1 adds it. Fails with one line saying
/// what is wrong: no JSON object, an unknown operation, node, feature,
/// operator or metric, an empty metric list, a test where a leaf is needed.
/// The budget is checked when the tree is evaluated.
llvm::Expected<Proposal> parseOperation(llvm::StringRef Reply,
                                        const ProfilingTree &T,
                                        const MetricCatalog &Catalog);

/// The user message of a round: the budget, the tree, per-leaf feedback on
/// \p Train, the operations already tried, and the catalog.
std::string learnPrompt(const ProfilingTree &T, const Evaluation &Current,
                        const TriggerRewriter &Rewriter,
                        const MetricCatalog &Catalog, unsigned Budget,
                        const std::vector<LogEntry> &Tried);

class LLMProposer : public Proposer {
public:
  /// \p Cache may be null.
  LLMProposer(ChatClient &Client, const ReplyCache *Cache,
              std::string SystemPrompt, const TriggerRewriter &Rewriter,
              const MetricCatalog &Catalog, unsigned Budget);

  llvm::Expected<std::vector<Proposal>>
  propose(const ProfilingTree &T, const Evaluation &Current,
          llvm::ArrayRef<const DatasetKernel *> Train) override;
  bool stopsWhenNothingImproves() const override { return false; }
  void feedback(const std::vector<LogEntry> &Round) override;

  /// Requests sent and tokens spent so far (cached replies cost none).
  unsigned requests() const { return Requests; }
  uint64_t tokens() const { return Tokens; }

private:
  ChatClient &Client;
  const ReplyCache *Cache;
  std::string SystemPrompt;
  const TriggerRewriter &Rewriter;
  const MetricCatalog &Catalog;
  unsigned Budget;
  std::vector<LogEntry> Tried;
  unsigned Requests = 0;
  uint64_t Tokens = 0;
};

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_LLMPROPOSER_H
