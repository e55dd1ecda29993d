//===- KernelModel.cpp - One model of a kernel for every question ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

#include <functional>

using namespace clang;
using namespace autoprof;

static bool fieldsOnlyRead(ASTContext &Ctx, const FunctionDecl &K,
                           const ParmVarDecl &P);

/// Whether \p P is a struct parameter of the kernel \p K whose fields \p K
/// only reads: each field is fixed for the launch.
static bool fixedRecord(ASTContext &Ctx, const FunctionDecl &K,
                        const ParmVarDecl *P) {
  return P && P->getType()->isRecordType() &&
         cast<Decl>(P->getDeclContext())->getCanonicalDecl() ==
             K.getCanonicalDecl() &&
         fieldsOnlyRead(Ctx, K, *P);
}

/// The parameter that \p E names, through parentheses, casts and copies.
static const ParmVarDecl *argumentParam(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
      Copy && Copy->getNumArgs() == 1 &&
      Copy->getConstructor()->isCopyOrMoveConstructor())
    E = Copy->getArg(0)->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
}

QualType ModelArray::type() const {
  return Field ? Field->getType() : Var->getType();
}

bool ModelArray::isRestrict() const { return type().isRestrictQualified(); }

std::string ModelArray::name() const {
  std::string N = Var ? Var->getNameAsString() : "";
  return Field ? N + "." + Field->getNameAsString() : N;
}

namespace {

/// Deeper chains of locals and operators are not followed.
constexpr unsigned MaxDepth = 128;

/// The builtin `threadIdx.x` ... read by \p E (a PseudoObjectExpr or an
/// MSPropertyRefExpr), or nullopt.
std::optional<Symbol> builtinSymbol(const Expr *E) {
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *P = dyn_cast<MSPropertyRefExpr>(E);
  if (!P)
    return std::nullopt;
  const Expr *Base = P->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(Base);
  std::string F = P->getPropertyDecl()->getNameAsString();
  if (!DR || F.size() != 1 || F[0] < 'x' || F[0] > 'z')
    return std::nullopt;
  unsigned Dim = F[0] - 'x';
  StringRef V = DR->getDecl()->getName();
  if (V == "threadIdx")
    return Symbol::threadIdx(Dim);
  if (V == "blockIdx")
    return Symbol::blockIdx(Dim);
  if (V == "blockDim")
    return Symbol::blockDim(Dim);
  if (V == "gridDim")
    return Symbol::gridDim(Dim);
  return std::nullopt;
}

/// The one parent of \p S, or null.
const Stmt *parentOf(ASTContext &Ctx, const Stmt *S) {
  auto Parents = Ctx.getParents(*S);
  return Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
}

/// Whether \p E, through parentheses and casts, refers to \p V.
bool refersTo(const Expr *E, const VarDecl *V) {
  E = E->IgnoreParenCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  return DR && DR->getDecl() == V;
}

/// Whether every reference to \p V inside \p S only reads it.
bool onlyReadIn(ASTContext &Ctx, const VarDecl *V, const Stmt *S) {
  if (!S)
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S)) {
    if (DR->getDecl() != V)
      return true;
    const Stmt *C = DR;
    while (const Stmt *P = parentOf(Ctx, C)) {
      // A choice of two lvalues (`v < lo ? lo : v`) is one, read or
      // written as its parent does; so is a member of a struct (`p.gain`).
      const auto *Choice = dyn_cast<ConditionalOperator>(P);
      const auto *Member = dyn_cast<MemberExpr>(P);
      if (isa<ParenExpr>(P) || (Choice && Choice->getCond() != C) ||
          (Member && !Member->isArrow())) {
        C = P;
        continue;
      }
      const auto *IC = dyn_cast<ImplicitCastExpr>(P);
      return IC && IC->getCastKind() == CK_LValueToRValue;
    }
    return false;
  }
  for (const Stmt *C : S->children())
    if (!onlyReadIn(Ctx, V, C))
      return false;
  return true;
}

/// Whether \p Addr, `&X`, is the argument of a load intrinsic
/// (`__ldg(&X)`, `__ldcs(&X)`, ...), which only reads X.
bool isLoadThrough(ASTContext &Ctx, const UnaryOperator *Addr) {
  const Stmt *C = Addr;
  const Stmt *P = parentOf(Ctx, C);
  while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P))) {
    C = P;
    P = parentOf(Ctx, C);
  }
  const auto *Call = dyn_cast_or_null<CallExpr>(P);
  const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 1 ||
      Call->getArg(0) != C)
    return false;
  return isLoadIntrinsic(FD->getName());
}

/// The math functions that read only their arguments.
bool isPureMath(StringRef Name) {
  static constexpr StringRef Names[] = {
      "expf",    "exp",        "__expf", "exp2f", "exp2",      "logf",
      "log",     "__logf",     "log2f",  "log2",  "sqrtf",     "sqrt",
      "rsqrtf",  "rsqrt",      "fabsf",  "fabs",  "fmaxf",     "fmax",
      "fminf",   "fmin",       "max",    "min",   "tanhf",     "tanh",
      "erff",    "erf",        "fmaf",   "fma",   "powf",      "pow",
      "__powf",  "__fdividef", "abs",    "__ldg", "__fmaf_rn", "__fma_rn",
      "__mul24", "__umul24"};
  return llvm::is_contained(Names, Name);
}

bool isPure(const ASTContext &Ctx, const Stmt *S, unsigned Depth = 0);
const Expr *helperReturnAt(const ASTContext &Ctx, const FunctionDecl *FD,
                           unsigned Depth);

/// Calls into helpers are followed this deep.
constexpr unsigned MaxHelperDepth = 8;

const ArraySubscriptExpr *loadHelperAt(const ASTContext &Ctx,
                                       const FunctionDecl *FD, unsigned Depth);

/// Whether \p S reads or writes memory: a subscript, a dereference, a
/// member through a pointer, `this`, a call of a load helper.
bool touchesMemory(const ASTContext &Ctx, const Stmt *S, unsigned Depth = 0) {
  if (!S)
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S);
      CE && loadHelperAt(Ctx, CE->getDirectCallee(), Depth + 1))
    return true;
  if (isa<ArraySubscriptExpr, CXXThisExpr>(S))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
    return true;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && builtinSymbol(E))
    return false;
  for (const Stmt *C : S->children())
    if (touchesMemory(Ctx, C, Depth))
      return true;
  return false;
}

/// The definition of \p FD when calls of it may be followed: a function
/// (not a kernel, not a non-static member) with a body outside system
/// headers, returning by value, with no volatile parameter; else null.
const FunctionDecl *followedDefinition(const ASTContext &Ctx,
                                       const FunctionDecl *FD, unsigned Depth) {
  if (!FD || Depth > MaxHelperDepth || FD->isVariadic() ||
      FD->hasAttr<CUDAGlobalAttr>() || FD->getReturnType()->isReferenceType() ||
      FD->getReturnType()->isVoidType())
    return nullptr;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic())
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return nullptr;
  const SourceManager &SM = Ctx.getSourceManager();
  if (SM.isInSystemHeader(SM.getFileLoc(Def->getLocation())))
    return nullptr;
  for (const ParmVarDecl *P : Def->parameters())
    if (P->getType().getNonReferenceType().isVolatileQualified())
      return nullptr;
  return Def;
}

/// The expression of the one `return` that is the body of \p Def, or null.
const Expr *onlyReturn(const FunctionDecl *Def) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 1)
    return nullptr;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
  return Ret ? Ret->getRetValue() : nullptr;
}

} // namespace

std::pair<const ParmVarDecl *, const FieldDecl *>
autoprof::loadHelperPointer(const ArraySubscriptExpr *AS) {
  const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
  const auto *ME = dyn_cast<MemberExpr>(Base);
  const auto *F =
      ME && !ME->isArrow() ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (ME && !F)
    return {nullptr, nullptr};
  const auto *DR =
      dyn_cast<DeclRefExpr>(F ? ME->getBase()->IgnoreParenImpCasts() : Base);
  return {DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr, F};
}

namespace {

const ArraySubscriptExpr *loadHelperAt(const ASTContext &Ctx,
                                       const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = followedDefinition(Ctx, FD, Depth);
  const Expr *E = Def ? onlyReturn(Def) : nullptr;
  if (!E)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  // `__ldg(&P[I])` reads the element as `P[I]` does.
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *L = Call->getDirectCallee();
    const auto *Addr =
        Call->getNumArgs() == 1
            ? dyn_cast<UnaryOperator>(Call->getArg(0)->IgnoreParenImpCasts())
            : nullptr;
    if (!L || !L->getIdentifier() || !isLoadIntrinsic(L->getName()) || !Addr ||
        Addr->getOpcode() != UO_AddrOf)
      return nullptr;
    E = Addr->getSubExpr()->IgnoreParens();
  }
  const auto *AS = dyn_cast<ArraySubscriptExpr>(E);
  if (!AS || AS->getType().isVolatileQualified())
    return nullptr;
  // The pointer: a parameter, or a pointer field of a struct parameter.
  auto [P, F] = loadHelperPointer(AS);
  if (!P || P->getDeclContext() != Def ||
      !(F ? F->getType()->isPointerType() &&
                P->getType().getNonReferenceType()->isRecordType()
          : P->getType()->isPointerType()) ||
      !AS->getIdx()->getType()->isIntegerType() ||
      touchesMemory(Ctx, AS->getIdx(), Depth + 1) ||
      !isPure(Ctx, AS->getIdx(), Depth + 1))
    return nullptr;
  return AS;
}

/// The expression that \p FD returns when it is a transparent helper (see
/// autoprof::helperReturn()); \p Depth counts the helpers being followed.
const Expr *helperReturnAt(const ASTContext &Ctx, const FunctionDecl *FD,
                           unsigned Depth) {
  // A parameter by reference is read like one by value: the body writes
  // nothing (isPure()).
  const FunctionDecl *Def = followedDefinition(Ctx, FD, Depth);
  const Expr *E = Def ? onlyReturn(Def) : nullptr;
  if (!E || touchesMemory(Ctx, E, Depth) || !isPure(Ctx, E, Depth + 1))
    return nullptr;
  return E;
}

/// Whether \p S, a transparent helper's body or an expression, reads
/// threadIdx, blockIdx, blockDim or gridDim, itself or through the
/// transparent helpers it calls.
bool readsBuiltins(const ASTContext &Ctx, const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > MaxHelperDepth)
    return false;
  if (const auto *E = dyn_cast<Expr>(S); E && builtinSymbol(E))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (const Expr *R = helperReturnAt(Ctx, CE->getDirectCallee(), Depth);
        R && readsBuiltins(Ctx, R, Depth + 1))
      return true;
  if (isa<PseudoObjectExpr>(S))
    return false;
  for (const Stmt *C : S->children())
    if (readsBuiltins(Ctx, C, Depth))
      return true;
  return false;
}

/// Whether \p E is a call to a transparent helper that reads the thread
/// hierarchy.
bool isBuiltinHelperCall(const ASTContext &Ctx, const Expr *E) {
  const auto *CE = dyn_cast<CallExpr>(E);
  if (!CE)
    return false;
  const Expr *R = helperReturnAt(Ctx, CE->getDirectCallee(), 0);
  return R && readsBuiltins(Ctx, R, 1);
}

/// Whether \p AS is `&AS` that initializes a local pointer to const:
/// `const float *p = &A[i];`.
bool initializesReadOnlyPointer(ASTContext &Ctx, const ArraySubscriptExpr *AS) {
  DynTypedNode N = DynTypedNode::create(*AS);
  bool Address = false;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Ps = Ctx.getParents(N);
    if (Ps.size() != 1)
      return false;
    N = Ps[0];
    if (const auto *V = N.get<VarDecl>()) {
      QualType T = V->getType();
      return Address && V->isLocalVarDecl() && T->isPointerType() &&
             T->getPointeeType().isConstQualified();
    }
    const auto *U = N.get<UnaryOperator>();
    const auto *Cast = N.get<ImplicitCastExpr>();
    if (U && U->getOpcode() == UO_AddrOf && !Address)
      Address = true;
    else if (!N.get<ParenExpr>() &&
             !(Address && Cast && Cast->getCastKind() == CK_NoOp))
      return false;
  }
  return false;
}

bool isPure(const ASTContext &Ctx, const Stmt *S, unsigned Depth) {
  if (!S)
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && builtinSymbol(E))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return false;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->isIncrementDecrementOp())
    return false;
  if (const auto *E = dyn_cast<Expr>(S);
      E && E->getType().isVolatileQualified())
    return false;
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *F = C->getDirectCallee();
    unsigned ID = F ? F->getBuiltinID() : 0;
    bool Const = ID && Ctx.BuiltinInfo.isConst(ID);
    if (!F || !F->getIdentifier() ||
        (!Const && !isPureMath(F->getName()) &&
         !helperReturnAt(Ctx, F, Depth) && !loadHelperAt(Ctx, F, Depth)))
      return false;
  }
  // A struct passed by value to a helper is copied: trivially, it reads.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S);
      CE && CE->getConstructor()->isTrivial() &&
      CE->getConstructor()->isCopyOrMoveConstructor())
    return isPure(Ctx, CE->getArg(0), Depth);
  // `dim3(x, y)` only holds its arguments.
  if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
    const CXXRecordDecl *R = CE->getConstructor()->getParent();
    if (R->getName() == "dim3" && R->getDeclContext()->isTranslationUnit())
      return llvm::all_of(CE->arguments(),
                          [&](const Expr *A) { return isPure(Ctx, A, Depth); });
  }
  if (isa<CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, StmtExpr, LambdaExpr>(S))
    return false;
  for (const Stmt *C : S->children())
    if (!isPure(Ctx, C, Depth))
      return false;
  return true;
}

} // namespace

