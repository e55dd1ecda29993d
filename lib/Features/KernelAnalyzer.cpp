//===- KernelAnalyzer.cpp - Static features of one CUDA kernel ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Walks a kernel's body, and the bodies of the device functions it calls,
/// and counts the features of docs/features.md. Each function is analysed in
/// two phases: a flow-insensitive dataflow pass gives every local variable an
/// IndexForm (and every local pointer its origin and offset), then a counting
/// pass classifies each access and counts operations, weighting those inside
/// loops by LoopWeight per level.
///
//===----------------------------------------------------------------------===//

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/KernelModel/KernelModel.h"
#include "autoprof/KernelModel/LaunchSites.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace clang;
using namespace autoprof;

namespace {

/// Operations inside a loop count this many times per nesting level.
constexpr double LoopWeight = 10.0;
/// Device functions are followed into this many levels of calls.
constexpr unsigned MaxCallDepth = 8;

using Space = MemoryAccess::Space;

/// Where a pointer expression points: its root declaration, the memory space
/// and the element offset from the root.
struct PointerInfo {
  bool Known = false;
  Space Where = Space::Global;
  const ValueDecl *Root = nullptr;
  IndexForm Offset = IndexForm::constant(0);
};

bool sameForm(const IndexForm &A, const IndexForm &B) {
  return A.Constant == B.Constant && A.Stride == B.Stride &&
         A.ThreadDependent == B.ThreadDependent && A.Indirect == B.Indirect;
}

bool canEvaluate(const Expr *E) {
  return !E->isValueDependent() && !E->isTypeDependent() &&
         !E->containsErrors() && !E->isInstantiationDependent();
}

std::optional<int64_t> evaluateInt(const Expr *E, const ASTContext &Ctx) {
  if (!E || !canEvaluate(E) || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

bool inNamespace(const Decl *D, llvm::StringRef NS) {
  for (const DeclContext *C = D ? D->getDeclContext() : nullptr; C;
       C = C->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(C))
      if (N->getName() == NS)
        return true;
  return false;
}

/// The name of the function a call refers to, also in dependent code.
std::string calleeName(const CallExpr *CE) {
  if (const FunctionDecl *FD = CE->getDirectCallee())
    if (FD->getDeclName().isIdentifier())
      return FD->getName().str();
  const Expr *Callee = CE->getCallee()->IgnoreParenImpCasts();
  if (const auto *U = dyn_cast<UnresolvedLookupExpr>(Callee))
    return U->getName().getAsString();
  if (const auto *M = dyn_cast<MemberExpr>(Callee))
    return M->getMemberDecl()->getNameAsString();
  if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Callee))
    return M->getMember().getAsString();
  return "";
}

/// Which CUDA builtin variable component an expression reads, if any:
/// "threadIdx.x" and so on.
std::optional<std::pair<std::string, char>> builtinVar(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    E = PO->getSyntacticForm()->IgnoreParenImpCasts();
  const auto *P = dyn_cast<MSPropertyRefExpr>(E);
  if (!P)
    return std::nullopt;
  const Expr *Base = P->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *O = dyn_cast<OpaqueValueExpr>(Base))
    Base = O->getSourceExpr()->IgnoreParenImpCasts();
  const auto *DR = dyn_cast<DeclRefExpr>(Base);
  if (!DR)
    return std::nullopt;
  std::string Var = DR->getDecl()->getNameAsString();
  std::string Field = P->getPropertyDecl()->getNameAsString();
  if (Field.size() != 1 || (Var != "threadIdx" && Var != "blockIdx" &&
                            Var != "blockDim" && Var != "gridDim"))
    return std::nullopt;
  return std::make_pair(Var, Field[0]);
}

bool isVectorType(QualType T) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
    for (const char *B :
         {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
          "longlong", "ulonglong", "float", "double"})
      for (const char *N : {"2", "3", "4"})
        S.insert(std::string(B) + N);
    S.insert("__half2");
    S.insert("__nv_bfloat162");
    return S;
  }();
  T = T.getCanonicalType().getUnqualifiedType();
  if (const auto *RD = T->getAsRecordDecl())
    return RD->getIdentifier() && Names.contains(RD->getName());
  return false;
}

bool isHalfType(QualType T) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isHalfType() || T->isFloat16Type() || T->isBFloat16Type())
    return true;
  if (const auto *RD = T->getAsRecordDecl())
    if (RD->getIdentifier()) {
      llvm::StringRef N = RD->getName();
      return N == "__half" || N == "__half2" || N == "__nv_bfloat16" ||
             N == "__nv_bfloat162";
    }
  return false;
}

bool isHalf2Type(QualType T) {
  if (const auto *RD = T.getNonReferenceType()->getAsRecordDecl())
    return RD->getIdentifier() &&
           (RD->getName() == "__half2" || RD->getName() == "__nv_bfloat162");
  return false;
}

const llvm::StringSet<> &transcendentalNames() {
  static const llvm::StringSet<> S = [] {
    llvm::StringSet<> Set;
    for (const char *N :
         {"exp",    "exp2",   "exp10",   "expm1",  "log",     "log2",
          "log10",  "log1p",  "sin",     "cos",    "tan",     "sincos",
          "sinpi",  "cospi",  "asin",    "acos",   "atan",    "atan2",
          "sinh",   "cosh",   "tanh",    "asinh",  "acosh",   "atanh",
          "pow",    "sqrt",   "rsqrt",   "cbrt",   "rcbrt",   "erf",
          "erfc",   "erfinv", "erfcinv", "erfcx",  "normcdf", "normcdfinv",
          "lgamma", "tgamma", "hypot",   "rhypot", "j0",      "j1",
          "y0",     "y1"}) {
      Set.insert(N);
      Set.insert(std::string(N) + "f");
    }
    return Set;
  }();
  return S;
}

