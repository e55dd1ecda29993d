//===- TreeCommand.cpp - clang-autoprof tree validate|show|dot ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "autoprof/JSON/BoundedParse.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Metrics/TreeBudget.h"
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
      errs() << O.Path << ":" << json::printableText(P.Path) << ": error: "
             << json::printableText(P.Message, 400, /*EscapeBackslash=*/false)
             << "\n";
  };
  if (!Problems.empty() || (O.Action != TreeAction::Validate && !Parsed)) {
    Report();
    return 1;
  }

  std::string Text;
  if (O.Action == TreeAction::Validate) {
    Expected<MetricCatalog> Catalog =
        MetricCatalog::load(catalogPath(Argv0, O.Catalog));
    if (failed(Catalog))
      return 1;
    Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
    if (failed(Host))
      return 1;
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
  if (failed(writeOutput(O.Output, Text)))
    return 1;
  return 0;
}
