//===- TreeCommand.h - clang-autoprof tree, as a library call ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `tree validate|show|dot`: every problem of a tree file (its JSON, its
/// structure, its chips, its metrics against the catalog and the budget),
/// or the tree printed as text or drawn as Graphviz.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_TREECOMMAND_H
#define AUTOPROF_PROFILING_TREECOMMAND_H

#include "autoprof/Metrics/TreeBudget.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>

namespace autoprof {
namespace profiling {

struct TreeCommandOptions {
  /// validate, show or dot.
  std::string Action;
  /// The tree file, the metric catalog and the output ("-": stdout).
  std::string Path, CatalogPath, Output = "-";
};

struct TreeCommandHooks {
  /// What validate checks the chips and the budget with (CUPTI's host).
  std::function<llvm::Expected<std::unique_ptr<PassCounter>>()> LoadCounter;
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  /// One-line errors that are not the tree's problems.
  std::function<void(const std::string &)> Error;
};

/// Runs `tree`: each problem of the tree on \p Diag, one line
/// (`tree.json:$.root.metrics[2]: error: ...`), exit status 1; else the
/// summary (validate), the text (show) or the graph (dot) written, 0.
int runTreeCommand(const TreeCommandOptions &O, const TreeCommandHooks &H,
                   llvm::raw_ostream &Diag);

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_TREECOMMAND_H
