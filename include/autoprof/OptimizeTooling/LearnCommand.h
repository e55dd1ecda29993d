//===- LearnCommand.h - clang-autoprof learn, as a library call -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `learn` from its options to its exit status: lib/Learn's session given
/// the built-in rewriter's triggers and, for `--rewriter=llm`, the model's
/// trials (runModelTrial() on each kernel), then the learned tree and the
/// comparison written. The tool fills LearnCommandOptions from its command
/// line.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_LEARNCOMMAND_H
#define AUTOPROF_OPTIMIZETOOLING_LEARNCOMMAND_H

#include "autoprof/Learn/LearnSession.h"
#include "autoprof/Tooling/SourceDriver.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>

namespace autoprof {

struct LearnCommandOptions {
  /// The session's options (CatalogPath, WantLearned and the model's
  /// settings are filled from the fields below).
  learn::LearnSessionOptions Session;
  /// The model, over the environment's (AUTOPROF_LLM_*); empty or 0: the
  /// environment's.
  std::string LLMBaseURL, LLMModel;
  unsigned LLMTimeout = 0;
  /// Seconds one run of a trial's program may take.
  unsigned Timeout = 0;
  /// The learned tree's file and the comparison's (JSON); empty for none.
  std::string Output, Report;
  std::string CatalogPath, InjectLibrary;
  /// How the trials parse their sources (their compiler arguments are the
  /// trial's).
  SourceSettings Parse;
};

struct LearnCommandHooks {
  /// What knows the chips and their pass counts (CUPTI's host).
  std::function<llvm::Expected<std::unique_ptr<PassCounter>>()> LoadHost;
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  SourceMessages Messages;
};

/// Runs `learn`: progress on \p Progress, the comparison's table on \p Out.
/// Returns 0, or 1 after reporting why.
int runLearnCommand(const LearnCommandOptions &O, const LearnCommandHooks &H,
                    llvm::raw_ostream &Progress, llvm::raw_ostream &Out);

/// The built-in rewriter's transformations as replay rules.
learn::TriggerRewriter builtinRewriter();

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_LEARNCOMMAND_H
