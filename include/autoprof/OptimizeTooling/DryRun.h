//===- DryRun.h - What optimize --dry-run prints -----------------*- C++
//-*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The outputs of `optimize --dry-run`, which runs nothing: the listing of
/// each kernel's proposals and what triggers them, each proposal as a
/// diff, the proposals merged into one set of edits (-o, --export-fixes),
/// and the model's candidates or prompts.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_DRYRUN_H
#define AUTOPROF_OPTIMIZETOOLING_DRYRUN_H

#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Tree/ProfilingTree.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <string>

namespace autoprof {

class LLMRewriter;

/// What a dry run shows beside the engine's proposals.
struct DryRunView {
  /// A profile's values (--samples) and the tree that routes its kernels:
  /// the triggers then see the metrics of each kernel's leaf. Null for
  /// none: each proposal then lists the metrics its trigger needs.
  const SampleTable *Samples = nullptr;
  const ProfilingTree *Tree = nullptr;
  /// A file's name as the output shows it (as the user named it).
  std::function<std::string(const std::string &)> Shown;
  /// Where warnings go (a proposal that cannot be applied or merged).
  std::function<void(const std::string &)> Warn;
};

/// Each kernel with its proposals and whether the leaf's metrics trigger
/// them, and the refusals the engine kept (RewriteEngine::explainRefusals).
void writeProposalListing(const RewriteEngine &Engine, const DryRunView &V,
                          llvm::raw_ostream &OS);

/// Each proposal as a unified diff of the files it changes.
void writeProposalDiffs(const RewriteEngine &Engine, const DryRunView &V,
                        llvm::raw_ostream &OS);

/// The first variant of every proposal (variants are alternatives), merged
/// in order; a proposal whose edits overlap one merged before is left out
/// with a warning. With \p MainOnly, so is one that changes a file other
/// than \p Main (absolute), for an output that holds \p Main only.
FileEdits mergeFirstVariants(const RewriteEngine &Engine, llvm::StringRef Main,
                             bool MainOnly, const DryRunView &V);

/// The text of \p Main (absolute) with its edits in \p Merged applied.
llvm::Expected<std::string> patchedText(const RewriteEngine &Engine,
                                        const FileEdits &Merged,
                                        llvm::StringRef Main);

/// Asks \p LLM about each kernel of \p Source the model may rewrite and
/// prints its candidate as a diff, or why the reply was rejected; with
/// \p ShowPrompt, prints the prompts and asks nothing. A kernel the model
/// may not rewrite is skipped with a warning. Fails when a question cannot
/// be asked (the endpoint does not answer).
llvm::Error writeModelDryRun(LLMRewriter &LLM, const RewriteEngine &Engine,
                             const std::string &Source, bool ShowPrompt,
                             const DryRunView &V, llvm::raw_ostream &OS);

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_DRYRUN_H
