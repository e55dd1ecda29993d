//===- CheckRun.h - One run of `check` --------------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// One run of `clang-autoprof check` as a library call: each source's
/// checks selected (.clang-autoprof, then the command line's globs), the
/// sources checked by one engine each, a given number at a time, merged in
/// input order, then the performance gate over the kernels of the sources
/// that compiled. The run changes no file: the caller renders the findings,
/// exports or applies their fixes (applyFixes()).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECKRUN_H
#define AUTOPROF_CHECK_CHECKRUN_H

#include "autoprof/Check/CheckEngine.h"
#include "autoprof/Check/FixMerge.h"
#include "autoprof/Check/PerfGate.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/PerfBaseline.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// What `check` was asked for.
struct CheckRunOptions {
  /// How the sources are parsed; Jobs of them at a time.
  SourceSettings Sources;
  std::vector<std::string> Inputs;
  /// `--checks` and `--warnings-as-errors`, when given: layered over each
  /// source's .clang-autoprof.
  std::optional<std::string> Checks, WarningsAsErrors;
  /// The kernels checked (`--kernel`); empty for all.
  KernelFilter Filter;
  /// The performance gate's settings, when it runs (its WorkDir is made by
  /// the run); the baseline it compares with, if any.
  std::optional<PerfGateOptions> Gate;
  std::optional<verify::PerfBaseline> Baseline;
  /// `--kernel` was given: said when no kernel is left to time.
  bool KernelGiven = false;
  /// Say which kernels the gate does not time, and why.
  bool Verbose = false;
};

/// What the run found.
struct CheckRunResult {
  /// The engine every source's was merged into: the files as parsed, the
  /// kernels checked.
  std::unique_ptr<CheckEngine> Engine;
  /// The findings, sorted, the gate's among them.
  std::vector<Finding> Findings;
  /// Something was reported as an error: a source not checked, a gate that
  /// could not run.
  bool ToolError = false;
  /// The gate was interrupted.
  bool Interrupted = false;
};

/// The checks selected for \p Source with \p O's globs; \p Name names the
/// place in messages when it is not the source ("the current directory").
llvm::Expected<CheckSelection> selectChecks(const CheckRunOptions &O,
                                            llvm::StringRef Source,
                                            llvm::StringRef Name = "");

/// Runs `check`. A source whose configuration cannot be read is an error;
/// sources that do not compile and gate failures are reported through
/// \p Messages and set ToolError. The gate's runs go through \p Runner; the
/// driver's and the gate's progress go to \p Log.
llvm::Expected<CheckRunResult> runCheck(const CheckRunOptions &O,
                                        verify::CommandRunner &Runner,
                                        const SourceMessages &Messages,
                                        llvm::raw_ostream &Log);

/// `--fix`: writes \p Fixes into the files \p Engine parsed, each
/// atomically and only when it is unchanged since it was parsed, and says
/// how many were applied on \p Log. No file is written when a translation
/// unit did not compile. Returns false after reporting a failure.
bool applyFixes(const CheckEngine &Engine, const MergedFixes &Fixes,
                const SourceMessages &Messages, llvm::raw_ostream &Log);

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECKRUN_H