const llvm::StringSet<> &fastIntrinsicNames() {
  static const llvm::StringSet<> S = {
      "__expf",     "__exp10f",   "__logf",     "__log2f",    "__log10f",
      "__sinf",     "__cosf",     "__tanf",     "__sincosf",  "__powf",
      "__fdividef", "__frcp_rn",  "__frcp_rz",  "__frcp_ru",  "__frcp_rd",
      "__fsqrt_rn", "__fsqrt_rz", "__fsqrt_ru", "__fsqrt_rd", "__frsqrt_rn",
      "__fdiv_rn",  "__fdiv_rz",  "__fdiv_ru",  "__fdiv_rd",  "__saturatef"};
  return S;
}

bool isSyncthreads(llvm::StringRef N) {
  return N == "__syncthreads" || N == "__syncthreads_count" ||
         N == "__syncthreads_and" || N == "__syncthreads_or" ||
         N == "__barrier_sync";
}

bool isShuffle(llvm::StringRef N) {
  return N.starts_with("__shfl") || N == "shfl" || N == "shfl_down" ||
         N == "shfl_up" || N == "shfl_xor";
}

bool isVote(llvm::StringRef N) {
  return N == "__all_sync" || N == "__any_sync" || N == "__ballot_sync" ||
         N == "__uni_sync" || N == "__activemask" || N == "__all" ||
         N == "__any" || N == "__ballot" || N == "__match_any_sync" ||
         N == "__match_all_sync";
}

bool isAtomic(llvm::StringRef N) {
  return N.starts_with("atomic") && N.size() > 6 && isupper(N[6]);
}

bool isHalfIntrinsic(llvm::StringRef N) {
  static const llvm::StringSet<> S = {
      "__hadd",  "__hsub",     "__hmul",     "__hdiv",    "__hfma",
      "__hneg",  "__hmax",     "__hmin",     "__hadd2",   "__hsub2",
      "__hmul2", "__h2div",    "__hfma2",    "__hneg2",   "__hmax2",
      "__hmin2", "__hadd_sat", "__hmul_sat", "__hfma_sat"};
  return S.contains(N);
}

/// Analyses one kernel and the device functions it calls.
class Analyzer {
public:
  Analyzer(ASTContext &Ctx, KernelFeatures &F, KernelFacts *Facts,
           const KernelModel *Model)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), F(F), Facts(Facts), Model(Model) {
    if (Model)
      for (const ModelAccess &A : Model->accesses())
        ModelAccesses[A.E] = &A;
  }

  void analyzeKernel(const FunctionDecl &Kernel);

  /// Per-invocation state of an analysed function.
  struct Frame {
    const FunctionDecl *FD = nullptr;
    bool IsKernel = false;
    unsigned DepthBase = 0;
    llvm::DenseMap<const ValueDecl *, IndexForm> Values;
    llvm::DenseMap<const ValueDecl *, PointerInfo> Pointers;
    llvm::DenseMap<const ValueDecl *, IndexForm> ParamValues;
    llvm::DenseMap<const ValueDecl *, PointerInfo> ParamPointers;
  };

  IndexForm form(const Expr *E);
  PointerInfo pointer(const Expr *E);
  /// The root and full element offset of an element access `Base[Idx]`.
  PointerInfo subscript(const ArraySubscriptExpr *AS);

  void analyzeFunction(Frame &Fr);
  void recordAccess(const PointerInfo &P, QualType ElemTy, bool Load,
                    bool Store, unsigned Depth, SourceLocation Loc,
                    const Expr *E = nullptr);
  /// The class of the global access \p E of the kernel's own body from the
  /// kernel model, with its stride when constant; nullopt when the model
  /// does not know its index.
  std::optional<AccessClass> modelClass(const Expr *E,
                                        std::optional<int64_t> &Stride) const;
  MemoryAccess describeAccess(const PointerInfo &P, QualType ElemTy,
                              unsigned Depth, SourceLocation Loc) const;
  /// Notes, for KernelFacts, a condition whose value may vary by thread.
  void noteCondition(const Expr *Cond);
  void analyzeCall(const CallExpr *CE, unsigned Depth);
  double weight(unsigned Depth) const { return std::pow(LoopWeight, Depth); }

  ASTContext &Ctx;
  SourceManager &SM;
  KernelFeatures &F;
  KernelFacts *Facts;
  const KernelModel *Model;
  llvm::DenseMap<const Expr *, const ModelAccess *> ModelAccesses;
  Frame *Current = nullptr;
  llvm::SmallVector<const FunctionDecl *, 8> CallStack;
  llvm::SmallPtrSet<const ValueDecl *, 4> ConflictArrays;
  llvm::SmallPtrSet<const VarDecl *, 16> CountedDecls;
  double WeightedFlops = 0;
  double WeightedGlobalAccesses = 0;
};