const Expr *autoprof::helperReturn(const ASTContext &Ctx,
                                   const FunctionDecl *FD) {
  return helperReturnAt(Ctx, FD, 0);
}

bool autoprof::isWordType(QualType T) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  if (!BT)
    return false;
  switch (BT->getKind()) {
  case BuiltinType::Int:
  case BuiltinType::UInt:
  case BuiltinType::Long:
  case BuiltinType::ULong:
  case BuiltinType::LongLong:
  case BuiltinType::ULongLong:
  case BuiltinType::Float:
  case BuiltinType::Double:
    return true;
  default:
    return false;
  }
}

bool autoprof::isOpaqueFunction(const ASTContext &Ctx, const FunctionDecl *FD) {
  const SourceManager &SM = Ctx.getSourceManager();
  return FD && (FD->isDefined() || FD->hasBody()) &&
         !SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())) &&
         !helperReturn(Ctx, FD) && !loadHelper(Ctx, FD);
}

const ArraySubscriptExpr *autoprof::loadHelper(const ASTContext &Ctx,
                                               const FunctionDecl *FD) {
  return loadHelperAt(Ctx, FD, 0);
}

bool autoprof::isHelperArgument(ASTContext &Ctx, const Expr *E) {
  const Stmt *S = E;
  for (unsigned Depth = 0; Depth < MaxDepth; ++Depth) {
    auto Parents = Ctx.getParents(*S);
    const Stmt *P = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
    if (!P)
      return false;
    const auto *Cast = dyn_cast<ImplicitCastExpr>(P);
    const auto *Copy = dyn_cast<CXXConstructExpr>(P);
    if (isa<ParenExpr>(P) || (Cast && Cast->getCastKind() == CK_NoOp) ||
        (Copy && Copy->getNumArgs() == 1 &&
         Copy->getConstructor()->isCopyOrMoveConstructor())) {
      S = P;
      continue;
    }
    const auto *Call = dyn_cast<CallExpr>(P);
    return Call && !isa<CUDAKernelCallExpr>(Call) && S != Call->getCallee() &&
           (helperReturn(Ctx, Call->getDirectCallee()) ||
            loadHelper(Ctx, Call->getDirectCallee()));
  }
  return false;
}

namespace {

const char *const SyncNames[] = {"__syncthreads", "__syncwarp",   "__shfl",
                                 "__ballot",      "__any",        "__all",
                                 "__activemask",  "__match",      "__reduce",
                                 "atomic",        "__threadfence"};

} // namespace

/// Builds the parts of a KernelModel in order: loops (their variables
/// first, so that values inside loops can name them), the guard, accesses,
/// reductions, launches.
class KernelModel::Builder : public RecursiveASTVisitor<Builder> {
public:
  explicit Builder(KernelModel &M) : M(M), Ctx(M.Ctx) {}

  bool shouldVisitImplicitCode() const { return false; }

  bool VisitForStmt(ForStmt *F) { return addLoop(F, ""); }
  bool VisitWhileStmt(WhileStmt *W) { return addLoop(W, ""); }
  bool VisitDoStmt(DoStmt *D) { return addLoop(D, notCounted(D)); }

  /// Records the loop \p S; a `for` is described later (describeLoop()).
  bool addLoop(const Stmt *S, std::string Why) {
    ModelLoop L;
    L.S = S;
    L.Why = std::move(Why);
    M.LoopOfStmt[S] = M.Loops.size();
    M.Loops.push_back(L);
    return true;
  }
  std::string notCounted(const Stmt *S) const {
    return "the loop at " + M.where(S) +
           " is not a counted `for` or `while` loop";
  }
  bool VisitVarDecl(VarDecl *V) {
    if (V->hasAttr<CUDASharedAttr>())
      cooperates("it declares the __shared__ variable `" +
                 V->getNameAsString() + "`");
    else if (V->isStaticLocal())
      cooperates("it declares the static variable `" + V->getNameAsString() +
                 "`");
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    if (isa<CUDAKernelCallExpr>(CE)) {
      cooperates("it launches a kernel");
      return true;
    }
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD) {
      if (!isa<CXXOperatorCallExpr>(CE))
        cooperates("it calls a function through a pointer");
      return true;
    }
    if (helperReturnAt(Ctx, FD, 0)) {
      if (isBuiltinHelperCall(Ctx, CE))
        M.BuiltinUses.push_back(CE);
      return true;
    }
    // A load helper reads one element, an access of the kernel.
    if (loadHelperAt(Ctx, FD, 0))
      return true;
    std::string Name = FD->getNameAsString();
    for (const char *S : SyncNames)
      if (StringRef(Name).starts_with(S)) {
        cooperates("it calls `" + Name + "`",
                   /*Atomic=*/StringRef(Name).starts_with("atomic"));
        return true;
      }
    if (isOpaqueFunction(Ctx, FD))
      cooperates("it calls `" + Name + "`, whose body the model does not read");
    return true;
  }
  bool VisitAsmStmt(AsmStmt *) {
    cooperates("it holds inline assembly");
    return true;
  }
  bool VisitPseudoObjectExpr(PseudoObjectExpr *PO) {
    if (builtinSymbol(PO))
      M.BuiltinUses.push_back(PO);
    return true;
  }
  void cooperates(std::string Why, bool Atomic = false) {
    if (!Atomic && M.NonAtomicWhy.empty())
      M.NonAtomicWhy = Why;
    if (M.CooperationWhy.empty())
      M.CooperationWhy = std::move(Why);
  }

  void build();

private:
  void describeLoop(ModelLoop &L);
  void buildGuard(const Stmt *Body);
  void addBounds(const Expr *Cond, bool Negate);
  /// Whether \p E, read where the guard statement GuardAt starts, has one
  /// value for every thread of a launch (GuardCondition).
  bool isLaunchUniform(const Expr *E, unsigned Depth = 0) const;
  void collectAccesses(const Stmt *S);
  /// Sets whether \p A, a subscript or dereference, reads or writes, from
  /// the expression around it.
  void setDirection(ModelAccess &A);
  /// Adds the access \p E of the memory \p Base reaches, or, when \p Field
  /// is given, of that pointer field of the struct \p Base names.
  void addAccess(const Expr *E, const Expr *Base, std::optional<Polynomial> Idx,
                 std::string IdxWhy, const FieldDecl *Field = nullptr);
  ModelArray resolveBase(const Expr *Base, Polynomial &Offset, std::string &Why,
                         unsigned Depth = 0);
  /// The pointer field \p F of the struct \p Record names (a parameter of
  /// the kernel, or a copy of one passed to a helper), when it is fixed
  /// for the launch; \p At is where it is read, for Why.
  ModelArray fieldArray(const Expr *Record, const clang::FieldDecl *F,
                        const Expr *At, std::string &Why);
  void findReductions(unsigned LoopIdx);
  void findArgExtremes(unsigned LoopIdx);

  KernelModel &M;
  ASTContext &Ctx;
  unsigned NextOpaque = 0;
  /// The guard statement whose condition addBounds() reads.
  const Stmt *GuardAt = nullptr;
};

void KernelModel::Builder::build() {
  Stmt *Body = M.Kernel.getBody();
  if (!Body)
    return;
  // The launches first: a block that every launch has fixes the values
  // that read its size as a constant.
  M.Launches = findLaunches(Ctx, M.Kernel, &M.LaunchWhy);
  if (M.Launches)
    for (const KernelLaunch &L : *M.Launches) {
      std::optional<Dim3> B = constantDims(Ctx, L.Block);
      if (!B || (M.FixedBlock && *M.FixedBlock != *B)) {
        M.FixedBlock.reset();
        break;
      }
      M.FixedBlock = B;
    }
  TraverseStmt(Body);
  for (ModelLoop &L : M.Loops)
    if (L.Why.empty())
      describeLoop(L);
  // Parents among the model's loops.
  // (A loop's `#pragma unroll` is the loop itself.)
  for (ModelLoop &L : M.Loops)
    for (const Stmt *S = parentOf(Ctx, L.S); S; S = parentOf(Ctx, S))
      if (int I = isa<AttributedStmt>(S) ? -1 : M.loopIndex(S); I >= 0) {
        L.Parent = I;
        break;
      }
  buildGuard(Body);
  collectAccesses(Body);
  // Every loop, counted or not: what a reduction needs is that its
  // variable or element stays put across the iterations.
  for (unsigned I = 0; I < M.Loops.size(); ++I) {
    findReductions(I);
    findArgExtremes(I);
  }
}

/// Whether \p Inc multiplies or divides \p V by a constant of at least 2:
/// `V *= C`, `V /= C`, `V <<= K`, `V >>= K`, `V = V * C`, `V = C * V`,
/// `V = V / C`, `V = V << K`, `V = V >> K`, `V += V`, `V = V + V`.
static bool scaleOf(const ASTContext &Ctx, const Expr *Inc, const VarDecl *V,
                    int64_t &Factor, bool &Divides) {
  const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
  if (!B)
    return false;
  auto Constant = [&](const Expr *E) -> std::optional<int64_t> {
    Expr::EvalResult R;
    if (E->isValueDependent() || !E->EvaluateAsInt(R, Ctx))
      return std::nullopt;
    return R.Val.getInt().tryExtValue();
  };
  BinaryOperatorKind Op;
  const Expr *L, *R;
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(B)) {
    if (!refersTo(CA->getLHS(), V))
      return false;
    Op = BinaryOperator::getOpForCompoundAssignment(CA->getOpcode());
    L = CA->getLHS();
    R = CA->getRHS();
  } else {
    const auto *Rhs =
        dyn_cast<BinaryOperator>(B->getRHS()->IgnoreParenImpCasts());
    if (B->getOpcode() != BO_Assign || !refersTo(B->getLHS(), V) || !Rhs)
      return false;
    Op = Rhs->getOpcode();
    L = Rhs->getLHS();
    R = Rhs->getRHS();
    // `V = C * V`.
    if (Op == BO_Mul && !refersTo(L, V))
      std::swap(L, R);
    if (!refersTo(L, V))
      return false;
  }
  if (Op == BO_Add && refersTo(R, V)) {
    Factor = 2;
    Divides = false;
    return true;
  }
  std::optional<int64_t> C = Constant(R);
  if (!C)
    return false;
  if (Op == BO_Shl || Op == BO_Shr) {
    if (*C < 1 || *C > 30)
      return false;
    Factor = int64_t(1) << *C;
  } else if (Op == BO_Mul || Op == BO_Div) {
    if (*C < 2)
      return false;
    Factor = *C;
  } else {
    return false;
  }
  Divides = Op == BO_Shr || Op == BO_Div;
  return true;
}

/// The variable that \p Inc steps or scales (`++V`, `V += s`, `V = ...`,
/// `V *= 2`), or null.
static const VarDecl *steppedVar(const Expr *Inc) {
  const Expr *Target = nullptr;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc);
      U && U->isIncrementDecrementOp())
    Target = U->getSubExpr();
  else if (const auto *B = dyn_cast_or_null<BinaryOperator>(Inc);
           B && B->isAssignmentOp())
    Target = B->getLHS();
  const auto *DR =
      Target ? dyn_cast<DeclRefExpr>(Target->IgnoreParens()) : nullptr;
  return DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
}

/// Whether every declaration of \p F's init but \p Var holds a value
/// fixed for the loop: a local of integer type with a pure initializer
/// that names no other declaration of the init, nothing it names changed
/// in the loop, and the local itself only read. \p Bounds receives them.
static bool forInitBounds(ASTContext &Ctx, const ForStmt &F, const VarDecl *Var,
                          std::vector<const VarDecl *> &Bounds) {
  const auto *DS = cast<DeclStmt>(F.getInit());
  std::vector<const VarDecl *> Decls;
  for (const Decl *D : DS->decls()) {
    const auto *X = dyn_cast<VarDecl>(D);
    if (!X)
      return false;
    Decls.push_back(X);
  }
  auto OnlyRead = [&](const VarDecl *X) {
    return onlyReadIn(Ctx, X, F.getCond()) && onlyReadIn(Ctx, X, F.getInc()) &&
           onlyReadIn(Ctx, X, F.getBody());
  };
  for (const VarDecl *X : Decls) {
    if (X == Var)
      continue;
    const Expr *Init = X->getInit();
    if (!Init || !X->getType()->isIntegerType() ||
        X->getType().isVolatileQualified() || !::isPure(Ctx, Init) ||
        !OnlyRead(X))
      return false;
    for (const VarDecl *Y : Decls)
      if (mentions(Init, Y))
        return false;
    std::vector<const Stmt *> Work = {Init};
    while (!Work.empty()) {
      const Stmt *S = Work.back();
      Work.pop_back();
      if (!S)
        continue;
      if (const auto *DR = dyn_cast<DeclRefExpr>(S))
        if (const auto *Y = dyn_cast<VarDecl>(DR->getDecl()); Y && !OnlyRead(Y))
          return false;
      for (const Stmt *C : S->children())
        Work.push_back(C);
    }
    Bounds.push_back(X);
  }
  return true;
}

