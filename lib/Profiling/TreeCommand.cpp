//===- TreeCommand.cpp - clang-autoprof tree, as a library call -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/TreeCommand.h"
#include "autoprof/JSON/BoundedParse.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

/// The problems of the tree \p T as `validate` finds them beyond its
/// structure: its chips, its metrics and its budget; the summary line when
/// there are none.
Expected<std::string> validate(const ProfilingTree &T,
                               const TreeCommandOptions &O,
                               const TreeCommandHooks &H,
                               std::vector<TreeProblem> &Problems) {
  Expected<MetricCatalog> Catalog = MetricCatalog::load(O.CatalogPath);
  if (!Catalog)
    return Catalog.takeError();
  Expected<std::unique_ptr<PassCounter>> Counter = H.LoadCounter();
  if (!Counter)
    return Counter.takeError();
  for (size_t I = 0; I < T.Chips.size(); ++I)
    if (Error E = (*Counter)->checkChip(T.Chips[I]))
      Problems.push_back(
          {"$.chips[" + std::to_string(I) + "]", toString(std::move(E))});
  unsigned MaxPasses = 0;
  if (Problems.empty())
    MaxPasses = checkMetricsAndBudget(T, *Catalog, **Counter, Problems);
  return "tree '" + T.Name +
         "' is valid: " + std::to_string(leafPaths(T).size()) +
         " leaves, at most " + std::to_string(MaxPasses) + " of " +
         std::to_string(T.Budget) + " passes per kernel\n";
}

} // namespace

int autoprof::profiling::runTreeCommand(const TreeCommandOptions &O,
                                        const TreeCommandHooks &H,
                                        raw_ostream &Diag) {
  if (O.Action != "validate" && O.Action != "show" && O.Action != "dot") {
    H.Error("unknown tree action '" + O.Action +
            "' (expected validate, show or dot)");
    return 1;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(O.Path, /*IsText=*/true);
  if (!Buf) {
    H.Error("cannot read '" + O.Path + "': " + Buf.getError().message());
    return 1;
  }
  ProfilingTree T;
  std::vector<TreeProblem> Problems;
  bool Parsed = parseTree((*Buf)->getBuffer().str(), T, Problems);
  if (Parsed)
    checkTreeStructure(T, Problems);
  std::string Text;
  if (Problems.empty() && Parsed) {
    if (O.Action == "validate") {
      Expected<std::string> Summary = validate(T, O, H, Problems);
      if (!Summary) {
        H.Error(toString(Summary.takeError()));
        return 1;
      }
      Text = std::move(*Summary);
    } else {
      Text = O.Action == "show" ? writeTreeText(T) : writeTreeDot(T);
    }
  }
  if (!Problems.empty() || !Parsed) {
    for (const TreeProblem &P : Problems)
      Diag << O.Path << ":" << json::printableText(P.Path) << ": error: "
           << json::printableText(P.Message, 400, /*EscapeBackslash=*/false)
           << "\n";
    return 1;
  }
  if (Error E = H.Write(O.Output, Text)) {
    H.Error(toString(std::move(E)));
    return 1;
  }
  return 0;
}
