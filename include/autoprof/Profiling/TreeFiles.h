//===- TreeFiles.h - The trees and profiles subcommands read ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finding a profiling tree by name or path, reading it with its structure
/// checked, and reading a profile's metric values by kernel: what `plan`,
/// `profile`, `optimize` and `learn` share.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_TREEFILES_H
#define AUTOPROF_PROFILING_TREEFILES_H

#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace autoprof {

/// The tree profile and optimize use without --tree: the one learned from
/// the shipped dataset (docs/learn.md).
constexpr const char *DefaultTreeName = "learned";

/// Finds a tree by path, or by name among the .json files of \p ModelsDir;
/// the error lists the available names when there is none.
llvm::Expected<std::string> findTree(llvm::StringRef NameOrPath,
                                     llvm::StringRef ModelsDir);

/// Reads and parses the tree at \p Path and checks its structure; the
/// error names the first problem.
llvm::Error loadCheckedTree(llvm::StringRef Path, ProfilingTree &T);

/// The metric values of a profile by mangled name and by name: the first
/// record of each kernel; values CUPTI could not evaluate are left out.
struct SampleTable {
  std::map<std::string, std::map<std::string, double>> ByMangled, ByName;
  /// The samples of the kernel \p MangledName (else \p Name); null when
  /// none.
  const std::map<std::string, double> *find(const std::string &MangledName,
                                            const std::string &Name) const {
    auto It = ByMangled.find(MangledName);
    if (!MangledName.empty() && It != ByMangled.end())
      return &It->second;
    auto N = ByName.find(Name);
    return N == ByName.end() ? nullptr : &N->second;
  }
};

/// Reads the profile at \p Path (a `profile` output) as a SampleTable.
llvm::Expected<SampleTable> loadSamples(llvm::StringRef Path);

} // namespace autoprof

#endif // AUTOPROF_PROFILING_TREEFILES_H