/// Whether \p Cond decrements \p V as it tests it: `V-- > E`, `V-- >= E`,
/// `E < V--` or `E <= V--` (\p End is E, \p Inclusive for `>=`), or, for
/// an unsigned \p V, `V-- != 0` (\p End is the 0) and `V--` alone (\p End
/// null), which end where `V-- > 0` does.
static bool decrementingTest(ASTContext &Ctx, const Expr *Cond,
                             const VarDecl *V, const Expr *&End,
                             bool &Inclusive) {
  auto IsPostDec = [&](const Expr *E) {
    const auto *U = dyn_cast<UnaryOperator>(E->IgnoreParenImpCasts());
    return U && U->getOpcode() == UO_PostDec && refersTo(U->getSubExpr(), V);
  };
  End = nullptr;
  Inclusive = false;
  bool Unsigned = V->getType()->isUnsignedIntegerType();
  Cond = Cond->IgnoreParenImpCasts();
  if (IsPostDec(Cond))
    return Unsigned;
  const auto *C = dyn_cast<BinaryOperator>(Cond);
  if (!C)
    return false;
  BinaryOperatorKind Op = C->getOpcode();
  if (IsPostDec(C->getLHS())) {
    End = C->getRHS();
  } else if (IsPostDec(C->getRHS()) && C->isComparisonOp()) {
    End = C->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  } else {
    return false;
  }
  if (Op == BO_NE) {
    std::optional<llvm::APSInt> Zero = End->getIntegerConstantExpr(Ctx);
    return Unsigned && Zero && Zero->isZero();
  }
  Inclusive = Op == BO_GE;
  return Op == BO_GT || Op == BO_GE;
}

void KernelModel::Builder::describeLoop(ModelLoop &L) {
  std::string At = "the loop at " + M.where(L.S);
  // The variable and its first value; the condition, the step and the
  // statements that may only read the variable.
  const VarDecl *V = nullptr;
  const Expr *First = nullptr;
  const Expr *Cond = nullptr, *Inc = nullptr;
  std::vector<const Stmt *> Rest;
  // A `for`'s other declarations, fixed for the loop.
  std::vector<const VarDecl *> Bounds;
  // A variable declared before the loop, in the same block, with its first
  // value, and only read between: the counter of a `while` loop and of a
  // `for` without an init statement.
  auto DeclaredBefore = [&](const VarDecl *X) -> const DeclStmt * {
    const auto *Parent = dyn_cast_or_null<CompoundStmt>(parentOf(Ctx, L.S));
    if (!X || !Parent || !X->isLocalVarDecl() || X->isStaticLocal() ||
        !X->getInit())
      return nullptr;
    const DeclStmt *Decl = nullptr;
    for (const Stmt *S : Parent->body()) {
      if (S == L.S)
        return Decl;
      if (const auto *DS = dyn_cast<DeclStmt>(S);
          DS && llvm::is_contained(DS->decls(), X))
        Decl = DS;
      else if (Decl && !onlyReadIn(Ctx, X, S))
        return nullptr;
    }
    return nullptr;
  };
  if (const auto *W = dyn_cast<WhileStmt>(L.S)) {
    std::vector<const Stmt *> Stmts = statementsOf(W->getBody());
    Inc = Stmts.empty() ? nullptr : dyn_cast<Expr>(Stmts.back());
    V = steppedVar(Inc ? Inc->IgnoreParens() : nullptr);
    const DeclStmt *Decl = DeclaredBefore(V);
    if (!Decl) {
      L.Why = At + " is a `while` loop that does not end by stepping a "
                   "variable declared with its first value before it";
      return;
    }
    First = V->getInit();
    Cond = W->getCond();
    Rest.assign(Stmts.begin(), Stmts.end() - 1);
    L.VarDeclStmt = Decl;
  } else if (const auto *F = dyn_cast<ForStmt>(L.S)) {
    Cond = F->getCond();
    Inc = F->getInc();
    Rest.push_back(F->getBody());
  } else {
    L.Why = notCounted(L.S);
    return;
  }
  const auto *F = dyn_cast<ForStmt>(L.S);
  if (!F) {
    // The variable and its first value are known.
  } else if (!F->getInit()) {
    // `int i = ...; for (; i < n; i += s)`: as a `while` loop.
    const VarDecl *S = steppedVar(Inc ? Inc->IgnoreParens() : nullptr);
    if (const DeclStmt *Decl = DeclaredBefore(S)) {
      V = S;
      First = S->getInit();
      L.VarDeclStmt = Decl;
    }
  } else if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (DS->isSingleDecl()) {
      if ((V = dyn_cast<VarDecl>(DS->getSingleDecl())))
        First = V->getInit();
    } else if (const VarDecl *S =
                   steppedVar(Inc ? Inc->IgnoreParens() : nullptr);
               S && llvm::is_contained(DS->decls(), S)) {
      // `for (int c = 0, e = n; c < e; ++c)`: the variable is the one the
      // step steps; the others hold values fixed for the loop, which the
      // model reads where they come from (Bounds).
      if (forInitBounds(Ctx, *F, S, Bounds)) {
        V = S;
        First = S->getInit();
        for (const VarDecl *B : Bounds)
          if (First && mentions(First, B))
            First = nullptr;
      }
    }
    L.DeclaredByLoop = true;
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(F->getInit())) {
    if (A->getOpcode() == BO_Assign)
      if (const auto *DR = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens())) {
        V = dyn_cast<VarDecl>(DR->getDecl());
        First = A->getRHS();
      }
  }
  L.InitVar = V;
  if (!V || !First || !V->getType()->isIntegerType() ||
      V->getType().isVolatileQualified()) {
    L.Why = At + " does not start by setting one integer variable";
    return;
  }
  L.FirstExpr = First;
  L.StepStmt = Inc;
  auto OnlyReadInRest = [&] {
    return llvm::all_of(Rest,
                        [&](const Stmt *S) { return onlyReadIn(Ctx, V, S); });
  };
  // The step: ++V, V++, V += S, V = V + S; counting down, --V, V--,
  // V -= S, V = V - S.
  Inc = Inc ? Inc->IgnoreParens() : nullptr;
  const Expr *StepExpr = nullptr;
  bool UnitStep = false, Down = false;
  // A `for` without a step whose condition decrements the variable as it
  // tests it (decrementingTest()) counts down by one; the body sees each
  // value one below the one tested.
  const Expr *DecEnd = nullptr;
  bool DecInclusive = false;
  bool Decrements =
      F && !Inc && Cond && decrementingTest(Ctx, Cond, V, DecEnd, DecInclusive);
  if (Decrements) {
    UnitStep = Down = true;
  } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    UnitStep = U->isIncrementDecrementOp() && refersTo(U->getSubExpr(), V);
    Down = U->isDecrementOp();
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    if ((CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
        refersTo(CA->getLHS(), V)) {
      StepExpr = CA->getRHS();
      Down = CA->getOpcode() == BO_SubAssign;
    }
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(Inc)) {
    const auto *Sum =
        dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts());
    if (A->getOpcode() == BO_Assign && refersTo(A->getLHS(), V) && Sum &&
        Sum->getOpcode() == BO_Add) {
      if (refersTo(Sum->getLHS(), V))
        StepExpr = Sum->getRHS();
      else if (refersTo(Sum->getRHS(), V))
        StepExpr = Sum->getLHS();
    } else if (A->getOpcode() == BO_Assign && refersTo(A->getLHS(), V) && Sum &&
               Sum->getOpcode() == BO_Sub && refersTo(Sum->getLHS(), V)) {
      StepExpr = Sum->getRHS();
      Down = true;
    }
  }
  if (!UnitStep && (!StepExpr || mentions(StepExpr, V))) {
    L.Why =
        At + " does not step `" + V->getNameAsString() + "` by a fixed amount";
    // A loop that scales its variable: `s *= 2`, `s >>= 1`.
    int64_t Factor = 0;
    bool Divides = false;
    if (scaleOf(Ctx, Inc, V, Factor, Divides) && OnlyReadInRest() &&
        onlyReadIn(Ctx, V, Cond)) {
      L.Factor = Factor;
      L.Divides = Divides;
    }
    return;
  }
  // The end: V < E, V <= E, E > V, E >= V; counting down, the low bound:
  // V > E, V >= E, E < V, E <= V.
  const auto *C = dyn_cast_or_null<BinaryOperator>(
      Cond ? Cond->IgnoreParenImpCasts() : nullptr);
  BinaryOperatorKind Below = Down ? BO_GT : BO_LT,
                     AtMost = Down ? BO_GE : BO_LE,
                     Above = Down ? BO_LT : BO_GT,
                     AtLeast = Down ? BO_LE : BO_GE;
  const Expr *End = nullptr;
  bool Inclusive = false;
  if (Decrements) {
    End = DecEnd;
    Inclusive = DecInclusive;
  } else if (C && refersTo(C->getLHS(), V) &&
             (C->getOpcode() == Below || C->getOpcode() == AtMost)) {
    End = C->getRHS();
    Inclusive = C->getOpcode() == AtMost;
  } else if (C && refersTo(C->getRHS(), V) &&
             (C->getOpcode() == Above || C->getOpcode() == AtLeast)) {
    End = C->getLHS();
    Inclusive = C->getOpcode() == AtLeast;
  }
  // V != E, E != V: with a step of one it ends where V < E does (V > E
  // counting down), checked below once the first value and the step are
  // known.
  bool NotEqual = false;
  if (!End && C && C->getOpcode() == BO_NE) {
    NotEqual = !Down;
    End = refersTo(C->getLHS(), V)   ? C->getRHS()
          : refersTo(C->getRHS(), V) ? C->getLHS()
                                     : nullptr;
  }
  // An end that is another declaration of the `for` is the value it holds.
  if (const auto *DR =
          End ? dyn_cast<DeclRefExpr>(End->IgnoreParenImpCasts()) : nullptr;
      DR && llvm::is_contained(Bounds, DR->getDecl()))
    End = cast<VarDecl>(DR->getDecl())->getInit();
  // `V--` alone ends at zero, with no expression for it.
  bool ZeroEnd = Decrements && !End;
  if ((!End && !ZeroEnd) ||
      (End && (mentions(End, V) || llvm::any_of(Bounds, [&](const VarDecl *B) {
                 return mentions(End, B);
               })))) {
    L.Why = At + " does not end at a bound `" + V->getNameAsString() +
            (Down ? " >= N`" : " < N`");
    return;
  }
  // Counting down in an unsigned type, `V >= 0` never ends and the values
  // wrap; so does a signed variable compared as unsigned (`V >= 0u`). An
  // unsigned variable that stops above its bound (`V > E`, by ones, checked
  // below) never passes zero, nor does one that stops at a positive
  // constant.
  auto PositiveConstant = [&](const Expr *E) {
    std::optional<llvm::APSInt> Int =
        E ? E->getIntegerConstantExpr(Ctx) : std::nullopt;
    return Int && Int->isStrictlyPositive();
  };
  // The type the condition compares in (`V--` alone: the variable's).
  QualType Compared = C ? C->getLHS()->getType() : V->getType();
  bool UnsignedStops = !V->getType()->isSignedIntegerType() &&
                       !Compared->isSignedIntegerType() &&
                       (!Inclusive || PositiveConstant(End));
  if (Down && !UnsignedStops &&
      (!V->getType()->isSignedIntegerType() ||
       !Compared->isSignedIntegerType())) {
    L.Why =
        At + " counts `" + V->getNameAsString() + "` down in an unsigned type";
    return;
  }
  // Nothing in the body changes the variable (nor the condition, but for
  // its decrement).
  if (!OnlyReadInRest() || (!Decrements && !onlyReadIn(Ctx, V, Cond))) {
    L.Why = At + " changes `" + V->getNameAsString() + "` in its body";
    return;
  }
  L.Var = V;
  L.EndExpr = Down ? nullptr : End;
  L.Descending = Down;
  L.LowExpr = Down ? End : nullptr;
  L.LowStrict = Down && !Inclusive;
  L.DecrementsInCond = Decrements;
  ModelValue FirstV = M.value(First),
             EndV = ZeroEnd ? ModelValue{Polynomial::constant(0), ""}
                            : M.value(End);
  // A bound fixed for the loop that the model does not see through is an
  // opaque symbol.
  for (auto [X, E] : {std::pair(&FirstV, First), std::pair(&EndV, End)})
    if (!*X && E && ::isPure(Ctx, E) && !mentions(E, V)) {
      X->Value = Polynomial::symbol(Symbol::opaque(NextOpaque++, M.text(E)));
      L.OpaqueBounds = true;
    }
  ModelValue StepV =
      UnitStep ? ModelValue{Polynomial::constant(1), ""} : M.value(StepExpr);
  for (const ModelValue *X : {&FirstV, &EndV, &StepV})
    if (!*X) {
      L.Why = At + ": " + X->Why;
      L.Var = nullptr;
      return;
    }
  // A loop that runs while V != E ends at E when it counts up by one and
  // starts at or below E: always for a signed variable (it would overflow
  // otherwise), and for an unsigned one from zero or when both are known.
  if (NotEqual) {
    auto F = FirstV.Value->constantValue(), E = EndV.Value->constantValue();
    std::optional<int64_t> S = StepV.Value->constantValue();
    bool Below = V->getType()->isSignedIntegerType() || (F && *F == 0) ||
                 (F && E && *F <= *E);
    std::string Ends = At + " ends where `" + V->getNameAsString() + " != N`, ";
    if (!S || *S != 1) {
      L.Why = Ends + "a bound only for a step of one";
      L.Var = nullptr;
      return;
    }
    if (!Below) {
      L.Why = Ends + "and its unsigned first value is not known to be at "
                     "most N";
      L.Var = nullptr;
      return;
    }
  }
  L.NotEqual = NotEqual;
  L.First = *FirstV.Value;
  L.End = *EndV.Value;
  if (Inclusive)
    L.End = Polynomial::add(L.End, Polynomial::constant(1)).value_or(L.End);
  L.Step = *StepV.Value;
  // Counting down by one from First to End (inclusive or not), the loop
  // takes the values from End (+ 1 when strict) up to First.
  if (Down) {
    std::optional<int64_t> S = L.Step.constantValue();
    if (!S || *S != 1) {
      L.Why = At + " counts `" + V->getNameAsString() + "` down by " +
              L.Step.str() + "; loops counting down are read by ones";
      L.Var = nullptr;
      return;
    }
    // The body of `V-- > E` sees the values one below: from E (E - 1 with
    // `>=`) up to First - 1.
    int64_t Shift = Decrements ? -1 : 0;
    std::optional<Polynomial> Lo = Polynomial::add(
        *EndV.Value, Polynomial::constant((Inclusive ? 0 : 1) + Shift));
    std::optional<Polynomial> Hi =
        Polynomial::add(*FirstV.Value, Polynomial::constant(1 + Shift));
    if (!Lo || !Hi) {
      L.Why = At + ": its bounds overflow";
      L.Var = nullptr;
      return;
    }
    L.First = *Lo;
    L.End = *Hi;
  }
  // A bound that changes inside the loop is no bound.
  unsigned Self = M.LoopOfStmt.lookup(L.S);
  auto Varies = [&](const Polynomial &P) {
    return P.dependsOn([&](const Symbol &S) {
      return S.Kind == Symbol::LoopVar && S.Index == Self;
    });
  };
  if (Varies(L.End) || Varies(L.Step) || (Down && Varies(L.First))) {
    L.Why = At + " has a bound that changes as it runs";
    L.Var = nullptr;
    return;
  }
  auto F0 = L.First.constantValue(), E0 = L.End.constantValue(),
       S0 = L.Step.constantValue();
  if (F0 && E0 && S0 && *S0 > 0)
    L.TripCount = *E0 > *F0 ? (*E0 - *F0 + *S0 - 1) / *S0 : 0;
}

