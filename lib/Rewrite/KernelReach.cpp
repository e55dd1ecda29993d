//===- KernelReach.cpp - What a kernel reaches outside itself -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/KernelReach.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace autoprof;

namespace {

/// Whether the reference \p DR may change its variable: anything but a read
/// of its value, of an element or of a member of it.
bool mayWrite(ASTContext &Ctx, const DeclRefExpr *DR) {
  const Expr *E = DR;
  for (unsigned Depth = 0; Depth < 64; ++Depth) {
    auto Parents = Ctx.getParents(*E);
    if (Parents.size() != 1)
      return true;
    const auto *P = Parents[0].get<Expr>();
    if (!P)
      return true;
    if (isa<ParenExpr>(P)) {
      E = P;
      continue;
    }
    if (const auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
      if (IC->getCastKind() == CK_LValueToRValue)
        return false;
      if (IC->getCastKind() == CK_NoOp) {
        E = P;
        continue;
      }
      if (IC->getCastKind() != CK_ArrayToPointerDecay)
        return true;
      // An array decays only to be subscripted here: `A[i]` is an element.
      auto Up = Ctx.getParents(*IC);
      const auto *AS =
          Up.size() == 1 ? Up[0].get<ArraySubscriptExpr>() : nullptr;
      if (!AS || AS->getBase() != IC)
        return true;
      E = AS;
      continue;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(P);
        ME && !ME->isArrow() && ME->getBase() == E) {
      E = P;
      continue;
    }
    return true;
  }
  return true;
}

bool inSystemHeader(const SourceManager &SM, SourceLocation L) {
  return L.isValid() && SM.isInSystemHeader(SM.getExpansionLoc(L));
}

class ReachVisitor : public RecursiveASTVisitor<ReachVisitor> {
public:
  ReachVisitor(ASTContext &Ctx, KernelReach &R) : Ctx(Ctx), R(R) {}

  bool shouldVisitTemplateInstantiations() const { return false; }

  /// Visits \p FD's body once, then the bodies of the functions it calls.
  void visitFunction(const FunctionDecl *FD) {
    const FunctionDecl *Def = nullptr;
    if (!FD->hasBody(Def) || !Def || !Seen.insert(Def).second)
      return;
    TraverseDecl(const_cast<FunctionDecl *>(Def));
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    if (!V || V->hasAttr<CUDASharedAttr>())
      return true;
    if (V->isStaticLocal()) {
      if (!V->getType().isConstQualified())
        addStatic(V);
      return true;
    }
    if (!V->hasGlobalStorage() && !V->isLocalExternDecl())
      return true;
    // threadIdx and the other builtins are variables of the CUDA headers.
    if (inSystemHeader(Ctx.getSourceManager(), V->getLocation()))
      return true;
    std::string Name = V->getQualifiedNameAsString();
    bool Const = V->getType().isConstQualified() || V->isConstexpr();
    bool &W = R.Globals[Name];
    W = W || (!Const && mayWrite(Ctx, DR));
    if (Const)
      R.ConstGlobals.insert(Name);
    return true;
  }

  bool VisitVarDecl(VarDecl *V) {
    if (V->isStaticLocal() && !V->hasAttr<CUDASharedAttr>() &&
        !V->getType().isConstQualified() && !V->isConstexpr())
      addStatic(V);
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    if (const auto *K = dyn_cast<CUDAKernelCallExpr>(CE))
      if (const FunctionDecl *FD = K->getDirectCallee()) {
        R.Opaque.insert("launches the kernel `" +
                        FD->getQualifiedNameAsString() + "`");
        return true;
      }
    const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
    if (const auto *UL = dyn_cast<UnresolvedLookupExpr>(Callee)) {
      // A dependent call in a template: every candidate is followed.
      for (const NamedDecl *D : UL->decls())
        follow(D->getAsFunction(), UL->getName().getAsString());
      return true;
    }
    if (isa<CXXDependentScopeMemberExpr, UnresolvedMemberExpr>(Callee) ||
        CE->isTypeDependent())
      return true;
    if (const FunctionDecl *FD = CE->getDirectCallee()) {
      follow(FD, FD->getQualifiedNameAsString());
      return true;
    }
    if (!isa<CXXPseudoDestructorExpr>(Callee))
      R.Opaque.insert("calls a function through a pointer");
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *) {
    R.Opaque.insert("has inline assembly");
    return true;
  }
  bool VisitMSAsmStmt(MSAsmStmt *) {
    R.Opaque.insert("has inline assembly");
    return true;
  }

  /// Functions to visit after the current one.
  std::vector<const FunctionDecl *> Pending;

private:
  void addStatic(const VarDecl *V) {
    std::string Name = V->getQualifiedNameAsString();
    if (std::find(R.StaticLocals.begin(), R.StaticLocals.end(), Name) ==
        R.StaticLocals.end())
      R.StaticLocals.push_back(Name);
  }

  void follow(const FunctionDecl *FD, const std::string &Name) {
    if (!FD)
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    if (FD->getBuiltinID() || inSystemHeader(SM, FD->getLocation()))
      return;
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern())
      FD = P;
    if (!FD->isDefined()) {
      R.Opaque.insert("calls `" + Name + "`, whose definition is not visible");
      return;
    }
    Pending.push_back(FD);
  }

