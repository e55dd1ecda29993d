//===- TreeCommand.cpp - clang-autoprof tree validate|show|dot ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Profiling/TreeCommand.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

struct TreeOptions {
  cl::opt<std::string> ActionName{
      cl::Positional,
      cl::desc("<validate|show|dot>: report every problem, print the tree, "
               "or write Graphviz"),
      cl::Required, cl::sub(treeCommand())};
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
  profiling::TreeCommandOptions T;
  T.Action = O.ActionName;
  T.Path = O.Path;
  T.CatalogPath = catalogPath(Argv0, O.Catalog);
  T.Output = O.Output;
  profiling::TreeCommandHooks H;
  H.LoadCounter = []() -> Expected<std::unique_ptr<PassCounter>> {
    return loadProfilerHost();
  };
  H.Write = writeOutput;
  H.Error = [](const std::string &E) { reportError(E); };
  return profiling::runTreeCommand(T, H, errs());
}
