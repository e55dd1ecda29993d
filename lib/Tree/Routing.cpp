//===- Routing.cpp - Routing a kernel through a profiling tree ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tree/Routing.h"

using namespace autoprof;

bool autoprof::testHolds(const std::string &Op, double Value,
                         double Threshold) {
  if (Op == "<")
    return Value < Threshold;
  if (Op == "<=")
    return Value <= Threshold;
  if (Op == ">")
    return Value > Threshold;
  if (Op == ">=")
    return Value >= Threshold;
  return false;
}

Route autoprof::routeKernel(const ProfilingTree &T, const KernelFeatures &F,
                            const std::map<std::string, double> *Samples) {
  Route R;
  const TreeNode *N = T.find(T.Root);
  // A valid tree has no cycle; the bound guards against an unchecked one.
  for (size_t Steps = 0; N && Steps <= T.Nodes.size(); ++Steps) {
    if (N->Leaf) {
      R.Leaf = N;
      return R;
    }
    RouteStep S;
    S.Node = N;
    if (N->Test.From == NodeTest::Source::Feature) {
      S.Value = F.get(N->Test.Key);
    } else if (Samples) {
      auto It = Samples->find(N->Test.Key);
      if (It != Samples->end())
        S.Value = It->second;
    }
    if (!S.Value && N->Test.From == NodeTest::Source::Sample) {
      S.Branch = "pending";
      R.Steps.push_back(S);
      return R;
    }
    bool Holds = S.Value && testHolds(N->Test.Op, *S.Value, N->Test.Threshold);
    S.Branch = Holds ? "then" : "else";
    R.Steps.push_back(S);
    N = T.find(Holds ? N->Then : N->Else);
  }
  return R;
}

std::vector<std::string> autoprof::shownMetricNames(const ProfilingTree &T,
                                                    const TreeNode *Leaf,
                                                    bool WithStage1) {
  std::vector<std::string> Names;
  if (WithStage1)
    Names = T.Stage1;
  if (Leaf)
    Names.insert(Names.end(), Leaf->Metrics.begin(), Leaf->Metrics.end());
  return Names;
}

std::map<std::string, double>
autoprof::shownMetrics(const ProfilingTree &T, const TreeNode *Leaf,
                       const std::map<std::string, double> &Values) {
  std::map<std::string, double> M;
  for (const std::string &Name : shownMetricNames(T, Leaf))
    if (auto It = Values.find(Name); It != Values.end())
      M[Name] = It->second;
  return M;
}
