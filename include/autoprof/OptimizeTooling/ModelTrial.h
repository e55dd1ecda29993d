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

#include <optional>
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

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_MODELTRIAL_H
