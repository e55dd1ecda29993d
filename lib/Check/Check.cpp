//===- Check.cpp - Findings of static checks ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/Check.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang;
using namespace autoprof;

Check::~Check() = default;

const char *autoprof::severityName(Severity S) {
  return S == Severity::Error ? "error" : "warning";
}

void FindingSink::report(const Check &C, SourceLocation Loc,
                         const llvm::Twine &Message,
                         tooling::Replacements Fix) {
  const SourceManager &SM = Ctx.getSourceManager();
  Loc = SM.getFileLoc(Loc);
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
    return;
  FileID FID = SM.getFileID(Loc);
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  if (!FE)
    return;
  llvm::SmallString<256> Path(FE->getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  Finding F;
  F.Check = C.name().str();
  F.Level = C.severity();
  F.Message = Message.str();
  F.File = std::string(Path);
  F.Offset = SM.getFileOffset(Loc);
  F.Line = SM.getSpellingLineNumber(Loc);
  F.Column = SM.getSpellingColumnNumber(Loc);
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
