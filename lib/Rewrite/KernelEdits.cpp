//===- KernelEdits.cpp - Edits shared by transformations and checks -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/KernelEdits.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <map>

using namespace clang;
using namespace autoprof;
using llvm::Error;

namespace {

/// Collects the references to the kernel's parameters.
class ParamRefs : public RecursiveASTVisitor<ParamRefs> {
public:
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
      Refs[P].push_back(DR);
    return true;
  }
  std::map<const ParmVarDecl *, std::vector<const DeclRefExpr *>> Refs;
};

const Expr *parentExpr(ASTContext &Ctx, const Expr *E) {
  auto Parents = Ctx.getParents(*E);
  if (Parents.size() != 1)
    return nullptr;
  return Parents[0].get<Expr>();
}

/// Whether the lvalue \p E (an element reached through the pointer) is only
/// read.
bool elementIsRead(ASTContext &Ctx, const Expr *E, unsigned Depth = 0) {
  const Expr *P = parentExpr(Ctx, E);
  if (!P || Depth > 8)
    return false;
  if (isa<ParenExpr>(P))
    return elementIsRead(Ctx, P, Depth + 1);
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
    return IC->getCastKind() == CK_LValueToRValue;
  if (const auto *ME = dyn_cast<MemberExpr>(P))
    return !ME->isArrow() && elementIsRead(Ctx, P, Depth + 1);
  return false;
}

/// Whether the pointer value \p E (derived from the parameter) is only used
/// to read.
bool pointerIsReadOnly(ASTContext &Ctx, const Expr *E, unsigned Depth = 0) {
  const Expr *P = parentExpr(Ctx, E);
  if (!P || Depth > 8)
    return false;
  if (isa<ParenExpr>(P))
    return pointerIsReadOnly(Ctx, P, Depth + 1);
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
    if (IC->getCastKind() == CK_LValueToRValue || IC->getCastKind() == CK_NoOp)
      return pointerIsReadOnly(Ctx, P, Depth + 1);
    return false;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(P))
    return AS->getBase()->IgnoreParenImpCasts() == E->IgnoreParenImpCasts() &&
           elementIsRead(Ctx, P);
  if (const auto *UO = dyn_cast<UnaryOperator>(P))
    return UO->getOpcode() == UO_Deref && elementIsRead(Ctx, P);
  if (const auto *BO = dyn_cast<BinaryOperator>(P)) {
    if (BO->isComparisonOp())
      return true;
    if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) &&
        BO->getType()->isPointerType())
      return pointerIsReadOnly(Ctx, P, Depth + 1);
    return false;
  }
  if (const auto *CE = dyn_cast<CallExpr>(P)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return false;
    for (unsigned I = 0; I < CE->getNumArgs() && I < FD->getNumParams(); ++I)
      if (CE->getArg(I)->IgnoreParenImpCasts() == E->IgnoreParenImpCasts()) {
        QualType T = FD->getParamDecl(I)->getType();
        if (!T->isPointerType() || !T->getPointeeType().isConstQualified())
          return false;
      }
    return true;
  }
  return false;
}

bool inFile(const SourceManager &SM, SourceLocation L) {
  return L.isValid() && L.isFileID() && !SM.isInSystemHeader(L);
}

class SharedArrays : public RecursiveASTVisitor<SharedArrays> {
public:
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>() && !V->hasExternalStorage())
      Decls.push_back(V);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      Refs[V].push_back(DR);
    return true;
  }
  std::vector<const VarDecl *> Decls;
  std::map<const VarDecl *, std::vector<const DeclRefExpr *>> Refs;
};

const Stmt *parentThroughCasts(ASTContext &Ctx, const Stmt *S) {
  while (true) {
    auto Parents = Ctx.getParents(*S);
    if (Parents.size() != 1)
      return nullptr;
    const Stmt *P = Parents[0].get<Stmt>();
    if (!P)
      return nullptr;
    if (!isa<ImplicitCastExpr>(P) && !isa<ParenExpr>(P))
      return P;
    S = P;
  }
}

/// Whether the element \p E is loaded, stored or updated, and its address
/// not taken.
bool isElementUse(ASTContext &Ctx, const Expr *E) {
  while (true) {
    auto Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return false;
    const Expr *P = Parents[0].get<Expr>();
    if (!P)
      return false;
    if (isa<ParenExpr>(P)) {
      E = P;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P))
      return IC->getCastKind() == CK_LValueToRValue;
    if (const auto *BO = dyn_cast<BinaryOperator>(P))
      return BO->isAssignmentOp() && BO->getLHS() == E;
    if (const auto *UO = dyn_cast<UnaryOperator>(P))
      return UO->isIncrementDecrementOp();
    return false;
  }
}

/// Whether \p DR is the array of a two-level subscript `a[i][j]` whose
/// element is used as a value.
bool isDoubleSubscript(ASTContext &Ctx, const DeclRefExpr *DR) {
  const auto *Inner =
      dyn_cast_or_null<ArraySubscriptExpr>(parentThroughCasts(Ctx, DR));
  if (!Inner || Inner->getBase()->IgnoreParenImpCasts() != DR)
    return false;
  const auto *Outer =
      dyn_cast_or_null<ArraySubscriptExpr>(parentThroughCasts(Ctx, Inner));
  return Outer && Outer->getBase()->IgnoreParenImpCasts() == Inner &&
         isElementUse(Ctx, Outer);
}

} // namespace