IndexForm Analyzer::form(const Expr *E) {
  if (!E)
    return IndexForm::uniform();
  E = E->IgnoreParens();
  if (auto V = evaluateInt(E, Ctx))
    return IndexForm::constant(*V);
  if (auto B = builtinVar(E)) {
    if (B->first == "threadIdx")
      return B->second == 'x' ? IndexForm::threadIdxX()
                              : IndexForm::threadIdxYZ();
    return IndexForm::uniform();
  }
  if (const auto *IC = dyn_cast<ImplicitCastExpr>(E)) {
    if (IC->getCastKind() == CK_LValueToRValue) {
      const Expr *Sub = IC->getSubExpr()->IgnoreParens();
      if (isa<ArraySubscriptExpr>(Sub) || isa<UnaryOperator>(Sub) ||
          isa<MemberExpr>(Sub))
        return form(Sub);
    }
    return form(IC->getSubExpr());
  }
  if (const auto *C = dyn_cast<CastExpr>(E))
    return form(C->getSubExpr());
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DR->getDecl();
    auto It = Current->Values.find(D);
    if (It != Current->Values.end())
      return It->second;
    auto PIt = Current->ParamValues.find(D);
    if (PIt != Current->ParamValues.end())
      return PIt->second;
    return IndexForm::uniform();
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    if (AS->getType()->isArrayType())
      return IndexForm::uniform();
    return subscript(AS).Offset.loadedThrough();
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    IndexForm L = form(BO->getLHS()), R = form(BO->getRHS());
    switch (BO->getOpcode()) {
    case BO_Add:
    case BO_AddAssign:
      return IndexForm::add(L, R);
    case BO_Sub:
    case BO_SubAssign:
      return IndexForm::sub(L, R);
    case BO_Mul:
    case BO_MulAssign:
      return IndexForm::mul(L, R);
    case BO_Div:
    case BO_DivAssign:
      return IndexForm::div(L, R);
    case BO_Rem:
    case BO_RemAssign:
      return IndexForm::rem(L, R);
    case BO_Shl:
    case BO_ShlAssign:
      if (R.Constant && *R.Constant >= 0 && *R.Constant < 62)
        return IndexForm::mul(L,
                              IndexForm::constant(int64_t(1) << *R.Constant));
      return IndexForm::opaque(L, R);
    case BO_Shr:
    case BO_ShrAssign:
      if (R.Constant && *R.Constant >= 0 && *R.Constant < 62)
        return IndexForm::div(L,
                              IndexForm::constant(int64_t(1) << *R.Constant));
      return IndexForm::opaque(L, R);
    case BO_And:
    case BO_AndAssign:
      if (R.Constant && *R.Constant > 0 &&
          ((*R.Constant + 1) & *R.Constant) == 0)
        return IndexForm::rem(L, IndexForm::constant(*R.Constant + 1));
      return IndexForm::opaque(L, R);
    case BO_Comma:
    case BO_Assign:
      return R;
    default:
      return IndexForm::opaque(L, R);
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    IndexForm S = form(UO->getSubExpr());
    switch (UO->getOpcode()) {
    case UO_Minus:
      return IndexForm::mul(S, IndexForm::constant(-1));
    case UO_Plus:
      return S;
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec:
      return S.withUnknownConstant();
    case UO_Deref:
      return pointer(UO->getSubExpr()).Offset.loadedThrough();
    default:
      return IndexForm::opaque(S, S);
    }
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    IndexForm C = form(CO->getCond());
    IndexForm R =
        IndexForm::join(form(CO->getTrueExpr()), form(CO->getFalseExpr()));
    R.ThreadDependent |= C.ThreadDependent;
    R.Indirect |= C.Indirect;
    if (C.ThreadDependent && !R.Constant)
      R.Stride.reset();
    return R;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow())
      return pointer(ME->getBase()).Offset.loadedThrough();
    return form(ME->getBase());
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    std::string Name = calleeName(CE);
    IndexForm R = IndexForm::uniform();
    if (isAtomic(Name)) {
      R = IndexForm::unknownVarying();
      R.Indirect = true;
      return R;
    }
    if (isLoadIntrinsic(Name) && CE->getNumArgs() == 1)
      return pointer(CE->getArg(0)).Offset.loadedThrough();
    bool MinMax = Name == "min" || Name == "max" || Name == "umin" ||
                  Name == "umax" || Name == "llmin" || Name == "llmax";
    unsigned Varying = 0;
    IndexForm VaryingForm;
    for (const Expr *A : CE->arguments()) {
      IndexForm AF = form(A);
      R = IndexForm::opaque(R, AF);
      if (AF.dependsOnThreadIdxX()) {
        ++Varying;
        VaryingForm = AF;
      }
    }
    if (MinMax && Varying == 1) {
      VaryingForm.Indirect = R.Indirect;
      VaryingForm.ThreadDependent = R.ThreadDependent;
      VaryingForm.Constant.reset();
      return VaryingForm;
    }
    if (isShuffle(Name) || isVote(Name))
      R = IndexForm::opaque(R, IndexForm::unknownVarying());
    return R;
  }
  // Anything else: combine the dependences of the children.
  IndexForm R = IndexForm::uniform();
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      R = IndexForm::opaque(R, form(CE));
  return R;
}

PointerInfo Analyzer::pointer(const Expr *E) {
  PointerInfo Unknown;
  if (!E)
    return Unknown;
  E = E->IgnoreParens();
  if (const auto *C = dyn_cast<CastExpr>(E))
    return pointer(C->getSubExpr());
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    const ValueDecl *D = DR->getDecl();
    auto It = Current->Pointers.find(D);
    if (It != Current->Pointers.end())
      return It->second;
    auto PIt = Current->ParamPointers.find(D);
    if (PIt != Current->ParamPointers.end())
      return PIt->second;
    PointerInfo P;
    P.Root = D;
    if (const auto *PV = dyn_cast<ParmVarDecl>(D)) {
      if (!PV->getType()->isPointerType() && !PV->getType()->isArrayType())
        return Unknown;
      P.Known = Current->IsKernel;
      P.Where = Space::Global;
      return P;
    }
    const auto *V = dyn_cast<VarDecl>(D);
    if (!V)
      return Unknown;
    if (V->hasAttr<CUDASharedAttr>())
      P.Where = Space::Shared;
    else if (V->hasAttr<CUDAConstantAttr>())
      P.Where = Space::Constant;
    else if (V->hasGlobalStorage() && V->hasAttr<CUDADeviceAttr>())
      P.Where = Space::Global;
    else if (V->getType()->isArrayType() && V->isLocalVarDecl())
      P.Where = Space::Local;
    else
      return Unknown;
    P.Known = true;
    return P;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) {
      bool LeftPtr = BO->getLHS()->getType()->isPointerType();
      PointerInfo P = pointer(LeftPtr ? BO->getLHS() : BO->getRHS());
      IndexForm I = form(LeftPtr ? BO->getRHS() : BO->getLHS());
      P.Offset = BO->getOpcode() == BO_Add ? IndexForm::add(P.Offset, I)
                                           : IndexForm::sub(P.Offset, I);
      return P;
    }
    if (BO->getOpcode() == BO_Assign || BO->getOpcode() == BO_Comma)
      return pointer(BO->getRHS());
    return Unknown;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_AddrOf) {
      const Expr *Sub = UO->getSubExpr()->IgnoreParens();
      if (const auto *AS = dyn_cast<ArraySubscriptExpr>(Sub))
        return subscript(AS);
      return pointer(Sub);
    }
    return Unknown;
  }
  if (const auto *AS = dyn_cast<ArraySubscriptExpr>(E)) {
    // A row of a multi-dimensional array.
    if (AS->getType()->isArrayType())
      return subscript(AS);
    return Unknown;
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    PointerInfo A = pointer(CO->getTrueExpr());
    PointerInfo B = pointer(CO->getFalseExpr());
    if (A.Known && B.Known && A.Root == B.Root) {
      A.Offset = IndexForm::join(A.Offset, B.Offset);
      return A;
    }
    return Unknown;
  }
  return Unknown;
}