bool KernelModel::Builder::isLaunchUniform(const Expr *E,
                                           unsigned Depth) const {
  if (!E || Depth > MaxDepth)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr, CharacterLiteral,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *C = dyn_cast<ExplicitCastExpr>(E))
    return isLaunchUniform(C->getSubExpr(), Depth + 1);
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    UnaryOperatorKind Op = U->getOpcode();
    return (Op == UO_LNot || Op == UO_Minus || Op == UO_Plus || Op == UO_Not) &&
           isLaunchUniform(U->getSubExpr(), Depth + 1);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && B->getOpcode() != BO_Comma &&
           B->getOpcode() != BO_PtrMemD && B->getOpcode() != BO_PtrMemI &&
           isLaunchUniform(B->getLHS(), Depth + 1) &&
           isLaunchUniform(B->getRHS(), Depth + 1);
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return isLaunchUniform(C->getCond(), Depth + 1) &&
           isLaunchUniform(C->getTrueExpr(), Depth + 1) &&
           isLaunchUniform(C->getFalseExpr(), Depth + 1);
  // A field of a struct passed by value (`p.enabled`).
  if (const auto *ME = dyn_cast<MemberExpr>(E))
    return !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl()) &&
           isLaunchUniform(ME->getBase(), Depth + 1);
  const auto *DR = dyn_cast<DeclRefExpr>(E);
  if (!DR)
    return false;
  const ValueDecl *D = DR->getDecl();
  if (isa<EnumConstantDecl>(D))
    return true;
  const auto *V = dyn_cast<VarDecl>(D);
  if (!V || V->getType()->isReferenceType() ||
      V->getType().isVolatileQualified())
    return false;
  // Nothing before the guard changes a parameter: only declarations
  // without side effects come first.
  if (const auto *P = dyn_cast<ParmVarDecl>(V))
    return P->getDeclContext() == &M.Kernel;
  // A constant of the program, or `__constant__` memory, which no thread
  // writes.
  if (V->hasGlobalStorage() && !V->isLocalVarDecl())
    return !V->hasAttr<CUDASharedAttr>() &&
           (V->hasAttr<CUDAConstantAttr>() ||
            (V->getType().isConstQualified() &&
             isLaunchUniform(V->getInit(), Depth + 1)));
  if (!V->isLocalVarDecl() || V->isStaticLocal() || !GuardAt)
    return false;
  return isLaunchUniform(valueOnEntry(Ctx, *V, *GuardAt), Depth + 1);
}

void KernelModel::Builder::addBounds(const Expr *Cond, bool Negate) {
  if (!M.GuardWhy.empty())
    return;
  Cond = Cond->IgnoreParenImpCasts();
  if (isLaunchUniform(Cond)) {
    M.GuardConds.push_back({Cond, Negate});
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Cond);
      U && U->getOpcode() == UO_LNot)
    return addBounds(U->getSubExpr(), !Negate);
  const auto *B = dyn_cast<BinaryOperator>(Cond);
  if (B && B->getOpcode() == (Negate ? BO_LOr : BO_LAnd)) {
    addBounds(B->getLHS(), Negate);
    addBounds(B->getRHS(), Negate);
    return;
  }
  if (B && B->isComparisonOp() && B->getOpcode() != BO_EQ &&
      B->getOpcode() != BO_NE && B->getOpcode() != BO_Cmp) {
    ModelValue L = M.value(B->getLHS()), R = M.value(B->getRHS());
    if (!L || !R) {
      M.GuardWhy = "the guard at " + M.where(B) + ": " + (L ? R.Why : L.Why);
      return;
    }
    BinaryOperatorKind Op = B->getOpcode();
    if (Negate)
      Op = Op == BO_LT   ? BO_GE
           : Op == BO_LE ? BO_GT
           : Op == BO_GT ? BO_LE
                         : BO_LT;
    GuardBound G;
    G.Cond = B;
    G.Negated = Negate;
    G.Strict = Op == BO_LT || Op == BO_GT;
    bool Swap = Op == BO_GT || Op == BO_GE;
    G.Lhs = Swap ? *R.Value : *L.Value;
    G.Rhs = Swap ? *L.Value : *R.Value;
    M.Guard.push_back(std::move(G));
    return;
  }
  M.GuardWhy =
      "the guard at " + M.where(Cond) + " is not a conjunction of bounds";
}

void KernelModel::Builder::buildGuard(const Stmt *Body) {
  std::vector<const Stmt *> Stmts = statementsOf(Body);
  // Declarations are the prologue when a guard statement follows them, and
  // the start of the work otherwise.
  std::vector<const Stmt *> Pending;
  size_t I = 0;
  while (I < Stmts.size()) {
    const Stmt *S = Stmts[I];
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      bool Pure = llvm::all_of(DS->decls(), [&](const Decl *D) {
        const auto *V = dyn_cast<VarDecl>(D);
        return V && !V->isStaticLocal() && !V->hasAttr<CUDASharedAttr>() &&
               ::isPure(Ctx, V->getInit());
      });
      if (!Pure)
        break;
      Pending.push_back(S);
      ++I;
      continue;
    }
    // `i = e;` giving a variable declared without a value its only one.
    if (const auto *A = dyn_cast<BinaryOperator>(S);
        A && A->getOpcode() == BO_Assign) {
      const auto *DR = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens());
      const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
      if (!V || soleValue(Ctx, *V) != A->getRHS() ||
          !::isPure(Ctx, A->getRHS()))
        break;
      Pending.push_back(S);
      ++I;
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->getInit() || If->getConditionVariable() ||
        If->isConstexpr() || If->getElse() || !::isPure(Ctx, If->getCond()))
      break;
    bool EarlyExit = isReturnOnly(If->getThen());
    // An enclosing `if` holds the rest of the kernel.
    if (!EarlyExit && I + 1 != Stmts.size())
      break;
    // Inside the guard, an `if` that bounds nothing is work: the guard
    // ends with the last conjunction of bounds.
    // An `if` of conditions alone (`if (!enabled) return;`) is work there
    // too.
    GuardAt = If;
    if (!M.GuardStmts.empty()) {
      std::vector<GuardBound> Kept = M.Guard;
      std::vector<GuardCondition> KeptConds = M.GuardConds;
      std::string KeptWhy = M.GuardWhy;
      addBounds(If->getCond(), /*Negate=*/EarlyExit);
      bool Bounds = M.GuardWhy.empty() && M.Guard.size() > Kept.size();
      M.Guard = std::move(Kept);
      M.GuardConds = std::move(KeptConds);
      M.GuardWhy = std::move(KeptWhy);
      if (!Bounds)
        break;
    }
    M.Prologue.insert(M.Prologue.end(), Pending.begin(), Pending.end());
    Pending.clear();
    M.GuardStmts.push_back(If);
    addBounds(If->getCond(), /*Negate=*/EarlyExit);
    if (EarlyExit) {
      ++I;
      continue;
    }
    Stmts = statementsOf(If->getThen());
    I = 0;
  }
  M.Work = Pending;
  M.Work.insert(M.Work.end(), Stmts.begin() + I, Stmts.end());
}

ModelArray KernelModel::Builder::fieldArray(const Expr *Record,
                                            const FieldDecl *F, const Expr *At,
                                            std::string &Why) {
  const ParmVarDecl *P = argumentParam(Record);
  if (F && F->getType()->isPointerType() && fixedRecord(Ctx, M.Kernel, P))
    return ModelArray(P, F);
  Why = "the pointer `" + M.text(At) + "` at " + M.where(At) +
        " is not a field of a parameter passed by value whose fields the "
        "kernel only reads";
  return {};
}

ModelArray KernelModel::Builder::resolveBase(const Expr *Base,
                                             Polynomial &Offset,
                                             std::string &Why, unsigned Depth) {
  if (Depth > MaxDepth) {
    Why = "the pointer is computed too deeply";
    return {};
  }
  Base = Base->IgnoreParenImpCasts();
  if (const auto *B = dyn_cast<BinaryOperator>(Base);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub)) {
    bool LeftPtr = B->getLHS()->getType()->isPointerType();
    const Expr *Ptr = LeftPtr ? B->getLHS() : B->getRHS();
    const Expr *Int = LeftPtr ? B->getRHS() : B->getLHS();
    if (!Ptr->getType()->isPointerType() || !Int->getType()->isIntegerType() ||
        (B->getOpcode() == BO_Sub && !LeftPtr)) {
      Why = "a pointer at " + M.where(B) + " is not a pointer plus an offset";
      return {};
    }
    ModelValue Off = M.value(Int);
    if (!Off) {
      Why = Off.Why;
      return {};
    }
    auto Sum = B->getOpcode() == BO_Add ? Polynomial::add(Offset, *Off.Value)
                                        : Polynomial::sub(Offset, *Off.Value);
    if (!Sum) {
      Why = "an offset overflows";
      return {};
    }
    Offset = *Sum;
    return resolveBase(Ptr, Offset, Why, Depth + 1);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(Base);
      U && U->getOpcode() == UO_AddrOf) {
    if (const auto *AS =
            dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens())) {
      ModelValue Idx = M.value(AS->getIdx());
      if (!Idx) {
        Why = Idx.Why;
        return {};
      }
      Offset = Polynomial::add(Offset, *Idx.Value).value_or(Offset);
      return resolveBase(AS->getBase(), Offset, Why, Depth + 1);
    }
  }
  // A pointer field of a parameter passed by value (`A.elements` of
  // `Matrix A`): fixed for the launch when the kernel only reads the
  // parameter's fields.
  if (const auto *ME = dyn_cast<MemberExpr>(Base); ME && !ME->isArrow())
    return fieldArray(ME->getBase(), dyn_cast<FieldDecl>(ME->getMemberDecl()),
                      ME, Why);
  const auto *DR = dyn_cast<DeclRefExpr>(Base);
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V) {
    Why = "the memory accessed at " + M.where(Base) +
          " is not a parameter's or an array's";
    return {};
  }
  if (V->getType()->isArrayType())
    return V;
  if (isa<ParmVarDecl>(V)) {
    if (!isUnmodified(Ctx, *V)) {
      Why = "the pointer parameter `" + V->getNameAsString() +
            "` is changed in the kernel";
      return {};
    }
    return V;
  }
  if (V->isLocalVarDecl() && V->getInit() && isUnmodified(Ctx, *V))
    return resolveBase(V->getInit(), Offset, Why, Depth + 1);
  Why = "the pointer `" + V->getNameAsString() +
        "` is not a parameter plus an offset fixed once";
  return {};
}

