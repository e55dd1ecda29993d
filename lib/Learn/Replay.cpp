//===- Replay.cpp - Evaluating a profiling tree on a dataset --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/Replay.h"

#include "llvm/ADT/STLExtras.h"

#include "autoprof/Tree/Routing.h"

#include <algorithm>
#include <cmath>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;

TriggerRewriter::TriggerRewriter(std::vector<Rule> R) : Rules(std::move(R)) {}

const TriggerRewriter::Rule *
TriggerRewriter::find(const std::string &Name) const {
  for (const Rule &R : Rules)
    if (R.Name == Name)
      return &R;
  return nullptr;
}

TriggerRewriter
TriggerRewriter::measuredOn(llvm::ArrayRef<const DatasetKernel *> Data) const {
  std::vector<Rule> Kept;
  for (const Rule &R : Rules)
    if (llvm::any_of(Data, [&](const DatasetKernel *K) {
          return llvm::any_of(K->Outcomes, [&](const Outcome &O) {
            return O.Transformation == R.Name;
          });
        }))
      Kept.push_back(R);
  return TriggerRewriter(std::move(Kept));
}

std::optional<size_t> TriggerRewriter::choose(const DatasetKernel &K,
                                              const MetricMap &Seen) const {
  for (const Rule &R : Rules)
    for (size_t I = 0; I < K.Outcomes.size(); ++I)
      if (K.Outcomes[I].Transformation == R.Name && R.Fires(Seen))
        return I;
  return std::nullopt;
}

PassPricer::PassPricer(PassCounter &Counter, const MetricCatalog &Catalog,
                       std::vector<std::string> Chips)
    : Counter(Counter), Catalog(Catalog), Chips(std::move(Chips)) {}

Expected<unsigned> PassPricer::passes(const std::vector<std::string> &Stage1,
                                      const std::vector<std::string> &Leaf) {
  std::vector<std::string> Set;
  Catalog.appendRangeProfilerMetrics(Stage1, Set);
  Catalog.appendRangeProfilerMetrics(Leaf, Set);
  // In the order the profiler asks for them (TreeBudget's countedMetrics):
  // CUPTI's scheduling of a set into passes depends on it.
  if (Set.empty())
    return 0;
  auto It = Known.find(Set);
  if (It != Known.end())
    return It->second;
  unsigned Most = 0;
  for (const std::string &Chip : Chips) {
    Expected<unsigned> N = Counter.passCount(Chip, Set);
    if (!N)
      return N.takeError();
    Most = std::max(Most, *N);
  }
  Known.emplace(std::move(Set), Most);
  return Most;
}

bool Evaluation::betterThan(const Evaluation &Other) const {
  // Relative: geometric means of the same kernels that differ only in the
  // last bits of a sum of logarithms are equal.
  constexpr double Eps = 1e-9;
  if (GeoMean > Other.GeoMean * (1 + Eps))
    return true;
  if (GeoMean < Other.GeoMean * (1 - Eps))
    return false;
  return MeanPasses + Eps < Other.MeanPasses;
}

MetricMap learn::visibleMetrics(const ProfilingTree &T, const TreeNode &Leaf,
                                const DatasetKernel &K) {
  return shownMetrics(T, &Leaf, K.Metrics);
}

void learn::summarize(Evaluation &E) {
  double LogSum = 0, PassSum = 0;
  unsigned Wins = 0;
  for (const KernelResult &R : E.Kernels) {
    LogSum += std::log(R.Gain);
    PassSum += R.Passes;
    Wins += R.Win;
  }
  size_t N = E.Kernels.size();
  E.GeoMean = N ? std::exp(LogSum / N) : 1;
  E.Fast1 = N ? double(Wins) / N : 0;
  E.MeanPasses = N ? PassSum / N : 0;
}

Expected<Evaluation> learn::evaluateTree(
    const ProfilingTree &T, llvm::ArrayRef<const DatasetKernel *> Kernels,
    const TriggerRewriter &Rewriter, PassPricer &Pricer, const LiveGain *Live) {
  Evaluation E;
  std::map<std::string, unsigned> LeafPasses;
  for (const auto &Path : leafPaths(T)) {
    Expected<unsigned> P = Pricer.passes(T.Stage1, Path.back()->Metrics);
    if (!P)
      return P.takeError();
    LeafPasses[Path.back()->Id] = *P;
    E.MaxPasses = std::max(E.MaxPasses, *P);
  }
  for (const DatasetKernel *K : Kernels) {
    KernelResult R;
    R.Kernel = K;
    MetricMap Samples;
    for (const std::string &S : T.Stage1)
      if (auto It = K->Metrics.find(S); It != K->Metrics.end())
        Samples[S] = It->second;
    Route Rt = routeKernel(T, K->Features, &Samples);
    if (Rt.Leaf) {
      R.Leaf = Rt.Leaf->Id;
      R.Passes = LeafPasses[Rt.Leaf->Id];
      MetricMap Seen = visibleMetrics(T, *Rt.Leaf, *K);
      if (Live) {
        Expected<std::pair<double, bool>> G = (*Live)(*K, Seen);
        if (!G)
          return G.takeError();
        R.Gain = G->first;
        R.Win = G->second;
        E.Kernels.push_back(R);
        continue;
      }
      R.Chosen = Rewriter.choose(*K, Seen);
      if (R.Chosen) {
        const Outcome &O = K->Outcomes[*R.Chosen];
        R.Gain = O.gain();
        R.Win = O.win();
      }
    }
    E.Kernels.push_back(R);
  }
  summarize(E);
  return E;
}

double learn::gainWith(const DatasetKernel &K,
                       const std::vector<std::string> &Leaf,
                       const TriggerRewriter &Rewriter, bool *Win) {
  MetricMap Seen;
  for (const std::string &Name : Leaf)
    if (auto It = K.Metrics.find(Name); It != K.Metrics.end())
      Seen[Name] = It->second;
  std::optional<size_t> C = Rewriter.choose(K, Seen);
  if (Win)
    *Win = C && K.Outcomes[*C].win();
  return C ? K.Outcomes[*C].gain() : 1.0;
}

Expected<double>
learn::oracleGain(const DatasetKernel &K,
                  const std::vector<std::vector<std::string>> &Sets,
                  unsigned Budget, const TriggerRewriter &Rewriter,
                  PassPricer &Pricer, bool *Win) {
  double Best = 1;
  bool BestWin = false;
  for (const auto &S : Sets) {
    Expected<unsigned> P = Pricer.passes({}, S);
    if (!P)
      return P.takeError();
    if (*P > Budget)
      continue;
    bool W = false;
    double G = gainWith(K, S, Rewriter, &W);
    if (G > Best) {
      Best = G;
      BestWin = W;
    }
  }
  if (Win)
    *Win = BestWin;
  return Best;
}