PointerInfo Analyzer::subscript(const ArraySubscriptExpr *AS) {
  PointerInfo P = pointer(AS->getBase());
  IndexForm Idx = form(AS->getIdx());
  QualType T = AS->getType();
  int64_t RowElems = 1;
  if (T->isArrayType()) {
    // The index selects a row: scale it by the row's element count.
    const auto *CAT = Ctx.getAsConstantArrayType(T);
    if (!CAT || T->isDependentType())
      RowElems = -1;
    else
      RowElems = static_cast<int64_t>(Ctx.getConstantArrayElementCount(CAT));
    if (P.Where == Space::Shared && RowElems > 0 && Idx.dependsOnThreadIdxX() &&
        (!Idx.Stride || *Idx.Stride != 0)) {
      QualType Elem = Ctx.getBaseElementType(T);
      if (!Elem->isDependentType() && !Elem->isIncompleteType() &&
          (RowElems * Ctx.getTypeSizeInChars(Elem).getQuantity()) % 128 == 0) {
        ConflictArrays.insert(P.Root);
        if (Facts)
          if (const auto *V = dyn_cast<VarDecl>(P.Root)) {
            SourceLocation Loc = SM.getFileLoc(AS->getExprLoc());
            bool Seen = false;
            for (const KernelFacts::RowAccess &R : Facts->BankConflicts)
              Seen |= R.Loc == Loc;
            if (!Seen)
              Facts->BankConflicts.push_back({V, Loc});
          }
      }
    }
  }
  IndexForm Scaled = RowElems > 0
                         ? IndexForm::mul(Idx, IndexForm::constant(RowElems))
                         : IndexForm::mul(Idx, IndexForm::uniform());
  P.Offset = IndexForm::add(P.Offset, Scaled);
  return P;
}

/// Gives each local variable its IndexForm or PointerInfo, joining every
/// assignment to it; iterated until nothing changes.
class DataflowPass : public RecursiveASTVisitor<DataflowPass> {
public:
  explicit DataflowPass(Analyzer &A) : A(A) {}
  bool Changed = false;

  void assign(const ValueDecl *D, const Expr *Value) {
    Analyzer::Frame &Fr = *A.Current;
    QualType T = D->getType();
    if (T->isPointerType()) {
      PointerInfo P = A.pointer(Value);
      auto It = Fr.Pointers.find(D);
      if (It == Fr.Pointers.end()) {
        Fr.Pointers[D] = P;
        Changed = true;
        return;
      }
      PointerInfo &Old = It->second;
      PointerInfo New = Old;
      if (!P.Known || !Old.Known || P.Root != Old.Root)
        New = PointerInfo();
      else
        New.Offset = IndexForm::join(Old.Offset, P.Offset);
      if (New.Known != Old.Known || !sameForm(New.Offset, Old.Offset)) {
        Old = New;
        Changed = true;
      }
      return;
    }
    if (T->isReferenceType() || T->isRecordType() || T->isArrayType())
      return;
    IndexForm V = A.form(Value);
    auto It = Fr.Values.find(D);
    if (It == Fr.Values.end()) {
      Fr.Values[D] = V;
      Changed = true;
      return;
    }
    IndexForm New = IndexForm::join(It->second, V);
    if (!sameForm(New, It->second)) {
      It->second = New;
      Changed = true;
    }
  }

  bool VisitVarDecl(VarDecl *V) {
    if (V->isLocalVarDecl() && V->getInit() && !isa<ParmVarDecl>(V))
      assign(V, V->getInit());
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (!BO->isAssignmentOp())
      return true;
    const auto *DR = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts());
    if (!DR)
      return true;
    // For x op= y, the expression BO itself computes the new value.
    assign(DR->getDecl(), BO->isCompoundAssignmentOp() ? BO : BO->getRHS());
    return true;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (!UO->isIncrementDecrementOp())
      return true;
    if (const auto *DR =
            dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts()))
      if (DR->getType()->isPointerType()) {
        auto It = A.Current->Pointers.find(DR->getDecl());
        if (It != A.Current->Pointers.end()) {
          IndexForm New = It->second.Offset.withUnknownConstant();
          if (!sameForm(New, It->second.Offset)) {
            It->second.Offset = New;
            Changed = true;
          }
        }
      } else {
        assign(DR->getDecl(), UO);
      }
    return true;
  }

private:
  Analyzer &A;
};

/// Counts the features of one function body.
class CountingPass : public RecursiveASTVisitor<CountingPass> {
  using Base = RecursiveASTVisitor<CountingPass>;

public:
  CountingPass(Analyzer &A) : A(A), F(A.F) {}

  unsigned depth() const { return A.Current->DepthBase + Depth; }
  double weight() const { return A.weight(depth()); }
  bool inLoop() const { return depth() > 0; }

#define AUTOPROF_LOOP(Type)                                                    \
  bool Traverse##Type(Type *S) {                                               \
    ++Depth;                                                                   \
    bool R = Base::Traverse##Type(S);                                          \
    --Depth;                                                                   \
    return R;                                                                  \
  }
  AUTOPROF_LOOP(ForStmt)
  AUTOPROF_LOOP(WhileStmt)
  AUTOPROF_LOOP(DoStmt)
  AUTOPROF_LOOP(CXXForRangeStmt)
