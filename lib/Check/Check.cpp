//===- Check.cpp - Findings of static checks ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/Check.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <tuple>

using namespace clang;
using namespace autoprof;

Check::~Check() = default;

const char *autoprof::severityName(Severity S) {
  return S == Severity::Error ? "error" : "warning";
}

std::optional<FileLocation> autoprof::fileLocation(const SourceManager &SM,
                                                   SourceLocation Loc) {
  Loc = SM.getFileLoc(Loc);
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return std::nullopt;
  FileID FID = SM.getFileID(Loc);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE)
    return std::nullopt;
  llvm::SmallString<256> Path(FE->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  FileLocation L;
  L.File = std::string(Path);
  L.Offset = SM.getFileOffset(Loc);
  L.Line = SM.getSpellingLineNumber(Loc);
  L.Column = SM.getSpellingColumnNumber(Loc);
  return L;
}

void autoprof::sortFindings(std::vector<Finding> &Findings) {
  std::stable_sort(
      Findings.begin(), Findings.end(), [](const Finding &A, const Finding &B) {
        return std::tie(A.File, A.Offset) < std::tie(B.File, B.Offset);
      });
}

void FindingSink::report(const Check &C, SourceLocation Loc,
                         const llvm::Twine &Message,
                         tooling::Replacements Fix) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::optional<FileLocation> L = fileLocation(SM, Loc);
  if (!L)
    return;
  Finding F;
  F.Check = C.name().str();
  F.Level = C.severity();
  F.Message = Message.str();
  F.File = L->File;
  F.Offset = L->Offset;
  F.Line = L->Line;
  F.Column = L->Column;
  for (const Finding &O : Out)
    if (O.Check == F.Check && O.File == F.File && O.Offset == F.Offset)
      return;
  // Replacements name files as the SourceManager does; make them absolute
  // like the finding.
  for (const tooling::Replacement &R : Fix) {
    llvm::SmallString<256> RP(R.getFilePath());
    SM.getFileManager().makeAbsolutePath(RP);
    llvm::sys::path::remove_dots(RP, /*remove_dot_dot=*/true);
    llvm::cantFail(
        F.Fix.add(tooling::Replacement(std::string(RP), R.getOffset(),
                                       R.getLength(), R.getReplacementText())));
  }
  Out.push_back(std::move(F));
}
