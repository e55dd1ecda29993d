//===- Check.h - A static diagnostic on CUDA kernels ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The interface of a static check, in the shape of clang-tidy's: a name, a
/// severity, a hook that looks at one kernel's AST (with the facts of the
/// features analysis), and findings with optional fixes as
/// tooling::Replacements.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CHECK_CHECK_H
#define AUTOPROF_CHECK_CHECK_H

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Features/KernelRecord.h"
#include "autoprof/KernelModel/KernelModel.h"

#include "clang/Basic/SourceLocation.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class CUDAKernelCallExpr;
class FunctionDecl;
class SourceManager;
} // namespace clang

namespace autoprof {

/// How bad a finding is. An error makes `check` exit with 1.
enum class Severity { Warning, Error };

/// "warning" or "error".
const char *severityName(Severity S);

/// One diagnostic of one check.
struct Finding {
  /// The check's name, e.g. "autoprof-missing-restrict".
  std::string Check;
  Severity Level = Severity::Warning;
  /// A warning made an error by WarningsAsErrors.
  bool Promoted = false;
  std::string Message;
  /// Absolute, normalised path of the file.
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// Byte offset of the location in the file.
  unsigned Offset = 0;
  /// Edits that fix the finding; empty when there is no fix.
  clang::tooling::Replacements Fix;
};

/// A place in a file, as findings report it.
struct FileLocation {
  /// Absolute, normalised path of the file.
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  /// Byte offset in the file.
  unsigned Offset = 0;
};

/// Where \p Loc is in a file: a location in a macro is where the macro is
/// used. Nullopt in a system header, or where no file is known.
std::optional<FileLocation> fileLocation(const clang::SourceManager &SM,
                                         clang::SourceLocation Loc);

/// Sorts \p Findings by file and offset, keeping the order of findings at
/// one place.
void sortFindings(std::vector<Finding> &Findings);

/// What a check sees of one kernel.
struct KernelContext {
  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Kernel;
  const KernelRecord &Record;
  const KernelFacts &Facts;
  /// The kernel model, built once for every check of the kernel.
  const KernelModel &Model;
  /// The launches of this kernel in the translation unit.
  llvm::ArrayRef<const clang::CUDAKernelCallExpr *> Launches;
};

class Check;

/// Receives the findings of the checks on one kernel.
class FindingSink {
public:
  FindingSink(clang::ASTContext &Ctx, std::vector<Finding> &Out)
      : Ctx(Ctx), Out(Out) {}
  /// Reports a finding of \p C at \p Loc with \p Fix (possibly empty).
  /// Locations in macros are reported where the macro is used; locations
  /// in system headers are dropped, and a finding already reported at the
  /// same place by the same check is not reported again.
  void report(const Check &C, clang::SourceLocation Loc,
              const llvm::Twine &Message,
              clang::tooling::Replacements Fix = {});

private:
  clang::ASTContext &Ctx;
  std::vector<Finding> &Out;
};

/// A static check of CUDA kernels.
class Check {
public:
  virtual ~Check();
  /// The name used in --checks and in diagnostics, "autoprof-<name>".
  virtual llvm::StringRef name() const = 0;
  /// One line saying what the check finds (SARIF's shortDescription).
  virtual llvm::StringRef summary() const = 0;
  /// The severity of its findings.
  virtual Severity severity() const { return Severity::Warning; }
  /// A paragraph on what to do about a finding, for SARIF's `help`; empty
  /// when the summary and the documentation say enough.
  virtual llvm::StringRef help() const { return ""; }
  /// Looks at the kernel \p K and reports findings to \p Out.
  virtual void check(const KernelContext &K, FindingSink &Out) const = 0;
};

} // namespace autoprof

#endif // AUTOPROF_CHECK_CHECK_H
