//===- RewriteEngine.cpp - Proposals of transformations on kernels --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/RewriteEngine.h"
#include "TemplateSpecialization.h"
#include "Transformations/TextEdits.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/Tooling/UnitAction.h"

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
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"

#include <cctype>
#include <optional>
#include <set>
#include <tuple>

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
  if (auto Main = SM.getFileEntryRefForID(SM.getMainFileID())) {
    SmallString<256> Path(Main->getName());
    SM.getFileManager().makeAbsolutePath(Path);
    llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    KS.MainFile = std::string(Path);
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

/// Whether the template that \p Spec instantiates names its parameter
/// \p Param anywhere: in its parameters' types or its body.
bool namesParameter(const FunctionDecl &Spec, const NamedDecl *Param) {
  class Finder : public RecursiveASTVisitor<Finder> {
  public:
    explicit Finder(const NamedDecl *P) : P(P) {}
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      Found |= E->getDecl() == P;
      return !Found;
    }
    const NamedDecl *P;
    bool Found = false;
  };
  const FunctionTemplateDecl *T = Spec.getPrimaryTemplate();
  if (!T)
    return true;
  Finder F(Param);
  F.TraverseDecl(T->getTemplatedDecl());
  return F.Found;
}

/// The positions of the template arguments that are not the same in every
/// instantiation of \p Specs.
llvm::SmallBitVector varyingArguments(ArrayRef<const FunctionDecl *> Specs) {
  llvm::SmallBitVector Varying;
  const TemplateArgumentList *First =
      Specs.empty() ? nullptr : Specs.front()->getTemplateSpecializationArgs();
  if (!First)
    return Varying;
  Varying.resize(First->size());
  for (const FunctionDecl *Spec : Specs.drop_front()) {
    const TemplateArgumentList *Args = Spec->getTemplateSpecializationArgs();
    for (unsigned I = 0; I < First->size(); ++I)
      if (!Args || I >= Args->size() ||
          !Args->get(I).structurallyEquals(First->get(I)))
        Varying.set(I);
  }
  return Varying;
}

/// The words that name the template arguments of \p Spec as Clang prints
/// them: a type's words (`float`, `unsigned`) and an integer's value. An
/// integer whose parameter the template never names cannot reach an edit
/// through it: the same number written there comes from elsewhere (a
/// launch's block), so it is left out. So is an argument in \p Varying, one
/// that differs between instantiations that all get the same edit: that
/// edit cannot come from it.
std::set<std::string> argumentWords(const FunctionDecl &Spec,
                                    const PrintingPolicy &PP,
                                    const llvm::SmallBitVector &Varying) {
  std::set<std::string> Words;
  const TemplateArgumentList *Args = Spec.getTemplateSpecializationArgs();
  if (!Args)
    return Words;
  const FunctionTemplateDecl *T = Spec.getPrimaryTemplate();
  const TemplateParameterList *Params =
      T ? T->getTemplateParameters() : nullptr;
  for (unsigned I = 0; I < Args->size(); ++I) {
    if (I < Varying.size() && Varying.test(I))
      continue;
    const TemplateArgument &A = Args->get(I);
    std::string Text;
    if (A.getKind() == TemplateArgument::Type) {
      Text = A.getAsType().getAsString(PP);
    } else if (A.getKind() == TemplateArgument::Integral) {
      const NamedDecl *P =
          Params && I < Params->size() ? Params->getParam(I) : nullptr;
      if (P && !P->isParameterPack() && !namesParameter(Spec, P))
        continue;
      Text = llvm::toString(A.getAsIntegral(), 10);
    } else {
      continue;
    }
    for (const std::string &W : wordsOf(Text))
      Words.insert(W);
  }
  return Words;
}

/// One replacement as a comparable tuple: file, offset, length, text.
using Edit = std::tuple<std::string, unsigned, unsigned, std::string>;

/// \p E's replacements as comparable tuples.
std::vector<Edit> flatten(const FileEdits &E) {
  std::vector<Edit> Out;
  for (const auto &[File, Rs] : E)
    for (const tooling::Replacement &R : Rs)
      Out.emplace_back(File, R.getOffset(), R.getLength(),
                       R.getReplacementText().str());
  return Out;
}

