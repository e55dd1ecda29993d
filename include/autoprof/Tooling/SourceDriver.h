//===- SourceDriver.h - Running engines over sources ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one source driver of every subcommand: it finds the compile commands
/// (a compilation database from -p or found near the sources, or the
/// arguments after `--`), leaves out and reports the inputs that cannot run
/// (missing, directories, binary files, files a given database does not
/// list), adjusts each command for CUDA, and runs an engine's frontend
/// action over the rest, several files at a time, each file isolated from
/// Clang's crashes. Its settings are a value, so a test or another tool
/// drives it without the command line.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_SOURCEDRIVER_H
#define AUTOPROF_TOOLING_SOURCEDRIVER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class DiagnosticConsumer;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

/// How a subcommand's sources are parsed: the source options every
/// subcommand shares.
struct SourceSettings {
  /// `-p`: a build directory or a compilation database; empty for none.
  std::string BuildPath;
  /// The compiler arguments given after `--`, when `--` was given.
  std::optional<std::vector<std::string>> FixedArgs;
  /// `--extra-arg` and `--extra-arg-before`.
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  /// `--cuda-path` (empty: the default installation) and `--gpu-arch`
  /// (empty: CudaSettings' default).
  std::string CudaPath, GpuArch;
  /// Without `-p` or `--`, also find a database in a `build/` directory
  /// next to the sources, and give sources it does not list the command
  /// of the nearest one it does.
  bool SearchBuildDirs = false;
  /// Files parsed at a time (at least 1).
  unsigned Jobs = 1;
  /// Collect each file's diagnostics and print them whole, in input order
  /// (without the compiler's count of errors); with Jobs > 1 a progress
  /// line is kept on the log when it is a terminal, and summary() says
  /// how the run went.
  bool Parallel = false;
  /// Texts that replace files on disk, by absolute path.
  std::map<std::string, std::string> Files;
  /// Where Clang's diagnostics go; printed on the log when null. When set,
  /// nothing is printed for a file, not even the count of its errors.
  clang::DiagnosticConsumer *Diagnostics = nullptr;
};

/// Where the driver's one-line messages go.
struct SourceMessages {
  std::function<void(const std::string &)> Error;
  std::function<void(const std::string &)> Warning;
};

/// What a run did.
struct SourceRunSummary {
  /// Inputs, and those that ran (the others were reported).
  size_t Inputs = 0, Ran = 0;
  /// Files that failed: compile errors or a crash.
  unsigned Failed = 0;
  double Seconds = 0;
};

/// Runs \p FactoryFor(I)'s action over input I of \p Inputs under \p S.
/// \p Done(I) is called in input order, never concurrently, also for an
/// input that could not run; what input I's action collected is for it to
/// take. Returns 0, 1 (some inputs could not run, failed or had compile
/// errors; the others ran) or 2 (no database could be loaded: nothing
/// ran). Clang's diagnostics and the progress line go to \p Log.
int runSources(
    const SourceSettings &S, llvm::ArrayRef<std::string> Inputs,
    const std::function<clang::tooling::FrontendActionFactory &(size_t)>
        &FactoryFor,
    const std::function<void(size_t)> &Done, const SourceMessages &Messages,
    SourceRunSummary *Summary = nullptr, llvm::raw_ostream &Log = llvm::errs());

/// The line that ends a run of \p Jobs > 1 files at a time on \p Log ("ran
/// 3 of 4 files in 1.2 s with 2 jobs; 1 failed"); nothing for one job.
void writeRunSummary(llvm::raw_ostream &Log, const SourceRunSummary &Sum,
                     unsigned Jobs);

/// runSources() over the one input \p Input with \p Factory's action,
/// serially whatever \p S says: a parse of one source (and its rewritten
/// files, S.Files) by an engine.
int runSource(const SourceSettings &S, const std::string &Input,
              clang::tooling::FrontendActionFactory &Factory,
              const SourceMessages &Messages,
              llvm::raw_ostream &Log = llvm::errs());

/// Every CUDA source the compilation database at \p BuildPath lists, in
/// its order; fails with one line when it cannot be read or lists none.
llvm::Expected<std::vector<std::string>>
databaseSources(llvm::StringRef BuildPath);

/// The sources a subcommand runs over: \p Given, else every CUDA source of
/// the compilation database at \p BuildPath (databaseSources()); fails
/// with one line when there are none. An empty \p BuildPath reads no
/// database: the sources must be given.
llvm::Expected<std::vector<std::string>>
sourcesToRun(std::vector<std::string> Given, llvm::StringRef BuildPath);

} // namespace autoprof

#endif // AUTOPROF_TOOLING_SOURCEDRIVER_H
