//===- TemplateSpecialization.cpp - A kernel template's verified instances ===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "TemplateSpecialization.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

using namespace clang;

namespace autoprof {

namespace {

/// The condition that holds in the instantiation \p Spec alone: each
/// template parameter equal to its argument; empty, with the reason in
/// \p Why, when an argument cannot be written so.
std::string argumentsCondition(const FunctionDecl &Spec, std::string &Why) {
  const TemplateArgumentList *Args = Spec.getTemplateSpecializationArgs();
  const FunctionTemplateDecl *T = Spec.getPrimaryTemplate();
  if (!Args || !T) {
    Why = "the kernel is not an instantiation of a function template";
    return "";
  }
  const TemplateParameterList *Params = T->getTemplateParameters();
  std::string Cond;
  for (unsigned I = 0; I < Args->size(); ++I) {
    const NamedDecl *P = I < Params->size() ? Params->getParam(I) : nullptr;
    if (!P || P->isParameterPack() || P->getName().empty()) {
      Why = "a template parameter of the kernel is a pack or has no name";
      return "";
    }
    std::string Name = P->getName().str();
    const TemplateArgument &A = Args->get(I);
    std::string Term;
    if (A.getKind() == TemplateArgument::Type) {
      QualType Ty = A.getAsType().getCanonicalType();
      if (!Ty->isBuiltinType() || Ty.hasQualifiers()) {
        Why = "its argument `" + A.getAsType().getAsString() + "` for `" +
              Name + "` is not a builtin type";
        return "";
      }
      Term = "std::is_same<" + Name + ", " +
             Ty.getAsString(Spec.getASTContext().getPrintingPolicy()) +
             ">::value";
    } else if (A.getKind() == TemplateArgument::Integral) {
      const llvm::APSInt &V = A.getAsIntegral();
      if (A.getIntegralType()->isBooleanType())
        Term = V.getBoolValue() ? Name : "!" + Name;
      else if (A.getIntegralType()->isEnumeralType())
        // A scoped enumeration compares with no integer.
        Term =
            "static_cast<long long>(" + Name + ") == " + llvm::toString(V, 10);
      else
        Term =
            Name + " == " + llvm::toString(V, 10) + (V.isUnsigned() ? "u" : "");
    } else {
      Why = "its template argument for `" + Name +
            "` is neither a type nor an integer";
      return "";
    }
    Cond += (Cond.empty() ? "" : " && ") + Term;
  }
  if (Cond.empty())
    Why = "the kernel has no template arguments";
  return Cond;
}

/// Whether \p Text has a line `#include <type_traits>`.
bool includesTypeTraits(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (llvm::StringRef L : Lines) {
    L = L.trim();
    if (!L.consume_front("#"))
      continue;
    L = L.ltrim();
    if (L.consume_front("include") && L.trim() == "<type_traits>")
      return true;
  }
  return false;
}

} // namespace

std::optional<std::vector<OffsetEdit>>
specializeBody(ASTContext &Ctx, const FunctionDecl &Pattern,
               llvm::ArrayRef<const FunctionDecl *> Specs,
               llvm::ArrayRef<OffsetEdit> Edited, std::string &Why) {
  if (!Ctx.getLangOpts().CPlusPlus17) {
    Why = "only C++17 and later can choose the instantiations that run it "
          "(`if constexpr`)";
    return std::nullopt;
  }
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Pattern.getBody());
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Body || Body->getLBracLoc().isMacroID() ||
      Body->getRBracLoc().isMacroID()) {
    Why = "the kernel's body is written through a macro";
    return std::nullopt;
  }
  FileID File = SM.getFileID(Body->getLBracLoc());
  unsigned Open = SM.getFileOffset(Body->getLBracLoc()) + 1;
  unsigned Close = SM.getFileOffset(Body->getRBracLoc());
  if (SM.getFileID(Body->getRBracLoc()) != File || Close < Open) {
    Why = "the kernel's body is written through a macro";
    return std::nullopt;
  }
  std::vector<OffsetEdit> Sorted(Edited.begin(), Edited.end());
  std::sort(Sorted.begin(), Sorted.end(),
            [](const OffsetEdit &A, const OffsetEdit &B) {
              return A.Offset < B.Offset;
            });
  for (const OffsetEdit &E : Sorted)
    if (E.Offset < Open || E.Offset + E.Length > Close) {
      Why = "the edit changes the template outside its body";
      return std::nullopt;
    }

  std::vector<std::string> Conds;
  for (const FunctionDecl *Spec : Specs) {
    std::string C = argumentsCondition(*Spec, Why);
    if (C.empty())
      return std::nullopt;
    if (std::find(Conds.begin(), Conds.end(), C) == Conds.end())
      Conds.push_back(C);
  }
  std::string Cond;
  for (const std::string &C : Conds)
    Cond += Conds.size() == 1 ? C : (Cond.empty() ? "(" : " || (") + C + ")";

  llvm::StringRef Text = SM.getBufferData(File);
  std::string Original = Text.substr(Open, Close - Open).str();
  std::string Rewritten;
  unsigned At = Open;
  for (const OffsetEdit &E : Sorted) {
    if (E.Offset < At) {
      Why = "its edits overlap";
      return std::nullopt;
    }
    Rewritten += Text.substr(At, E.Offset - At).str() + E.Text;
    At = E.Offset + E.Length;
  }
  Rewritten += Text.substr(At, Close - At).str();

  // Each branch keeps the body's lines, one level deeper; a body on one
  // line gets lines of its own.
  // One level of the body's own indentation: that of its first line.
  std::string Ind = "  ";
  if (size_t NL = Original.find('\n'); NL != std::string::npos) {
    size_t End = Original.find_first_not_of(" \t", NL + 1);
    if (End != std::string::npos && End > NL + 1 && Original[End] != '\n')
      Ind = Original.substr(NL + 1, End - NL - 1);
  }
  auto Lines = [&](std::string S) {
    if (S.empty() || S.front() != '\n')
      S.insert(S.begin(), '\n');
    while (!S.empty() && (S.back() == ' ' || S.back() == '\t'))
      S.pop_back();
    if (S.back() != '\n')
      S += '\n';
    std::string Out;
    for (size_t I = 0; I < S.size(); ++I) {
      Out += S[I];
      if (S[I] == '\n' && I + 1 < S.size() && S[I + 1] != '\n')
        Out += Ind;
    }
    return Out;
  };
  std::vector<OffsetEdit> Out;
  if (!includesTypeTraits(Text.substr(0, Open)))
    Out.push_back({0, 0, "#include <type_traits>\n"});
  Out.push_back({Open, Close - Open,
                 "\n" + Ind +
                     "// The rewritten body runs in the instantiations that "
                     "were verified;\n" +
                     Ind + "// any other runs the body as it was.\n" + Ind +
                     "if constexpr (" + Cond + ") {" + Lines(Rewritten) + Ind +
                     "} else {" + Lines(Original) + Ind + "}\n"});
  return Out;
}

bool launchedFromTemplate(ASTContext &Ctx, const CUDAKernelCallExpr &Call) {
  DynTypedNodeList Parents = Ctx.getParents(Call);
  for (unsigned Depth = 0; !Parents.empty() && Depth < 256; ++Depth) {
    const DynTypedNode &N = Parents[0];
    if (const auto *D = N.get<Decl>()) {
      for (const DeclContext *DC = isa<DeclContext>(D) ? cast<DeclContext>(D)
                                                       : D->getDeclContext();
           DC; DC = DC->getParent()) {
        if (const auto *FD = dyn_cast<FunctionDecl>(DC))
          if (FD->isTemplateInstantiation() ||
              FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate)
            return true;
        if (isa<ClassTemplateSpecializationDecl>(DC) ||
            DC->isDependentContext())
          return true;
      }
      return false;
    }
    Parents = Ctx.getParents(N);
  }
  return false;
}

} // namespace autoprof
