//===- TreeCommand.cpp - clang-autoprof tree validate|show|dot ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

enum class TreeAction { Validate, Show, Dot };

struct TreeOptions {
  cl::opt<std::string> ActionName{
      cl::Positional,
      cl::desc("<validate|show|dot>: report every problem, print the tree, "
               "or write Graphviz"),
      cl::Required, cl::sub(treeCommand())};
  TreeAction Action = TreeAction::Validate;
  cl::opt<std::string> Path{cl::Positional, cl::desc("<tree.json>"),
                            cl::Required, cl::sub(treeCommand())};
  cl::opt<std::string> Catalog{
      "catalog", cl::desc("Metric catalog (default: the one shipped)"),
      cl::value_desc("file"), cl::sub(treeCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(treeCommand())};
};

TreeOptions &treeOptions() {
  static TreeOptions O;
  return O;
}

[[maybe_unused]] const TreeOptions &Registered = treeOptions();

/// Checks every metric against the catalog and the chips, and every
/// root-to-leaf path against the budget.
/// Returns the largest pass count of a path.
unsigned checkMetricsAndBudget(const ProfilingTree &T, const MetricCatalog &C,
                               ProfilerHost &Host,
                               std::vector<TreeProblem> &P) {
  unsigned MaxPasses = 0;
  std::set<std::string> Bad;
  auto CheckMetric = [&](const std::string &M, const std::string &Where) {
    const CatalogMetric *CM = C.find(M);
    if (!CM) {
      P.push_back({Where, "unknown metric '" + M + "' (not in the catalog)"});
      Bad.insert(M);
      return;
    }
    if (CM->Source != MetricSource::RangeProfiler)
      return;
    for (const std::string &Chip : T.Chips)
      if (!Host.isValid(Chip, M)) {
        P.push_back({Where, "metric '" + M + "' is not valid on " + Chip});
        Bad.insert(M);
      }
  };
  for (size_t I = 0; I < T.Stage1.size(); ++I)
    CheckMetric(T.Stage1[I], "$.stage1[" + std::to_string(I) + "]");
  for (const TreeNode &N : T.Nodes)
    for (size_t I = 0; I < N.Metrics.size(); ++I)
      CheckMetric(N.Metrics[I],
                  N.Path + ".leaf.metrics[" + std::to_string(I) + "]");

  for (const auto &Path : leafPaths(T)) {
    const TreeNode *Leaf = Path.back();
    std::vector<std::string> Set;
    C.appendRangeProfilerMetrics(T.Stage1, Set);
    C.appendRangeProfilerMetrics(Leaf->Metrics, Set);
    // Metrics already reported invalid would make CUPTI refuse the set.
    llvm::erase_if(Set, [&](const std::string &M) { return Bad.count(M); });
    for (const std::string &Chip : T.Chips) {
      Expected<unsigned> N = Host.passCount(Chip, Set);
      if (!N) {
        P.push_back({Leaf->Path, toString(N.takeError())});
        continue;
      }
      MaxPasses = std::max(MaxPasses, *N);
      if (*N > T.Budget)
        P.push_back({Leaf->Path, "path to leaf '" + Leaf->Id + "' costs " +
                                     std::to_string(*N) + " passes on " + Chip +
                                     ", over the budget of " +
                                     std::to_string(T.Budget)});
    }
  }
  return MaxPasses;
}

} // namespace

int autoprof::tool::runTree(const char *Argv0) {
  TreeOptions &O = treeOptions();
  if (O.ActionName == "validate")
    O.Action = TreeAction::Validate;
  else if (O.ActionName == "show")
    O.Action = TreeAction::Show;
  else if (O.ActionName == "dot")
    O.Action = TreeAction::Dot;
  else {
    reportError("unknown tree action '" + O.ActionName +
                "' (expected validate, show or dot)");
    return 1;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(O.Path, /*IsText=*/true);
  if (!Buf) {
    reportError("cannot read '" + O.Path + "': " + Buf.getError().message());
    return 1;
  }
  ProfilingTree T;
  std::vector<TreeProblem> Problems;
  bool Parsed = parseTree((*Buf)->getBuffer().str(), T, Problems);
  if (Parsed)
    checkTreeStructure(T, Problems);
  auto Report = [&] {
    for (const TreeProblem &P : Problems)
      errs() << O.Path << ":" << P.Path << ": error: " << P.Message << "\n";
  };
  if (!Problems.empty() || (O.Action != TreeAction::Validate && !Parsed)) {
    Report();
    return 1;
  }

  std::string Text;
  if (O.Action == TreeAction::Validate) {
    Expected<MetricCatalog> Catalog =
        MetricCatalog::load(catalogPath(Argv0, O.Catalog));
    if (!Catalog) {
      reportError(toString(Catalog.takeError()));
      return 1;
    }
    Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
    if (!Host) {
      reportError(toString(Host.takeError()));
      return 1;
    }
    for (size_t I = 0; I < T.Chips.size(); ++I)
      if (Error E = (*Host)->checkChip(T.Chips[I])) {
        Problems.push_back(
            {"$.chips[" + std::to_string(I) + "]", toString(std::move(E))});
      }
    unsigned MaxPasses = 0;
    if (Problems.empty())
      MaxPasses = checkMetricsAndBudget(T, *Catalog, **Host, Problems);
    if (!Problems.empty()) {
      Report();
      return 1;
    }
    Text = "tree '" + T.Name +
           "' is valid: " + std::to_string(leafPaths(T).size()) +
           " leaves, at most " + std::to_string(MaxPasses) + " of " +
           std::to_string(T.Budget) + " passes per kernel\n";
  } else {
    Text = O.Action == TreeAction::Show ? writeTreeText(T) : writeTreeDot(T);
  }
  if (Error E = writeOutput(O.Output, Text)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return 0;
}