/// The reason to refuse an edit of \p M's kernel that failed with \p E,
/// or \p E itself: two edits that conflict at one of its launches, when
/// that launch is made by several instantiations of a template (each has
/// its own grid and block), mean the instantiations need different edits of
/// the one text.
llvm::Error sharedLaunchConflict(llvm::Error E, const KernelModel &M,
                                 std::string &Why) {
  return llvm::handleErrors(
      std::move(E),
      [&](std::unique_ptr<tooling::ReplacementError> RE) -> llvm::Error {
        if (RE->get() == tooling::replacement_error::overlap_conflict &&
            M.launches())
          for (const KernelLaunch &A : *M.launches())
            for (const KernelLaunch &B : *M.launches())
              if (A.Call != B.Call &&
                  A.Call->getBeginLoc() == B.Call->getBeginLoc()) {
                Why = "its launch at " + M.where(A.Call) +
                      " is made by several instantiations of a template, "
                      "which need different edits of it";
                return llvm::Error::success();
              }
        return llvm::Error(std::move(RE));
      });
}

/// The kernel models of one kernel and its instantiations, each built when
/// first asked for and shared by every transformation.
class ModelCache {
public:
  explicit ModelCache(ASTContext &Ctx) : Ctx(Ctx) {}
  const KernelModel &of(const FunctionDecl &FD) {
    std::unique_ptr<KernelModel> &M = Models[&FD];
    if (!M)
      M = std::make_unique<KernelModel>(Ctx, FD);
    return *M;
  }

private:
  ASTContext &Ctx;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<KernelModel>> Models;
};

