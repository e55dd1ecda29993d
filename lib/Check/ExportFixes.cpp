//===- ExportFixes.cpp - Findings for clang-apply-replacements ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/ExportFixes.h"

#include "clang/Tooling/Core/Diagnostic.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

using namespace autoprof;

std::string autoprof::exportFindingsYAML(llvm::StringRef MainSourceFile,
                                         llvm::ArrayRef<Finding> Findings,
                                         const std::vector<bool> &Applied,
                                         llvm::StringRef BuildDirectory) {
  clang::tooling::TranslationUnitDiagnostics TU;
  TU.MainSourceFile = MainSourceFile.str();
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    clang::tooling::DiagnosticMessage Message(F.Message);
    Message.FilePath = F.File;
    Message.FileOffset = F.Offset;
    if (I < Applied.size() && Applied[I])
      for (const clang::tooling::Replacement &R : F.Fix)
        llvm::consumeError(Message.Fix[R.getFilePath()].add(R));
    TU.Diagnostics.emplace_back(
        F.Check, Message,
        llvm::SmallVector<clang::tooling::DiagnosticMessage, 1>(),
        F.Level == Severity::Error ? clang::tooling::Diagnostic::Error
                                   : clang::tooling::Diagnostic::Warning,
        BuildDirectory);
  }
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YAML(OS);
  YAML << TU;
  return OS.str();
}
