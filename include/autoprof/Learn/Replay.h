//===- Replay.h - Evaluating a profiling tree on a dataset -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Replays what optimizing each kernel of a dataset with a tree's profile
/// would give (docs/dataset-format.md): the tree routes the kernel, the
/// rewriter sees the metrics the route collects and chooses one
/// transformation, and the dataset says what that choice gained.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_REPLAY_H
#define AUTOPROF_LEARN_REPLAY_H

#include "autoprof/Learn/Dataset.h"
#include "autoprof/Metrics/TreeBudget.h"
#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

/// Metric values by catalog name.
using MetricMap = std::map<std::string, double>;

/// A rewriter whose choice depends only on the kernel and the metrics it is
/// shown: each transformation has a trigger on metrics, and the rewriter
/// chooses, in the order of its rules, the first transformation proposed
/// for the kernel (one of its outcomes) whose trigger fires.
class TriggerRewriter {
public:
  struct Rule {
    std::string Name;
    /// The metrics the trigger reads.
    std::vector<std::string> Metrics;
    /// Whether the trigger fires on the metrics shown.
    std::function<bool(const MetricMap &)> Fires;
  };

  explicit TriggerRewriter(std::vector<Rule> Rules);

  /// The index in \p K's outcomes of the chosen transformation, or nullopt
  /// when no trigger fires on \p Seen.
  std::optional<size_t> choose(const DatasetKernel &K,
                               const MetricMap &Seen) const;
  /// The rule named \p Name, or null.
  const Rule *find(const std::string &Name) const;
  const std::vector<Rule> &rules() const { return Rules; }
  /// The rules of the transformations some kernel of \p Data was tried
  /// with, in this rewriter's order. Replay cannot judge the others (no
  /// kernel has an outcome of theirs), so learning leaves their metrics
  /// out: they would take budget for no measured gain.
  TriggerRewriter measuredOn(llvm::ArrayRef<const DatasetKernel *> Data) const;

private:
  std::vector<Rule> Rules;
};

/// Prices metric sets in replay passes, remembering each set's price.
class PassPricer {
public:
  PassPricer(PassCounter &Counter, const MetricCatalog &Catalog,
             std::vector<std::string> Chips);

  /// The passes collecting \p Stage1 and \p Leaf together costs: the most
  /// over the chips. Launch and SASS metrics cost nothing, a derived metric
  /// what its range-profiler inputs cost. The metrics are priced in the
  /// profiler's order, stage 1 then the leaf (as TreeBudget counts them):
  /// CUPTI's grouping of a set into passes depends on it.
  llvm::Expected<unsigned> passes(const std::vector<std::string> &Stage1,
                                  const std::vector<std::string> &Leaf);

private:
  PassCounter &Counter;
  const MetricCatalog &Catalog;
  std::vector<std::string> Chips;
  std::map<std::vector<std::string>, unsigned> Known;
};

/// What replaying one kernel gave.
struct KernelResult {
  const DatasetKernel *Kernel = nullptr;
  /// The leaf reached; empty when routing stopped at a missing sample.
  std::string Leaf;
  /// The index of the chosen outcome.
  std::optional<size_t> Chosen;
  /// The chosen rewrite's speedup when it is a verified win, else 1.
  double Gain = 1;
  bool Win = false;
  /// Passes of the kernel's path.
  unsigned Passes = 0;
};

/// A tree's replay on a set of kernels.
struct Evaluation {
  std::vector<KernelResult> Kernels;
  /// Geometric mean of the gains.
  double GeoMean = 1;
  /// Share of the kernels whose gain is a verified win.
  double Fast1 = 0;
  /// Mean passes per kernel.
  double MeanPasses = 0;
  /// Passes of the tree's costliest path.
  unsigned MaxPasses = 0;

  /// Whether this is better than \p Other: a higher geometric mean, or the
  /// same with fewer passes per kernel.
  bool betterThan(const Evaluation &Other) const;
};

/// The metrics a kernel routed to \p Leaf is shown: the tree's stage-1
/// samples and the leaf's metrics, with the kernel's values.
MetricMap visibleMetrics(const ProfilingTree &T, const TreeNode &Leaf,
                         const DatasetKernel &K);

/// Measures what a kernel gains from the metrics it is shown, and whether
/// that is a verified win, instead of reading it from the dataset (the LLM
/// rewriter, LiveOutcomes.h).
using LiveGain = std::function<llvm::Expected<std::pair<double, bool>>(
    const DatasetKernel &, const MetricMap &)>;

/// Replays \p T on \p Kernels; with \p Live, measures each kernel's gain
/// instead of reading it from the dataset.
llvm::Expected<Evaluation>
evaluateTree(const ProfilingTree &T,
             llvm::ArrayRef<const DatasetKernel *> Kernels,
             const TriggerRewriter &Rewriter, PassPricer &Pricer,
             const LiveGain *Live = nullptr);

/// The gain of \p K with the metrics \p Leaf selects and no stage 1.
double gainWith(const DatasetKernel &K, const std::vector<std::string> &Leaf,
                const TriggerRewriter &Rewriter, bool *Win = nullptr);

/// The per-kernel oracle: the best gain \p K reaches with any one of
/// \p Sets (leaf metric sets, no stage 1) that costs at most \p Budget
/// passes; 1 when none gains.
llvm::Expected<double>
oracleGain(const DatasetKernel &K,
           const std::vector<std::vector<std::string>> &Sets, unsigned Budget,
           const TriggerRewriter &Rewriter, PassPricer &Pricer,
           bool *Win = nullptr);

/// Summarises per-kernel gains: geometric mean and share of wins.
void summarize(Evaluation &E);

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_REPLAY_H