/// The edits of \p T on the kernel template \p Pattern, made on each of its
/// instantiations \p Specs: none, with the reason in \p Why, unless every
/// instantiation that \p T rewrites gets the same edits of the template's
/// text (their launches may get their own). When every instantiation gets
/// them and no edit writes a word of a template argument that neither the
/// template nor the text it replaces has (`float` where the template says
/// `T`), the template's text is edited. Otherwise (the edit would tie the
/// template to one instantiation, or some instantiations are refused) the
/// body runs the edited text in the rewritten instantiations alone
/// (specializeBody()), when the launches they change lie outside templates.
llvm::Error templateEdits(const Transformation &T, StringRef Variant,
                          ASTContext &Ctx, ModelCache &Models,
                          const FunctionDecl &Pattern,
                          ArrayRef<const FunctionDecl *> Specs, FileEdits &Out,
                          std::string &Why) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The template's definition: its file, its byte range and its words.
  const Decl *Outer = Pattern.getDescribedFunctionTemplate();
  CharSourceRange Def = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Outer->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (Def.isInvalid()) {
    Why = "the template's definition is written through a macro";
    return llvm::Error::success();
  }
  FileID DefFile = SM.getFileID(Def.getBegin());
  unsigned DefBegin = SM.getFileOffset(Def.getBegin()),
           DefEnd = SM.getFileOffset(Def.getEnd());
  std::set<std::string> Written =
      wordsOf(Lexer::getSourceText(Def, SM, Ctx.getLangOpts()));
  StringRef DefText = SM.getBufferData(DefFile);
  auto Inside = [&](const std::string &File, unsigned Offset) {
    auto FE = SM.getFileManager().getOptionalFileRef(File);
    return FE && SM.translateFile(*FE) == DefFile && Offset >= DefBegin &&
           Offset <= DefEnd;
  };
  auto Named = [&](const FunctionDecl &Spec, std::string Reason) {
    if (Specs.size() < 2 || Reason.empty())
      return Reason;
    std::string Name;
    llvm::raw_string_ostream OS(Name);
    Spec.getNameForDiagnostic(OS, Ctx.getPrintingPolicy(),
                              /*Qualified=*/false);
    return "in its instantiation `" + OS.str() + "`: " + Reason;
  };
  // The edits of the template must be the same for every instantiation
  // rewritten; those of its launches (each instantiation's own) are
  // gathered.
  std::optional<std::vector<Edit>> Template;
  FileEdits Launches;
  std::vector<const FunctionDecl *> Rewritten;
  std::string Refused, Tied;
  for (const FunctionDecl *Spec : Specs) {
    FileEdits E;
    std::string Conflict;
    if (llvm::Error Err =
            sharedLaunchConflict(T.applyVariant(Models.of(*Spec), Variant, E),
                                 Models.of(*Spec), Conflict))
      return Err;
    if (!Conflict.empty()) {
      Why = std::move(Conflict);
      return llvm::Error::success();
    }
    if (editCount(E) == 0) {
      if (Refused.empty())
        Refused = Named(*Spec, T.explain(Models.of(*Spec)));
      continue;
    }
    std::vector<Edit> Own;
    for (const Edit &X : flatten(E)) {
      const auto &[File, Offset, Length, Text] = X;
      if (Inside(File, Offset)) {
        Own.push_back(X);
        continue;
      }
      bool Known = false;
      for (const tooling::Replacement &R : Launches[File])
        Known |= R.getOffset() == Offset && R.getLength() == Length &&
                 R.getReplacementText() == Text;
      if (Known)
        continue;
      if (llvm::Error Err = Launches[File].add(
              tooling::Replacement(File, Offset, Length, Text))) {
        llvm::consumeError(std::move(Err));
        Why = "its instantiations need conflicting edits of their launches";
        return llvm::Error::success();
      }
    }
    if (Template && *Template != Own) {
      Why = "its instantiations need different edits of the template";
      return llvm::Error::success();
    }
    Template = std::move(Own);
    Rewritten.push_back(Spec);
  }
  if (!Template) {
    Why = Refused;
    return llvm::Error::success();
  }
  std::vector<Edit> Body = std::move(*Template);
  // A word of a template argument written into the template, which
  // neither it nor the replaced text has (`float`, `float4` where it says
  // `T`), ties the template to one instantiation; an argument that differs
  // between the instantiations rewritten cannot be the edit's source.
  llvm::SmallBitVector Varying = varyingArguments(Rewritten);
  for (const FunctionDecl *Spec : Rewritten) {
    std::set<std::string> Args =
        argumentWords(*Spec, Ctx.getPrintingPolicy(), Varying);
    for (const std::string &W : T.ownWords())
      Args.erase(W);
    for (const auto &[File, Offset, Length, Text] : Body) {
      std::set<std::string> Old = wordsOf(DefText.substr(Offset, Length));
      for (const std::string &W : wordsOf(Text)) {
        std::string Stem = StringRef(W).rtrim("0123456789").str();
        bool Arg = Args.count(W) || (!Stem.empty() && Args.count(Stem));
        if (Arg && !Written.count(W) && !Old.count(W) && Tied.empty())
          Tied = "the edit writes `" + W +
                 "`, from a template argument of one of its "
                 "instantiations, into the template";
      }
    }
  }
  if (Body.empty() && Rewritten.size() != Specs.size()) {
    Why = Refused;
    return llvm::Error::success();
  }
  if (Rewritten.size() != Specs.size() || !Tied.empty()) {
    // Only the rewritten instantiations may run the edited body.
    std::string Cannot;
    std::optional<std::vector<OffsetEdit>> Special;
    for (const FunctionDecl *Spec : Rewritten)
      if (const auto &Ls = Models.of(*Spec).launches())
        for (const KernelLaunch &L : *Ls)
          if (!Launches.empty() && launchedFromTemplate(Ctx, *L.Call))
            Cannot = "its launch at " + Models.of(*Spec).where(L.Call) +
                     " lies in a template: its edit would reach the launches "
                     "of that template's other instantiations too";
    if (Cannot.empty()) {
      std::vector<OffsetEdit> Own;
      for (const auto &[File, Offset, Length, Text] : Body)
        Own.push_back({Offset, Length, Text});
      Special = specializeBody(Ctx, Pattern, Rewritten, Own, Cannot);
    }
    if (!Special) {
      Why = (!Tied.empty() ? Tied : Refused) + "; " + Cannot;
      return llvm::Error::success();
    }
    std::string File = std::get<0>(Body.front());
    Body.clear();
    for (const OffsetEdit &E : *Special)
      Body.emplace_back(File, E.Offset, E.Length, E.Text);
  }
  Out = std::move(Launches);
  for (const auto &[File, Offset, Length, Text] : Body)
    if (llvm::Error Err =
            addEdit(tooling::Replacement(File, Offset, Length, Text), Out))
      return Err;
  return llvm::Error::success();
}

} // namespace

RewriteEngine::RewriteEngine(std::vector<const Transformation *> Ts,
                             KernelFilter Filter)
    : Transformations(std::move(Ts)), Filter(std::move(Filter)) {}

