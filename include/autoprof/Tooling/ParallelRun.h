//===- ParallelRun.h - Running Clang over many files at once ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs a frontend action over a list of source files, one ClangTool per
/// file, on up to N threads, each file crash-isolated (runSafely). Results
/// come back in the order of the files, whatever order they finish in, so
/// that a parallel run prints and merges exactly what a serial one does.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_PARALLELRUN_H
#define AUTOPROF_TOOLING_PARALLELRUN_H

#include "clang/Tooling/ArgumentsAdjusters.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <string>

namespace clang {
class DiagnosticConsumer;
namespace tooling {
class CompilationDatabase;
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

/// How one file's run ended.
struct FileRun {
  /// Clang crashed on the file (the other files still ran).
  bool Crashed = false;
  /// ClangTool::run's status: 0 when every command of the file ran its
  /// action without errors.
  int Status = 1;
  /// With BufferDiagnostics: Clang's diagnostics for the file, as its
  /// text printer writes them, and the "Error while processing" line.
  std::string Diagnostics;
};

/// What runFiles() does besides running the action.
struct FileRunOptions {
  /// Files run at a time (at least 1).
  unsigned Jobs = 1;
  /// Collect each file's diagnostics in FileRun::Diagnostics instead of
  /// printing them on stderr as they come; needed when Jobs > 1, so that
  /// the files' diagnostics do not interleave.
  bool BufferDiagnostics = false;
  /// With BufferDiagnostics: colours in the collected diagnostics.
  bool Colors = false;
  /// Adjusters applied to every command, in order.
  std::vector<clang::tooling::ArgumentsAdjuster> Adjusters;
  /// Files mapped over the disk, by path, for every file's run.
  std::map<std::string, std::string> VirtualFiles;
  /// Receives every file's diagnostics (without BufferDiagnostics); then
  /// nothing is printed on stderr for a failed file.
  clang::DiagnosticConsumer *Diagnostics = nullptr;
};

/// Runs the action \p FactoryFor gives for each file of \p Files with its
/// command in \p DB. \p FactoryFor(I) and \p Done(I, Run) are called for
/// file I; Done in the order of \p Files, never concurrently, as soon as
/// the files before it are done. \p FactoryFor may be called from any
/// thread; the factory (and what its actions write) must serve only file
/// I, or be safe to share.
void runFiles(
    const clang::tooling::CompilationDatabase &DB,
    llvm::ArrayRef<std::string> Files, const FileRunOptions &Options,
    const std::function<clang::tooling::FrontendActionFactory &(size_t)>
        &FactoryFor,
    const std::function<void(size_t, FileRun &&)> &Done);

} // namespace autoprof

#endif // AUTOPROF_TOOLING_PARALLELRUN_H
