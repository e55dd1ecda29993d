//===- FixMerge.cpp - The fixes of a check run, merged per file -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/FixMerge.h"

using namespace autoprof;

MergedFixes autoprof::mergeFixes(llvm::ArrayRef<Finding> Findings) {
  MergedFixes Out;
  Out.Applied.assign(Findings.size(), false);
  for (size_t I = 0; I < Findings.size(); ++I) {
    const Finding &F = Findings[I];
    if (F.Fix.empty())
      continue;
    ++Out.Suggested;
    FileEdits Trial = Out.Edits;
    bool Conflict = false;
    for (const clang::tooling::Replacement &R : F.Fix) {
      clang::tooling::Replacements &Into = Trial[R.getFilePath().str()];
      // Already there: taken with an earlier finding.
      Conflict = llvm::is_contained(Into, R);
      if (Conflict)
        break;
      if (llvm::Error E = Into.add(R)) {
        llvm::consumeError(std::move(E));
        Conflict = true;
        break;
      }
    }
    if (Conflict)
      continue;
    ++Out.Merged;
    Out.Applied[I] = true;
    Out.Edits = std::move(Trial);
  }
  return Out;
}