  ASTContext &Ctx;
  KernelReach &R;
  llvm::SmallPtrSet<const FunctionDecl *, 16> Seen;
};

std::string kindOf(const Decl *D) {
  if (isa<FunctionDecl, FunctionTemplateDecl>(D))
    return "the function";
  if (isa<VarDecl>(D))
    return "the variable";
  if (isa<TagDecl, ClassTemplateDecl>(D))
    return "the type";
  if (isa<NamespaceDecl>(D))
    return "the namespace";
  return "a declaration";
}

const FunctionDecl *kernelOf(const Decl *D) {
  const FunctionDecl *FD = D->getAsFunction();
  return FD && FD->hasAttr<CUDAGlobalAttr>() &&
                 FD->doesThisDeclarationHaveABody()
             ? FD
             : nullptr;
}

/// The declarations of \p DC (and of the namespaces and linkage blocks in
/// it) that begin in [Begin, End) of \p FID.
void declsInRange(const SourceManager &SM, const DeclContext *DC, FileID FID,
                  unsigned Begin, unsigned End,
                  std::vector<const Decl *> &Out) {
  for (const Decl *D : DC->decls()) {
    if (D->isImplicit())
      continue;
    auto [F, Off] = SM.getDecomposedExpansionLoc(D->getBeginLoc());
    bool In = F == FID && Off >= Begin && Off < End;
    if (In) {
      Out.push_back(D);
      continue;
    }
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
      declsInRange(SM, cast<DeclContext>(D), FID, Begin, End, Out);
  }
}

/// Fills \p R with what \p Kernel and the functions it calls reach.
void reachFrom(ASTContext &Ctx, const FunctionDecl *Kernel, KernelReach &R) {
  ReachVisitor V(Ctx, R);
  V.Pending.push_back(Kernel);
  while (!V.Pending.empty()) {
    const FunctionDecl *FD = V.Pending.back();
    V.Pending.pop_back();
    V.visitFunction(FD);
  }
}

/// The definition of the kernel named \p Name in \p DC or the namespaces
/// in it, or null.
const FunctionDecl *findKernel(const DeclContext *DC, llvm::StringRef Name) {
  for (const Decl *D : DC->decls()) {
    if (const FunctionDecl *FD = kernelOf(D))
      if (FD->getQualifiedNameAsString() == Name)
        return FD;
    if (isa<NamespaceDecl, LinkageSpecDecl, ExportDecl>(D))
      if (const FunctionDecl *FD = findKernel(cast<DeclContext>(D), Name))
        return FD;
  }
  return nullptr;
}

} // namespace

std::optional<KernelReach> autoprof::kernelReach(ASTContext &Ctx,
                                                 llvm::StringRef File,
                                                 unsigned Begin, unsigned End) {
  const SourceManager &SM = Ctx.getSourceManager();
  auto FE = SM.getFileManager().getOptionalFileRef(File);
  if (!FE)
    return std::nullopt;
  FileID FID = SM.translateFile(*FE);
  if (FID.isInvalid())
    return std::nullopt;
  std::vector<const Decl *> Decls;
  declsInRange(SM, Ctx.getTranslationUnitDecl(), FID, Begin, End, Decls);
  KernelReach R;
  const FunctionDecl *Kernel = nullptr;
  for (const Decl *D : Decls) {
    if (!Kernel && (Kernel = kernelOf(D)))
      continue;
    const auto *ND = dyn_cast<NamedDecl>(D);
    std::string Name = ND ? ND->getQualifiedNameAsString() : "";
    R.OtherDecls.push_back(Name.empty() ? kindOf(D)
                                        : kindOf(D) + " `" + Name + "`");
  }
  if (!Kernel)
    return std::nullopt;
  reachFrom(Ctx, Kernel, R);
  return R;
}

std::optional<KernelReach>
autoprof::kernelReachByName(ASTContext &Ctx, llvm::StringRef QualifiedName) {
  const FunctionDecl *Kernel =
      findKernel(Ctx.getTranslationUnitDecl(), QualifiedName);
  if (!Kernel)
    return std::nullopt;
  KernelReach R;
  reachFrom(Ctx, Kernel, R);
  return R;
}

std::optional<std::string> autoprof::reachProblem(const KernelReach &Before,
                                                  const KernelReach &After,
                                                  llvm::StringRef Who) {
  if (!After.OtherDecls.empty())
    return "the reply declares " + After.OtherDecls.front() +
           " besides the kernel; the contract allows only the kernel's "
           "definition";
  for (const std::string &S : After.StaticLocals)
    if (std::find(Before.StaticLocals.begin(), Before.StaticLocals.end(), S) ==
        Before.StaticLocals.end())
      return Who.str() + " declares the static variable `" + S +
             "`, state kept across launches";
  for (const auto &[Name, Writes] : After.Globals) {
    auto It = Before.Globals.find(Name);
    if (It == Before.Globals.end()) {
      if (After.ConstGlobals.count(Name))
        continue;
      return Who.str() + " uses `" + Name +
             "`, a variable outside it that the original does not use";
    }
    if (Writes && !It->second)
      return Who.str() + " may write `" + Name +
             "`, which the original only reads";
  }
  for (const std::string &O : After.Opaque)
    if (!Before.Opaque.count(O))
      return Who.str() + " " + O + ", which the original does not";
  return std::nullopt;
}
