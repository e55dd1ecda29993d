//===- CheckEngine.h - Runs the static checks over sources ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs the checks selected for each translation unit on every kernel
/// defined in user code, and collects the findings, the text of each file
/// they are in, and the translation units that did not compile.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECKENGINE_H
#define AUTOPROF_CHECK_CHECKENGINE_H

#include "autoprof/Check/Check.h"
#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Features/FeatureExtractor.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

/// The checks that apply to one translation unit, and the warnings that
/// become errors there.
struct CheckSelection {
  std::vector<const Check *> Checks;
  GlobList WarningsAsErrors;
};

/// A kernel the engine checked, as the performance gate runs it.
struct CheckedKernel {
  std::string QualifiedName;
  /// The main file (absolute) of the translation unit it was first seen
  /// in, whose CheckSelection applies to it.
  std::string MainFile;
  /// Where it is declared: the location of its findings.
  FileLocation Where;
  /// What launches of it: the kernel itself, or a template's
  /// instantiations in the translation units checked (none when it is
  /// instantiated nowhere), each with its mangled name and parameters.
  std::vector<KernelRecord> Launchable;
};

/// Collects the findings of the checks over one or more translation units.
class CheckEngine {
public:
  /// \p Select gives the selection for a translation unit from the
  /// absolute path of its main file.
  CheckEngine(std::function<const CheckSelection &(llvm::StringRef)> Select,
              KernelFilter Filter);

  /// Runs the checks selected for \p MainFile on every kernel of \p Ctx.
  void run(clang::ASTContext &Ctx, llvm::StringRef MainFile);

  /// An action factory that calls run() on each translation unit that
  /// compiles without errors, and records those that do not.
  std::unique_ptr<clang::tooling::FrontendActionFactory> newActionFactory();

  /// Takes what \p Other collected, as if its translation units had run
  /// after this engine's: its kernels not already checked here with their
  /// findings, its files' texts, its files with errors and its checked
  /// kernels. A parallel run merges one engine per file in input order.
  void merge(CheckEngine &&Other);

  /// The findings, sorted by file and offset. A warning that
  /// --warnings-as-errors promotes has Level Error and Promoted set.
  std::vector<Finding> findings() const;
  /// The text of \p File (an absolute path) as it was parsed, or empty.
  llvm::StringRef fileText(llvm::StringRef File) const;
  /// The main files (absolute) of the translation units with compile
  /// errors.
  const std::vector<std::string> &filesWithErrors() const {
    return FilesWithErrors;
  }
  void noteFileWithErrors(llvm::StringRef MainFile);
  /// The number of kernels checked.
  unsigned kernels() const { return Kernels.size(); }

  /// Also records each kernel checked (checkedKernels()), with the
  /// instantiations of templates, and keeps the text of its file. Off by
  /// default: analysing instantiations costs time that only a run needs.
  void collectKernels(bool Collect) { CollectKernels = Collect; }
  /// The kernels checked, in the order first seen, when collectKernels()
  /// is on.
  const std::vector<CheckedKernel> &checkedKernels() const { return Checked; }

private:
  void collect(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
               const KernelRecord &K, const std::string &Key,
               llvm::StringRef MainFile);

  std::function<const CheckSelection &(llvm::StringRef)> Select;
  KernelFilter Filter;
  std::vector<Finding> Findings;
  /// The index in Kernels of the kernel each finding is about.
  std::vector<size_t> FindingKernel;
  /// The keys of the kernels checked, in the order first seen.
  std::vector<std::string> Kernels;
  std::map<std::string, std::string> Texts;
  std::vector<std::string> FilesWithErrors;
  bool CollectKernels = false;
  std::vector<CheckedKernel> Checked;
  /// The index in Checked of each kernel's key.
  std::map<std::string, size_t> CheckedIndex;
};

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECKENGINE_H