std::vector<const ParmVarDecl *>
autoprof::readOnlyPointerParams(ASTContext &Ctx, const FunctionDecl &Kernel) {
  std::vector<const ParmVarDecl *> Result;
  if (Kernel.getPreviousDecl() || Kernel.getMostRecentDecl() != &Kernel ||
      !Kernel.getBody())
    return Result;
  ParamRefs Refs;
  Refs.TraverseStmt(Kernel.getBody());
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (!T->isPointerType() || P->getName().empty())
      continue;
    QualType Pointee = T->getPointeeType();
    if (Pointee->isPointerType() || Pointee->isFunctionType() ||
        Pointee->isVoidType() || Pointee.isVolatileQualified())
      continue;
    if (Pointee.isConstQualified() && T.isRestrictQualified())
      continue;
    auto It = Refs.Refs.find(P);
    if (It == Refs.Refs.end())
      continue; // unused: nothing to gain
    bool ReadOnly = true;
    for (const DeclRefExpr *DR : It->second)
      ReadOnly &= pointerIsReadOnly(Ctx, DR);
    if (ReadOnly)
      Result.push_back(P);
  }
  return Result;
}

Error autoprof::addConstRestrict(ASTContext &Ctx, const ParmVarDecl &P,
                                 tooling::Replacements &Out) {
  const SourceManager &SM = Ctx.getSourceManager();
  QualType T = P.getType();
  TypeSourceInfo *TSI = P.getTypeSourceInfo();
  if (!TSI || !T->isPointerType())
    return Error::success();
  TypeLoc TL = TSI->getTypeLoc();
  while (auto QTL = TL.getAs<QualifiedTypeLoc>())
    TL = QTL.getUnqualifiedLoc();
  auto PTL = TL.getAs<PointerTypeLoc>();
  if (!PTL)
    return Error::success();
  SourceLocation PointeeBegin = PTL.getPointeeLoc().getBeginLoc();
  SourceLocation NameLoc = P.getLocation();
  if (!inFile(SM, PointeeBegin) || !inFile(SM, NameLoc))
    return Error::success();
  if (!T->getPointeeType().isConstQualified())
    if (Error E = Out.add(tooling::Replacement(SM, PointeeBegin, 0, "const ")))
      return E;
  if (!T.isRestrictQualified())
    if (Error E =
            Out.add(tooling::Replacement(SM, NameLoc, 0, "__restrict__ ")))
      return E;
  return Error::success();
}

std::vector<const VarDecl *>
autoprof::sharedArrays(const FunctionDecl &Kernel) {
  if (!Kernel.getBody())
    return {};
  SharedArrays A;
  A.TraverseStmt(Kernel.getBody());
  return A.Decls;
}

llvm::Expected<bool> autoprof::padSharedTile(ASTContext &Ctx,
                                             const FunctionDecl &Kernel,
                                             const VarDecl &V,
                                             tooling::Replacements &Out) {
  if (!Kernel.getBody() || !V.hasAttr<CUDASharedAttr>() ||
      V.hasExternalStorage())
    return false;
  const SourceManager &SM = Ctx.getSourceManager();
  const LangOptions &LO = Ctx.getLangOpts();
  const auto *Outer = Ctx.getAsConstantArrayType(V.getType());
  if (!Outer)
    return false;
  const auto *Inner = Ctx.getAsConstantArrayType(Outer->getElementType());
  if (!Inner || Inner->getElementType()->isArrayType() ||
      Inner->getElementType()->isDependentType() ||
      Ctx.getTypeSizeInChars(Inner->getElementType()).getQuantity() != 4)
    return false;
  uint64_t M = Inner->getSize().getZExtValue();
  if (M == 0 || M % 32 != 0)
    return false;
  SharedArrays A;
  A.TraverseStmt(Kernel.getBody());
  for (const DeclRefExpr *DR : A.Refs[&V])
    if (!isDoubleSubscript(Ctx, DR))
      return false;
  TypeSourceInfo *TSI = V.getTypeSourceInfo();
  if (!TSI)
    return false;
  auto OuterTL = TSI->getTypeLoc().getAs<ConstantArrayTypeLoc>();
  if (!OuterTL)
    return false;
  auto InnerTL = OuterTL.getElementLoc().getAs<ConstantArrayTypeLoc>();
  if (!InnerTL || !InnerTL.getSizeExpr())
    return false;
  const Expr *Size = InnerTL.getSizeExpr();
  CharSourceRange Range = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Size->getSourceRange()), SM, LO);
  if (Range.isInvalid())
    return false;
  std::string NewText;
  const auto *Lit = dyn_cast<IntegerLiteral>(Size->IgnoreParenImpCasts());
  if (Lit && Size->getBeginLoc().isFileID())
    NewText = std::to_string(M + 1);
  else
    NewText = Lexer::getSourceText(Range, SM, LO).str() + " + 1";
  if (Error E = Out.add(tooling::Replacement(SM, Range, NewText, LO)))
    return std::move(E);
  return true;
}