#undef AUTOPROF_LOOP

  void countLoop() {
    F.add("loops", 1);
    if (depth() > F.get("max_loop_depth").value_or(0))
      F.set("max_loop_depth", depth());
  }
  bool VisitWhileStmt(WhileStmt *S) {
    countLoop();
    loopCondition(S->getCond());
    return true;
  }
  bool VisitDoStmt(DoStmt *S) {
    countLoop();
    loopCondition(S->getCond());
    return true;
  }
  void loopCondition(const Expr *Cond) {
    if (A.Facts && Cond && A.form(Cond).ThreadDependent)
      A.noteCondition(Cond);
  }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *) {
    countLoop();
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    countLoop();
    loopCondition(S->getCond());
    if (hasConstantTripCount(S))
      F.add("const_trip_loops", 1);
    return true;
  }

  bool hasConstantTripCount(const ForStmt *S) {
    const VarDecl *IV = nullptr;
    if (const auto *DS = dyn_cast_or_null<DeclStmt>(S->getInit())) {
      if (DS->isSingleDecl())
        if (const auto *V = dyn_cast<VarDecl>(DS->getSingleDecl()))
          if (V->getInit() && evaluateInt(V->getInit(), A.Ctx))
            IV = V;
    } else if (const auto *BO =
                   dyn_cast_or_null<BinaryOperator>(S->getInit())) {
      if (BO->getOpcode() == BO_Assign && evaluateInt(BO->getRHS(), A.Ctx))
        if (const auto *DR =
                dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
          IV = dyn_cast<VarDecl>(DR->getDecl());
    }
    if (!IV)
      return false;
    auto RefersToIV = [IV](const Expr *E) {
      const auto *DR =
          dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
      return DR && DR->getDecl() == IV;
    };
    const auto *Cond = dyn_cast_or_null<BinaryOperator>(S->getCond());
    if (!Cond || !Cond->isComparisonOp())
      return false;
    const Expr *Bound = RefersToIV(Cond->getLHS())   ? Cond->getRHS()
                        : RefersToIV(Cond->getRHS()) ? Cond->getLHS()
                                                     : nullptr;
    if (!Bound || !evaluateInt(Bound, A.Ctx))
      return false;
    const Expr *Inc = S->getInc();
    if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
      return UO->isIncrementDecrementOp() && RefersToIV(UO->getSubExpr());
    if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
      return (CA->getOpcode() == BO_AddAssign ||
              CA->getOpcode() == BO_SubAssign) &&
             RefersToIV(CA->getLHS()) && evaluateInt(CA->getRHS(), A.Ctx);
    return false;
  }

  bool VisitAttributedStmt(AttributedStmt *S) {
    for (const Attr *At : S->getAttrs())
      if (const auto *LH = dyn_cast<LoopHintAttr>(At)) {
        if (LH->getOption() != LoopHintAttr::Unroll &&
            LH->getOption() != LoopHintAttr::UnrollCount)
          continue;
        if (LH->getState() == LoopHintAttr::Disable)
          continue;
        if (LH->getOption() == LoopHintAttr::UnrollCount)
          if (auto N = evaluateInt(LH->getValue(), A.Ctx); N && *N <= 1)
            continue;
        F.add("unrolled_loops", 1);
        break;
      }
    return true;
  }

  void branch(const Expr *Cond) {
    if (Cond && A.form(Cond).ThreadDependent) {
      F.add("thread_dependent_branches", 1);
      A.noteCondition(Cond);
    }
  }
  bool VisitIfStmt(IfStmt *S) {
    branch(S->getCond());
    return true;
  }
  bool VisitSwitchStmt(SwitchStmt *S) {
    branch(S->getCond());
    return true;
  }
  bool VisitConditionalOperator(ConditionalOperator *CO) {
    branch(CO->getCond());
    return true;
  }

  bool TraverseLambdaExpr(LambdaExpr *L) {
    ++LambdaDepth;
    bool R = Base::TraverseLambdaExpr(L);
    --LambdaDepth;
    return R;
  }

  bool VisitReturnStmt(ReturnStmt *S) {
    if (!A.Current->IsKernel || LambdaDepth > 0)
      return true;
    const auto *Body = dyn_cast<CompoundStmt>(A.Current->FD->getBody());
    if (Body && !Body->body_empty() && Body->body_back() == S)
      return true;
    F.add("early_exits", 1);
    return true;
  }

  bool VisitVarDecl(VarDecl *V) {
    markNamespaces(V->getType());
    // A device function called twice declares its variables once.
    if (isa<ParmVarDecl>(V) || !A.CountedDecls.insert(V).second)
      return true;
    QualType T = V->getType();
    if (V->hasAttr<CUDASharedAttr>()) {
      if (T->isArrayType())
        F.add("shared_arrays", 1);
      if (T->isIncompleteArrayType())
        F.set("uses_dynamic_shared", 1);
      else if (!T->isDependentType() && !T->isIncompleteType() &&
               !T->containsErrors())
        F.add("shared_bytes_static",
              static_cast<double>(A.Ctx.getTypeSizeInChars(T).getQuantity()));
      return true;
    }
    if (V->isLocalVarDecl() && !V->isStaticLocal() && T->isConstantArrayType())
      F.add("local_arrays", 1);
    return true;
  }

  // Stores and address-taken accesses are marked on the way down, before
  // their operands are visited.
  static const Expr *accessOf(const Expr *E) {
    E = E->IgnoreParens();
    while (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        break;
      E = ME->getBase()->IgnoreParens();
    }
    return E;
  }
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp()) {
      const Expr *Target = accessOf(BO->getLHS());
      if (BO->isCompoundAssignmentOp())
        LoadStores.insert(Target);
      else
        Stores.insert(Target);
    }
    countArithmetic(
        BO->getOpcode(),
        BO->isCompoundAssignmentOp()
            ? cast<CompoundAssignOperator>(BO)->getComputationResultType()
            : BO->getType());
    return true;
  }
  void countArithmetic(BinaryOperatorKind Op, QualType T) {
    if (T.isNull() || T->isDependentType())
      return;
    switch (Op) {
    case BO_Div:
    case BO_DivAssign:
    case BO_Rem:
    case BO_RemAssign:
      A.F.add("divisions", weight());
      break;
    default:
      break;
    }
    bool Flop = false, Int = false;
    switch (Op) {
    case BO_Add:
    case BO_Sub:
    case BO_Mul:
    case BO_Div:
    case BO_AddAssign:
    case BO_SubAssign:
    case BO_MulAssign:
    case BO_DivAssign:
      Flop = T->isRealFloatingType();
      Int = T->isIntegerType();
      break;
    case BO_Rem:
    case BO_Shl:
    case BO_Shr:
    case BO_And:
    case BO_Or:
    case BO_Xor:
    case BO_RemAssign:
    case BO_ShlAssign:
    case BO_ShrAssign:
    case BO_AndAssign:
    case BO_OrAssign:
    case BO_XorAssign:
      Int = T->isIntegerType();
      break;
    default:
      break;
    }
    if (Flop)
      addFlops(T, 1);
    if (Int)
      F.add("int_ops", weight());
  }
  void addFlops(QualType T, double N) {
    const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
    if (!BT)
      return;
    double W = N * weight();
    if (BT->getKind() == BuiltinType::Float)
      F.add("flops_fp32", W);
    else if (BT->getKind() == BuiltinType::Double ||
             BT->getKind() == BuiltinType::LongDouble)
      F.add("flops_fp64", W);
    else if (isHalfType(T))
      F.add("flops_fp16", W);
    else
      return;
    A.WeightedFlops += W;
  }

  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp()) {
      LoadStores.insert(accessOf(UO->getSubExpr()));
      QualType T = UO->getType();
      if (T->isIntegerType())
        F.add("int_ops", weight());
      else if (T->isRealFloatingType())
        addFlops(T, 1);
      return true;
    }
    if (UO->getOpcode() == UO_AddrOf) {
      AddressTaken.insert(accessOf(UO->getSubExpr()));
      return true;
    }
    if (UO->getOpcode() == UO_Deref)
      access(UO, A.pointer(UO->getSubExpr()), UO->getType());
    return true;
  }

  bool VisitMemberExpr(MemberExpr *ME) {
    if (ME->isArrow() &&
        !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      access(ME, A.pointer(ME->getBase()),
             ME->getBase()->getType()->getPointeeType());
    if (inNamespace(ME->getMemberDecl(), "cooperative_groups"))
      F.set("uses_cooperative_groups", 1);
    return true;
  }

  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    if (AS->getType()->isArrayType())
      return true; // A row; the full access is the enclosing subscript.
    access(AS, A.subscript(AS), AS->getType());
    return true;
  }

  void access(const Expr *E, const PointerInfo &P, QualType ElemTy) {
    if (AddressTaken.count(E))
      return;
    bool Store = Stores.count(E) || LoadStores.count(E);
    bool Load = !Stores.count(E);
    A.recordAccess(P, ElemTy, Load, Store, depth(), E->getExprLoc(), E);
  }

  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *CE) {
    OverloadedOperatorKind K = CE->getOperator();
    if (K == OO_Equal)
      Stores.insert(accessOf(CE->getArg(0)));
    bool Arith = K == OO_Plus || K == OO_Minus || K == OO_Star ||
                 K == OO_Slash || K == OO_PlusEqual || K == OO_MinusEqual ||
                 K == OO_StarEqual || K == OO_SlashEqual;
    if ((K == OO_Slash || K == OO_SlashEqual || K == OO_Percent ||
         K == OO_PercentEqual) &&
        CE->getNumArgs() == 2)
      F.add("divisions", weight());
    if (Arith && CE->getNumArgs() == 2 &&
        isHalfType(CE->getArg(0)->getType())) {
      double W = (isHalf2Type(CE->getArg(0)->getType()) ? 2 : 1) * weight();
      F.add("flops_fp16", W);
      A.WeightedFlops += W;
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    A.analyzeCall(CE, depth());
    return true;
  }

  /// Sets the namespace flags for a type of cooperative groups or WMMA.
  void markNamespaces(QualType T) {
    T = T.getNonReferenceType();
    while (T->isPointerType() || T->isArrayType())
      T = T->isPointerType() ? T->getPointeeType()
                             : QualType(T->getPointeeOrArrayElementType(), 0);
    const Decl *D = T->getAsTagDecl();
    if (!D)
      return;
    if (inNamespace(D, "cooperative_groups"))
      F.set("uses_cooperative_groups", 1);
    if (inNamespace(D, "wmma") || inNamespace(D, "nvcuda"))
      F.set("uses_tensor_cores", 1);
  }

  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    const ValueDecl *D = DR->getDecl();
    if (inNamespace(D, "cooperative_groups"))
      F.set("uses_cooperative_groups", 1);
    if (inNamespace(D, "wmma") || inNamespace(D, "nvcuda"))
      F.set("uses_tensor_cores", 1);
    return true;
  }

  bool VisitGCCAsmStmt(GCCAsmStmt *S) {
    if (S->getAsmString().find("mma") != std::string::npos)
      F.set("uses_tensor_cores", 1);
    return true;
  }

  // Lambdas and nested declarations are part of the body; local classes'
  // methods are not executed by this function.
  bool TraverseCXXRecordDecl(CXXRecordDecl *) { return true; }

