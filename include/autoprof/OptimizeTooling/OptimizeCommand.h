//===- OptimizeCommand.h - clang-autoprof optimize, as a call ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `optimize` from its options to its exit status: the options checked
/// before anything runs, the source parsed and its proposals made (or the
/// model's), then either a dry run (listed, as diffs, merged into fixes or
/// a copy) or a verified run (profiled with the tree or a given profile,
/// every candidate built, run, compared and timed) whose result is written
/// as asked. The tool fills optimize::CommandOptions from its command line.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_OPTIMIZECOMMAND_H
#define AUTOPROF_OPTIMIZETOOLING_OPTIMIZECOMMAND_H

#include "autoprof/Optimize/CommandOptions.h"
#include "autoprof/Profiling/ProfileProgram.h"
#include "autoprof/Tooling/SourceDriver.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>
#include <vector>

namespace autoprof {

/// What `optimize` takes from the command line besides its own options,
/// and from the machine.
struct OptimizeCommandEnv {
  /// The sources given.
  std::vector<std::string> Sources;
  /// How they are parsed (the compiler arguments after `--` included).
  SourceSettings Parse;
  /// `--kernel`, and whether it was given.
  std::string KernelRegex;
  bool KernelGiven = false;
  /// The metric catalog (the trees and prompts are found beside it) and
  /// libautoprof-inject.so.
  std::string CatalogPath, InjectLibrary;
  /// Checks a profile request against this machine's GPUs; empty for none.
  std::function<llvm::Error(const profiling::ProfileRequest &,
                            const profiling::MetricClasses &)>
      CheckDevice;
  /// Writes \p Text to \p Path ("-": stdout).
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  /// Where errors and warnings go, one line each.
  SourceMessages Messages;
};

/// Runs `optimize`: 0, 1 (a bad option, a source that does not compile, no
/// kernel, a run that failed) or 130 (interrupted); progress on \p Log.
int runOptimizeCommand(const optimize::CommandOptions &O,
                       const OptimizeCommandEnv &Env, llvm::raw_ostream &Log);

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_OPTIMIZECOMMAND_H
