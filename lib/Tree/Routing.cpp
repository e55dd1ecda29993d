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

std::map<std::string, double>
autoprof::shownMetrics(const ProfilingTree &T, const TreeNode *Leaf,
                       const std::map<std::string, double> &Values) {
  std::map<std::string, double> M;
  auto Take = [&](const std::string &Name) {
    auto It = Values.find(Name);
    if (It != Values.end())
      M[Name] = It->second;
  };
  for (const std::string &S : T.Stage1)
    Take(S);
  if (Leaf)
    for (const std::string &Name : Leaf->Metrics)
      Take(Name);
  return M;
}
