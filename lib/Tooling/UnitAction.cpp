//===- UnitAction.cpp - The frontend action of every engine ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/UnitAction.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <vector>

using namespace clang;
using namespace autoprof;

bool ParsedUnit::hasErrors() const {
  return Ctx.getDiagnostics().hasErrorOccurred();
}

namespace {

/// Passes every diagnostic on to the client it replaces, and keeps the file
/// locations of the errors.
class ErrorRecorder : public DiagnosticConsumer {
public:
  ErrorRecorder(DiagnosticConsumer *Next,
                std::unique_ptr<DiagnosticConsumer> Owned,
                std::vector<SourceLocation> &Errors)
      : Next(Next), Owned(std::move(Owned)), Errors(Errors) {}
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next->BeginSourceFile(LO, PP);
  }
  void EndSourceFile() override { Next->EndSourceFile(); }
  void finish() override { Next->finish(); }
  void HandleDiagnostic(DiagnosticsEngine::Level L,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(L, Info);
    if (L >= DiagnosticsEngine::Error && Info.hasSourceManager() &&
        Info.getLocation().isValid())
      Errors.push_back(Info.getSourceManager().getFileLoc(Info.getLocation()));
    Next->HandleDiagnostic(L, Info);
  }

private:
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> Owned;
  std::vector<SourceLocation> &Errors;
};

class UnitConsumer : public ASTConsumer {
public:
  UnitConsumer(const UnitCallback &OnUnit, std::string MainFile)
      : OnUnit(OnUnit), MainFile(std::move(MainFile)) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    OnUnit(ParsedUnit{Ctx, MainFile, Errors});
  }
  std::vector<SourceLocation> Errors;

private:
  const UnitCallback &OnUnit;
  std::string MainFile;
};

class UnitAction : public ASTFrontendAction {
public:
  explicit UnitAction(const UnitCallback &OnUnit) : OnUnit(OnUnit) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef InFile) override {
    llvm::SmallString<256> Path(InFile);
    llvm::sys::fs::make_absolute(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    auto Consumer = std::make_unique<UnitConsumer>(OnUnit, Path.str().str());
    DiagnosticsEngine &Diags = CI.getDiagnostics();
    DiagnosticConsumer *Next = Diags.getClient();
    std::unique_ptr<DiagnosticConsumer> Owned;
    if (Diags.ownsClient())
      Owned = Diags.takeClient();
    Diags.setClient(new ErrorRecorder(Next, std::move(Owned), Consumer->Errors),
                    /*ShouldOwnClient=*/true);
    return Consumer;
  }

private:
  const UnitCallback &OnUnit;
};

class UnitActionFactory : public tooling::FrontendActionFactory {
public:
  explicit UnitActionFactory(UnitCallback OnUnit) : OnUnit(std::move(OnUnit)) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<UnitAction>(OnUnit);
  }

private:
  UnitCallback OnUnit;
};

} // namespace

std::unique_ptr<tooling::FrontendActionFactory>
autoprof::newUnitActionFactory(UnitCallback OnUnit) {
  return std::make_unique<UnitActionFactory>(std::move(OnUnit));
}
