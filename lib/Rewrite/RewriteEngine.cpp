//===- RewriteEngine.cpp - Proposals of transformations on kernels --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/RewriteEngine.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/ReplacementsYaml.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>

using namespace clang;
using namespace autoprof;

namespace {

/// The kernels defined in user code: plain functions and the patterns of
/// templates (instantiations share the pattern's source ranges).
class KernelCollector : public RecursiveASTVisitor<KernelCollector> {
public:
  explicit KernelCollector(const SourceManager &SM) : SM(SM) {}
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (!FD->hasAttr<CUDAGlobalAttr>() || !FD->doesThisDeclarationHaveABody() ||
        FD->isInvalidDecl())
      return true;
    SourceLocation Loc = SM.getFileLoc(FD->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      return true;
    Kernels.push_back(FD);
    return true;
  }
  std::vector<const FunctionDecl *> Kernels;

private:
  const SourceManager &SM;
};

/// Every kernel launch of a translation unit.
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
public:
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    Calls.push_back(E);
    return true;
  }
  std::vector<const CUDAKernelCallExpr *> Calls;
};

/// The kernel a launch calls: the template's pattern for an instantiation.
const FunctionDecl *launchedKernel(const CUDAKernelCallExpr &E) {
  const FunctionDecl *FD = E.getDirectCallee();
  if (!FD)
    return nullptr;
  if (const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern())
    FD = Pattern;
  return FD->getCanonicalDecl();
}

/// \p Text with each run of white space made one space.
std::string oneLine(StringRef Text) {
  std::string Out;
  bool Space = false;
  for (char C : Text.trim()) {
    if (isspace(static_cast<unsigned char>(C))) {
      Space = true;
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

/// Where \p FD is defined and launched (\p Calls: every launch of its
/// translation unit).
KernelSource
kernelSource(const FunctionDecl &FD, ASTContext &Ctx,
             const std::vector<const CUDAKernelCallExpr *> &Calls) {
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  KernelSource KS;
  const Decl *Outer = &FD;
  if (const FunctionTemplateDecl *FT = FD.getDescribedFunctionTemplate())
    Outer = FT;
  SourceLocation Begin = SM.getExpansionLoc(Outer->getBeginLoc());
  for (const Attr *A : FD.attrs()) {
    if (A->isImplicit() || A->getLocation().isInvalid())
      continue;
    SourceLocation L = SM.getExpansionLoc(A->getRange().getBegin());
    if (L.isValid() && SM.isBeforeInTranslationUnit(L, Begin))
      Begin = L;
  }
  SourceLocation Close = FD.getBodyRBrace();
  if (Close.isInvalid() || Close.isMacroID() || FD.getLocation().isMacroID())
    return KS;
  SourceLocation End = Lexer::getLocForEndOfToken(Close, 0, SM, LO);
  FileID FID = SM.getFileID(Close);
  if (End.isInvalid() || SM.getFileID(Begin) != FID)
    return KS;
  KS.Begin = SM.getFileOffset(Begin);
  KS.End = SM.getFileOffset(End);
  if (auto FE = SM.getFileEntryRefForID(FID)) {
    SmallString<256> Path(FE->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    KS.File = std::string(Path);
  }
  const FunctionDecl *Canonical = FD.getCanonicalDecl();
  for (const CUDAKernelCallExpr *E : Calls) {
    if (launchedKernel(*E) != Canonical)
      continue;
    CharSourceRange R = SM.getExpansionRange(E->getSourceRange());
    if (SM.getFileID(R.getBegin()) != FID)
      continue;
    StringRef Text = Lexer::getSourceText(R, SM, LO);
    KS.LaunchSites.push_back(
        "line " + std::to_string(SM.getExpansionLineNumber(R.getBegin())) +
        ": " + oneLine(Text));
  }
  return KS;
}

class RewriteConsumer : public ASTConsumer {
public:
  explicit RewriteConsumer(RewriteEngine &Engine) : Engine(Engine) {}
  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (Ctx.getDiagnostics().hasErrorOccurred()) {
      Engine.noteTranslationUnitWithErrors();
      return;
    }
    Engine.run(Ctx);
  }

private:
  RewriteEngine &Engine;
};

class RewriteAction : public ASTFrontendAction {
public:
  explicit RewriteAction(RewriteEngine &Engine) : Engine(Engine) {}
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return std::make_unique<RewriteConsumer>(Engine);
  }

private:
  RewriteEngine &Engine;
};

class RewriteActionFactory : public tooling::FrontendActionFactory {
public:
  explicit RewriteActionFactory(RewriteEngine &Engine) : Engine(Engine) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<RewriteAction>(Engine);
  }

private:
  RewriteEngine &Engine;
};

} // namespace

RewriteEngine::RewriteEngine(std::vector<const Transformation *> Ts,
                             KernelFilter Filter)
    : Transformations(std::move(Ts)), Filter(std::move(Filter)) {}