void KernelModel::Builder::addAccess(const Expr *E, const Expr *Base,
                                     std::optional<Polynomial> Idx,
                                     std::string IdxWhy,
                                     const FieldDecl *Field) {
  ModelAccess A;
  A.E = E;
  Polynomial Offset;
  std::string Why;
  A.Array =
      Field ? fieldArray(Base, Field, E, Why) : resolveBase(Base, Offset, Why);
  if (!A.Array) {
    A.Why = Why;
  } else {
    A.Shared = !A.Array.field() && A.Array.var()->hasAttr<CUDASharedAttr>();
    if (Idx) {
      A.Index = Polynomial::add(Offset, *Idx);
      if (!A.Index)
        A.Why = "an index overflows";
    } else {
      A.Why = IdxWhy;
    }
  }
  // Direction, from the parent; a load helper's call returns the element
  // by value, a read.
  A.Read = true;
  if (!isa<CallExpr>(E))
    setDirection(A);
  for (const Stmt *S = parentOf(Ctx, E); S; S = parentOf(Ctx, S))
    if (int I = isa<AttributedStmt>(S) ? -1 : M.loopIndex(S); I >= 0)
      A.Loops.insert(A.Loops.begin(), I);
  M.Accesses.push_back(std::move(A));
}

void KernelModel::Builder::setDirection(ModelAccess &A) {
  const Expr *E = A.E;
  const Stmt *C = E;
  const Stmt *P = parentOf(Ctx, C);
  while (P && isa<ParenExpr>(P)) {
    C = P;
    P = parentOf(Ctx, C);
  }
  if (const auto *B = dyn_cast_or_null<BinaryOperator>(P);
      B && B->isAssignmentOp() && B->getLHS()->IgnoreParens() == E) {
    A.Write = true;
    A.Read = B->isCompoundAssignmentOp();
  } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
             U && U->getOpcode() == UO_AddrOf && isLoadThrough(Ctx, U)) {
    // `__ldg(&X[i])`: a read through the read-only path.
  } else if (const auto *U = dyn_cast_or_null<UnaryOperator>(P);
             U &&
             (U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf)) {
    A.Write = true;
  } else if (isHelperArgument(Ctx, E)) {
    // Passed by reference to a helper that writes nothing.
  } else if (!isa_and_nonnull<ImplicitCastExpr>(P) &&
             !isa_and_nonnull<ArraySubscriptExpr>(P)) {
    // Bound to a reference, a member call: assume both.
    A.Write = !E->getType().isConstQualified();
  }
}

void KernelModel::Builder::collectAccesses(const Stmt *S) {
  if (!S)
    return;
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(S)) {
    // The outermost subscript of a multi-dimensional array: S[i][j] is
    // element i * B + j of `T S[A][B]`.
    const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    if (!isa<ArraySubscriptExpr>(Base) ||
        !Base->getType()->isConstantArrayType() ||
        AS->getBase()->getType()->isPointerType()) {
      std::optional<Polynomial> Idx;
      std::string Why;
      const ArraySubscriptExpr *Cur = AS;
      Polynomial Acc;
      Polynomial Scale = Polynomial::constant(1);
      bool Ok = true;
      while (true) {
        ModelValue I = M.value(Cur->getIdx());
        std::optional<Polynomial> Term =
            I ? Polynomial::mul(*I.Value, Scale) : std::nullopt;
        std::optional<Polynomial> Sum =
            Term ? Polynomial::add(Acc, *Term) : std::nullopt;
        if (!Sum) {
          Ok = false;
          Why = I ? "an index overflows" : I.Why;
          break;
        }
        Acc = *Sum;
        const Expr *Inner = Cur->getBase()->IgnoreParenImpCasts();
        const auto *InnerAS = dyn_cast<ArraySubscriptExpr>(Inner);
        const auto *CAT = Ctx.getAsConstantArrayType(Inner->getType());
        if (!InnerAS || !CAT)
          break;
        auto NewScale = Polynomial::mul(
            Scale, Polynomial::constant(CAT->getSize().getSExtValue()));
        if (!NewScale) {
          Ok = false;
          Why = "an index overflows";
          break;
        }
        Scale = *NewScale;
        Cur = InnerAS;
      }
      if (Ok)
        Idx = Acc;
      // `const T *p = &A[i]` takes an address and touches nothing: the
      // accesses through `p` are A's, at i on.
      if (!initializesReadOnlyPointer(Ctx, AS))
        addAccess(AS, Cur->getBase(), Idx, Why);
    }
  } else if (const auto *U = dyn_cast<UnaryOperator>(S);
             U && U->getOpcode() == UO_Deref) {
    addAccess(U, U->getSubExpr(), Polynomial(), "");
  } else if (const auto *CE = dyn_cast<CallExpr>(S)) {
    // A load helper's call reads the element of its pointer argument at
    // its index, bound to the call's arguments.
    if (const ArraySubscriptExpr *AS =
            loadHelperAt(Ctx, CE->getDirectCallee(), 0)) {
      auto [P, Field] = loadHelperPointer(AS);
      unsigned I = P->getFunctionScopeIndex();
      if (I < CE->getNumArgs()) {
        ModelValue Idx = M.valueInCall(CE, AS->getIdx());
        addAccess(CE, CE->getArg(I), Idx.Value, Idx.Why, Field);
      }
    }
  }
  for (const Stmt *C : S->children())
    collectAccesses(C);
}

/// Whether \p A and \p B, through parentheses and implicit casts, are the
/// same expression.
static bool sameExpr(const ASTContext &Ctx, const Expr *A, const Expr *B) {
  llvm::FoldingSetNodeID IA, IB;
  A->IgnoreParenImpCasts()->Profile(IA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IB, Ctx, /*Canonical=*/true);
  return IA == IB;
}

/// When \p Cond compares \p E with the variable \p X (`<`, `<=`, `>`,
/// `>=`, either side): whether it holds where E lies beyond X towards the
/// greatest (true) or the least (false). Such a comparison is false when E
/// is a NaN.
static std::optional<bool> extremeSide(const ASTContext &Ctx, const Expr *Cond,
                                       const Expr *E, const VarDecl *X) {
  const auto *Cmp = dyn_cast<BinaryOperator>(Cond->IgnoreParens());
  if (!Cmp || !Cmp->isRelationalOp())
    return std::nullopt;
  // X itself, read as it is, and both sides compared in X's type: a
  // conversion (`(int)X`, a float X compared as a double) compares other
  // values than X's.
  QualType T = X->getType().getCanonicalType().getUnqualifiedType();
  auto InXType = [&](const Expr *Side) {
    return Side->IgnoreParens()
               ->getType()
               .getCanonicalType()
               .getUnqualifiedType() == T;
  };
  auto IsX = [&](const Expr *Side) {
    const auto *DR = dyn_cast<DeclRefExpr>(Side->IgnoreParenLValueCasts());
    return DR && DR->getDecl() == X;
  };
  if (!InXType(Cmp->getLHS()) || !InXType(Cmp->getRHS()))
    return std::nullopt;
  bool Greater = Cmp->getOpcode() == BO_GT || Cmp->getOpcode() == BO_GE;
  if (IsX(Cmp->getRHS()) && sameExpr(Ctx, Cmp->getLHS(), E))
    return Greater;
  if (IsX(Cmp->getLHS()) && sameExpr(Ctx, Cmp->getRHS(), E))
    return !Greater;
  return std::nullopt;
}

/// The function that combines two values of \p T as a maximum (\p
/// Greatest) or a minimum, when the shuffles and partial sums carry T.
static std::optional<std::string> extremeFunction(QualType T, bool Greatest) {
  if (!isWordType(T))
    return std::nullopt;
  if (T->isSpecificBuiltinType(BuiltinType::Float))
    return std::string(Greatest ? "fmaxf" : "fminf");
  if (T->isSpecificBuiltinType(BuiltinType::Double))
    return std::string(Greatest ? "fmax" : "fmin");
  return std::string(Greatest ? "max" : "min");
}

void KernelModel::Builder::findReductions(unsigned LoopIdx) {
  const ModelLoop &L = M.Loops[LoopIdx];
  const Stmt *F = L.S;
  // The body's statements but the step of a `while`, and the condition.
  std::vector<const Stmt *> BodyStmts = loopBody(L);
  const Expr *Cond = loopCond(L);
  // A symbol that changes across the loop's iterations.
  auto InLoop = [&](const Symbol &S) {
    if (S.Kind != Symbol::LoopVar)
      return S.Kind == Symbol::Opaque;
    for (int I = S.Index; I >= 0; I = M.Loops[I].Parent)
      if (static_cast<unsigned>(I) == LoopIdx)
        return true;
    return false;
  };
  auto AccessOf = [&](const Expr *E) -> int {
    E = E->IgnoreParens();
    for (unsigned I = 0; I < M.Accesses.size(); ++I)
      if (M.Accesses[I].E == E)
        return I;
    return -1;
  };
  for (const Stmt *S : BodyStmts) {
    // `if (c) update;` or `if (c) { update; update; }`: the updates only
    // where c holds.
    const Expr *Guard = nullptr;
    std::vector<const Stmt *> Updates = {S};
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (If->getElse() || If->getInit() || If->getConditionVariable() ||
          If->isConsteval())
        continue;
      Guard = If->getCond();
      Updates = {If->getThen()};
      if (const auto *CS = dyn_cast<CompoundStmt>(If->getThen()))
        Updates.assign(CS->body_begin(), CS->body_end());
      if (Updates.empty())
        continue;
    }
    auto One = [&](const Stmt *U) -> std::optional<ModelReduction> {
      ModelReduction R;
      R.Loop = LoopIdx;
      R.Statement = S;
      R.Guard = Guard;
      const auto *B = dyn_cast<BinaryOperator>(U);
      const auto *Inc = dyn_cast<UnaryOperator>(U);
      if (Inc && Inc->isIncrementDecrementOp()) {
        R.Increment = true;
        R.Subtract = Inc->isDecrementOp();
        R.Combine = "+";
      } else if (!B || !B->isAssignmentOp()) {
        return std::nullopt;
      }
      R.Update = cast<Expr>(U);
      const Expr *Target =
          (Inc ? Inc->getSubExpr() : B->getLHS())->IgnoreParens();
      // The accumulated variable or element.
      auto IsTarget = [&](const Expr *E) {
        E = E->IgnoreParenImpCasts();
        if (const auto *DR = dyn_cast<DeclRefExpr>(Target))
          return refersTo(E, cast<VarDecl>(DR->getDecl()));
        int T = AccessOf(Target), O = AccessOf(E);
        return T >= 0 && O >= 0 && M.Accesses[O].Array == M.Accesses[T].Array &&
               M.Accesses[O].Index && M.Accesses[T].Index &&
               *M.Accesses[O].Index == *M.Accesses[T].Index;
      };
      const auto *TargetVar = dyn_cast<DeclRefExpr>(Target);
      const VarDecl *X =
          TargetVar ? dyn_cast<VarDecl>(TargetVar->getDecl()) : nullptr;
      // A maximum or minimum as a choice: the new value replaces X only
      // where it lies beyond it, never where it is a NaN.
      auto Choose = [&](const Expr *E, bool Greatest) {
        std::optional<std::string> F = extremeFunction(X->getType(), Greatest);
        if (!F || !Ctx.hasSameUnqualifiedType(
                      E->IgnoreParenImpCasts()->getType(), X->getType()))
          return;
        R.Combine = *F;
        R.Term = E;
      };
      // `if (e > X) X = e;`: X's maximum, in every iteration.
      std::optional<bool> GuardSide =
          Guard && X && B && B->getOpcode() == BO_Assign && Updates.size() == 1
              ? extremeSide(Ctx, Guard, B->getRHS(), X)
              : std::nullopt;
      if (R.Increment) {
        // Adds one: no term.
      } else if (GuardSide) {
        Choose(B->getRHS(), *GuardSide);
        R.Guard = nullptr;
      } else if (const auto *Sel = dyn_cast<ConditionalOperator>(
                     B->getRHS()->IgnoreParenImpCasts());
                 X && Sel && B->getOpcode() == BO_Assign) {
        // `X = e > X ? e : X`; with integers also `X = X > e ? X : e`,
        // which takes a NaN e.
        const Expr *T = Sel->getTrueExpr(), *F = Sel->getFalseExpr();
        if (IsTarget(F)) {
          if (std::optional<bool> Side = extremeSide(Ctx, Sel->getCond(), T, X))
            Choose(T, *Side);
        } else if (IsTarget(T) && X->getType()->isIntegerType()) {
          if (std::optional<bool> Side = extremeSide(Ctx, Sel->getCond(), F, X))
            Choose(F, !*Side);
        }
      } else if (B->getOpcode() == BO_AddAssign ||
                 B->getOpcode() == BO_SubAssign) {
        R.Combine = "+";
        R.Subtract = B->getOpcode() == BO_SubAssign;
        R.Term = B->getRHS();
      } else if (B->getOpcode() == BO_Assign) {
        const Expr *RHS = B->getRHS()->IgnoreParenImpCasts();
        if (const auto *Add = dyn_cast<BinaryOperator>(RHS);
            Add && Add->getOpcode() == BO_Add) {
          R.Combine = "+";
          if (IsTarget(Add->getLHS()))
            R.Term = Add->getRHS();
          else if (IsTarget(Add->getRHS()))
            R.Term = Add->getLHS();
        } else if (const auto *Sub = dyn_cast<BinaryOperator>(RHS);
                   Sub && Sub->getOpcode() == BO_Sub &&
                   IsTarget(Sub->getLHS())) {
          // X = X - e; not X = e - X.
          R.Combine = "+";
          R.Subtract = true;
          R.Term = Sub->getRHS();
        } else if (const auto *Call = dyn_cast<CallExpr>(RHS);
                   Call && Call->getNumArgs() == 2 && Call->getDirectCallee() &&
                   Call->getDirectCallee()->getIdentifier()) {
          StringRef N = Call->getDirectCallee()->getName();
          if (llvm::is_contained(
                  {"fmaxf", "fminf", "fmax", "fmin", "max", "min"}, N)) {
            R.Combine = N.str();
            if (IsTarget(Call->getArg(0)))
              R.Term = Call->getArg(1);
            else if (IsTarget(Call->getArg(1)))
              R.Term = Call->getArg(0);
          }
        } else if (const auto *Fma = dyn_cast<CallExpr>(RHS);
                   Fma && Fma->getNumArgs() == 3 && Fma->getDirectCallee() &&
                   Fma->getDirectCallee()->getIdentifier() &&
                   llvm::is_contained({"fmaf", "fma", "__fmaf_rn", "__fma_rn"},
                                      Fma->getDirectCallee()->getName()) &&
                   IsTarget(Fma->getArg(2))) {
          R.Combine = "+";
          R.Term = Fma->getArg(0);
          R.Factor = Fma->getArg(1);
          R.Fused = Fma->getDirectCallee()->getName().str();
        }
      }
      if (!R.Term && !R.Increment)
        return std::nullopt;
      if (const auto *DR = dyn_cast<DeclRefExpr>(Target)) {
        const auto *V = dyn_cast<VarDecl>(DR->getDecl());
        if (!V || !V->getType()->isArithmeticType() || V->isStaticLocal() ||
            !V->isLocalVarDecl())
          return std::nullopt;
        // Declared inside the loop: not carried across iterations.
        const SourceManager &SM = Ctx.getSourceManager();
        bool DeclaredInside = SM.isPointWithin(SM.getFileLoc(V->getLocation()),
                                               SM.getFileLoc(F->getBeginLoc()),
                                               SM.getFileLoc(F->getEndLoc()));
        if (DeclaredInside || (R.Term && mentions(R.Term, V)) ||
            (R.Factor && mentions(R.Factor, V)) ||
            (R.Guard && mentions(R.Guard, V)))
          return std::nullopt;
        // Nothing else in the loop touches it.
        bool Other = mentions(Cond, V) || mentions(L.StepStmt, V);
        for (const Stmt *O : BodyStmts)
          Other |= O != S && mentions(O, V);
        // Nor another update under the same `if`.
        for (const Stmt *Sib : Updates)
          Other |= Sib != U && mentions(Sib, V);
        if (Other)
          return std::nullopt;
        R.Scalar = V;
      } else {
        int T = AccessOf(Target);
        if (T < 0 || !M.Accesses[T].Array || M.Accesses[T].Shared ||
            !M.Accesses[T].Index || M.Accesses[T].Index->dependsOn(InLoop))
          return std::nullopt;
        // No other access in the loop reaches the same array.
        bool Other = false;
        for (unsigned I = 0; I < M.Accesses.size(); ++I) {
          const ModelAccess &A = M.Accesses[I];
          if (static_cast<int>(I) == T || A.Array != M.Accesses[T].Array ||
              !isWithin(Ctx, A.E, F))
            continue;
          // The read of the element in `X = X + e` itself.
          bool SelfRead = B && B->getOpcode() == BO_Assign && !A.Write &&
                          A.Index && *A.Index == *M.Accesses[T].Index &&
                          !isWithin(Ctx, A.E, R.Term) &&
                          !(R.Factor && isWithin(Ctx, A.E, R.Factor));
          Other |= !SelfRead;
        }
        if (Other || !M.Accesses[T].Array.type()->isPointerType())
          return std::nullopt;
        R.Element = T;
      }
      return R;
    };
    // Every statement under the `if` is an update, or none counts.
    std::vector<ModelReduction> Found;
    for (const Stmt *U : Updates)
      if (std::optional<ModelReduction> R = One(U))
        Found.push_back(*R);
    if (Found.size() == Updates.size())
      M.Reductions.insert(M.Reductions.end(), Found.begin(), Found.end());
  }
}

