//===- CheckCommand.h - clang-autoprof check, as a library call -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `check` from its options to its exit status: the options checked before
/// anything runs, `--list-checks`, the sources checked (and timed by the
/// performance gate), the report in text or SARIF, `--export-fixes` and
/// `--fix`. The tool fills CheckCommandOptions from its command line.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECKCOMMAND_H
#define AUTOPROF_CHECK_CHECKCOMMAND_H

#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/Verifier.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// What `check` is asked to do.
struct CheckCommandOptions {
  /// The sources given; none: every CUDA file of Parse.BuildPath's database.
  std::vector<std::string> Sources;
  /// How the sources are parsed, Parse.Jobs at a time.
  SourceSettings Parse;
  /// `--kernel`: the kernels checked (empty: all).
  std::string KernelRegex;
  /// `--checks` and `--warnings-as-errors`, when given.
  std::optional<std::string> Checks, WarningsAsErrors;
  bool ListChecks = false;
  bool Fix = false;
  /// `--export-fixes`: the YAML file (empty: none).
  std::string ExportFixes;
  bool Sarif = false;
  /// The report's file; "-": stdout.
  std::string Output = "-";
  /// Colour the text report; nullopt: when it goes to a terminal.
  std::optional<bool> UseColor;
  bool Verbose = false;

  /// The performance gate: `--run`, `--perf-record`, `--perf-baseline`.
  std::string Run, PerfRecord, PerfBaseline;
  unsigned PerfRuns = 5;
  double PerfTolerance = 0.05;
  unsigned Timeout = 300;
  std::string DeviceLock;
  /// The gate's options the command line gave (`--perf-runs`, ...), named
  /// in the error when the gate does not run.
  std::vector<std::string> GateOptionsGiven;
  /// libautoprof-inject.so, for the gate.
  std::string InjectLibrary;

  /// The SARIF report's tool version and the base of its rules' helpUri.
  std::string Version, DocsURL;
};

/// What `check` needs from its caller.
struct CheckCommandHooks {
  /// Writes \p Text to \p Path ("-": stdout).
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  /// Where errors and warnings go, one line each.
  SourceMessages Messages;
  /// Whether stdout is a terminal that shows colours.
  bool StdoutHasColors = false;
};

/// Runs `check`. Returns 0, 1 (a finding at the error level), 2 (a tool
/// error: a bad option, a source not checked, a gate that could not run) or
/// 130 (interrupted while the gate runs the program); progress on \p Log.
int runCheckCommand(const CheckCommandOptions &O, const CheckCommandHooks &H,
                    verify::CommandRunner &Runner, llvm::raw_ostream &Log);

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECKCOMMAND_H
