//===- ModelTrial.h - One attempt of the model on one kernel ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What `learn --rewriter=llm` measures for a kernel shown some metrics:
/// `optimize --rewriter=llm --attempts=1` on that kernel alone, with the
/// metrics as its profile, run in-process.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_MODELTRIAL_H
#define AUTOPROF_OPTIMIZETOOLING_MODELTRIAL_H

#include "autoprof/OptimizeTooling/LLMRewriter.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/OptimizeReport.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <optional>
#include <set>
#include <string>

namespace autoprof {

struct ModelTrialOptions {
  /// The program's source, and the kernel (its name or qualified name).
  std::string Source, Kernel;
  /// The profile the model is shown (docs/profile-format.md).
  std::string ProfileFile;
  /// The shell commands that build and run the program.
  std::string Build, Run;
  std::string InjectLibrary;
  /// Seconds a build or run may take; 0 for no limit.
  unsigned Timeout = 0;
  /// How the source is parsed; the driver's messages go to the log.
  SourceSettings Parse;
  /// The model (its Parse and Messages are set from the trial's).
  LLMRewriterOptions LLM;
};

/// Runs the trial; progress and the reason a trial ends without a report
/// go to \p Log, the reason also to \p Why when given. Returns the report,
/// or nullopt when the run stopped without one (the source does not parse,
/// the kernel is not found, the original cannot be measured); fails only
/// when the model cannot be set up or the run was interrupted
/// ("interrupted").
llvm::Expected<std::optional<verify::OptimizeReport>>
runModelTrial(const ModelTrialOptions &O, llvm::raw_ostream &Log,
              std::string *Why = nullptr);

/// The trials of `learn --rewriter=llm`, one after another: each is
/// runModelTrial() with its progress in a log file of its own, and each
/// reason a trial ended without a report is said once, through a warning.
class ModelTrials {
public:
  /// \p LLM: the model of every trial; \p Warn receives the warnings.
  ModelTrials(LLMRewriterOptions LLM,
              std::function<void(const std::string &)> Warn)
      : LLM(std::move(LLM)), Warn(std::move(Warn)) {}

  /// The model's settings, checked before any trial runs.
  llvm::Error check() const;

  /// Runs the trial \p O (its LLM set to the model's) with its progress in
  /// \p LogFile; fails when the log cannot be written.
  llvm::Expected<std::optional<verify::OptimizeReport>>
  run(ModelTrialOptions O, llvm::StringRef LogFile);

private:
  LLMRewriterOptions LLM;
  std::function<void(const std::string &)> Warn;
  /// Why trials ended without a report, each said once.
  std::set<std::string> Problems;
};

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_MODELTRIAL_H