private:
  Analyzer &A;
  KernelFeatures &F;
  unsigned Depth = 0;
  unsigned LambdaDepth = 0;
  llvm::SmallPtrSet<const Expr *, 16> Stores, LoadStores, AddressTaken;
};

std::optional<AccessClass>
Analyzer::modelClass(const Expr *E, std::optional<int64_t> &Stride) const {
  if (!E || !Model || !Current || !Current->IsKernel)
    return std::nullopt;
  auto It = ModelAccesses.find(E);
  if (It == ModelAccesses.end() || !It->second->Index || It->second->Shared)
    return std::nullopt;
  std::string Why;
  std::optional<Polynomial> C = warpStride(*Model, *It->second->Index, Why);
  if (!C)
    return std::nullopt;
  std::optional<int64_t> K = C->constantValue();
  if (!K)
    return AccessClass::Strided;
  Stride = *K;
  if (*K == 0)
    return AccessClass::Uniform;
  return *K == 1 || *K == -1 ? AccessClass::Coalesced : AccessClass::Strided;
}

void Analyzer::recordAccess(const PointerInfo &P, QualType ElemTy, bool Load,
                            bool Store, unsigned Depth, SourceLocation Loc,
                            const Expr *E) {
  if (P.Known && (P.Where == Space::Local || P.Where == Space::Constant))
    return;
  Space Where = P.Known ? P.Where : Space::Global;
  bool InLoop = Depth > 0;
  bool Vector = !ElemTy.isNull() && isVectorType(ElemTy);
  std::optional<AccessClass> Class;
  std::optional<int64_t> Stride;
  if (Where == Space::Global) {
    if (Load)
      F.add("global_loads", 1);
    if (Store)
      F.add("global_stores", 1);
    if (Load && InLoop)
      F.add("global_loads_in_loops", 1);
    if (Store && InLoop)
      F.add("global_stores_in_loops", 1);
    WeightedGlobalAccesses +=
        weight(Depth) * ((Load ? 1 : 0) + (Store ? 1 : 0));
    // The kernel model's index where it knows it, else the index form.
    Class = modelClass(E, Stride);
    if (!Class && P.Known) {
      Class = classifyIndex(P.Offset);
      Stride = P.Offset.Stride;
    }
    if (Class)
      F.add(std::string("access_") + accessClassName(*Class), 1);
  }
  if (Vector)
    F.add("vector_accesses", 1);
  if (Facts) {
    MemoryAccess M = describeAccess(P, ElemTy, Depth, Loc);
    M.Load = Load;
    M.Store = Store;
    M.Class = Class;
    M.Stride = Stride;
    Facts->Accesses.push_back(M);
  }
}

