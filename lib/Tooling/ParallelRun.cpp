//===- ParallelRun.cpp - Running Clang over many files at once ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/ParallelRun.h"

#include "autoprof/Tooling/RunSafely.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>
#include <optional>
#include <vector>

using namespace autoprof;

namespace {

/// Runs one file; its diagnostics go to \p Options.Diagnostics, to a
/// buffer, or to stderr.
FileRun runOne(const clang::tooling::CompilationDatabase &DB,
               const std::string &File, const FileRunOptions &Options,
               clang::tooling::FrontendActionFactory &Factory) {
  FileRun Run;
  // A file system of its own, whose working directory is not the
  // process's: ClangTool moves into each command's directory, and with the
  // process-wide one, threads would move each other.
  clang::tooling::ClangTool Tool(
      DB, {File}, std::make_shared<clang::PCHContainerOperations>(),
      llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
          llvm::vfs::createPhysicalFileSystem().release()));
  for (const clang::tooling::ArgumentsAdjuster &A : Options.Adjusters)
    Tool.appendArgumentsAdjuster(A);
  for (const auto &[Path, Text] : Options.VirtualFiles)
    Tool.mapVirtualFile(Path, Text);

  llvm::raw_string_ostream OS(Run.Diagnostics);
  OS.enable_colors(Options.Colors);
  clang::DiagnosticOptions DiagOpts;
  DiagOpts.ShowColors = Options.Colors;
  std::optional<clang::TextDiagnosticPrinter> Printer;
  if (Options.Diagnostics) {
    Tool.setDiagnosticConsumer(Options.Diagnostics);
  } else if (Options.BufferDiagnostics) {
    Printer.emplace(OS, DiagOpts);
    Tool.setDiagnosticConsumer(&*Printer);
  }
  if (Options.Diagnostics || Options.BufferDiagnostics) {
    // The caller reports the failure (or this file's buffer holds the
    // line), and the compiler's count of errors would go to stderr.
    Tool.setPrintErrorMessage(false);
    Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
        "-fno-caret-diagnostics", clang::tooling::ArgumentInsertPosition::END));
  }
  Run.Crashed = !runSafely([&] { Run.Status = Tool.run(&Factory); });
  if (Options.BufferDiagnostics && !Options.Diagnostics && !Run.Crashed &&
      Run.Status != 0) {
    // As ClangTool says it.
    llvm::SmallString<256> Abs(File);
    llvm::sys::fs::make_absolute(Abs);
    OS << "Error while processing " << Abs << ".\n";
  }
  return Run;
}

} // namespace

void autoprof::runFiles(
    const clang::tooling::CompilationDatabase &DB,
    llvm::ArrayRef<std::string> Files, const FileRunOptions &Options,
    const std::function<clang::tooling::FrontendActionFactory &(size_t)>
        &FactoryFor,
    const std::function<void(size_t, FileRun &&)> &Done) {
  unsigned Jobs = std::max(1u, Options.Jobs);
  if (Jobs == 1 || Files.size() < 2) {
    for (size_t I = 0; I < Files.size(); ++I)
      Done(I, runOne(DB, Files[I], Options, FactoryFor(I)));
    return;
  }
  // Each result waits in its slot until every file before it is done.
  std::vector<std::optional<FileRun>> Slots(Files.size());
  size_t Next = 0;
  std::mutex Lock;
  llvm::DefaultThreadPool Pool(llvm::hardware_concurrency(Jobs));
  for (size_t I = 0; I < Files.size(); ++I)
    Pool.async([&, I] {
      FileRun Run = runOne(DB, Files[I], Options, FactoryFor(I));
      std::lock_guard<std::mutex> G(Lock);
      Slots[I] = std::move(Run);
      for (; Next < Slots.size() && Slots[Next]; ++Next) {
        Done(Next, std::move(*Slots[Next]));
        Slots[Next].reset();
      }
    });
  Pool.wait();
}
