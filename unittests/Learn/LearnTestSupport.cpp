//===- LearnTestSupport.cpp - Datasets built for the learning tests -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LearnTestSupport.h"

#include "gtest/gtest.h"

using namespace autoprof;
using namespace autoprof::learn;

MetricCatalog fixtures::catalog() {
  auto Metric = [](const std::string &Name, const std::string &Source) {
    return R"({"name": ")" + Name + R"(", "source": ")" + Source +
           R"(", "section": "S", "unit": "1", "meaning": "m",
               "questions": ["q"]})";
  };
  std::string Text =
      R"({"version": 1, "name": "c", "chips": ["GH100"],
                         "metrics": [)" +
      Metric("r1", "range-profiler") + "," + Metric("r2", "range-profiler") +
      "," + Metric("r3", "range-profiler") + "," +
      Metric("r4", "range-profiler") + "," + Metric("s", "range-profiler") +
      "," + Metric("l", "launch") + "]}";
  llvm::Expected<MetricCatalog> C = MetricCatalog::parse(Text, "test");
  if (!C) {
    ADD_FAILURE() << llvm::toString(C.takeError());
    return MetricCatalog::parse("{}", "empty").get();
  }
  return std::move(*C);
}

TriggerRewriter fixtures::rewriter() {
  auto Above = [](const std::string &M) {
    return [M](const MetricMap &Seen) {
      auto It = Seen.find(M);
      return It != Seen.end() && It->second > 10;
    };
  };
  return TriggerRewriter({{"A", {"r1"}, Above("r1")},
                          {"B", {"r2"}, Above("r2")},
                          {"C", {"r3"}, Above("r3")}});
}

DatasetKernel fixtures::kernel(
    const std::string &Program, double Loops, double Sample,
    std::vector<std::tuple<std::string, std::string, double>> Outcomes) {
  DatasetKernel K;
  K.Program = Program;
  K.Kernel = Program + "Kernel";
  K.MangledName = "_Z" + K.Kernel;
  K.Features.set("loops", Loops);
  K.Metrics = {{"r1", 20}, {"r2", 20},    {"r3", 20},
               {"r4", 0},  {"s", Sample}, {"l", 256}};
  for (auto &[T, V, S] : Outcomes)
    K.Outcomes.push_back({T, V, S});
  return K;
}

ProfilingTree fixtures::oneLeaf(std::vector<std::string> Stage1) {
  ProfilingTree T;
  T.Name = "t";
  T.Chips = {"GH100"};
  T.Budget = 8;
  T.Stage1 = std::move(Stage1);
  T.Root = "all";
  TreeNode Leaf;
  Leaf.Id = "all";
  Leaf.Leaf = true;
  Leaf.Path = "$.nodes[0]";
  T.Nodes.push_back(Leaf);
  return T;
}

std::vector<const DatasetKernel *>
fixtures::pointers(const std::vector<DatasetKernel> &K) {
  std::vector<const DatasetKernel *> Out;
  for (const DatasetKernel &D : K)
    Out.push_back(&D);
  return Out;
}