void KernelModel::Builder::findArgExtremes(unsigned LoopIdx) {
  const ModelLoop &L = M.Loops[LoopIdx];
  std::vector<const Stmt *> BodyStmts = loopBody(L);
  const SourceManager &SM = Ctx.getSourceManager();
  auto LocalOf = [&](const Expr *E) -> const VarDecl * {
    const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    if (!V || isa<ParmVarDecl>(V) || !V->isLocalVarDecl() ||
        V->isStaticLocal() || !V->getType()->isArithmeticType() ||
        V->getType().isVolatileQualified() ||
        SM.isPointWithin(SM.getFileLoc(V->getLocation()),
                         SM.getFileLoc(L.S->getBeginLoc()),
                         SM.getFileLoc(L.S->getEndLoc())))
      return nullptr;
    return V;
  };
  for (const Stmt *S : BodyStmts) {
    const auto *If = dyn_cast<IfStmt>(S);
    const auto *Then = If ? dyn_cast<CompoundStmt>(If->getThen()) : nullptr;
    if (!Then || If->getElse() || If->getInit() || If->getConditionVariable() ||
        If->isConsteval() || Then->size() != 2)
      continue;
    // A strict comparison: of equal values, the first stays.
    const auto *Cmp = dyn_cast<BinaryOperator>(If->getCond()->IgnoreParens());
    if (!Cmp || (Cmp->getOpcode() != BO_GT && Cmp->getOpcode() != BO_LT))
      continue;
    const auto *First = dyn_cast<BinaryOperator>(*Then->body_begin());
    const auto *Second = dyn_cast<BinaryOperator>(*(Then->body_begin() + 1));
    if (!First || !Second || First->getOpcode() != BO_Assign ||
        Second->getOpcode() != BO_Assign)
      continue;
    // `X = e; P = p;` in either order, with the comparison of e and X.
    ModelArgExtreme A;
    A.Loop = LoopIdx;
    A.Statement = If;
    std::optional<bool> Side;
    for (int Order = 0; Order < 2 && !Side; ++Order) {
      if (Order)
        std::swap(First, Second);
      A.Extreme = LocalOf(First->getLHS());
      A.Term = First->getRHS();
      if (A.Extreme)
        Side = extremeSide(Ctx, Cmp, A.Term, A.Extreme);
    }
    if (!Side ||
        !Ctx.hasSameUnqualifiedType(A.Term->IgnoreParenImpCasts()->getType(),
                                    A.Extreme->getType()))
      continue;
    A.Greatest = *Side;
    A.Position = LocalOf(Second->getLHS());
    A.PositionValue = Second->getRHS();
    if (!A.Position || A.Position == A.Extreme || mentions(A.Term, A.Extreme) ||
        mentions(A.Term, A.Position) || mentions(A.PositionValue, A.Extreme) ||
        mentions(A.PositionValue, A.Position))
      continue;
    // Nothing else in the loop touches X or P.
    bool Other =
        mentions(loopCond(L), A.Extreme) || mentions(loopCond(L), A.Position) ||
        mentions(L.StepStmt, A.Extreme) || mentions(L.StepStmt, A.Position);
    for (const Stmt *O : BodyStmts)
      Other |= O != S && (mentions(O, A.Extreme) || mentions(O, A.Position));
    if (!Other)
      M.ArgExtremes.push_back(A);
  }
}

KernelModel::KernelModel(ASTContext &Ctx, const FunctionDecl &Kernel)
    : Ctx(Ctx), Kernel(Kernel) {
  Builder B(*this);
  B.build();
}

KernelModel::~KernelModel() = default;

std::vector<const Stmt *> autoprof::loopBody(const ModelLoop &L) {
  if (const auto *W = dyn_cast<WhileStmt>(L.S)) {
    std::vector<const Stmt *> Body = statementsOf(W->getBody());
    if (!Body.empty() && Body.back() == L.StepStmt)
      Body.pop_back();
    return Body;
  }
  if (const auto *F = dyn_cast<ForStmt>(L.S))
    return statementsOf(F->getBody());
  if (const auto *D = dyn_cast<DoStmt>(L.S))
    return statementsOf(D->getBody());
  return {};
}

std::optional<Polynomial> autoprof::warpStride(const KernelModel &M,
                                               const Polynomial &Index,
                                               std::string &Why) {
  Polynomial P = Index;
  // Loop variables give way to their first values, outer loops' variables
  // included; each substitution removes one loop's symbol for good.
  for (size_t Round = 0; Round <= M.loops().size(); ++Round) {
    std::vector<Symbol> Vars;
    for (const Symbol &S : P.symbols()) {
      if (S.Kind == Symbol::Opaque) {
        Why = "the index depends on `" + S.Name +
              "`, which the model does not see through";
        return std::nullopt;
      }
      if (S.Kind == Symbol::LoopVar)
        Vars.push_back(S);
    }
    if (Vars.empty()) {
      std::optional<Polynomial> C = P.coefficient(Symbol::threadIdx(0));
      if (!C)
        Why = "the index depends on threadIdx.x other than linearly";
      return C;
    }
    for (const Symbol &S : Vars) {
      const ModelLoop &L = M.loops()[S.Index];
      if (!L.counted() || L.Step.dependsOn([](const Symbol &X) {
            return X.mayVaryInBlock();
          })) {
        Why = "the index depends on `" + S.Name +
              "`, whose loop does not step every thread alike";
        return std::nullopt;
      }
      std::optional<Polynomial> Next = P.substitute(S, L.First);
      if (!Next) {
        Why = "the index overflows";
        return std::nullopt;
      }
      P = *Next;
    }
  }
  Why = "the index's loops refer to each other";
  return std::nullopt;
}

bool autoprof::readsOnly(ASTContext &Ctx, const VarDecl *V, const Stmt *S) {
  return onlyReadIn(Ctx, V, S);
}

const Expr *autoprof::loopCond(const ModelLoop &L) {
  if (const auto *W = dyn_cast<WhileStmt>(L.S))
    return W->getCond();
  if (const auto *F = dyn_cast<ForStmt>(L.S))
    return F->getCond();
  if (const auto *D = dyn_cast<DoStmt>(L.S))
    return D->getCond();
  return nullptr;
}

std::optional<std::vector<tooling::Replacement>>
autoprof::strideLoop(const ASTContext &Ctx, const ModelLoop &L,
                     StringRef Offset, StringRef Stride) {
  const Expr *Cond = loopCond(L);
  const Expr *Lo = L.Descending ? L.LowExpr : L.FirstExpr;
  // `for (V = Hi; V-- > Lo;)` has no step: one is written into its
  // parentheses.
  const auto *For = dyn_cast<ForStmt>(L.S);
  bool Decrements = L.DecrementsInCond && For && For->getRParenLoc().isFileID();
  if (!L.Var || !Cond || !L.FirstExpr || (!L.StepStmt && !Decrements) ||
      L.Step != Polynomial::constant(1))
    return std::nullopt;
  std::string Var = L.Var->getNameAsString();
  // The first value: the loop's own, or the lowest counting down (its low
  // bound, one more when strict, one less when the condition decrements).
  std::string Start;
  std::optional<int64_t> C = L.First.constantValue();
  if (C && (*C == 0 || L.Descending)) {
    Start = *C == 0 && !Offset.empty() ? "" : std::to_string(*C);
  } else {
    std::optional<std::string> LoText = Lo ? sourceText(Ctx, Lo) : std::nullopt;
    if (!LoText)
      return std::nullopt;
    Start = isa<ArraySubscriptExpr>(Lo->IgnoreImpCasts())
                ? *LoText
                : parenthesize(Lo, *LoText);
    if (Decrements && !L.LowStrict)
      Start += " - 1";
    else if (!Decrements && L.LowStrict)
      Start += " + 1";
  }
  if (!Offset.empty())
    Start += (Start.empty() ? "" : " + ") + Offset.str();
  std::vector<tooling::Replacement> Out;
  auto Push = [&](std::optional<tooling::Replacement> R) {
    if (R)
      Out.push_back(std::move(*R));
    return R.has_value();
  };
  // The end: the first value counting down (below it when the condition
  // decrements), `V < End` for `V != End`.
  if (L.Descending) {
    std::optional<std::string> Hi = sourceText(Ctx, L.FirstExpr);
    if (!Hi || !Push(replaceExpr(
                   Ctx, Cond,
                   Var + (Decrements ? " < " : " <= ") +
                       parenthesize(L.FirstExpr->IgnoreParenImpCasts(), *Hi))))
      return std::nullopt;
  } else if (L.NotEqual) {
    std::optional<std::string> End =
        L.EndExpr ? sourceText(Ctx, L.EndExpr) : std::nullopt;
    if (!End || !Push(replaceExpr(
                    Ctx, Cond,
                    Var + " < " +
                        parenthesize(L.EndExpr->IgnoreParenImpCasts(), *End))))
      return std::nullopt;
  }
  std::string Step = Var + " += " + Stride.str();
  // Inserted after the condition's `;`, with a space when none is there.
  if (Decrements) {
    const SourceManager &SM = Ctx.getSourceManager();
    const char *Before = SM.getCharacterData(For->getRParenLoc()) - 1;
    if (*Before == ';')
      Step = " " + Step;
  }
  if (!Push(replaceExpr(Ctx, L.FirstExpr, Start)) ||
      !Push(Decrements
                ? std::optional(tooling::Replacement(
                      Ctx.getSourceManager(), For->getRParenLoc(), 0, Step))
                : replaceExpr(Ctx, L.StepStmt, Step)))
    return std::nullopt;
  return Out;
}

int KernelModel::loopIndex(const Stmt *S) const {
  // A loop under `#pragma unroll` (or another loop hint) is that loop.
  while (const auto *A = dyn_cast_or_null<AttributedStmt>(S))
    S = A->getSubStmt();
  auto It = LoopOfStmt.find(S);
  return It == LoopOfStmt.end() ? -1 : static_cast<int>(It->second);
}

