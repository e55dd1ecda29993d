//===- PromptBuilder.h - Messages that ask for a rewrite --------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns a kernel (its source, its launch sites, its static features), the
/// profile a tree's leaf collected for it and, on a retry, the failure of
/// the previous attempt into the chat messages sent to a model. The text
/// comes from three template files with `{{placeholder}}`s (system.txt,
/// kernel.txt, retry.txt in tree-models/prompts/); docs/llm.md shows a
/// filled prompt. Clang-free.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LLM_PROMPTBUILDER_H
#define AUTOPROF_LLM_PROMPTBUILDER_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/LLM/ChatProtocol.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// One collected metric with what the catalog says of it.
struct PromptMetric {
  std::string Name;
  double Value = 0;
  std::string Unit;    ///< Empty when the catalog has none.
  std::string Meaning; ///< Empty for a metric the catalog lacks.
};

/// Why the previous attempt failed.
struct PromptFailure {
  std::string Verdict; ///< e.g. "build-failed", "slower", "no-code-block".
  std::string Reason;  ///< The verdict's one-line reason.
  std::string Code;    ///< The kernel it proposed; empty when none.
};

/// Everything a prompt says about one kernel.
struct PromptInput {
  KernelRecord Kernel;
  /// The source file's name as shown to the user.
  std::string File;
  /// The kernel's definition as it is in the source.
  std::string KernelSource;
  /// Each launch of the kernel in the source: "line <n>: <text>".
  std::vector<std::string> LaunchSites;
  /// The tree's leaf and its focus note; empty when no profile was taken.
  std::string Leaf;
  std::string Focus;
  /// The metrics the leaf collected, in order.
  std::vector<PromptMetric> Metrics;
  /// Set on a retry.
  std::optional<PromptFailure> Previous;
};

/// The three templates of a prompt.
class PromptTemplates {
public:
  /// Reads system.txt, kernel.txt and retry.txt from \p Directory and
  /// checks that each uses only the placeholders it may; the error names
  /// the file (and the line of an unknown placeholder).
  static llvm::Expected<PromptTemplates> load(llvm::StringRef Directory);

  /// Templates given as text; \p Names label them in messages.
  static llvm::Expected<PromptTemplates>
  fromText(std::string System, std::string Kernel, std::string Retry,
           std::string Directory = "<memory>");

  /// The placeholders of system.txt, kernel.txt and retry.txt.
  static const std::vector<std::string> &systemPlaceholders();
  static const std::vector<std::string> &kernelPlaceholders();
  static const std::vector<std::string> &retryPlaceholders();

  /// The messages for \p In: the system template filled, then one user
  /// message holding the kernel template filled and, when \p In has a
  /// previous failure, the retry template filled after it.
  std::vector<ChatMessage> build(const PromptInput &In) const;

private:
  std::string System, Kernel, Retry;
};

/// \p Template with each `{{name}}` replaced by \p Values[name]. Fails, with
/// "<File>:<line>: unknown placeholder {{name}}", for a name \p Values
/// lacks, and for a `{{` without its `}}`.
llvm::Expected<std::string>
fillTemplate(llvm::StringRef Template, llvm::StringRef File,
             const std::map<std::string, std::string> &Values);

/// The values of the placeholders of kernel.txt for \p In.
std::map<std::string, std::string>
kernelPlaceholderValues(const PromptInput &In);

/// Formats a metric value for a prompt: "12", "0.25", "1.5e+09".
std::string formatPromptValue(double V);

} // namespace autoprof

#endif // AUTOPROF_LLM_PROMPTBUILDER_H
