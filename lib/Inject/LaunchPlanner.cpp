//===- LaunchPlanner.cpp - Which launches to profile, and what ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlanner.h"

#include "autoprof/Tree/Routing.h"

#include <algorithm>
#include <cstdlib>
#include <cxxabi.h>

using namespace autoprof;
using namespace autoprof::inject;

std::string autoprof::inject::demangledBaseName(const std::string &Mangled) {
  int Status = 0;
  char *D = abi::__cxa_demangle(Mangled.c_str(), nullptr, nullptr, &Status);
  if (Status != 0 || !D)
    return Mangled;
  std::string S(D);
  std::free(D);
  // Drop the parameter list: the last top-level "(...)".
  if (!S.empty() && S.back() == ')') {
    int Depth = 0;
    for (size_t I = S.size(); I-- > 0;) {
      if (S[I] == ')') {
        ++Depth;
      } else if (S[I] == '(' && --Depth == 0) {
        S.resize(I);
        break;
      }
    }
  }
  // Drop a return type (templates): the text before the last space outside
  // template arguments and parentheses.
  int Depth = 0;
  size_t Cut = std::string::npos;
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] == '<' || S[I] == '(')
      ++Depth;
    else if (S[I] == '>' || S[I] == ')')
      --Depth;
    else if (S[I] == ' ' && Depth == 0)
      Cut = I;
  }
  return Cut == std::string::npos ? S : S.substr(Cut + 1);
}

namespace {

void appendUnique(std::vector<std::string> &Out,
                  const std::vector<std::string> &In) {
  for (const std::string &M : In)
    if (std::find(Out.begin(), Out.end(), M) == Out.end())
      Out.push_back(M);
}

KernelFeatures featuresOf(const AgentConfig &C, const std::string &Mangled) {
  auto It = C.Features.find(Mangled);
  if (It != C.Features.end())
    return It->second;
  // A kernel the sources did not show: no static feature has a value.
  KernelFeatures F;
  for (const std::string &N : featureNames())
    F.clear(N);
  return F;
}

void fillRoute(ProfileRecord &R, const Route &Rt) {
  R.Route.clear();
  for (const RouteStep &S : Rt.Steps)
    R.Route.push_back({S.Node->Id, S.Value, S.Branch});
  R.Leaf = Rt.Leaf ? Rt.Leaf->Id : "";
  R.Focus = Rt.Leaf ? Rt.Leaf->Focus : "";
}

} // namespace

std::optional<PlannedLaunch> LaunchPlanner::plan(const std::string &Mangled) {
  std::optional<PlannedLaunch> L = choose(Mangled);
  if (!L)
    return L;
  // Derived metrics need their inputs (which may be derived in turn).
  for (size_t I = 0; I < L->Collect.size(); ++I) {
    auto It = C.DerivedInputs.find(L->Collect[I]);
    if (It != C.DerivedInputs.end())
      appendUnique(L->Collect, It->second);
  }
  return L;
}

std::optional<PlannedLaunch> LaunchPlanner::choose(const std::string &Mangled) {
  std::string Name = demangledBaseName(Mangled);
  if (C.KernelRegex && !std::regex_search(Name, *C.KernelRegex) &&
      !std::regex_search(Mangled, *C.KernelRegex))
    return std::nullopt;
  KernelState &K = Kernels[Mangled];
  unsigned Index = K.Launches++;
  PlannedLaunch L;
  L.Record.Kernel = Name;
  L.Record.MangledName = Mangled;
  L.Record.Launch = Index;
  L.Record.Run = C.Run;

  if (C.Run > 1) {
    // The second run profiles exactly the launches the first run routed.
    auto It = C.SecondRun.find(Mangled);
    if (It == C.SecondRun.end() || It->second.Launch != Index || !C.Tree)
      return std::nullopt;
    Route Rt =
        routeKernel(*C.Tree, featuresOf(C, Mangled), &It->second.Samples);
    if (!Rt.Leaf)
      return std::nullopt;
    fillRoute(L.Record, Rt);
    L.Record.Stage = "leaf";
    L.Collect = Rt.Leaf->Metrics;
    return L;
  }
  if (Index < C.LaunchSkip || K.Profiled >= C.LaunchCount)
    return std::nullopt;
  if (!C.Tree) {
    L.Record.Stage = "metrics";
    L.Collect = C.Metrics;
    return L;
  }
  KernelFeatures Features = featuresOf(C, Mangled);
  if (K.Samples) {
    Route Rt = routeKernel(*C.Tree, Features, &*K.Samples);
    fillRoute(L.Record, Rt);
    L.Record.Stage = "leaf";
    if (Rt.Leaf)
      L.Collect = Rt.Leaf->Metrics;
    return L;
  }
  Route Rt = routeKernel(*C.Tree, Features, nullptr);
  L.Collect = C.Tree->Stage1;
  if (Rt.Leaf) {
    // A static route: stage 1 and the leaf in one launch.
    fillRoute(L.Record, Rt);
    appendUnique(L.Collect, Rt.Leaf->Metrics);
    L.Record.Stage = "stage1+leaf";
  } else {
    L.Record.Stage = "stage1";
    L.RoutesAfter = true;
  }
  return L;
}

void LaunchPlanner::completed(PlannedLaunch &L,
                              const std::map<std::string, double> &Values) {
  KernelState &K = Kernels[L.Record.MangledName];
  if (L.RoutesAfter && C.Tree) {
    std::map<std::string, double> Samples;
    for (const std::string &M : C.Tree->Stage1) {
      auto It = Values.find(M);
      if (It != Values.end())
        Samples[M] = It->second;
    }
    Route Rt =
        routeKernel(*C.Tree, featuresOf(C, L.Record.MangledName), &Samples);
    fillRoute(L.Record, Rt);
    K.Samples = Samples;
    return;
  }
  ++K.Profiled;
  K.Samples.reset();
}
