//===- LearnSession.h - One run of `learn` ----------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One run of `clang-autoprof learn` (docs/learn.md) as a library call: its
/// options checked, the dataset, the starting trees and the measured
/// outcomes set up, then the cross-validation, the compared trees, the
/// oracle, the metric curve and the learned tree, in that order. The run
/// writes no file but its --log: the caller writes the learned tree and the
/// report it returns.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LEARNSESSION_H
#define AUTOPROF_LEARN_LEARNSESSION_H

#include "autoprof/LLM/ChatClient.h"
#include "autoprof/Learn/LearnReport.h"
#include "autoprof/Learn/LiveOutcomes.h"
#include "autoprof/Learn/Replay.h"
#include "autoprof/Metrics/TreeBudget.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

/// What `learn` was asked for.
struct LearnSessionOptions {
  /// The dataset files, merged in this order.
  std::vector<std::string> Datasets;
  /// Dataset files of other programs, merged in this order: when given,
  /// the tree is learned on every kernel of Datasets and judged, beside
  /// the compared trees, the oracle and the metric curve, on these.
  std::vector<std::string> HeldOut;
  /// Replay passes one kernel may cost; must be positive.
  unsigned Budget = 0;
  /// The starting trees (names of tree-models/ or files); empty for
  /// "minimal", one leaf with the launch attributes.
  std::vector<std::string> Init;
  /// "search" or "llm".
  std::string Proposer = "search";
  /// "builtin" (the dataset's outcomes) or "llm" (trials, measured).
  std::string Rewriter = "builtin";
  /// With the LLM rewriter: the corpus manifest, the outcome cache and the
  /// nvcc that builds the programs.
  std::string Programs, OutcomeCache;
  std::string Nvcc = "/usr/local/cuda/bin/nvcc";
  /// With the LLM proposer: the server, the reply cache and its mode.
  ChatConfig Chat;
  std::string LLMCache;
  bool LLMReplayOnly = false;
  unsigned Iterations = 20;
  unsigned Folds = 0;
  uint64_t Seed = 1;
  unsigned MinLeaf = 2;
  bool Fill = false;
  /// The learned tree's name, and whether it is asked for (-o).
  std::string Name = "learned";
  bool WantLearned = false;
  /// Every proposal, as JSON lines; empty for none.
  std::string LogFile;
  std::vector<std::string> Compare, CompareUnbudgeted;
  bool Oracle = false;
  unsigned Curve = 0;
  /// No progress lines.
  bool Quiet = false;
  /// The metric catalog; tree-models/ is its folder.
  std::string CatalogPath;
};

/// What the run needs from outside.
struct LearnSessionHooks {
  /// The rewriter's transformations as replay rules.
  TriggerRewriter Rewriter{std::vector<TriggerRewriter::Rule>{}};
  /// Loads what knows the chips and their pass counts (the profiler host).
  std::function<llvm::Expected<std::unique_ptr<PassCounter>>()> LoadHost;
  /// With the LLM rewriter: one trial of the model.
  LiveOptimize Trial;
  /// Checks the trials' model settings before anything runs.
  std::function<llvm::Error()> CheckTrialModel;
};

/// What the run found.
struct LearnSessionResult {
  LearnReportData Report;
  /// The learned tree's JSON, when asked for.
  std::optional<std::string> LearnedTree;
};

/// Runs `learn`; progress lines and a summary of what it cost go to
/// \p Progress. An option that does not go with the others, an unreadable
/// input and a failed trial are errors.
llvm::Expected<LearnSessionResult> runLearnSession(const LearnSessionOptions &O,
                                                   LearnSessionHooks Hooks,
                                                   llvm::raw_ostream &Progress);

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_LEARNSESSION_H