MemoryAccess Analyzer::describeAccess(const PointerInfo &P, QualType ElemTy,
                                      unsigned Depth,
                                      SourceLocation Loc) const {
  MemoryAccess M;
  M.Where = P.Known ? P.Where : Space::Global;
  M.InLoop = Depth > 0;
  M.Vector = !ElemTy.isNull() && isVectorType(ElemTy);
  if (P.Known)
    M.Offset = P.Offset;
  M.Loc = SM.getFileLoc(Loc);
  PresumedLoc PL = SM.getPresumedLoc(M.Loc);
  if (PL.isValid()) {
    M.Line = PL.getLine();
    M.Column = PL.getColumn();
  }
  return M;
}

void Analyzer::noteCondition(const Expr *Cond) {
  if (Facts && !llvm::is_contained(Facts->ThreadDependentConditions, Cond))
    Facts->ThreadDependentConditions.push_back(Cond);
}

void Analyzer::analyzeCall(const CallExpr *CE, unsigned Depth) {
  std::string Name = calleeName(CE);
  double W = weight(Depth);
  const FunctionDecl *FD = CE->getDirectCallee();
  if (FD && inNamespace(FD, "cooperative_groups")) {
    F.set("uses_cooperative_groups", 1);
    if (Name == "sync") {
      // thread_block::sync is a (static) member; cg::sync(block) is free.
      const CXXRecordDecl *RD = nullptr;
      if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
        RD = MD->getParent();
      else if (CE->getNumArgs())
        RD = CE->getArg(0)
                 ->getType()
                 .getNonReferenceType()
                 ->getAsCXXRecordDecl();
      if (RD && RD->getName() == "thread_block") {
        F.add("syncthreads", 1);
        if (Depth > 0)
          F.add("syncthreads_in_loops", 1);
      }
    } else if (Name.rfind("shfl", 0) == 0) {
      F.add("warp_shuffles", 1);
    } else if (Name == "ballot" || Name == "any" || Name == "all") {
      F.add("warp_votes", 1);
    }
    return;
  }
  if (FD && (inNamespace(FD, "wmma") || inNamespace(FD, "nvcuda")))
    F.set("uses_tensor_cores", 1);
  if (isSyncthreads(Name)) {
    F.add("syncthreads", 1);
    if (Depth > 0)
      F.add("syncthreads_in_loops", 1);
  } else if (isShuffle(Name)) {
    F.add("warp_shuffles", 1);
  } else if (isVote(Name)) {
    F.add("warp_votes", 1);
  } else if (isAtomic(Name)) {
    PointerInfo P = CE->getNumArgs() ? pointer(CE->getArg(0)) : PointerInfo();
    F.add(P.Known && P.Where == Space::Shared ? "atomics_shared"
                                              : "atomics_global",
          1);
    if (Facts && CE->getNumArgs()) {
      QualType T = CE->getArg(0)->getType();
      MemoryAccess M = describeAccess(
          P, T->isPointerType() ? T->getPointeeType() : QualType(), Depth,
          CE->getExprLoc());
      M.Load = M.Store = M.Atomic = true;
      Facts->Atomics.push_back(M);
    }
  } else if (isLoadIntrinsic(Name)) {
    F.set("uses_ldg", 1);
    if (CE->getNumArgs() == 1) {
      QualType T = CE->getArg(0)->getType();
      recordAccess(pointer(CE->getArg(0)),
                   T->isPointerType() ? T->getPointeeType() : QualType(),
                   /*Load=*/true, /*Store=*/false, Depth, CE->getExprLoc());
    }
  } else if (fastIntrinsicNames().contains(Name)) {
    F.add("fast_intrinsics", W);
  } else if (transcendentalNames().contains(Name)) {
    F.add("transcendentals", W);
  } else if (Name == "fmaf" || Name == "fma" || Name == "__fmaf_rn" ||
             Name == "__fma_rn") {
    QualType T = CE->getType();
    const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
    if (BT && !T->isDependentType()) {
      F.add(BT->getKind() == BuiltinType::Float ? "flops_fp32" : "flops_fp64",
            2 * W);
      WeightedFlops += 2 * W;
    }
  } else if (Name == "fminf" || Name == "fmaxf" || Name == "fabsf" ||
             Name == "fmin" || Name == "fmax" || Name == "fabs") {
    QualType T = CE->getType();
    const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
    if (BT && !T->isDependentType()) {
      F.add(BT->getKind() == BuiltinType::Float ? "flops_fp32" : "flops_fp64",
            W);
      WeightedFlops += W;
    }
  } else if (isHalfIntrinsic(Name)) {
    double N = (Name.back() == '2' ? 2 : 1) *
               (Name.find("fma") != std::string::npos ? 2 : 1);
    F.add("flops_fp16", N * W);
    WeightedFlops += N * W;
  }

  // Follow calls into the project's own device functions.
  if (!FD || !FD->hasBody() || CallStack.size() >= MaxCallDepth)
    return;
  const FunctionDecl *Def = nullptr;
  FD->hasBody(Def);
  if (!Def || SM.isInSystemHeader(SM.getFileLoc(Def->getLocation())) ||
      llvm::is_contained(CallStack, Def) || !Def->hasAttr<CUDADeviceAttr>())
    return;
  Frame Callee;
  Callee.FD = Def;
  Callee.DepthBase = Depth;
  for (unsigned I = 0; I < Def->getNumParams() && I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *P = Def->getParamDecl(I);
    const Expr *Arg = CE->getArg(I);
    if (P->getType()->isPointerType())
      Callee.ParamPointers[P] = pointer(Arg);
    else if (!P->getType()->isReferenceType())
      Callee.ParamValues[P] = form(Arg);
  }
  analyzeFunction(Callee);
}

