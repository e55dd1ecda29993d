//===- RestrictReadonlyParams.cpp - const __restrict__ read-only params ---===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "RestrictReadonlyParams.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"

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

} // namespace

StringRef RestrictReadonlyParams::name() const {
  return "restrict-readonly-params";
}

StringRef RestrictReadonlyParams::description() const {
  return "declare pointer parameters that are never written through "
         "'const T *__restrict__'";
}

bool RestrictReadonlyParams::precondition(const KernelRecord &K) const {
  for (const KernelParam &P : K.Params)
    if (P.Pointer && !(P.Const && P.Restrict))
      return true;
  return false;
}

std::vector<std::string> RestrictReadonlyParams::triggerMetrics() const {
  return {"gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
          "l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct"};
}

std::optional<std::string>
RestrictReadonlyParams::trigger(const MetricValues &M) const {
  if (auto R = compareMetric(
          M, "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed",
          ">=", 40))
    return R;
  if (auto R = compareMetric(M, "l1tex__t_sector_hit_rate.pct", "<", 50))
    return R;
  return compareMetric(M, "lts__t_sector_hit_rate.pct", "<", 50);
}

Error RestrictReadonlyParams::apply(ASTContext &Ctx, const FunctionDecl &Kernel,
                                    tooling::Replacements &Out) const {
  if (Kernel.getPreviousDecl() || Kernel.getMostRecentDecl() != &Kernel ||
      !Kernel.getBody())
    return Error::success();
  const SourceManager &SM = Ctx.getSourceManager();
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
    bool HasConst = Pointee.isConstQualified();
    bool HasRestrict = T.isRestrictQualified();
    if (HasConst && HasRestrict)
      continue;
    auto It = Refs.Refs.find(P);
    if (It == Refs.Refs.end())
      continue; // unused: nothing to gain
    bool ReadOnly = true;
    for (const DeclRefExpr *DR : It->second)
      ReadOnly &= pointerIsReadOnly(Ctx, DR);
    if (!ReadOnly)
      continue;
    TypeSourceInfo *TSI = P->getTypeSourceInfo();
    if (!TSI)
      continue;
    TypeLoc TL = TSI->getTypeLoc();
    while (auto QTL = TL.getAs<QualifiedTypeLoc>())
      TL = QTL.getUnqualifiedLoc();
    auto PTL = TL.getAs<PointerTypeLoc>();
    if (!PTL)
      continue;
    SourceLocation PointeeBegin = PTL.getPointeeLoc().getBeginLoc();
    SourceLocation NameLoc = P->getLocation();
    if (!inFile(SM, PointeeBegin) || !inFile(SM, NameLoc))
      continue;
    if (!HasConst)
      if (Error E =
              Out.add(tooling::Replacement(SM, PointeeBegin, 0, "const ")))
        return E;
    if (!HasRestrict)
      if (Error E =
              Out.add(tooling::Replacement(SM, NameLoc, 0, "__restrict__ ")))
        return E;
  }
  return Error::success();
}