const DeclRefExpr *KernelModel::counterOutside(const ModelLoop &L) const {
  const VarDecl *V = L.symbolVar();
  if (!V)
    return nullptr;
  for (const DeclRefExpr *DR : referencesTo(Kernel.getBody(), V))
    if (!isWithin(Ctx, DR, L.S))
      return DR;
  return nullptr;
}

bool KernelModel::positionGrows(const ModelArgExtreme &A) const {
  ModelValue P = value(A.PositionValue);
  Symbol J = Symbol::loopVar(A.Loop, "");
  std::optional<Polynomial> C =
      P.Value ? P.Value->coefficient(J) : std::nullopt;
  std::optional<Polynomial> Rest =
      P.Value ? P.Value->substitute(J, Polynomial::constant(0)) : std::nullopt;
  return C && C->constantValue() && *C->constantValue() > 0 && Rest &&
         !Rest->dependsOn([&](const Symbol &S) {
           return S.Kind == Symbol::Opaque ||
                  (S.Kind == Symbol::LoopVar &&
                   S.Index == static_cast<int>(A.Loop));
         });
}

std::string KernelModel::splitArgExtremeWhy(const ModelArgExtreme &A,
                                            llvm::StringRef Threads) const {
  const ModelLoop &L = Loops[A.Loop];
  std::string At = "the loop at " + where(L.S);
  if (!isPure(A.Statement->getCond()) || !isPure(A.PositionValue))
    return At + " finds an extreme with side effects";
  for (const VarDecl *V : {A.Extreme, A.Position}) {
    std::string Name = "`" + V->getNameAsString() + "`";
    if (!valueOnEntry(Ctx, *V, *L.S))
      return Name + " is not given its value before " + At;
    // Found once, by this loop only.
    for (const ModelReduction &O : Reductions)
      if (O.Scalar == V)
        return Name + " is accumulated as well as found at " + At;
    for (const ModelArgExtreme &O : ArgExtremes)
      if (&O != &A && (O.Extreme == V || O.Position == V))
        return Name + " is found by more than one statement";
  }
  // The threads run the loop upwards: of equal extremes, the thread
  // counting down kept the last.
  if (L.Descending)
    return At + " counts down: of equal extremes, the " + Threads.str() +
           " would keep another than the thread";
  // The threads' positions order the iterations as the thread ran them.
  if (!positionGrows(A))
    return At + " records `" + text(A.PositionValue) +
           "` as the extreme's position, which does not grow with `" +
           L.Var->getNameAsString() + "`";
  return "";
}

/// Whether \p S, in an instantiation of a template, reads a value that
/// another instantiation may give otherwise: a template argument, a size
/// of a type, a static member of a class template's specialization, or a
/// variable initialised from one of those.
static bool dependsOnInstantiation(const Stmt *S, unsigned Depth = 0) {
  if (!S || Depth > 8)
    return S != nullptr;
  if (isa<SubstNonTypeTemplateParmExpr, UnaryExprOrTypeTraitExpr>(S))
    return true;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl())) {
      if (V->isStaticDataMember() &&
          isa<ClassTemplateSpecializationDecl>(V->getDeclContext()))
        return true;
      if (dependsOnInstantiation(V->getInit(), Depth + 1))
        return true;
    }
  for (const Stmt *C : S->children())
    if (C && dependsOnInstantiation(C, Depth))
      return true;
  return false;
}

std::string KernelModel::fewerIterationsWhy(llvm::ArrayRef<unsigned> Loops,
                                            unsigned Threads) const {
  const ModelLoop *Longest = nullptr;
  for (unsigned I : Loops) {
    const ModelLoop &L = this->Loops[I];
    if (!L.TripCount || *L.TripCount >= static_cast<int64_t>(Threads))
      return "";
    // A template's other instantiations may run it longer.
    if (Kernel.isTemplateInstantiation() &&
        (dependsOnInstantiation(L.FirstExpr) ||
         dependsOnInstantiation(loopCond(L)) ||
         dependsOnInstantiation(L.StepStmt)))
      return "";
    if (!Longest || *L.TripCount > *Longest->TripCount)
      Longest = &L;
  }
  if (!Longest)
    return "";
  int64_t N = *Longest->TripCount;
  return "the loop at " + where(Longest->S) + " runs " + std::to_string(N) +
         (N == 1 ? " iteration" : " iterations") + ", fewer than the " +
         std::to_string(Threads) + " threads that would share it" +
         (Loops.size() > 1 ? ", and no other loop runs more" : "");
}

std::string KernelModel::where(const Stmt *S) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation L = SM.getFileLoc(S->getBeginLoc());
  std::string At = "line " + std::to_string(SM.getPresumedLineNumber(L));
  // A place outside the kernel's file (a launch in the source of a kernel
  // kept in a header) names its file.
  SourceLocation K = SM.getFileLoc(Kernel.getLocation());
  if (SM.getFileID(L) != SM.getFileID(K))
    At += " of " + llvm::sys::path::filename(SM.getFilename(L)).str();
  return At;
}

namespace {

/// Computes values; a helper of KernelModel::value().
class ValueComputer {
public:
  ValueComputer(const KernelModel &M, ASTContext &Ctx,
                llvm::ArrayRef<ModelLoop> Loops)
      : M(M), Ctx(Ctx), Loops(Loops) {}

  /// The value of \p E, an expression of the body of the function \p CE
  /// calls, with its parameters bound to the call's arguments.
  ModelValue computeInCall(const CallExpr *CE, const Expr *E) {
    return call(CE, E, 0);
  }

  ModelValue compute(const Expr *E, unsigned Depth) {
    if (Depth > MaxDepth)
      return fail("the value at " + M.where(E) + " is computed too deeply");
    E = E->IgnoreParens();
    if (!E->isValueDependent() && !E->isTypeDependent() &&
        !E->containsErrors() && E->getType()->isIntegralOrEnumerationType()) {
      Expr::EvalResult R;
      if (E->EvaluateAsInt(R, Ctx)) {
        std::optional<int64_t> V = R.Val.getInt().tryExtValue();
        if (!V)
          return fail("the constant at " + M.where(E) +
                      " does not fit 64 bits");
        return ok(Polynomial::constant(*V));
      }
    }
    if (auto S = builtinSymbol(E))
      return ok(Polynomial::symbol(*S));
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      const Expr *Sub = C->getSubExpr();
      if (C->getCastKind() == CK_LValueToRValue || C->getCastKind() == CK_NoOp)
        return compute(Sub, Depth + 1);
      if (!C->getType()->isIntegerType() || !Sub->getType()->isIntegerType())
        return fail("the value at " + M.where(E) +
                    " is converted from a non-integer type");
      if (Ctx.getTypeSize(C->getType()) < 32 &&
          Ctx.getTypeSize(C->getType()) < Ctx.getTypeSize(Sub->getType()))
        return fail("the value at " + M.where(E) +
                    " is narrowed to fewer than 32 bits");
      return compute(Sub, Depth + 1);
    }
    if (const auto *DR = dyn_cast<DeclRefExpr>(E))
      return reference(DR, Depth);
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() == UO_Plus)
        return compute(U->getSubExpr(), Depth + 1);
      if (U->getOpcode() == UO_Minus) {
        ModelValue S = compute(U->getSubExpr(), Depth + 1);
        if (!S)
          return S;
        return wrap(Polynomial::sub(Polynomial(), *S.Value), E);
      }
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      BinaryOperatorKind Op = B->getOpcode();
      if (Op == BO_Add || Op == BO_Sub || Op == BO_Mul || Op == BO_Shl ||
          Op == BO_Div || Op == BO_Shr) {
        ModelValue L = compute(B->getLHS(), Depth + 1);
        if (!L)
          return L;
        ModelValue R = compute(B->getRHS(), Depth + 1);
        if (!R)
          return R;
        const Polynomial &A = *L.Value, &C = *R.Value;
        switch (Op) {
        case BO_Add:
          return wrap(Polynomial::add(A, C), E);
        case BO_Sub:
          return wrap(Polynomial::sub(A, C), E);
        case BO_Mul:
          return wrap(Polynomial::mul(A, C), E);
        case BO_Shl:
          if (auto K = C.constantValue(); K && *K >= 0 && *K < 62)
            return wrap(
                Polynomial::mul(A, Polynomial::constant(int64_t(1) << *K)), E);
          break;
        default:
          break;
        }
        return fail("`" + text(E) + "` at " + M.where(E) +
                    " divides or shifts a value that is not constant");
      }
    }
    if (const auto *CE = dyn_cast<CallExpr>(E)) {
      if (isMul24(CE)) {
        ModelValue L = compute(CE->getArg(0), Depth + 1);
        if (!L)
          return L;
        ModelValue R = compute(CE->getArg(1), Depth + 1);
        if (!R)
          return R;
        return wrap(Polynomial::mul(*L.Value, *R.Value), E);
      }
      if (const Expr *R = helperReturn(Ctx, CE->getDirectCallee()))
        return call(CE, R, Depth);
    }
    // A field of a parameter passed by value: fixed for the launch. (Also
    // through the parameter of a helper it is passed to.)
    if (const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
        ME && !ME->isArrow())
      if (const auto *DR =
              dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts()))
        if (const ParmVarDecl *P =
                kernelRecord(dyn_cast<ParmVarDecl>(DR->getDecl()));
            fixedRecord(Ctx, M.kernel(), P))
          if (const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
              F && F->getType()->isIntegerType() && !F->isBitField() &&
              F->getFieldIndex() < 1024 && !builtinSymbol(E))
            return ok(Polynomial::symbol(Symbol::paramField(
                P->getFunctionScopeIndex(), F->getFieldIndex(),
                P->getNameAsString() + "." + F->getNameAsString())));
    if (isa<ArraySubscriptExpr>(E) ||
        (isa<UnaryOperator>(E) &&
         cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
      return fail("`" + text(E) + "` at " + M.where(E) +
                  " is loaded from memory");
    return fail("`" + text(E) + "` at " + M.where(E) +
                " is not a sum of products of indices, parameters and "
                "constants");
  }

private:
  /// Whether \p CE is `__umul24(A, B)` or `__mul24(A, B)`, read as `A * B`:
  /// the product of the operands' low 24 bits is the product itself when
  /// both fit in 24 bits, as a thread's index and its block's size and
  /// position (below 2^23 blocks) do; a kernel whose operands do not fit
  /// computes another value, and verification compares the two.
  static bool isMul24(const CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && FD->getIdentifier() && CE->getNumArgs() == 2 &&
           (FD->getName() == "__umul24" || FD->getName() == "__mul24") &&
           CE->getArg(0)->getType()->isIntegerType() &&
           CE->getArg(1)->getType()->isIntegerType();
  }

  /// The value of \p CE, a call of a transparent helper returning \p R:
  /// R with the helper's parameters bound to the arguments' values.
  ModelValue call(const CallExpr *CE, const Expr *R, unsigned Depth) {
    const FunctionDecl *Def = nullptr;
    CE->getDirectCallee()->hasBody(Def);
    if (!Def || Def->getNumParams() != CE->getNumArgs() ||
        Helpers.size() >= MaxHelperDepth)
      return fail("`" + text(CE) + "` at " + M.where(CE) +
                  " calls helpers too deeply");
    Frame Args;
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      const ParmVarDecl *P = Def->getParamDecl(I);
      QualType T = P->getType().getNonReferenceType();
      if (T->isRecordType()) {
        if (const ParmVarDecl *K = kernelRecord(argumentParam(CE->getArg(I))))
          Args.Records[P] = K;
        continue;
      }
      if (!T->isIntegralOrEnumerationType())
        continue;
      ModelValue A = compute(CE->getArg(I), Depth + 1);
      if (!A)
        return A;
      Args.Values[P] = *A.Value;
    }
    Helpers.push_back(std::move(Args));
    ModelValue V = compute(R, Depth + 1);
    Helpers.pop_back();
    if (!V)
      return fail("`" + text(CE) + "` at " + M.where(CE) + ": " + V.Why);
    return V;
  }

  ModelValue reference(const DeclRefExpr *DR, unsigned Depth) {
    const auto *V = dyn_cast<VarDecl>(DR->getDecl());
    // A helper's parameter may be a reference (helperReturn()).
    QualType T = isa_and_nonnull<ParmVarDecl>(V) && !Helpers.empty()
                     ? V->getType().getNonReferenceType()
                 : V ? V->getType()
                     : QualType();
    if (!V || !T->isIntegralOrEnumerationType())
      return fail("`" + DR->getNameInfo().getAsString() + "` at " +
                  M.where(DR) + " is not an integer variable");
    std::string Name = V->getNameAsString();
    // The variable of an enclosing counted loop.
    int Best = -1;
    for (unsigned I = 0; I < Loops.size(); ++I)
      if (const auto *FS = dyn_cast<ForStmt>(Loops[I].S);
          Loops[I].symbolVar() == V && isWithin(Ctx, DR, Loops[I].S) &&
          (!FS || !isWithin(Ctx, DR, FS->getInit())))
        if (Best < 0 || isWithin(Ctx, Loops[I].S, Loops[Best].S))
          Best = I;
    if (Best >= 0)
      return ok(Polynomial::symbol(Symbol::loopVar(Best, Name)));
    if (const auto *P = dyn_cast<ParmVarDecl>(V);
        P && cast<Decl>(P->getDeclContext())->getCanonicalDecl() !=
                 M.kernel().getCanonicalDecl()) {
      // A parameter of the helper being followed.
      if (!Helpers.empty())
        if (auto It = Helpers.back().Values.find(P);
            It != Helpers.back().Values.end())
          return ok(It->second);
      return fail("the helper parameter `" + Name + "` at " + M.where(DR) +
                  " is not an integer");
    }
    if (const auto *P = dyn_cast<ParmVarDecl>(V)) {
      if (!isUnmodified(Ctx, *P))
        return fail("the parameter `" + Name + "` is changed in the kernel");
      return ok(
          Polynomial::symbol(Symbol::param(P->getFunctionScopeIndex(), Name)));
    }
    for (const ModelLoop &L : Loops) {
      if (L.InitVar != V)
        continue;
      if (!L.counted() && isWithin(Ctx, DR, L.S))
        return fail(L.Why);
      return fail("`" + Name + "` at " + M.where(DR) +
                  " is read after its loop");
    }
    if (!V->hasLocalStorage() && !V->getType().isConstQualified())
      return fail("`" + Name + "` is a global variable that may change");
    if (const Expr *E = soleValue(Ctx, *V))
      return M.value(E);
    if (!V->getInit())
      return fail("`" + Name + "` at " + M.where(DR) +
                  " is not given its value where it is declared, nor by one "
                  "assignment that every read follows");
    return fail("`" + Name + "` at " + M.where(DR) +
                " is assigned more than once");
  }

  std::string text(const Expr *E) { return M.text(E); }
  ModelValue ok(Polynomial P) { return ModelValue{std::move(P), ""}; }
  ModelValue fail(std::string Why) {
    return ModelValue{std::nullopt, std::move(Why)};
  }
  ModelValue wrap(std::optional<Polynomial> P, const Expr *E) {
    if (!P)
      return fail("the value at " + M.where(E) + " overflows 64 bits");
    return ok(std::move(*P));
  }

  /// The arguments of one helper call: the values of its integer
  /// parameters, and the kernel's struct parameter that each of its struct
  /// parameters is (by value or by reference).
  struct Frame {
    llvm::DenseMap<const ParmVarDecl *, Polynomial> Values;
    llvm::DenseMap<const ParmVarDecl *, const ParmVarDecl *> Records;
  };

  /// \p P when it is a parameter of the kernel; the kernel's parameter
  /// that it stands for when it is a struct parameter of the helper being
  /// followed; else null.
  const ParmVarDecl *kernelRecord(const ParmVarDecl *P) const {
    if (!P)
      return nullptr;
    if (cast<Decl>(P->getDeclContext())->getCanonicalDecl() ==
        M.kernel().getCanonicalDecl())
      return P;
    if (Helpers.empty())
      return nullptr;
    return Helpers.back().Records.lookup(P);
  }

  const KernelModel &M;
  ASTContext &Ctx;
  llvm::ArrayRef<ModelLoop> Loops;
  /// The arguments of the helpers being followed, innermost last.
  std::vector<Frame> Helpers;
};

} // namespace