void RewriteEngine::run(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  KernelCollector C(SM);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  LaunchCollector Launches;
  Launches.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *FD : C.Kernels) {
    KernelRecord K = analyzeKernel(*FD, Ctx);
    if (Filter && !Filter(K.Name, K.QualifiedName))
      continue;
    bool Seen = false;
    for (const KernelRecord &O : Kernels)
      Seen |= O.QualifiedName == K.QualifiedName && O.File == K.File &&
              O.Line == K.Line;
    if (Seen)
      continue;
    size_t Index = Kernels.size();
    Kernels.push_back(K);
    Sources.push_back(kernelSource(*FD, Ctx, Launches.Calls));
    Instances.emplace_back();
    if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
      for (const FunctionDecl *Spec : FT->specializations())
        if (Spec->isTemplateInstantiation() && Spec->hasBody())
          Instances.back().push_back(analyzeKernel(*Spec, Ctx));
    if (Sources.back().valid() && !Texts.count(Sources.back().File))
      Texts[Sources.back().File] =
          SM.getBufferData(SM.getFileID(FD->getBodyRBrace())).str();
    for (const Transformation *T : Transformations) {
      if (!T->precondition(K)) {
        if (Explain)
          Refusals.push_back({Index, T,
                              "the kernel's static features rule it out "
                              "(its precondition, docs/rewrites.md)"});
        continue;
      }
      FileEdits Edits;
      if (llvm::Error E = T->apply(Ctx, *FD, Edits)) {
        Failures.push_back(T->name().str() + " on '" + K.QualifiedName +
                           "': " + llvm::toString(std::move(E)));
        continue;
      }
      if (editCount(Edits) == 0) {
        if (Explain)
          Refusals.push_back({Index, T, T->explain(Ctx, *FD)});
        continue;
      }
      Proposal P;
      P.Kernel = Index;
      P.T = T;
      // Paths are made absolute: a compile command may name its file
      // relative to its own directory.
      FileManager &FM = SM.getFileManager();
      for (const auto &[File, Rs] : Edits) {
        llvm::SmallString<256> Path(File);
        FM.makeAbsolutePath(Path);
        llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
        std::string Name(Path);
        if (!Texts.count(Name))
          if (auto FE = FM.getOptionalFileRef(File)) {
            FileID FID = SM.translateFile(*FE);
            if (FID.isValid())
              Texts[Name] = SM.getBufferData(FID).str();
          }
        for (const tooling::Replacement &R : Rs)
          llvm::cantFail(
              addEdit(tooling::Replacement(Name, R.getOffset(), R.getLength(),
                                           R.getReplacementText()),
                      P.Edits));
      }
      Proposals.push_back(std::move(P));
    }
  }
}

std::unique_ptr<tooling::FrontendActionFactory>
RewriteEngine::newActionFactory() {
  return std::make_unique<RewriteActionFactory>(*this);
}

llvm::StringRef RewriteEngine::originalText(llvm::StringRef File) const {
  auto It = Texts.find(File.str());
  return It == Texts.end() ? llvm::StringRef() : llvm::StringRef(It->second);
}

FileEdits autoprof::mergeProposals(llvm::ArrayRef<const Proposal *> Proposals,
                                   std::vector<const Proposal *> &Skipped) {
  FileEdits Merged;
  for (const Proposal *P : Proposals) {
    FileEdits Trial = Merged;
    bool Conflict = false;
    for (const auto &[File, Rs] : P->Edits) {
      tooling::Replacements &Into = Trial[File];
      for (const tooling::Replacement &R : Rs) {
        // Replacements::add accepts two insertions at one offset; a
        // proposal touching a range an earlier one changed is a conflict.
        auto Done = Merged.find(File);
        if (Done != Merged.end())
          for (const tooling::Replacement &O : Done->second)
            if (R.getOffset() < O.getOffset() + std::max(O.getLength(), 1u) &&
                O.getOffset() < R.getOffset() + std::max(R.getLength(), 1u))
              Conflict = true;
        if (Conflict)
          break;
        if (llvm::Error E = Into.add(R)) {
          llvm::consumeError(std::move(E));
          Conflict = true;
          break;
        }
      }
      if (Conflict)
        break;
    }
    if (Conflict)
      Skipped.push_back(P);
    else
      Merged = std::move(Trial);
  }
  return Merged;
}

llvm::Expected<std::string>
autoprof::applyEdits(llvm::StringRef Original,
                     const tooling::Replacements &Edits) {
  return tooling::applyAllReplacements(Original, Edits);
}

llvm::Expected<std::map<std::string, std::string>> autoprof::applyFileEdits(
    const FileEdits &Edits,
    llvm::function_ref<llvm::StringRef(llvm::StringRef)> Original) {
  std::map<std::string, std::string> Out;
  for (const auto &[File, Rs] : Edits) {
    if (Rs.empty())
      continue;
    llvm::StringRef Text = Original(File);
    if (Text.empty())
      return llvm::createStringError("the text of '%s' is not known",
                                     File.c_str());
    llvm::Expected<std::string> New = applyEdits(Text, Rs);
    if (!New)
      return New.takeError();
    Out[File] = std::move(*New);
  }
  return Out;
}

std::string autoprof::exportFixesYAML(llvm::StringRef MainSourceFile,
                                      const FileEdits &Edits) {
  tooling::TranslationUnitReplacements TUR;
  TUR.MainSourceFile = MainSourceFile.str();
  for (const auto &[File, Rs] : Edits)
    TUR.Replacements.insert(TUR.Replacements.end(), Rs.begin(), Rs.end());
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  llvm::yaml::Output YAML(OS);
  YAML << TUR;
  OS.flush();
  return Out;
}
