//===- CrossValidation.h - Held-out evaluation of learning -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// K-fold cross-validation over kernels: each fold's tree is learned on the
/// other folds' kernels and replayed on its own, so every kernel is judged
/// by a tree that never saw it. Kernels of one program share a fold, so a
/// tree is never judged on a sibling of a kernel it trained on either.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_CROSSVALIDATION_H
#define AUTOPROF_LEARN_CROSSVALIDATION_H

#include "autoprof/Learn/Learner.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace autoprof {
namespace learn {

/// The fold of each kernel, in [0, \p Folds): programs are shuffled with
/// \p Seed and dealt to the folds in turn, largest first, so the folds hold
/// about as many kernels each.
std::vector<unsigned> assignFolds(llvm::ArrayRef<const DatasetKernel *> Kernels,
                                  unsigned Folds, uint64_t Seed);

/// Learns a tree from training kernels.
using TrainFn = std::function<llvm::Expected<ProfilingTree>(
    llvm::ArrayRef<const DatasetKernel *> Train, unsigned Fold)>;

struct CrossValidation {
  /// Every kernel's replay by the tree of the fold that held it out, in
  /// the order of the kernels given.
  Evaluation HeldOut;
  /// The tree learned for each fold.
  std::vector<ProfilingTree> Trees;
};

/// Runs \p Folds-fold cross-validation of \p Train over \p Kernels.
llvm::Expected<CrossValidation>
crossValidate(llvm::ArrayRef<const DatasetKernel *> Kernels, unsigned Folds,
              uint64_t Seed, const TrainFn &Train,
              const TriggerRewriter &Rewriter, PassPricer &Pricer,
              const LiveGain *Live = nullptr);

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_CROSSVALIDATION_H
