//===- CrossValidation.cpp - Held-out evaluation of learning --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/CrossValidation.h"

#include <algorithm>
#include <map>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;

std::vector<unsigned>
learn::assignFolds(llvm::ArrayRef<const DatasetKernel *> Kernels,
                   unsigned Folds, uint64_t Seed) {
  std::map<std::string, unsigned> Size;
  for (const DatasetKernel *K : Kernels)
    ++Size[K->Program];
  std::vector<std::string> Programs;
  for (const auto &[P, N] : Size)
    Programs.push_back(P);
  SplitMix64 R(Seed);
  shuffleWith(Programs, R);
  std::stable_sort(Programs.begin(), Programs.end(),
                   [&](const std::string &A, const std::string &B) {
                     return Size[A] > Size[B];
                   });
  // Each program goes to the fold holding the fewest kernels so far.
  std::vector<unsigned> Held(Folds, 0);
  std::map<std::string, unsigned> FoldOf;
  for (const std::string &P : Programs) {
    unsigned F = std::min_element(Held.begin(), Held.end()) - Held.begin();
    FoldOf[P] = F;
    Held[F] += Size[P];
  }
  std::vector<unsigned> Out;
  for (const DatasetKernel *K : Kernels)
    Out.push_back(FoldOf[K->Program]);
  return Out;
}

Expected<CrossValidation>
learn::crossValidate(llvm::ArrayRef<const DatasetKernel *> Kernels,
                     unsigned Folds, uint64_t Seed, const TrainFn &Train,
                     const TriggerRewriter &Rewriter, PassPricer &Pricer,
                     const LiveGain *Live) {
  if (Folds < 2)
    return llvm::createStringError("cross-validation needs at least 2 folds");
  std::map<std::string, bool> Programs;
  for (const DatasetKernel *K : Kernels)
    Programs[K->Program] = true;
  if (Programs.size() < Folds)
    return llvm::createStringError(
        "cannot make " + std::to_string(Folds) + " folds of " +
        std::to_string(Programs.size()) + " programs");
  std::vector<unsigned> FoldOf = assignFolds(Kernels, Folds, Seed);
  CrossValidation CV;
  CV.HeldOut.Kernels.resize(Kernels.size());
  for (unsigned F = 0; F < Folds; ++F) {
    std::vector<const DatasetKernel *> In, Out;
    std::vector<size_t> OutIndex;
    for (size_t I = 0; I < Kernels.size(); ++I) {
      if (FoldOf[I] == F) {
        Out.push_back(Kernels[I]);
        OutIndex.push_back(I);
      } else {
        In.push_back(Kernels[I]);
      }
    }
    Expected<ProfilingTree> T = Train(In, F);
    if (!T)
      return T.takeError();
    Expected<Evaluation> E = evaluateTree(*T, Out, Rewriter, Pricer, Live);
    if (!E)
      return E.takeError();
    CV.HeldOut.MaxPasses = std::max(CV.HeldOut.MaxPasses, E->MaxPasses);
    for (size_t I = 0; I < Out.size(); ++I)
      CV.HeldOut.Kernels[OutIndex[I]] = E->Kernels[I];
    CV.Trees.push_back(std::move(*T));
  }
  summarize(CV.HeldOut);
  return CV;
}