void RewriteEngine::run(ASTContext &Ctx) {
  scopeToUserCode(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  KernelCollector C(SM);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  LaunchCollector Launches;
  Launches.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (const FunctionDecl *FD : C.Kernels) {
    // One model per kernel and instantiation, for its features and every
    // transformation.
    ModelCache Models(Ctx);
    KernelRecord K =
        analyzeKernel(*FD, Ctx, nullptr,
                      FD->isDependentContext() ? nullptr : &Models.of(*FD));
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
    // A template is rewritten through its instantiations: their statements
    // keep the template's source ranges.
    std::vector<const FunctionDecl *> Specs;
    if (const FunctionTemplateDecl *FT = FD->getDescribedFunctionTemplate())
      for (const FunctionDecl *Spec : FT->specializations())
        if (Spec->isTemplateInstantiation() && Spec->hasBody()) {
          Instances.back().push_back(
              analyzeKernel(*Spec, Ctx, nullptr, &Models.of(*Spec)));
          Specs.push_back(Spec);
        }
    if (Sources.back().valid() && !Texts.count(Sources.back().File))
      Texts[Sources.back().File] =
          SM.getBufferData(SM.getFileID(FD->getBodyRBrace())).str();
    bool IsTemplate = K.Template == TemplateKind::Primary;
    for (const Transformation *T : Transformations) {
      auto Refuse = [&](std::string Why) {
        if (Explain)
          Refusals.push_back({Index, T, std::move(Why)});
      };
      if (IsTemplate && Specs.empty()) {
        Refuse("the template is instantiated nowhere in this translation "
               "unit");
        continue;
      }
      bool Allowed = !IsTemplate ? T->precondition(K)
                                 : llvm::all_of(Instances.back(),
                                                [&](const KernelRecord &I) {
                                                  return T->precondition(I);
                                                });
      if (!Allowed) {
        Refuse("the kernel's static features rule it out (its precondition, "
               "docs/rewrites.md)");
        continue;
      }
      // Each variant (a block shape) is a proposal of its own.
      std::vector<std::pair<std::string, FileEdits>> Made;
      std::string Why;
      for (const std::string &Variant : T->variants()) {
        FileEdits Edits;
        llvm::Error E = llvm::Error::success();
        if (IsTemplate) {
          E = templateEdits(*T, Variant, Ctx, Models, *FD, Specs, Edits, Why);
        } else {
          std::string Conflict;
          E = sharedLaunchConflict(
              T->applyVariant(Models.of(*FD), Variant, Edits), Models.of(*FD),
              Conflict);
          if (!Conflict.empty()) {
            Why = std::move(Conflict);
            continue;
          }
        }
        if (E) {
          Failures.push_back(T->name().str() + " on '" + K.QualifiedName +
                             "': " + llvm::toString(std::move(E)));
          continue;
        }
        if (editCount(Edits) != 0)
          Made.emplace_back(Variant, std::move(Edits));
      }
      if (Made.empty()) {
        if (Explain && Why.empty())
          Why = T->explain(Models.of(IsTemplate ? *Specs.front() : *FD));
        // An enabling transformation with nothing to do says nothing.
        if (!T->enabling() || !Why.empty())
          Refuse(Why);
        continue;
      }
      for (auto &[Variant, Edits] : Made) {
        Proposal P;
        P.Kernel = Index;
        P.T = T;
        P.Variant = Variant;
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
  if (TUHook)
    TUHook(Ctx);
}

std::unique_ptr<tooling::FrontendActionFactory>
RewriteEngine::newActionFactory() {
  return newUnitActionFactory([this](const ParsedUnit &U) {
    if (U.hasErrors()) {
      noteTranslationUnitWithErrors();
      return;
    }
    run(U.Ctx);
  });
}

llvm::StringRef RewriteEngine::originalText(llvm::StringRef File) const {
  auto It = Texts.find(File.str());
  return It == Texts.end() ? llvm::StringRef() : llvm::StringRef(It->second);
}

void RewriteEngine::expandEnabling(const Reparse &R, unsigned Depth,
                                   std::optional<size_t> Only) {
  // Below the last level only the others run on the edited kernel.
  std::vector<const Transformation *> Next;
  for (const Transformation *T : Transformations)
    if (Depth > 1 || !T->enabling())
      Next.push_back(T);
  size_t Made = Proposals.size();
  for (size_t I = 0; I < Made; ++I) {
    const Proposal First = Proposals[I];
    if (!First.T->enabling() || First.After || (Only && First.Kernel != *Only))
      continue;
    const KernelRecord &K = Kernels[First.Kernel];
    auto Texts = applyFileEdits(
        First.Edits, [&](llvm::StringRef File) { return originalText(File); });
    if (!Texts) {
      Failures.push_back(First.name() + " on '" + K.QualifiedName +
                         "': " + llvm::toString(Texts.takeError()));
      continue;
    }
    RewriteEngine Again(Next, Filter);
    Again.Explain = Explain;
    if (!R(Again, Sources[First.Kernel].MainFile, *Texts)) {
      Failures.push_back(First.name() + " on '" + K.QualifiedName +
                         "': the edited source does not compile");
      continue;
    }
    // The edits lie inside the kernel's body: its name keeps its line.
    auto Found = llvm::find_if(Again.kernels(), [&](const KernelRecord &O) {
      return O.QualifiedName == K.QualifiedName && O.Line == K.Line;
    });
    if (Found == Again.kernels().end())
      continue;
    size_t Index = Found - Again.kernels().begin();
    // A helper inlined may call another: the edited kernel is prepared
    // again, on top of these texts.
    if (Depth > 1)
      Again.expandEnabling(
          [&](RewriteEngine &E, const std::string &Main,
              const std::map<std::string, std::string> &More) {
            std::map<std::string, std::string> All = *Texts;
            for (const auto &[File, Text] : More)
              All[File] = Text;
            return R(E, Main, All);
          },
          Depth - 1, Index);
    // On a kernel prepared again, what counts is made after that.
    bool Prepared = llvm::any_of(Again.proposals(), [&](const Proposal &Q) {
      return Q.Kernel == Index && Q.T->enabling() && !Q.After;
    });
    for (const Proposal &Q : Again.proposals()) {
      if (Q.Kernel != Index || (Q.T->enabling() && !Q.After) ||
          (Prepared && !Q.After))
        continue;
      Proposal P = Q;
      P.Kernel = First.Kernel;
      P.After = First.T;
      P.Edits = First.Edits;
      for (const auto &[File, Rs] : Q.Edits)
        P.Edits[File] = P.Edits[File].merge(Rs);
      Proposals.push_back(std::move(P));
    }
    for (const Refusal &Q : Again.refusals())
      if (Q.Kernel == Index && !Q.T->enabling() && (Q.After || !Prepared))
        Refusals.push_back({First.Kernel, Q.T, Q.Reason, First.T});
    for (const std::string &F : Again.failures())
      Failures.push_back(F);
  }
}

std::string Proposal::name() const {
  std::string Name = T ? T->name().str() : std::string();
  if (!Variant.empty())
    Name += "(" + Variant + ")";
  return After ? After->name().str() + "+" + Name : Name;
}

std::string Refusal::name() const {
  std::string Name = T ? T->name().str() : std::string();
  return After ? After->name().str() + "+" + Name : Name;
}

FileEdits autoprof::mergeProposals(llvm::ArrayRef<const Proposal *> Proposals,
                                   std::vector<const Proposal *> &Skipped) {
  FileEdits Merged;
  for (const Proposal *P : Proposals) {
    FileEdits Trial = Merged;
    bool Conflict = false;
    unsigned New = 0;
    for (const auto &[File, Rs] : P->Edits) {
      tooling::Replacements &Into = Trial[File];
      for (const tooling::Replacement &R : Rs) {
        // Replacements::add accepts two insertions at one offset; a
        // proposal touching a range an earlier one changed is a conflict,
        // unless it makes the same edit there (the `#include` that two
        // specialized templates of one file add): that is made once.
        auto Done = Merged.find(File);
        bool Same = false;
        if (Done != Merged.end())
          for (const tooling::Replacement &O : Done->second) {
            if (O.getOffset() == R.getOffset() &&
                O.getLength() == R.getLength() &&
                O.getReplacementText() == R.getReplacementText()) {
              Same = true;
              continue;
            }
            if (R.getOffset() < O.getOffset() + std::max(O.getLength(), 1u) &&
                O.getOffset() < R.getOffset() + std::max(R.getLength(), 1u))
              Conflict = true;
          }
        if (Same && !Conflict)
          continue;
        ++New;
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
    // A proposal whose every edit is made already adds nothing.
    if (Conflict || New == 0)
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
