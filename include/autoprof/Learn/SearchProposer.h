//===- SearchProposer.h - Systematic tree operations -----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The `search` proposer: every REWRITE of a leaf's metrics drawn from the
/// rewriter's trigger metrics, of a test's threshold and of the stage-1
/// samples, and every SPLIT of a leaf on a static feature or a stage-1
/// sample at thresholds taken from the training kernels, each new leaf
/// getting the metric set that serves its kernels best.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_SEARCHPROPOSER_H
#define AUTOPROF_LEARN_SEARCHPROPOSER_H

#include "autoprof/Learn/Learner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

struct SearchOptions {
  unsigned Budget = 4;
  /// The fewest training kernels each side of a split must hold.
  unsigned MinLeaf = 2;
  /// The most thresholds tried per attribute and node.
  unsigned MaxThresholds = 16;
  /// Stage-1 samples the search may add.
  std::vector<std::string> SamplePool;
  /// Orders the proposals; ties go to the first.
  uint64_t Seed = 1;
};

/// The leaf metric sets the search draws from: the trigger metrics of each
/// transformation, and each of those metrics alone.
std::vector<std::vector<std::string>>
candidateMetricSets(const TriggerRewriter &Rewriter);

class SearchProposer : public Proposer {
public:
  SearchProposer(const TriggerRewriter &Rewriter, PassPricer &Pricer,
                 SearchOptions O);

  llvm::Expected<std::vector<Proposal>>
  propose(const ProfilingTree &T, const Evaluation &Current,
          llvm::ArrayRef<const DatasetKernel *> Train) override;
  bool stopsWhenNothingImproves() const override { return true; }

private:
  const TriggerRewriter &Rewriter;
  PassPricer &Pricer;
  SearchOptions O;
  std::vector<std::vector<std::string>> Groups;
};

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_SEARCHPROPOSER_H
