//===- Baselines.cpp - What a learned tree is compared with ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/Baselines.h"

#include "autoprof/Learn/Learner.h"

#include <algorithm>
#include <cmath>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;

Expected<ProfilingTree> learn::fitToBudget(const ProfilingTree &T,
                                           unsigned Budget,
                                           PassPricer &Pricer) {
  ProfilingTree Out = T;
  Out.Budget = Budget;
  Out.Stage1.clear();
  for (const std::string &S : T.Stage1) {
    std::vector<std::string> Try = Out.Stage1;
    Try.push_back(S);
    Expected<unsigned> P = Pricer.passes(Try, {});
    if (!P)
      return P.takeError();
    if (*P <= Budget)
      Out.Stage1 = std::move(Try);
  }
  for (TreeNode &N : Out.Nodes) {
    if (!N.Leaf)
      continue;
    std::vector<std::string> Kept;
    for (const std::string &M : N.Metrics) {
      std::vector<std::string> Try = Kept;
      Try.push_back(M);
      Expected<unsigned> P = Pricer.passes(Out.Stage1, Try);
      if (!P)
        return P.takeError();
      if (*P <= Budget)
        Kept = std::move(Try);
    }
    N.Metrics = std::move(Kept);
  }
  // A test on a sample that no longer fits could not route.
  for (TreeNode &N : Out.Nodes) {
    if (N.Leaf || N.Test.From != NodeTest::Source::Sample ||
        std::find(Out.Stage1.begin(), Out.Stage1.end(), N.Test.Key) !=
            Out.Stage1.end())
      continue;
    return llvm::createStringError("tree '" + T.Name +
                                   "' tests the stage-1 sample '" + N.Test.Key +
                                   "', which does not fit a budget of " +
                                   std::to_string(Budget) + " passes");
  }
  return Out;
}

Expected<std::vector<CurvePoint>>
learn::metricCurve(llvm::ArrayRef<const DatasetKernel *> Kernels,
                   std::vector<std::string> Pool, unsigned Orders,
                   uint64_t Seed, const TriggerRewriter &Rewriter,
                   PassPricer &Pricer) {
  std::sort(Pool.begin(), Pool.end());
  Pool.erase(std::unique(Pool.begin(), Pool.end()), Pool.end());
  std::vector<CurvePoint> Curve(Pool.size() + 1);
  for (unsigned C = 0; C <= Pool.size(); ++C) {
    Curve[C].Count = C;
    Curve[C].GeoMean = 0;
    Curve[C].Lowest = 1e300;
    Curve[C].Highest = 0;
  }
  SplitMix64 R(Seed);
  ProfilingTree T;
  T.Name = "curve";
  T.Root = "all";
  TreeNode Leaf;
  Leaf.Id = "all";
  Leaf.Leaf = true;
  T.Nodes.push_back(Leaf);
  for (unsigned O = 0; O < Orders; ++O) {
    std::vector<std::string> Order = Pool;
    shuffleWith(Order, R);
    double Previous = 1;
    for (unsigned C = 0; C <= Order.size(); ++C) {
      T.Nodes[0].Metrics.assign(Order.begin(), Order.begin() + C);
      Expected<Evaluation> E = evaluateTree(T, Kernels, Rewriter, Pricer);
      if (!E)
        return E.takeError();
      CurvePoint &P = Curve[C];
      P.Passes += E->MeanPasses / Orders;
      P.GeoMean += E->GeoMean / Orders;
      P.Fast1 += E->Fast1 / Orders;
      P.Lowest = std::min(P.Lowest, E->GeoMean);
      P.Highest = std::max(P.Highest, E->GeoMean);
      if (C > 0 && E->GeoMean < Previous * (1 - 1e-9))
        ++P.Drops;
      Previous = E->GeoMean;
    }
  }
  return Curve;
}