bool KernelModel::isPure(const Stmt *S) const { return ::isPure(Ctx, S); }

bool KernelModel::isLocalSet(const Stmt *S) const {
  const auto *A = dyn_cast<BinaryOperator>(S);
  if (!A || !A->isAssignmentOp())
    return false;
  const auto *DR = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  return V && !isa<ParmVarDecl>(V) && V->isLocalVarDecl() &&
         !V->isStaticLocal() && !V->getType()->isReferenceType() &&
         V->getType()->isScalarType() && !V->getType().isVolatileQualified() &&
         ::isPure(Ctx, A->getRHS());
}

bool KernelModel::isSkip(const Stmt *S, const ModelLoop &L) const {
  const auto *If = dyn_cast<IfStmt>(S);
  if (!If || If->getElse() || If->getInit() || If->getConditionVariable() ||
      If->isConsteval() || !isa<ForStmt>(L.S) || !::isPure(Ctx, If->getCond()))
    return false;
  const Stmt *Then = If->getThen();
  if (const auto *CS = dyn_cast<CompoundStmt>(Then))
    Then = CS->size() == 1 ? CS->body_front() : nullptr;
  return Then && isa<ContinueStmt>(Then);
}

const ModelAccess *KernelModel::storeTarget(const Stmt *S) const {
  const auto *A = dyn_cast<BinaryOperator>(S);
  if (!A || !A->isAssignmentOp())
    return nullptr;
  const Expr *LHS = A->getLHS()->IgnoreParens();
  for (const ModelAccess &Acc : Accesses)
    if (Acc.E == LHS && Acc.Write)
      return &Acc;
  return nullptr;
}

std::string KernelModel::text(const Expr *E) const {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  StringRef T = R.isValid() ? Lexer::getSourceText(R, SM, Ctx.getLangOpts())
                            : StringRef();
  std::string Out;
  bool Space = false;
  for (char C : T) {
    if (Out.size() >= 48) {
      Out += "...";
      break;
    }
    bool Blank = C == ' ' || C == '\n' || C == '\t' || C == '\r';
    if (Blank || static_cast<unsigned char>(C) < 32 ||
        static_cast<unsigned char>(C) >= 127) {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out.empty() ? "an expression" : Out;
}

/// Whether the kernel \p K only reads fields of its parameter \p P: every
/// reference to it is the object of a `.field` whose value is read.
static bool fieldsOnlyRead(ASTContext &Ctx, const FunctionDecl &K,
                           const ParmVarDecl &P) {
  if (P.getType().isConstQualified())
    return true;
  for (const DeclRefExpr *DR : referencesTo(K.getBody(), &P)) {
    if (isHelperArgument(Ctx, DR))
      continue;
    const Stmt *S = DR;
    auto Up = [&]() -> const Stmt * {
      for (;;) {
        auto Parents = Ctx.getParents(*S);
        if (Parents.size() != 1)
          return nullptr;
        const Stmt *Q = Parents[0].get<Stmt>();
        if (!Q || !isa<ParenExpr>(Q))
          return Q;
        S = Q;
      }
    };
    const auto *ME = dyn_cast_or_null<MemberExpr>(Up());
    if (!ME || ME->isArrow())
      return false;
    S = ME;
    if (isHelperArgument(Ctx, ME))
      continue;
    const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(Up());
    if (!IC || IC->getCastKind() != CK_LValueToRValue)
      return false;
  }
  return true;
}

/// \p P with each multiple of blockIdx.d or gridDim.d by the block's size
/// B_d written with blockDim.d: `blockIdx.x * 256` is `blockIdx.x *
/// blockDim.x` in blocks of 256. Nullopt on overflow.
static std::optional<Polynomial> withBlockSize(const Polynomial &P,
                                               const Dim3 &Block) {
  Polynomial Out = P;
  for (unsigned D = 0; D < 3; ++D) {
    if (Block[D] <= 1)
      continue;
    Polynomial Dim = Polynomial::symbol(Symbol::blockDim(D));
    for (const Symbol &S : {Symbol::blockIdx(D), Symbol::gridDim(D)}) {
      if (!Out.dependsOn(S))
        continue;
      std::optional<Polynomial> C = Out.coefficient(S);
      if (!C || C->dependsOn(Symbol::blockDim(D)))
        continue;
      std::optional<Polynomial> Scaled = Polynomial::divExact(*C, Block[D]);
      if (!Scaled)
        continue;
      Polynomial Sym = Polynomial::symbol(S);
      auto Old = Polynomial::mul(*C, Sym);
      auto Rest = Old ? Polynomial::sub(Out, *Old) : std::nullopt;
      auto New = Polynomial::mul(*Scaled, Sym);
      New = New ? Polynomial::mul(*New, Dim) : std::nullopt;
      auto Sum = Rest && New ? Polynomial::add(*Rest, *New) : std::nullopt;
      if (!Sum)
        return std::nullopt;
      Out = *Sum;
    }
  }
  return Out;
}

ModelValue KernelModel::value(const Expr *E) const {
  auto It = Values.find(E);
  if (It != Values.end())
    return It->second;
  // Locals chain into their initializers through value(), so the depth is
  // kept per call chain.
  static thread_local unsigned Depth = 0;
  if (Depth > MaxDepth)
    return ModelValue{std::nullopt,
                      "the value at " + where(E) + " is computed too deeply"};
  ++Depth;
  ValueComputer C(*this, Ctx, Loops);
  ModelValue V = C.compute(E, 0);
  --Depth;
  V = forFixedBlock(std::move(V), E);
  Values[E] = V;
  return V;
}

ModelValue KernelModel::valueInCall(const CallExpr *Call, const Expr *E) const {
  if (!Call->getDirectCallee())
    return ModelValue{std::nullopt,
                      "the call at " + where(Call) + " has no callee"};
  ValueComputer C(*this, Ctx, Loops);
  return forFixedBlock(C.computeInCall(Call, E), Call);
}

ModelValue KernelModel::forFixedBlock(ModelValue V, const Expr *E) const {
  if (V && FixedBlock)
    if (std::optional<Polynomial> N = withBlockSize(*V.Value, *FixedBlock);
        N && *N != *V.Value) {
      V.Value = *N;
      BlockSizeReads.push_back(E);
      if (BlockSizeWhy.empty())
        BlockSizeWhy = "`" + text(E) + "` at " + where(E) +
                       " takes the block's size as the constant of its "
                       "launches";
    }
  return V;
}

std::vector<const Expr *>
KernelModel::expressionsOfValue(const Polynomial &P,
                                std::vector<const Expr *> &Uncovered) const {
  return expressionsOfValues(P, Uncovered);
}

std::vector<const Expr *>
KernelModel::expressionsOfValues(llvm::ArrayRef<Polynomial> Ps,
                                 std::vector<const Expr *> &Uncovered) const {
  auto IsOne = [&](const ModelValue &V) {
    return V && llvm::is_contained(Ps, *V.Value);
  };
  const Stmt *Body = Kernel.getBody();
  // Locals that hold part of the value: their initializer reads a builtin
  // and their value is not P (`int tid = threadIdx.x;`).
  llvm::SmallPtrSet<const VarDecl *, 8> Parts;
  std::function<bool(const Stmt *)> ReadsBuiltin = [&](const Stmt *S) {
    if (!S)
      return false;
    if (const auto *E = dyn_cast<Expr>(S);
        E && (builtinSymbol(E) || isBuiltinHelperCall(Ctx, E)))
      return true;
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
        return Parts.count(V) > 0;
    if (isa<PseudoObjectExpr>(S))
      return false;
    for (const Stmt *C : S->children())
      if (ReadsBuiltin(C))
        return true;
    return false;
  };
  std::vector<const VarDecl *> Locals;
  std::function<void(const Stmt *)> FindLocals = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D);
            V && V->getInit() && V->getType()->isIntegerType())
          Locals.push_back(V);
    for (const Stmt *C : S->children())
      FindLocals(C);
  };
  FindLocals(Body);
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const VarDecl *V : Locals) {
      if (Parts.count(V) || !ReadsBuiltin(V->getInit()))
        continue;
      if (IsOne(value(V->getInit())))
        continue;
      Parts.insert(V);
      Changed = true;
    }
  }

  std::vector<const Expr *> Found;
  llvm::SmallPtrSet<const Stmt *, 16> Covered;
  std::function<void(const Stmt *)> Mark = [&](const Stmt *X) {
    if (!X)
      return;
    Covered.insert(X);
    if (isa<PseudoObjectExpr>(X))
      return;
    for (const Stmt *C : X->children())
      Mark(C);
  };
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (const auto *E = dyn_cast<Expr>(S)) {
      if (E->getType()->isIntegerType() && ReadsBuiltin(E)) {
        if (IsOne(value(E))) {
          // The outermost spelling of the value, without parentheses or
          // implicit casts.
          const Expr *Pick = E->IgnoreParens();
          while (const auto *IC = dyn_cast<ImplicitCastExpr>(Pick))
            Pick = IC->getSubExpr()->IgnoreParens();
          Found.push_back(Pick);
          Mark(E);
          return;
        }
      }
      if (isa<PseudoObjectExpr>(E))
        return;
    }
    for (const Stmt *C : S->children())
      Walk(C);
  };
  Walk(Body);
  // A part is covered when every use of it is; then so are the builtins its
  // initializer reads.
  auto UsesCovered = [&](const VarDecl *V) {
    bool All = true;
    std::function<void(const Stmt *)> Check = [&](const Stmt *S) {
      if (!S || !All)
        return;
      if (const auto *DR = dyn_cast<DeclRefExpr>(S);
          DR && DR->getDecl() == V && !Covered.count(DR))
        All = false;
      for (const Stmt *C : S->children())
        Check(C);
    };
    Check(Body);
    return All;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (const VarDecl *V : Locals)
      if (Parts.count(V) && !Covered.count(V->getInit()) && UsesCovered(V)) {
        Mark(V->getInit());
        Changed = true;
      }
  }
  for (const Expr *U : BuiltinUses)
    if (!Covered.count(U))
      Uncovered.push_back(U);
  return Found;
}

const std::vector<KernelLaunch> *
KernelModel::someLaunches(std::string &Why) const {
  if (!Launches) {
    Why = LaunchWhy;
    return nullptr;
  }
  if (Launches->empty()) {
    Why = "it is never launched in this translation unit";
    return nullptr;
  }
  return &*Launches;
}