void Analyzer::analyzeFunction(Frame &Fr) {
  Frame *Saved = Current;
  Current = &Fr;
  CallStack.push_back(Fr.FD);
  Stmt *Body = Fr.FD->getBody();
  DataflowPass Flow(*this);
  for (unsigned Iter = 0; Iter < 8; ++Iter) {
    Flow.Changed = false;
    Flow.TraverseStmt(Body);
    if (!Flow.Changed)
      break;
  }
  CountingPass Count(*this);
  Count.TraverseStmt(Body);
  CallStack.pop_back();
  Current = Saved;
}

void Analyzer::analyzeKernel(const FunctionDecl &Kernel) {
  Frame Fr;
  Fr.FD = &Kernel;
  Fr.IsKernel = true;
  analyzeFunction(Fr);
  F.set("shared_bank_conflict_risk", ConflictArrays.size());
  unsigned Restrict = 0, Const = 0;
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (!T->isPointerType())
      continue;
    if (T.isRestrictQualified())
      ++Restrict;
    if (T->getPointeeType().isConstQualified())
      ++Const;
  }
  F.set("restrict_params", Restrict);
  F.set("const_params", Const);
  if (WeightedGlobalAccesses > 0)
    F.set("arithmetic_intensity_estimate",
          std::round(WeightedFlops / WeightedGlobalAccesses * 1e4) / 1e4);
  else
    F.clear("arithmetic_intensity_estimate");
}

std::string printTemplateArg(const TemplateArgument &A,
                             const PrintingPolicy &PP) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  A.print(PP, OS, /*IncludeType=*/false);
  return S;
}

KernelRecord analyze(const FunctionDecl &Kernel, ASTContext &Ctx,
                     KernelFacts *Facts, const KernelModel *Model) {
  KernelRecord R;
  const SourceManager &SM = Ctx.getSourceManager();
  PrintingPolicy PP = Ctx.getPrintingPolicy();
  PP.SuppressTagKeyword = true;
  R.Name = Kernel.getNameAsString();
  {
    llvm::raw_string_ostream OS(R.QualifiedName);
    Kernel.getNameForDiagnostic(OS, PP, /*Qualified=*/true);
  }
  PresumedLoc PL = SM.getPresumedLoc(SM.getFileLoc(Kernel.getLocation()));
  if (PL.isValid()) {
    R.File = PL.getFilename();
    R.Line = PL.getLine();
    R.Column = PL.getColumn();
  }
  if (Kernel.getDescribedFunctionTemplate()) {
    R.Template = TemplateKind::Primary;
  } else if (const TemplateArgumentList *Args =
                 Kernel.getTemplateSpecializationArgs()) {
    R.Template = TemplateKind::Instantiation;
    for (const TemplateArgument &A : Args->asArray())
      R.TemplateArgs.push_back(printTemplateArg(A, PP));
  }
  if (R.Template != TemplateKind::Primary && !Kernel.isDependentContext()) {
    std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
    llvm::raw_string_ostream OS(R.MangledName);
    if (MC->shouldMangleDeclName(&Kernel))
      MC->mangleName(GlobalDecl(&Kernel, KernelReferenceKind::Kernel), OS);
    else
      OS << Kernel.getName();
  }
  for (const ParmVarDecl *P : Kernel.parameters()) {
    KernelParam KP;
    KP.Name = P->getNameAsString();
    QualType T = P->getType();
    KP.Type = T.getAsString(PP);
    KP.Pointer = T->isPointerType();
    KP.Const = KP.Pointer ? T->getPointeeType().isConstQualified()
                          : T.isConstQualified();
    KP.Restrict = T.isRestrictQualified();
    R.Params.push_back(KP);
  }
  if (const auto *LB = Kernel.getAttr<CUDALaunchBoundsAttr>()) {
    LaunchBounds B;
    B.MaxThreadsPerBlock = evaluateInt(LB->getMaxThreads(), Ctx);
    B.MinBlocksPerMultiprocessor = evaluateInt(LB->getMinBlocks(), Ctx);
    B.MaxBlocksPerCluster = evaluateInt(LB->getMaxBlocks(), Ctx);
    R.Bounds = B;
  }
  // The kernel model classifies the accesses it knows; a template's
  // pattern, whose values depend on its arguments, has none.
  std::unique_ptr<KernelModel> Own;
  if (!Model && !Kernel.isDependentContext() && Kernel.hasBody())
    Model = (Own = std::make_unique<KernelModel>(Ctx, Kernel)).get();
  Analyzer A(Ctx, R.Features, Facts,
             Kernel.isDependentContext() ? nullptr : Model);
  A.analyzeKernel(Kernel);
  return R;
}

} // namespace

KernelRecord autoprof::analyzeKernel(const FunctionDecl &Kernel,
                                     ASTContext &Ctx,
                                     std::vector<MemoryAccess> *Accesses,
                                     const KernelModel *Model) {
  if (!Accesses)
    return analyze(Kernel, Ctx, nullptr, Model);
  KernelFacts Facts;
  KernelRecord R = analyze(Kernel, Ctx, &Facts, Model);
  *Accesses = std::move(Facts.Accesses);
  return R;
}

KernelRecord autoprof::analyzeKernel(const FunctionDecl &Kernel,
                                     ASTContext &Ctx, KernelFacts &Facts,
                                     const KernelModel *Model) {
  return analyze(Kernel, Ctx, &Facts, Model);
}
