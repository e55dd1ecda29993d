//===- Learner.h - Learning a profiling tree -------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Refines a profiling tree by REWRITE and SPLIT operations: each round a
/// proposer offers operations, each is replayed on the training kernels,
/// and the best one is accepted only when it improves the objective
/// (geometric-mean gain, then fewer passes per kernel).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LEARNER_H
#define AUTOPROF_LEARN_LEARNER_H

#include "autoprof/Learn/Replay.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

/// One operation on a tree, with the tree it gives.
struct Proposal {
  /// "REWRITE" or "SPLIT".
  std::string Operation;
  /// The node it changes.
  std::string Node;
  /// What it changes, in words.
  std::string Change;
  ProfilingTree Tree;
  /// Why the operation cannot be applied (a proposer's reply that fails
  /// validation); the proposal is then logged, not evaluated.
  std::string Invalid;
  /// Among proposals whose evaluations tie, the learner takes the one with
  /// the highest preference (the first of those in the proposer's order).
  double Preference = 0;
};

/// One logged proposal.
struct LogEntry {
  unsigned Iteration = 0;
  std::string Operation, Node, Change;
  double Before = 1, After = 1;
  double PassesBefore = 0, PassesAfter = 0;
  bool Accepted = false;
  /// Why the proposal was not evaluated (invalid, over budget); empty when
  /// it was.
  std::string Invalid;
};

/// Offers operations on the current tree.
class Proposer {
public:
  virtual ~Proposer();
  /// Operations on \p T, whose replay on \p Train is \p Current. An empty
  /// list means the proposer has nothing more to offer.
  virtual llvm::Expected<std::vector<Proposal>>
  propose(const ProfilingTree &T, const Evaluation &Current,
          llvm::ArrayRef<const DatasetKernel *> Train) = 0;
  /// Whether a round without an accepted proposal ends the learning (a
  /// systematic search has then seen every neighbour).
  virtual bool stopsWhenNothingImproves() const = 0;
  /// What became of each proposal of the last round.
  virtual void feedback(const std::vector<LogEntry> &) {}
};

struct LearnOptions {
  unsigned Budget = 4;
  unsigned Iterations = 20;
  /// Measures the gains instead of replaying the dataset; null to replay.
  const LiveGain *Live = nullptr;
  /// Called for every proposal, in order.
  std::function<void(const LogEntry &)> OnProposal;
  /// Called after each round with its number and the current replay.
  std::function<void(unsigned, const Evaluation &)> OnRound;
};

struct LearnResult {
  ProfilingTree Tree;
  Evaluation Train;
  unsigned Rounds = 0;
};

/// Refines \p Init on \p Train. \p Init must fit the budget.
llvm::Expected<LearnResult>
learnTree(ProfilingTree Init, llvm::ArrayRef<const DatasetKernel *> Train,
          Proposer &P, const TriggerRewriter &Rewriter, PassPricer &Pricer,
          const LearnOptions &O);

/// Turns the leaf \p Leaf of \p T into \p Test, whose two children are new
/// leaves collecting \p Then and \p Else; returns their ids, the first
/// free of "n1", "n2", ...
std::pair<std::string, std::string>
splitLeaf(ProfilingTree &T, const std::string &Leaf, const NodeTest &Test,
          std::vector<std::string> Then, std::vector<std::string> Else);

/// Adds to each leaf of \p R's tree, in the rewriter's order, the trigger
/// metrics of each transformation whose addition keeps the path within the
/// budget and does not lower the objective on \p Train: metrics that cost
/// no accuracy on the training kernels and serve kernels not seen there.
llvm::Error fillLeaves(LearnResult &R,
                       llvm::ArrayRef<const DatasetKernel *> Train,
                       const TriggerRewriter &Rewriter, PassPricer &Pricer,
                       unsigned Budget);

/// A deterministic generator for shuffles and folds: the same seed gives
/// the same sequence on every platform.
class SplitMix64 {
public:
  explicit SplitMix64(uint64_t Seed) : State(Seed) {}
  uint64_t next();
  /// A value in [0, N).
  uint64_t below(uint64_t N) { return next() % N; }

private:
  uint64_t State;
};

/// Shuffles \p V with \p R (Fisher-Yates).
template <typename T> void shuffleWith(std::vector<T> &V, SplitMix64 &R) {
  for (size_t I = V.size(); I > 1; --I)
    std::swap(V[I - 1], V[R.below(I)]);
}

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_LEARNER_H
