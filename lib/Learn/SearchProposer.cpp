//===- SearchProposer.cpp - Systematic tree operations --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/SearchProposer.h"

#include "autoprof/Tree/Routing.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;

using MetricSet = std::vector<std::string>;

std::vector<MetricSet>
learn::candidateMetricSets(const TriggerRewriter &Rewriter) {
  std::vector<MetricSet> Out;
  std::set<MetricSet> Seen;
  auto Add = [&](MetricSet S) {
    std::sort(S.begin(), S.end());
    S.erase(std::unique(S.begin(), S.end()), S.end());
    if (!S.empty() && Seen.insert(S).second)
      Out.push_back(std::move(S));
  };
  for (const auto &R : Rewriter.rules())
    Add(R.Metrics);
  for (const auto &R : Rewriter.rules())
    for (const std::string &M : R.Metrics)
      Add({M});
  return Out;
}

SearchProposer::SearchProposer(const TriggerRewriter &Rewriter,
                               PassPricer &Pricer, SearchOptions O)
    : Rewriter(Rewriter), Pricer(Pricer), O(std::move(O)),
      Groups(candidateMetricSets(Rewriter)) {}

namespace {

MetricSet sorted(MetricSet S) {
  std::sort(S.begin(), S.end());
  S.erase(std::unique(S.begin(), S.end()), S.end());
  return S;
}

MetricSet unite(const MetricSet &A, const MetricSet &B) {
  MetricSet S = A;
  S.insert(S.end(), B.begin(), B.end());
  return sorted(S);
}

MetricSet minus(const MetricSet &A, const MetricSet &B) {
  MetricSet S;
  for (const std::string &M : A)
    if (std::find(B.begin(), B.end(), M) == B.end())
      S.push_back(M);
  return S;
}

/// "{+a, -b}": how \p To differs from \p From.
std::string describeChange(const MetricSet &From, const MetricSet &To) {
  std::string S;
  for (const std::string &M : minus(To, From))
    S += (S.empty() ? "+" : ", +") + M;
  for (const std::string &M : minus(From, To))
    S += (S.empty() ? "-" : ", -") + M;
  return "{" + S + "}";
}

std::string formatThreshold(double V) {
  std::ostringstream OS;
  OS.precision(6);
  OS << V;
  return OS.str();
}

/// Midpoints between consecutive distinct values, at most \p Max of them,
/// spread evenly.
std::vector<double> thresholds(std::vector<double> V, unsigned Max) {
  std::sort(V.begin(), V.end());
  V.erase(std::unique(V.begin(), V.end()), V.end());
  std::vector<double> Mid;
  for (size_t I = 1; I < V.size(); ++I)
    Mid.push_back(V[I - 1] + (V[I] - V[I - 1]) / 2);
  if (Mid.size() <= Max)
    return Mid;
  std::vector<double> Out;
  for (unsigned I = 0; I < Max; ++I)
    Out.push_back(Mid[(I * (Mid.size() - 1)) / (Max - 1)]);
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

/// The value a test on (\p From, \p Key) reads for \p K.
std::optional<double> attribute(const DatasetKernel &K, NodeTest::Source From,
                                const std::string &Key) {
  if (From == NodeTest::Source::Feature)
    return K.Features.get(Key);
  auto It = K.Metrics.find(Key);
  if (It == K.Metrics.end())
    return std::nullopt;
  return It->second;
}

} // namespace

Expected<std::vector<Proposal>>
SearchProposer::propose(const ProfilingTree &T, const Evaluation &,
                        llvm::ArrayRef<const DatasetKernel *> Train) {
  std::vector<Proposal> Props;

  // The training kernels that reach each node.
  std::map<std::string, std::vector<const DatasetKernel *>> At;
  for (const DatasetKernel *K : Train) {
    MetricMap Samples;
    for (const std::string &S : T.Stage1)
      if (auto It = K->Metrics.find(S); It != K->Metrics.end())
        Samples[S] = It->second;
    Route R = routeKernel(T, K->Features, &Samples);
    for (const RouteStep &S : R.Steps)
      At[S.Node->Id].push_back(K);
    if (R.Leaf)
      At[R.Leaf->Id].push_back(K);
  }

  // The metric sets a leaf holding S may move to with stage 1 \p Stage1,
  // within the budget. A leaf collects at least one metric.
  auto LeafSets =
      [&](const MetricSet &Current,
          const MetricSet &Stage1) -> Expected<std::vector<MetricSet>> {
    MetricSet S = sorted(Current);
    std::vector<MetricSet> Out;
    std::set<MetricSet> Seen = {S};
    auto Add = [&](MetricSet C) -> llvm::Error {
      C = sorted(C);
      if (C.empty() || !Seen.insert(C).second)
        return llvm::Error::success();
      Expected<unsigned> P = Pricer.passes(Stage1, C);
      if (!P)
        return P.takeError();
      if (*P <= O.Budget)
        Out.push_back(std::move(C));
      return llvm::Error::success();
    };
    for (const MetricSet &G : Groups) {
      if (llvm::Error E = Add(unite(S, G)))
        return std::move(E);
      if (llvm::Error E = Add(minus(S, G)))
        return std::move(E);
      if (llvm::Error E = Add(G))
        return std::move(E);
    }
    return Out;
  };

  // Splits test a feature, a stage-1 sample, or a sample of the pool that
  // the split adds to stage 1.
  struct Attribute {
    NodeTest::Source From;
    std::string Key;
    MetricSet Stage1;
  };
  std::vector<Attribute> Attributes;
  for (const std::string &F : featureNames())
    Attributes.push_back({NodeTest::Source::Feature, F, T.Stage1});
  for (const std::string &S : T.Stage1)
    Attributes.push_back({NodeTest::Source::Sample, S, T.Stage1});
  for (const std::string &S : O.SamplePool)
    if (std::find(T.Stage1.begin(), T.Stage1.end(), S) == T.Stage1.end()) {
      MetricSet With = T.Stage1;
      With.push_back(S);
      Attributes.push_back({NodeTest::Source::Sample, S, With});
    }

  for (const TreeNode &N : T.Nodes) {
    const std::vector<const DatasetKernel *> &Here = At[N.Id];
    if (N.Leaf) {
      Expected<std::vector<MetricSet>> Sets = LeafSets(N.Metrics, T.Stage1);
      if (!Sets)
        return Sets.takeError();
      // REWRITE: another metric set for this leaf.
      for (const MetricSet &S : *Sets) {
        Proposal P{"REWRITE", N.Id,
                   "leaf '" + N.Id + "' metrics " +
                       describeChange(sorted(N.Metrics), S),
                   T};
        for (TreeNode &M : P.Tree.Nodes)
          if (M.Id == N.Id)
            M.Metrics = S;
        Props.push_back(std::move(P));
      }
      // SPLIT: a test with two leaves, each with its best set.
      if (Here.size() < 2 * size_t(O.MinLeaf))
        continue;
      // Per stage 1: the sets each side may take, their passes, and each
      // kernel's log-gain with each.
      struct Table {
        std::vector<MetricSet> Pool;
        std::vector<double> Passes;
        std::vector<std::vector<double>> Gain;
      };
      std::map<MetricSet, Table> Tables;
      auto TableFor = [&](const MetricSet &Stage1) -> Expected<Table *> {
        auto It = Tables.find(Stage1);
        if (It != Tables.end())
          return &It->second;
        Table Tb;
        if (Stage1 == T.Stage1) {
          Tb.Pool = *Sets;
        } else {
          Expected<std::vector<MetricSet>> More = LeafSets(N.Metrics, Stage1);
          if (!More)
            return More.takeError();
          Tb.Pool = std::move(*More);
        }
        Tb.Pool.insert(Tb.Pool.begin(), sorted(N.Metrics));
        for (const MetricSet &S : Tb.Pool) {
          Expected<unsigned> P = Pricer.passes(Stage1, S);
          if (!P)
            return P.takeError();
          // The leaf's own set may not fit a larger stage 1.
          Tb.Passes.push_back(*P <= O.Budget ? *P : -1.0);
          std::vector<double> G;
          for (const DatasetKernel *K : Here)
            G.push_back(std::log(gainWith(*K, unite(Stage1, S), Rewriter)));
          Tb.Gain.push_back(std::move(G));
        }
        return &Tables.emplace(Stage1, std::move(Tb)).first->second;
      };
      auto BestSet = [](const Table &Tb, const std::vector<size_t> &Side) {
        std::optional<size_t> Best;
        double BestSum = 0;
        for (size_t S = 0; S < Tb.Pool.size(); ++S) {
          if (Tb.Passes[S] < 0)
            continue;
          double Sum = 0;
          for (size_t I : Side)
            Sum += Tb.Gain[S][I];
          // Ties go to fewer passes, then to more metrics: within the same
          // passes a metric is free, and kernels not seen in training may
          // need it.
          bool Tie = Best && std::fabs(Sum - BestSum) <= 1e-12;
          if (!Best || Sum > BestSum + 1e-12 ||
              (Tie && (Tb.Passes[S] < Tb.Passes[*Best] ||
                       (Tb.Passes[S] == Tb.Passes[*Best] &&
                        Tb.Pool[S].size() > Tb.Pool[*Best].size())))) {
            Best = S;
            BestSum = Sum;
          }
        }
        return Best;
      };
      for (const Attribute &At : Attributes) {
        std::vector<double> Values;
        for (const DatasetKernel *K : Here)
          if (auto V = attribute(*K, At.From, At.Key))
            Values.push_back(*V);
        std::vector<double> Ths = thresholds(Values, O.MaxThresholds);
        if (Ths.empty())
          continue;
        Expected<Table *> Tb = TableFor(At.Stage1);
        if (!Tb)
          return Tb.takeError();
        auto [Low, High] = std::minmax_element(Values.begin(), Values.end());
        double Range = *High - *Low;
        for (double Th : Ths) {
          std::vector<size_t> Then, Else;
          // The gap between the sides' nearest values.
          double ThenMin = *High, ElseMax = *Low;
          for (size_t I = 0; I < Here.size(); ++I) {
            auto V = attribute(*Here[I], At.From, At.Key);
            bool Holds = V && *V > Th;
            (Holds ? Then : Else).push_back(I);
            if (V && Holds)
              ThenMin = std::min(ThenMin, *V);
            else if (V)
              ElseMax = std::max(ElseMax, *V);
          }
          if (Then.size() < O.MinLeaf || Else.size() < O.MinLeaf)
            continue;
          std::optional<size_t> A = BestSet(**Tb, Then),
                                B = BestSet(**Tb, Else);
          // The same set on both sides is a REWRITE of the leaf.
          if (!A || !B || *A == *B)
            continue;
          const MetricSet &SetA = (*Tb)->Pool[*A], &SetB = (*Tb)->Pool[*B];
          Proposal P;
          P.Operation = "SPLIT";
          // Among equal proposals: a split before a REWRITE (preference 0),
          // a static feature (free and exact) before a sample, then the
          // widest gap between the sides relative to the values' range,
          // which a kernel not seen in training is least likely to fall on
          // the wrong side of.
          P.Preference = 1 +
                         (At.From == NodeTest::Source::Feature ? 1.0 : 0.0) +
                         (ThenMin - ElseMax) / Range;
          P.Node = N.Id;
          P.Tree = T;
          P.Tree.Stage1 = At.Stage1;
          NodeTest Test{At.From, At.Key, ">", Th};
          auto [ThenId, ElseId] = splitLeaf(P.Tree, N.Id, Test, SetA, SetB);
          P.Change = "leaf '" + N.Id + "' becomes " + At.Key + " > " +
                     formatThreshold(Th) + " ? " + ThenId + " " +
                     describeChange(sorted(N.Metrics), SetA) + " : " + ElseId +
                     " " + describeChange(sorted(N.Metrics), SetB);
          if (At.Stage1 != T.Stage1)
            P.Change += ", stage 1 {+" + At.Key + "}";
          Props.push_back(std::move(P));
        }
      }
      continue;
    }
    // REWRITE: another threshold for this test.
    std::vector<double> Values;
    for (const DatasetKernel *K : Here)
      if (auto V = attribute(*K, N.Test.From, N.Test.Key))
        Values.push_back(*V);
    for (double Th : thresholds(Values, O.MaxThresholds)) {
      if (Th == N.Test.Threshold)
        continue;
      Proposal P{"REWRITE", N.Id,
                 "test '" + N.Id + "' " + N.Test.Key + " " + N.Test.Op + " " +
                     formatThreshold(N.Test.Threshold) + " -> " +
                     formatThreshold(Th),
                 T};
      for (TreeNode &M : P.Tree.Nodes)
        if (M.Id == N.Id)
          M.Test.Threshold = Th;
      Props.push_back(std::move(P));
    }
  }

  // REWRITE of the stage-1 samples: add one from the pool, or drop one no
  // test reads.
  std::set<std::string> Tested;
  for (const TreeNode &N : T.Nodes)
    if (!N.Leaf && N.Test.From == NodeTest::Source::Sample)
      Tested.insert(N.Test.Key);
  for (const std::string &S : O.SamplePool)
    if (std::find(T.Stage1.begin(), T.Stage1.end(), S) == T.Stage1.end()) {
      Proposal P{"REWRITE", "stage1", "stage 1 {+" + S + "}", T};
      P.Tree.Stage1.push_back(S);
      Props.push_back(std::move(P));
    }
  for (const std::string &S : T.Stage1)
    if (!Tested.count(S)) {
      Proposal P{"REWRITE", "stage1", "stage 1 {-" + S + "}", T};
      llvm::erase(P.Tree.Stage1, S);
      Props.push_back(std::move(P));
    }

  SplitMix64 R(O.Seed);
  shuffleWith(Props, R);
  ++O.Seed;
  return Props;
}
