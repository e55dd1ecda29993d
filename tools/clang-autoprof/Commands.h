//===- Commands.h - Subcommands of clang-autoprof ---------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The subcommands of the tool, their shared options, and the helpers they
/// use to report errors and write output.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLS_COMMANDS_H
#define AUTOPROF_TOOLS_COMMANDS_H

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Profiling/ProfileProgram.h"
#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Tooling/Compilations.h"
#include "autoprof/Tooling/CudaCommand.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "autoprof/Verify/Judge.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang {
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {
namespace tool {

llvm::cl::SubCommand &featuresCommand();
llvm::cl::SubCommand &metricsCommand();
llvm::cl::SubCommand &treeCommand();
llvm::cl::SubCommand &planCommand();
llvm::cl::SubCommand &profileCommand();
llvm::cl::SubCommand &optimizeCommand();
llvm::cl::SubCommand &checkCommand();
llvm::cl::SubCommand &learnCommand();

/// Options of the subcommands that parse sources (-p, sources, extra args).
struct SourceOptions {
  llvm::cl::opt<std::string> BuildPath;
  llvm::cl::list<std::string> Sources;
  llvm::cl::list<std::string> ExtraArgs;
  llvm::cl::list<std::string> ExtraArgsBefore;
  llvm::cl::opt<std::string> CudaPath;
  llvm::cl::opt<std::string> Kernel;
  llvm::cl::opt<std::string> GpuArch;
  llvm::cl::opt<unsigned> Jobs;
  SourceOptions();
};
SourceOptions &sourceOptions();

/// The arguments after `--`, removed from argv before parsing.
extern std::optional<std::vector<std::string>> ArgsAfterDashDash;

/// Prints "clang-autoprof: error: <message>" on stderr.
void reportError(const llvm::Twine &Message);
/// Prints "clang-autoprof: warning: <message>" on stderr.
void reportWarning(const llvm::Twine &Message);

/// Reports \p E, when it is an error, with reportError(); true then.
bool failed(llvm::Error E);
/// Reports the error \p V holds, if any; true then.
template <typename T> bool failed(llvm::Expected<T> &V) {
  return !V && failed(V.takeError());
}

/// The catalog given by a --catalog option, else the one shipped.
std::string catalogPath(const char *Argv0, const std::string &Option);

/// Loads CUPTI from --cuda-path (or the default CUDA installation).
llvm::Expected<std::unique_ptr<ProfilerHost>> loadProfilerHost();

/// Writes \p Text to \p Path atomically, or to stdout when \p Path is "-".
llvm::Error writeOutput(llvm::StringRef Path, llvm::StringRef Text);

/// The sources a subcommand runs over: those on the command line, else,
/// when \p FromDatabase and `-p` is given, every CUDA file its database
/// lists. Reports why there are none and returns nullopt.
std::optional<std::vector<std::string>> sourcesToRun(bool FromDatabase);

/// Extracts the features of \p Sources (else those sourcesToRun() gives)
/// into \p Report with the shared source options, -j files at a time;
/// \p FixedArgs are the compiler arguments given after `--`. Returns 0, 1
/// (some sources failed; the rest is analysed) or 2 (nothing could be:
/// a bad option or database).
int extractSources(
    FeatureReport &Report, const std::vector<std::string> *Sources = nullptr,
    const std::optional<std::vector<std::string>> *FixedArgs = nullptr);

/// Sets \p Filter to the --kernel filter; reports an invalid regular
/// expression and returns false.
bool kernelFilter(KernelFilter &Filter);

/// The shared source options as the source driver's settings, with
/// \p FixedArgs as the arguments after `--`.
SourceSettings
sourceSettings(const std::optional<std::vector<std::string>> &FixedArgs);

/// The source driver's messages as the tool's errors and warnings.
SourceMessages toolMessages();

/// The -j option's value: the number of cores for 0.
unsigned jobs();

/// The injection library: $AUTOPROF_INJECT_LIBRARY, else
/// lib/libautoprof-inject.so beside the tool's bin/.
std::string injectionLibrary(const char *Argv0);

/// Appends the kernels of \p Sources (instantiations, not primary
/// templates) with their static features to \p Out. Parse errors are
/// reported as they are found; the error returned only says that there were.
llvm::Error
addSourceKernels(const std::vector<std::string> &Sources,
                 const std::optional<std::vector<std::string>> *CompilerArgs,
                 std::vector<profiling::StaticKernel> &Out);

/// Checks \p R against this machine's GPUs (profiling::checkDevice), with
/// the CUPTI profiler host.
llvm::Error checkProfilingDevice(const profiling::ProfileRequest &R,
                                 const profiling::MetricClasses &Classes);

int runProfile(const char *Argv0);

/// Runs `optimize`; returns the exit status.
int runOptimize(const char *Argv0);

/// Runs `check`; returns the exit status (0, 1 or 2, or 130 when
/// interrupted while the performance gate runs the program).
int runCheck(const char *Argv0);

/// Runs `learn`; returns the exit status.
int runLearn(const char *Argv0);

/// Runs `plan`; returns the exit status.
int runPlan(const char *Argv0);

/// Runs `features`; returns the exit status.
int runFeatures();
/// Runs `metrics`; returns the exit status.
int runMetrics(const char *Argv0);
/// Runs `tree validate|show|dot`; returns the exit status.
int runTree(const char *Argv0);

} // namespace tool
} // namespace autoprof

#endif // AUTOPROF_TOOLS_COMMANDS_H
