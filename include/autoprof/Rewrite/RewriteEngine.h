//===- RewriteEngine.h - Proposals of transformations -----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs transformations on the kernels of translation units and collects,
/// for each (kernel, transformation) whose precondition holds, the source
/// replacements it makes; merges them per file and renders the result as a
/// patched text, a unified diff or clang-apply-replacements YAML.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_REWRITEENGINE_H
#define AUTOPROF_REWRITE_REWRITEENGINE_H

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Rewrite/Transformation.h"

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

/// The edits one transformation makes to one kernel.
struct Proposal {
  /// Index of the kernel in RewriteEngine::kernels().
  size_t Kernel = 0;
  const Transformation *T = nullptr;
  /// Which of the transformation's variants (Transformation::variants());
  /// empty for a transformation of one.
  std::string Variant;
  /// The enabling transformation whose edit this one follows
  /// (RewriteEngine::expandEnabling()), or null.
  const Transformation *After = nullptr;
  /// The edits, by absolute path: the kernel's file, and the files that
  /// launch it when the launches change. A proposal made after an enabling
  /// one holds both edits, as edits of the original texts.
  FileEdits Edits;

  /// The transformation's name, with the variant in parentheses, after the
  /// enabling one's: `block-shape(32x8)`,
  /// `inline-device-helpers+warp-per-row`.
  std::string name() const;
};

/// Where a kernel's definition lies, and how the file launches it.
struct KernelSource {
  /// The absolute path of the file that defines the kernel.
  std::string File;
  /// The byte range of the whole definition: from its `template <...>` line
  /// or its first specifier or attribute (`__global__`,
  /// `__launch_bounds__(...)`) to its closing brace. Empty when the
  /// definition starts or ends inside a macro.
  unsigned Begin = 0;
  unsigned End = 0;
  /// Each launch of the kernel in the translation unit's main file:
  /// "line <n>: <the launch expression>".
  std::vector<std::string> LaunchSites;
  /// The absolute path of the translation unit's main file.
  std::string MainFile;

  bool valid() const { return End > Begin; }
};

/// Why a transformation made no edit of a kernel.
struct Refusal {
  /// Index of the kernel in RewriteEngine::kernels().
  size_t Kernel = 0;
  const Transformation *T = nullptr;
  std::string Reason;
  /// The enabling transformation after whose edit \p T was refused, or
  /// null.
  const Transformation *After = nullptr;

  /// The transformation's name, after the enabling one's.
  std::string name() const;
};

/// Collects proposals over one or more translation units.
class RewriteEngine {
public:
  RewriteEngine(std::vector<const Transformation *> Transformations,
                KernelFilter Filter);

  /// Proposes every transformation on every kernel of \p Ctx accepted by
  /// the filter, skipping kernels already seen in another translation unit.
  void run(clang::ASTContext &Ctx);

  /// Parses \p Texts (new texts of files, by absolute path) in the
  /// translation unit whose main file is \p MainFile, running \p E over
  /// it; false when it does not compile.
  using Reparse =
      std::function<bool(RewriteEngine &E, const std::string &MainFile,
                         const std::map<std::string, std::string> &Texts)>;

  /// Replaces each proposal of an enabling transformation
  /// (Transformation::enabling()) with the proposals the other
  /// transformations make on the kernel it edited, parsed again through
  /// \p R: each holds both edits and names the enabling one (Proposal::After).
  /// With explainRefusals(), the refusals on the edited kernel are added
  /// too. The enabling proposal itself stays in proposals(), for listings;
  /// it is not a candidate by itself. The edited kernel is prepared again,
  /// up to \p Depth enabling edits in all (a helper inlined may call
  /// another); the proposals then name the first (Proposal::After) and hold
  /// every edit. With \p Only, only that kernel's proposals are expanded.
  void expandEnabling(const Reparse &R, unsigned Depth = 3,
                      std::optional<size_t> Only = std::nullopt);

  /// An action factory that calls run() on each translation unit that
  /// compiles without errors.
  std::unique_ptr<clang::tooling::FrontendActionFactory> newActionFactory();

  /// Calls \p Hook on each translation unit run() sees, after proposing:
  /// for what else a caller asks of the same parse.
  void onTranslationUnit(std::function<void(clang::ASTContext &)> Hook) {
    TUHook = std::move(Hook);
  }

  /// The kernels seen, in the order found.
  const std::vector<KernelRecord> &kernels() const { return Kernels; }
  /// Where each kernel of kernels() is defined and launched.
  const std::vector<KernelSource> &kernelSources() const { return Sources; }
  /// For each kernel of kernels() that is a template, its instantiations in
  /// the translation unit (each with its own mangled name and parameter
  /// types); empty for a plain kernel.
  const std::vector<std::vector<KernelRecord>> &instantiations() const {
    return Instances;
  }
  /// The proposals, by kernel then in the order of the transformations;
  /// then those made after enabling ones (expandEnabling()).
  const std::vector<Proposal> &proposals() const { return Proposals; }
  /// Records, from now on, why each transformation makes no edit of a
  /// kernel (refusals()).
  void explainRefusals() { Explain = true; }
  /// With explainRefusals(): the transformations that made no edit of a
  /// kernel, each with its reason, by kernel then in the order of the
  /// transformations.
  const std::vector<Refusal> &refusals() const { return Refusals; }
  /// Transformations whose precondition held but whose apply() failed.
  const std::vector<std::string> &failures() const { return Failures; }
  /// The text of \p File as it was parsed, or empty.
  llvm::StringRef originalText(llvm::StringRef File) const;
  /// The transformations it proposes, and which kernels.
  llvm::ArrayRef<const Transformation *> transformations() const {
    return Transformations;
  }
  const KernelFilter &filter() const { return Filter; }
  /// The number of translation units skipped for compile errors.
  unsigned translationUnitsWithErrors() const { return TUsWithErrors; }
  void noteTranslationUnitWithErrors() { ++TUsWithErrors; }

private:
  std::vector<const Transformation *> Transformations;
  KernelFilter Filter;
  std::vector<KernelRecord> Kernels;
  std::vector<KernelSource> Sources;
  std::vector<std::vector<KernelRecord>> Instances;
  std::vector<Proposal> Proposals;
  std::vector<std::string> Failures;
  std::vector<Refusal> Refusals;
  bool Explain = false;
  std::map<std::string, std::string> Texts;
  unsigned TUsWithErrors = 0;
  std::function<void(clang::ASTContext &)> TUHook;
};

/// Merges \p Proposals in order, leaving out each one whose edits overlap
/// those already merged in any file; \p Skipped receives those.
FileEdits mergeProposals(llvm::ArrayRef<const Proposal *> Proposals,
                         std::vector<const Proposal *> &Skipped);

/// \p Original with \p Edits applied.
llvm::Expected<std::string>
applyEdits(llvm::StringRef Original, const clang::tooling::Replacements &Edits);

/// The new text of each file \p Edits change, by path; \p Original gives a
/// file's text before the edits (empty when it is not known, which fails).
llvm::Expected<std::map<std::string, std::string>>
applyFileEdits(const FileEdits &Edits,
               llvm::function_ref<llvm::StringRef(llvm::StringRef)> Original);

/// A clang-apply-replacements document (TranslationUnitReplacements) for
/// \p Edits of every file, with \p MainSourceFile as its main source file.
std::string exportFixesYAML(llvm::StringRef MainSourceFile,
                            const FileEdits &Edits);

} // namespace autoprof

#endif // AUTOPROF_REWRITE_REWRITEENGINE_H
