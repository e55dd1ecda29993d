//===- LaunchSites.cpp - Launch sites of a kernel and their grids ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

#include <cmath>
#include <functional>

using namespace clang;
using namespace autoprof;

namespace {

/// Whether \p DR, a reference to a kernel, is an argument of a CUDA runtime
/// function that reads or sets the kernel's attributes and launches nothing
/// (`cudaOccupancyMaxPotentialBlockSize(&g, &b, kernel)`,
/// `cudaFuncGetAttributes(&a, (const void *)kernel)`), through casts and
/// `&`.
bool isAttributeQuery(ASTContext &Ctx, const DeclRefExpr *DR) {
  static constexpr llvm::StringLiteral Queries[] = {
      "cudaFuncGetAttributes",
      "cudaFuncSetAttribute",
      "cudaFuncSetCacheConfig",
      "cudaFuncSetSharedMemConfig",
      "cudaOccupancyAvailableDynamicSMemPerBlock",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessor",
      "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
      "cudaOccupancyMaxPotentialBlockSize",
      "cudaOccupancyMaxPotentialBlockSizeVariableSMem",
      "cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags",
      "cudaOccupancyMaxPotentialBlockSizeWithFlags"};
  DynTypedNode N = DynTypedNode::create(*DR);
  const SourceManager &SM = Ctx.getSourceManager();
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    DynTypedNodeList Ps = Ctx.getParents(N);
    if (Ps.size() != 1)
      return false;
    N = Ps[0];
    if (const auto *Call = N.get<CallExpr>()) {
      const FunctionDecl *FD = Call->getDirectCallee();
      return FD && FD->getIdentifier() &&
             llvm::is_contained(Queries, FD->getName()) &&
             SM.isInSystemHeader(SM.getFileLoc(FD->getLocation()));
    }
    const auto *U = N.get<UnaryOperator>();
    if (!N.get<ParenExpr>() && !N.get<CastExpr>() &&
        !(U && U->getOpcode() == UO_AddrOf))
      return false;
  }
  return false;
}

/// The launches of one kernel and the references to it. A template's
/// pattern is not run: a launch written there is the launches of its
/// instantiations, which are visited, and is only noted (its location) so
/// that one no instantiation makes can be told apart.
class LaunchCollector : public RecursiveASTVisitor<LaunchCollector> {
public:
  explicit LaunchCollector(const FunctionDecl &Kernel)
      : Kernel(Kernel.getCanonicalDecl()), Family(patternOf(Kernel)) {}
  bool shouldVisitTemplateInstantiations() const { return true; }
  bool TraverseDecl(Decl *D) {
    const auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (FD)
      Enclosing.push_back(FD);
    bool Continue = RecursiveASTVisitor::TraverseDecl(D);
    if (FD)
      Enclosing.pop_back();
    return Continue;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    if (inPattern()) {
      if (FD->getCanonicalDecl() == Kernel)
        PatternCalls.push_back(CE);
      return true;
    }
    if (FD->getCanonicalDecl() == Kernel)
      Calls.push_back(CE);
    if (patternOf(*FD) == Family)
      FamilyLaunches.insert(CE->getBeginLoc());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (const auto *FD = dyn_cast<FunctionDecl>(DR->getDecl()))
      if (FD->getCanonicalDecl() == Kernel)
        (inPattern() ? PatternRefs : Refs).push_back(DR);
    return true;
  }
  /// A kernel template named in a template's pattern (`k<T><<<...>>>`).
  bool VisitOverloadExpr(OverloadExpr *E) {
    if (!inPattern())
      return true;
    for (const NamedDecl *D : E->decls())
      if (const FunctionDecl *FD = D->getAsFunction())
        if (patternOf(*FD) == Family)
          Named.push_back(E);
    return true;
  }

  const FunctionDecl *Kernel;
  std::vector<const CUDAKernelCallExpr *> Calls;
  std::vector<const DeclRefExpr *> Refs;
  /// In templates' patterns: the launches of the kernel, the references
  /// to it, and the names of its template.
  std::vector<const CUDAKernelCallExpr *> PatternCalls;
  std::vector<const DeclRefExpr *> PatternRefs;
  std::vector<const OverloadExpr *> Named;
  /// Where a launch of the kernel or another instantiation of its template
  /// begins, outside patterns.
  llvm::DenseSet<SourceLocation> FamilyLaunches;

private:
  static const FunctionDecl *patternOf(const FunctionDecl &FD) {
    const FunctionDecl *P = FD.getTemplateInstantiationPattern();
    return (P ? P : &FD)->getCanonicalDecl();
  }
  bool inPattern() const {
    return !Enclosing.empty() && Enclosing.back()->isDependentContext();
  }
  const FunctionDecl *Family;
  std::vector<const FunctionDecl *> Enclosing;
};

class RefCollector : public RecursiveASTVisitor<RefCollector> {
public:
  explicit RefCollector(const VarDecl &V) : V(V) {}
  bool VisitDeclRefExpr(DeclRefExpr *DR) {
    if (DR->getDecl() == &V)
      Refs.push_back(DR);
    return true;
  }
  const VarDecl &V;
  std::vector<const DeclRefExpr *> Refs;
};

/// The argument of a launch configuration as written: inside the implicit
/// conversion to dim3, or null when it is omitted.
const Expr *writtenConfigArg(const CallExpr *Config, unsigned I) {
  if (I >= Config->getNumArgs())
    return nullptr;
  const Expr *E = Config->getArg(I)->IgnoreImplicit();
  if (isa<CXXDefaultArgExpr>(E))
    return nullptr;
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (isa<CXXTemporaryObjectExpr>(CE) || CE->getNumArgs() == 0)
      return E;
    for (unsigned A = 1; A < CE->getNumArgs(); ++A)
      if (!isa<CXXDefaultArgExpr>(CE->getArg(A)))
        return E;
    // A number of blocks: an integer, or a floating value the launch
    // converts (`ceil(n / 256.0)`).
    const Expr *Arg = CE->getArg(0)->IgnoreImpCasts();
    if (Arg->getType()->isIntegerType() || Arg->getType()->isRealFloatingType())
      return Arg;
  }
  return E;
}

/// Follows integer local variables that hold one value (soleValue()) to
/// it.
const Expr *followLocals(ASTContext &Ctx, const Expr *E) {
  for (unsigned Depth = 0; Depth < 4; ++Depth) {
    E = E->IgnoreParenImpCasts();
    const auto *DR = dyn_cast<DeclRefExpr>(E);
    const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
    const Expr *Value =
        V && V->isLocalVarDecl() && V->getType()->isIntegerType()
            ? soleValue(Ctx, *V)
            : nullptr;
    if (!Value)
      return E;
    E = Value;
  }
  return E->IgnoreParenImpCasts();
}

/// The dimension a field name of dim3 stands for, or -1.
int fieldDim(StringRef Field) {
  return Field == "x" ? 0 : Field == "y" ? 1 : Field == "z" ? 2 : -1;
}

/// A local dim3 and how its statements set it: its initializer, then the
/// fields its block assigns right after its declaration (`dim3 block;
/// block.x = 32; block.y = 8;`), before anything else reads or changes it.
struct RecordVar {
  const VarDecl *V = nullptr;
  /// Per dimension, the expression last assigned to it; null when the
  /// initializer's stands.
  std::array<const Expr *, 3> Assigned{};
  /// The field references the assignments write.
  llvm::SmallPtrSet<const Expr *, 4> Written;
};

/// The dimension `V.f = e` assigns, with e in \p Value, when \p S is that
/// statement for the dim3 \p V; else -1.
int fieldAssignment(const Stmt *S, const VarDecl *V, const Expr *&Value,
                    const MemberExpr *&Field) {
  const auto *BO = dyn_cast<BinaryOperator>(S);
  if (!BO || BO->getOpcode() != BO_Assign)
    return -1;
  const auto *ME = dyn_cast<MemberExpr>(BO->getLHS()->IgnoreParens());
  if (!ME || ME->isArrow() || !ME->getMemberDecl()->getIdentifier())
    return -1;
  const auto *DR = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParens());
  if (!DR || DR->getDecl() != V)
    return -1;
  if (!referencesTo(BO->getRHS(), V).empty())
    return -1;
  Value = BO->getRHS()->IgnoreImpCasts();
  Field = ME;
  return fieldDim(ME->getMemberDecl()->getName());
}

/// The local variable of record type (a dim3) that \p E refers to, when
/// its declaration and the field assignments right after it set it and
/// every other reference copies it whole or reads a field; nullopt
/// otherwise.
std::optional<RecordVar> unchangedRecordVar(ASTContext &Ctx, const Expr *E) {
  const auto *DR = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;
  if (!V || !V->isLocalVarDecl() || !V->getInit() ||
      !V->getType()->isRecordType())
    return std::nullopt;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return std::nullopt;
  RecordVar R;
  R.V = V;
  // The assignments that follow the declaration, as statements of its
  // block: they run once each, in order, before the statements after them.
  auto DeclParents = Ctx.getParents(*V);
  const auto *DS =
      DeclParents.size() == 1 ? DeclParents[0].get<DeclStmt>() : nullptr;
  const CompoundStmt *Block = nullptr;
  if (DS) {
    auto BlockParents = Ctx.getParents(*DS);
    if (BlockParents.size() == 1)
      Block = BlockParents[0].get<CompoundStmt>();
  }
  if (Block) {
    auto It = llvm::find(Block->body(), DS);
    for (++It; It != Block->body_end(); ++It) {
      const Expr *Value = nullptr;
      const MemberExpr *Field = nullptr;
      int D = fieldAssignment(*It, V, Value, Field);
      if (D < 0)
        break;
      R.Assigned[D] = Value;
      R.Written.insert(Field);
    }
  }
  // Every other reference is copied whole or reads a field.
  for (const DeclRefExpr *D : referencesTo(FD->getBody(), V)) {
    const Stmt *S = D;
    const Stmt *P = nullptr;
    while (true) {
      auto Parents = Ctx.getParents(*S);
      P = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
      if (!P || !isa<ImplicitCastExpr, ParenExpr>(P))
        break;
      S = P;
    }
    if (const auto *ME = dyn_cast_or_null<MemberExpr>(P)) {
      if (R.Written.count(ME))
        continue;
      // A read of one of its fields (`block.x`) leaves it unchanged too.
      auto Up = Ctx.getParents(*ME);
      const auto *Read =
          Up.size() == 1 ? Up[0].get<ImplicitCastExpr>() : nullptr;
      if (Read && Read->getCastKind() == CK_LValueToRValue)
        continue;
      return std::nullopt;
    }
    const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(P);
    if (!Copy || !Copy->getConstructor()->isCopyOrMoveConstructor())
      return std::nullopt;
  }
  return R;
}

/// The value of the integer \p E of a launch's host code: a constant
/// (through locals that keep their value), or a field of a dim3 local of
/// constant dimensions (`block.x`).
std::optional<int64_t> launchInt(ASTContext &Ctx, const Expr *E,
                                 unsigned Depth = 0) {
  if (auto V = evaluateInt(followLocals(Ctx, E), Ctx))
    return V;
  // An operation on such values (`(width + 7) / 8` with `int width =
  // 4096`), computed in its type: nullopt where that would overflow.
  if (const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
      BO && Depth < 16 && BO->getType()->isIntegerType()) {
    auto L = launchInt(Ctx, BO->getLHS(), Depth + 1);
    auto R = L ? launchInt(Ctx, BO->getRHS(), Depth + 1) : std::nullopt;
    if (!L || !R)
      return std::nullopt;
    int64_t V = 0;
    switch (BO->getOpcode()) {
    case BO_Add:
      if (__builtin_add_overflow(*L, *R, &V))
        return std::nullopt;
      break;
    case BO_Sub:
      if (__builtin_sub_overflow(*L, *R, &V))
        return std::nullopt;
      break;
    case BO_Mul:
      if (__builtin_mul_overflow(*L, *R, &V))
        return std::nullopt;
      break;
    case BO_Div:
    case BO_Rem:
      if (*R == 0 || (*L == INT64_MIN && *R == -1))
        return std::nullopt;
      V = BO->getOpcode() == BO_Div ? *L / *R : *L % *R;
      break;
    case BO_Shr:
      if (*R < 0 || *R > 62 || *L < 0)
        return std::nullopt;
      V = *L >> *R;
      break;
    default:
      return std::nullopt;
    }
    unsigned Bits = Ctx.getTypeSize(BO->getType());
    bool Signed = BO->getType()->isSignedIntegerType();
    if (Bits > 64 || (!Signed && V < 0))
      return std::nullopt;
    if (Bits < 64) {
      int64_t Max =
          Signed ? (INT64_C(1) << (Bits - 1)) - 1 : (INT64_C(1) << Bits) - 1;
      int64_t Min = Signed ? -(INT64_C(1) << (Bits - 1)) : 0;
      if (V > Max || V < Min)
        return std::nullopt;
    }
    return V;
  }
  const auto *ME = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
  if (!ME || !ME->getMemberDecl()->getIdentifier())
    return std::nullopt;
  int Dim = fieldDim(ME->getMemberDecl()->getName());
  if (Dim < 0 || ME->isArrow())
    return std::nullopt;
  if (std::optional<Dim3> D = constantDims(Ctx, ME->getBase()))
    return (*D)[Dim];
  return std::nullopt;
}

/// The value of \p E, a launch's grid arithmetic in integers and in float
/// or double (`(size_t)ceil((float)NJ / (float)block.x)`, as PolyBench
/// writes it), when every leaf is a constant or a launch integer
/// (launchInt()): each operation is done in its own type, as the host
/// does it (float operations rounded to float), and a conversion to an
/// integer truncates. Nullopt for anything else or on overflow.
std::optional<double> launchNumber(ASTContext &Ctx, const Expr *E,
                                   unsigned Depth = 0) {
  if (!E || Depth > 24 || E->isValueDependent() || E->isTypeDependent())
    return std::nullopt;
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return launchNumber(Ctx, P->getSubExpr(), Depth + 1);
  QualType T = E->getType();
  const auto *Cast = dyn_cast<CastExpr>(E);
  const Expr *Sub = Cast ? Cast->getSubExpr() : nullptr;
  if (T->isIntegerType()) {
    if (auto V = launchInt(Ctx, E);
        V && *V < (INT64_C(1) << 53) && *V > -(INT64_C(1) << 53))
      return double(*V);
    if (!Sub || !(Sub->getType()->isIntegerType() ||
                  Sub->getType()->isRealFloatingType()))
      return std::nullopt;
    auto V = launchNumber(Ctx, Sub, Depth + 1);
    if (!V)
      return std::nullopt;
    double Whole = std::trunc(*V);
    unsigned Bits = Ctx.getTypeSize(T);
    bool Signed = T->isSignedIntegerType();
    double Max = std::ldexp(1.0, std::min(Bits, 53u) - (Signed ? 1 : 0));
    if (Whole >= Max || Whole < (Signed ? -Max : 0.0))
      return std::nullopt;
    return Whole;
  }
  bool IsFloat = T->isSpecificBuiltinType(BuiltinType::Float);
  if (!IsFloat && !T->isSpecificBuiltinType(BuiltinType::Double))
    return std::nullopt;
  auto InType = [&](double V) -> std::optional<double> {
    if (!std::isfinite(V))
      return std::nullopt;
    return IsFloat ? double(float(V)) : V;
  };
  if (const auto *FL = dyn_cast<FloatingLiteral>(E))
    return InType(FL->getValueAsApproximateDouble());
  if (Sub) {
    auto V = launchNumber(Ctx, Sub, Depth + 1);
    return V ? InType(*V) : std::nullopt;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = launchNumber(Ctx, BO->getLHS(), Depth + 1);
    auto R = L ? launchNumber(Ctx, BO->getRHS(), Depth + 1) : std::nullopt;
    if (!L || !R)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_Add:
      return IsFloat ? InType(float(*L) + float(*R)) : InType(*L + *R);
    case BO_Sub:
      return IsFloat ? InType(float(*L) - float(*R)) : InType(*L - *R);
    case BO_Mul:
      return IsFloat ? InType(float(*L) * float(*R)) : InType(*L * *R);
    case BO_Div:
      if (*R == 0)
        return std::nullopt;
      return IsFloat ? InType(float(*L) / float(*R)) : InType(*L / *R);
    default:
      return std::nullopt;
    }
  }
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = Call->getDirectCallee();
    if (!FD || !FD->getIdentifier() || Call->getNumArgs() != 1)
      return std::nullopt;
    StringRef Name = FD->getName();
    bool Up = Name == "ceil" || Name == "ceilf";
    if (!Up && Name != "floor" && Name != "floorf")
      return std::nullopt;
    auto V = launchNumber(Ctx, Call->getArg(0), Depth + 1);
    if (!V)
      return std::nullopt;
    return InType(Up ? std::ceil(*V) : std::floor(*V));
  }
  return std::nullopt;
}

/// The expressions of the x, y and z dimensions of the launch argument
/// \p E: a number (x: an integer, or a floating value the launch converts),
/// `dim3(x)`, `dim3(x, y[, z])`, or a dim3 local so
/// initialised and only copied or read field by field; a dimension left
/// out (1) is null. Nullopt for anything else.
std::optional<std::array<const Expr *, 3>>
dimExprs(ASTContext &Ctx, const Expr *E, unsigned Depth = 0) {
  if (!E || Depth > 4)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    E = FC->getSubExpr()->IgnoreImplicit();
  if (E->getType()->isIntegerType() || E->getType()->isRealFloatingType())
    return std::array<const Expr *, 3>{E, nullptr, nullptr};
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 1)
      return dimExprs(Ctx, CE->getArg(0), Depth + 1);
    if (CE->getNumArgs() != 3)
      return std::nullopt;
    std::array<const Expr *, 3> Out;
    for (unsigned I = 0; I < 3; ++I) {
      const Expr *A = CE->getArg(I);
      Out[I] = isa<CXXDefaultArgExpr>(A) ? nullptr : A->IgnoreImpCasts();
    }
    return Out;
  }
  std::optional<RecordVar> R = unchangedRecordVar(Ctx, E);
  if (!R)
    return std::nullopt;
  auto Dims = dimExprs(Ctx, R->V->getInit(), Depth + 1);
  if (!Dims)
    return std::nullopt;
  for (unsigned D = 0; D < 3; ++D)
    if (R->Assigned[D])
      (*Dims)[D] = R->Assigned[D];
  return Dims;
}

/// Whether the dimension \p D of dimExprs() is 1.
bool isOne(ASTContext &Ctx, const Expr *D) {
  return !D || evaluateInt(D, Ctx) == 1;
}

/// The integer expression of the x dimension of the launch argument
/// \p Grid when its y and z are 1, or null.
const Expr *gridX(ASTContext &Ctx, const Expr *Grid) {
  auto D = dimExprs(Ctx, Grid);
  return D && isOne(Ctx, (*D)[1]) && isOne(Ctx, (*D)[2]) ? (*D)[0] : nullptr;
}

/// Whether \p A and \p B are the same expression of variables that keep
/// their values, without side effects: they have the same value wherever
/// both are evaluated.
bool sameValue(ASTContext &Ctx, const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  if (A->HasSideEffects(Ctx) || B->HasSideEffects(Ctx))
    return false;
  llvm::FoldingSetNodeID IA, IB;
  A->Profile(IA, Ctx, /*Canonical=*/true);
  B->Profile(IB, Ctx, /*Canonical=*/true);
  if (IA != IB)
    return false;
  std::function<bool(const Stmt *)> Fixed = [&](const Stmt *S) {
    if (const auto *DR = dyn_cast<DeclRefExpr>(S))
      if (const auto *V = dyn_cast<VarDecl>(DR->getDecl());
          V && !isUnmodified(Ctx, *V))
        return false;
    return llvm::all_of(S->children(),
                        [&](const Stmt *C) { return !C || Fixed(C); });
  };
  return Fixed(A);
}

/// \p E without parentheses, implicit casts and explicit casts to an
/// integer type (`(unsigned)(n + 255) / 256`).
const Expr *stripCasts(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenImpCasts();
    const auto *C = dyn_cast<ExplicitCastExpr>(E);
    if (!C || !C->getType()->isIntegerType() ||
        !C->getSubExpr()->getType()->isIntegerType())
      return E;
    E = C->getSubExpr();
  }
}

/// Reads the ceiling division of a grid: the term N of \p G when G blocks
/// of Block threads cover N threads, for any N >= 0, by its form:
/// `(N + c) / B` and `(N + c) >> k` with c >= B - 1 (B = 2^k),
/// `N / B + (N % B != 0)` (or `> 0`, `? 1 : 0`), `(N - 1) / B + 1`, each
/// with casts to integers around its parts, and a call of a function
/// whose body returns one of these of its parameters (`ceil_div(n, 256)`,
/// `divUp<int>(n, 256)`).
class CeilDiv {
public:
  CeilDiv(ASTContext &Ctx, int64_t Block) : Ctx(Ctx), Block(Block) {}

  /// The term N, or null.
  const Expr *term(const Expr *G, unsigned Depth = 0) {
    G = stripCasts(followLocals(Ctx, G));
    if (const Expr *N = ceilOfQuotient(G))
      return arg(N);
    if (const auto *Call = dyn_cast<CallExpr>(G); Call && !Inlined && Depth < 2)
      return throughCall(Call, Depth);
    const auto *BO = dyn_cast<BinaryOperator>(G);
    if (!BO)
      return nullptr;
    const Expr *L = stripCasts(BO->getLHS()), *R = stripCasts(BO->getRHS());
    // (N + c) / B, (N + c) >> k.
    if ((BO->getOpcode() == BO_Div && is(R, Block)) ||
        (BO->getOpcode() == BO_Shr && Block > 0 && !(Block & (Block - 1)) &&
         is(R, llvm::Log2_64(Block)))) {
      const Expr *T;
      int64_t C;
      if (split(L, T, C) && T && C >= Block - 1)
        return arg(T);
      return nullptr;
    }
    if (BO->getOpcode() != BO_Add)
      return nullptr;
    // (N - 1) / B + 1.
    if (is(R, 1))
      if (const auto *D = dyn_cast<BinaryOperator>(L);
          D && D->getOpcode() == BO_Div && is(stripCasts(D->getRHS()), Block)) {
        const Expr *T;
        int64_t C;
        if (split(D->getLHS(), T, C) && T && C >= -1)
          return arg(T);
      }
    // N / B + (N % B != 0).
    for (auto [Q, Rem] : {std::pair(L, R), std::pair(R, L)}) {
      const auto *D = dyn_cast<BinaryOperator>(Q);
      if (!D || D->getOpcode() != BO_Div || !is(stripCasts(D->getRHS()), Block))
        continue;
      const Expr *N = stripCasts(D->getLHS());
      if (const Expr *M = remainderTest(Rem); M && sameValue(Ctx, M, N))
        return arg(N);
    }
    return nullptr;
  }

private:
  /// N of `ceil(N / B)` computed in double (`ceil(n / 256.0)`,
  /// `ceil((double)n / 256)`) for an integer N of at most 32 bits: every
  /// such quotient is exact or at least 2^-31 from an integer, so the
  /// rounded quotient has the same ceiling. In float it has not (n above
  /// 2^24 rounds first), so `ceilf` is not read.
  const Expr *ceilOfQuotient(const Expr *G) {
    const auto *Call = dyn_cast<CallExpr>(G);
    const FunctionDecl *FD = Call ? Call->getDirectCallee() : nullptr;
    if (!FD || !FD->getIdentifier() || FD->getName() != "ceil" ||
        Call->getNumArgs() != 1 ||
        !Ctx.hasSameUnqualifiedType(Call->getType(), Ctx.DoubleTy))
      return nullptr;
    const auto *Div = dyn_cast<BinaryOperator>(Call->getArg(0)->IgnoreParens());
    if (!Div || Div->getOpcode() != BO_Div ||
        !Ctx.hasSameUnqualifiedType(Div->getType(), Ctx.DoubleTy))
      return nullptr;
    // The numerator: an integer converted to double.
    // `(double)n` is a no-op cast around the conversion.
    const Expr *Num = Div->getLHS()->IgnoreParens();
    while (const auto *NoOp = dyn_cast<CastExpr>(Num))
      if (NoOp->getCastKind() == CK_NoOp)
        Num = NoOp->getSubExpr()->IgnoreParens();
      else
        break;
    const auto *Conv = dyn_cast<CastExpr>(Num);
    if (!Conv || Conv->getCastKind() != CK_IntegralToFloating)
      return nullptr;
    const Expr *N = Conv->getSubExpr()->IgnoreParens();
    if (!N->getType()->isIntegerType() || Ctx.getTypeSize(N->getType()) > 32)
      return nullptr;
    // The denominator: the block, a constant.
    llvm::APFloat B(0.0);
    if (!Div->getRHS()->EvaluateAsFloat(B, Ctx) ||
        B.convertToDouble() != static_cast<double>(Block))
      return nullptr;
    return N;
  }

  /// Whether \p E is the constant \p V (a parameter of the helper called
  /// with it, inside a call).
  bool is(const Expr *E, int64_t V) { return intOf(E) == V; }

  /// The constant value of \p E, through the helper's parameters.
  std::optional<int64_t> intOf(const Expr *E) {
    E = stripCasts(E);
    if (Inlined)
      if (const auto *DR = dyn_cast<DeclRefExpr>(E))
        if (const auto *P = dyn_cast<ParmVarDecl>(DR->getDecl()))
          return P->getFunctionScopeIndex() < Inlined->getNumArgs()
                     ? launchInt(Ctx,
                                 Inlined->getArg(P->getFunctionScopeIndex()))
                     : std::nullopt;
    return launchInt(Ctx, E);
  }

  /// Splits \p E into a term and a constant, E = Term + C (Term null when
  /// E is a constant), reading constants through the helper's parameters;
  /// false when E has more than one non-constant term or a subtracted one.
  bool split(const Expr *E, const Expr *&Term, int64_t &C) {
    E = stripCasts(E);
    if (auto V = intOf(E)) {
      Term = nullptr;
      C = *V;
      return true;
    }
    const auto *BO = dyn_cast<BinaryOperator>(E);
    if (BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      const Expr *TL, *TR;
      int64_t CL, CR;
      if (!split(BO->getLHS(), TL, CL) || !split(BO->getRHS(), TR, CR))
        return false;
      if (BO->getOpcode() == BO_Sub) {
        Term = TL;
        C = CL - CR;
        return !TR;
      }
      if (TL && TR)
        return false;
      Term = TL ? TL : TR;
      C = CL + CR;
      return true;
    }
    Term = E;
    C = 0;
    return true;
  }

  /// \p T, or the argument of the call for a parameter of the helper.
  const Expr *arg(const Expr *T) {
    if (!Inlined)
      return T;
    const auto *DR = dyn_cast<DeclRefExpr>(stripCasts(T));
    const auto *P = DR ? dyn_cast<ParmVarDecl>(DR->getDecl()) : nullptr;
    if (!P || P->getFunctionScopeIndex() >= Inlined->getNumArgs())
      return nullptr;
    return Inlined->getArg(P->getFunctionScopeIndex());
  }

  /// N of `N % B != 0`, `N % B > 0`, `N % B ? 1 : 0`, `(N % B) != 0 ? 1 :
  /// 0`: an expression that is at least 1 when N % B is not 0.
  const Expr *remainderTest(const Expr *E) {
    E = stripCasts(E);
    if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
      if (!is(C->getTrueExpr(), 1) || !is(C->getFalseExpr(), 0))
        return nullptr;
      E = stripCasts(C->getCond());
      if (const Expr *N = remainder(E))
        return N;
    }
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || !(B->getOpcode() == BO_NE || B->getOpcode() == BO_GT) ||
        !is(B->getRHS(), 0))
      return nullptr;
    return remainder(stripCasts(B->getLHS()));
  }

  const Expr *remainder(const Expr *E) {
    const auto *B = dyn_cast<BinaryOperator>(E);
    if (!B || B->getOpcode() != BO_Rem || !is(B->getRHS(), Block))
      return nullptr;
    return stripCasts(B->getLHS());
  }

  const Expr *throughCall(const CallExpr *Call, unsigned Depth) {
    const FunctionDecl *FD = Call->getDirectCallee();
    const auto *Body =
        FD ? dyn_cast_or_null<CompoundStmt>(FD->getBody()) : nullptr;
    if (!Body || Body->size() != 1 ||
        Ctx.getSourceManager().isInSystemHeader(FD->getLocation()))
      return nullptr;
    const auto *Ret = dyn_cast<ReturnStmt>(Body->body_front());
    if (!Ret || !Ret->getRetValue() ||
        Ret->getRetValue()->HasSideEffects(Ctx) ||
        llvm::any_of(Call->arguments(),
                     [&](const Expr *A) { return A->HasSideEffects(Ctx); }))
      return nullptr;
    Inlined = Call;
    const Expr *T = term(Ret->getRetValue(), Depth + 1);
    Inlined = nullptr;
    return T;
  }

  ASTContext &Ctx;
  int64_t Block;
  const CallExpr *Inlined = nullptr;
};

} // namespace

std::optional<std::vector<KernelLaunch>>
autoprof::findLaunches(ASTContext &Ctx, const FunctionDecl &Kernel,
                       std::string *Why) {
  const SourceManager &SM = Ctx.getSourceManager();
  // The reason, with "{at}" the line of \p At.
  auto Fail = [&](StringRef Reason, const Stmt *At = nullptr) {
    if (Why) {
      std::string Line =
          At ? "at line " + std::to_string(SM.getPresumedLineNumber(
                                SM.getFileLoc(At->getBeginLoc())))
             : "";
      auto [Before, After] = Reason.split("{at}");
      *Why = (Before + Line + After).str();
    }
    return std::nullopt;
  };
  // A kernel of the source or of a header it includes, or an instantiation
  // of a kernel template; its launches may lie in either file.
  if (Kernel.getTemplatedKind() != FunctionDecl::TK_NonTemplate &&
      !Kernel.isTemplateInstantiation())
    return Fail("it is a template, whose instantiations are launched");
  if (SM.isInSystemHeader(SM.getFileLoc(Kernel.getLocation())))
    return Fail("it is defined in a system header");
  LaunchCollector C(Kernel);
  C.TraverseDecl(Ctx.getTranslationUnitDecl());
  std::vector<KernelLaunch> Launches;
  for (const CUDAKernelCallExpr *CE : C.Calls) {
    if (!CE->getBeginLoc().isFileID() || SM.isInSystemHeader(CE->getBeginLoc()))
      return Fail("its launch {at} is written through a macro or in a "
                  "system header",
                  CE);
    const CallExpr *Config = CE->getConfig();
    KernelLaunch L;
    L.Call = CE;
    L.Grid = Config ? writtenConfigArg(Config, 0) : nullptr;
    L.Block = Config ? writtenConfigArg(Config, 1) : nullptr;
    if (!L.Grid || !L.Block)
      return Fail("its launch {at} does not give a grid and a block", CE);
    Launches.push_back(L);
  }
  // Every reference to the kernel must be the callee of a launch.
  auto CalleeOfOne = [](const Expr *E,
                        ArrayRef<const CUDAKernelCallExpr *> Calls) {
    return llvm::any_of(Calls, [&](const CUDAKernelCallExpr *CE) {
      return CE->getCallee()->IgnoreParenImpCasts() == E;
    });
  };
  const char *NotLaunch =
      "it is named {at} other than by a `<<<...>>>` launch (its address "
      "taken, cudaLaunchKernel)";
  for (const DeclRefExpr *DR : C.Refs)
    if (!CalleeOfOne(DR, C.Calls) && !isAttributeQuery(Ctx, DR))
      return Fail(NotLaunch, DR);
  // A launch in a template's pattern is that of its instantiations: one
  // that no instantiation makes is a launch this translation unit does
  // not show.
  for (const DeclRefExpr *DR : C.PatternRefs)
    if (!CalleeOfOne(DR, C.PatternCalls) && !isAttributeQuery(Ctx, DR))
      return Fail(NotLaunch, DR);
  const char *Uninstantiated =
      "its launch {at} lies in a template that this translation unit does "
      "not instantiate";
  for (const CUDAKernelCallExpr *CE : C.PatternCalls)
    if (!C.FamilyLaunches.count(CE->getBeginLoc()))
      return Fail(Uninstantiated, CE);
  for (const OverloadExpr *E : C.Named)
    if (!C.FamilyLaunches.count(E->getBeginLoc()))
      return Fail(Uninstantiated, E);
  return Launches;
}

std::optional<Dim3> autoprof::constantDims(ASTContext &Ctx, const Expr *E,
                                           unsigned Depth) {
  if (!E || Depth > 4)
    return std::nullopt;
  E = E->IgnoreImplicit()->IgnoreParens();
  // dim3(B): a functional cast of one argument.
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(E))
    E = FC->getSubExpr()->IgnoreImplicit();
  if (E->getType()->isIntegerType()) {
    if (auto V = evaluateInt(followLocals(Ctx, E), Ctx))
      return Dim3{*V, 1, 1};
    return std::nullopt;
  }
  if (const auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    if (CE->getNumArgs() == 1)
      return constantDims(Ctx, CE->getArg(0), Depth + 1);
    if (CE->getNumArgs() != 3)
      return std::nullopt;
    Dim3 D;
    for (unsigned I = 0; I < 3; ++I) {
      const Expr *A = CE->getArg(I);
      if (const auto *DA = dyn_cast<CXXDefaultArgExpr>(A))
        A = DA->getExpr();
      auto V = evaluateInt(followLocals(Ctx, A), Ctx);
      if (!V)
        return std::nullopt;
      D[I] = *V;
    }
    return D;
  }
  std::optional<RecordVar> R = unchangedRecordVar(Ctx, E);
  if (!R)
    return std::nullopt;
  std::optional<Dim3> Dims = constantDims(Ctx, R->V->getInit(), Depth + 1);
  if (!Dims)
    return std::nullopt;
  for (unsigned D = 0; D < 3; ++D)
    if (R->Assigned[D]) {
      auto V = evaluateInt(followLocals(Ctx, R->Assigned[D]), Ctx);
      if (!V)
        return std::nullopt;
      (*Dims)[D] = *V;
    }
  return Dims;
}

std::optional<std::array<const Expr *, 3>>
autoprof::launchDimExprs(ASTContext &Ctx, const Expr *E) {
  return dimExprs(Ctx, E);
}

const Expr *autoprof::launchGridX(ASTContext &Ctx, const Expr *E) {
  return gridX(Ctx, E);
}

bool autoprof::hasDepthOne(ASTContext &Ctx, const Expr *E) {
  auto D = dimExprs(Ctx, E);
  return D && isOne(Ctx, (*D)[2]);
}

std::optional<int64_t> autoprof::evaluateInt(const Expr *E,
                                             const ASTContext &Ctx) {
  if (!E || E->isValueDependent() || E->isTypeDependent() ||
      E->containsErrors() || !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

/// Whether the reference \p DR only reads its variable's value.
static bool isRead(ASTContext &Ctx, const DeclRefExpr *DR) {
  const Stmt *S = DR;
  while (true) {
    auto Parents = Ctx.getParents(*S);
    // A braced initializer's elements have two parents: its semantic form
    // (through the conversions) and its syntactic form (as written).
    unsigned Semantic = 0;
    if (Parents.size() == 2 && Parents[0].get<InitListExpr>() &&
        !Parents[1].get<InitListExpr>())
      Semantic = 1;
    else if (Parents.size() != 1 &&
             !(Parents.size() == 2 && Parents[1].get<InitListExpr>()))
      return false;
    const Stmt *P = Parents[Semantic].get<Stmt>();
    if (P && isa<ParenExpr>(P)) {
      S = P;
      continue;
    }
    if (isHelperArgument(Ctx, DR))
      return true;
    // A struct is read by reading a field (`p.n`, the field itself only
    // read) or by copying it whole.
    if (DR->getType()->isRecordType()) {
      if (const auto *NoOp = dyn_cast_or_null<ImplicitCastExpr>(P);
          NoOp && NoOp->getCastKind() == CK_NoOp) {
        S = P;
        continue;
      }
      if (const auto *ME = dyn_cast_or_null<MemberExpr>(P);
          ME && !ME->isArrow() && isa<FieldDecl>(ME->getMemberDecl())) {
        S = P;
        continue;
      }
      if (const auto *Copy = dyn_cast_or_null<CXXConstructExpr>(P))
        return Copy->getConstructor()->isCopyOrMoveConstructor();
    }
    const auto *IC = dyn_cast_or_null<ImplicitCastExpr>(P);
    return IC && IC->getCastKind() == CK_LValueToRValue;
  }
}

bool autoprof::isDiscardedValue(ASTContext &Ctx, const Expr &E) {
  auto Parents = Ctx.getParents(E);
  if (Parents.size() != 1)
    return false;
  const Stmt *P = Parents[0].get<Stmt>();
  if (!P || isa<Expr>(P))
    return false;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return If->getCond() != &E;
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return W->getCond() != &E;
  if (const auto *D = dyn_cast<DoStmt>(P))
    return D->getCond() != &E;
  if (const auto *F = dyn_cast<ForStmt>(P))
    return F->getCond() != &E;
  if (const auto *S = dyn_cast<SwitchStmt>(P))
    return S->getCond() != &E;
  // A returned value is used.
  return !isa<ReturnStmt>(P);
}

bool autoprof::isUnmodified(ASTContext &Ctx, const VarDecl &V) {
  if (V.getType().isConstQualified())
    return true;
  if (V.getType()->isReferenceType())
    return false;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return false;
  RefCollector C(V);
  C.TraverseStmt(FD->getBody());
  return llvm::all_of(C.Refs,
                      [&](const DeclRefExpr *DR) { return isRead(Ctx, DR); });
}

const Expr *autoprof::valueOnEntry(ASTContext &Ctx, const VarDecl &V,
                                   const Stmt &S) {
  const Stmt *Cur = &S;
  while (true) {
    auto Parents = Ctx.getParents(*Cur);
    const Stmt *P = Parents.size() == 1 ? Parents[0].get<Stmt>() : nullptr;
    if (const auto *Block = dyn_cast_or_null<CompoundStmt>(P)) {
      auto Body = Block->body();
      auto At = llvm::find(Body, Cur);
      if (At == Body.end())
        return nullptr;
      for (auto It = std::make_reverse_iterator(At);
           It != std::make_reverse_iterator(Body.begin()); ++It) {
        const Stmt *B = *It;
        if (referencesTo(B, &V).empty()) {
          const auto *DS = dyn_cast<DeclStmt>(B);
          if (DS && llvm::is_contained(DS->decls(), &V))
            return V.getInit();
          continue;
        }
        if (const auto *DS = dyn_cast<DeclStmt>(B))
          return llvm::is_contained(DS->decls(), &V) && DS->isSingleDecl()
                     ? V.getInit()
                     : nullptr;
        const auto *A = dyn_cast<BinaryOperator>(B);
        const auto *L = A && A->getOpcode() == BO_Assign
                            ? dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParens())
                            : nullptr;
        if (L && L->getDecl() == &V && referencesTo(A->getRHS(), &V).empty())
          return A->getRHS();
        return nullptr;
      }
      Cur = Block;
      continue;
    }
    // A loop under `#pragma unroll` stands in its block as the pragma's
    // statement.
    if (isa_and_nonnull<AttributedStmt>(P)) {
      Cur = P;
      continue;
    }
    const auto *If = dyn_cast_or_null<IfStmt>(P);
    if (If && If->getThen() == Cur && !If->getInit() &&
        !If->getConditionVariable() &&
        referencesTo(If->getCond(), &V).empty()) {
      Cur = If;
      continue;
    }
    return nullptr;
  }
}

const Expr *autoprof::soleValue(ASTContext &Ctx, const VarDecl &V) {
  if (V.getInit())
    return isUnmodified(Ctx, V) ? V.getInit() : nullptr;
  if (!V.isLocalVarDecl() || V.isStaticLocal() ||
      V.getType()->isReferenceType() || V.getType().isVolatileQualified())
    return nullptr;
  const auto *FD =
      dyn_cast_or_null<FunctionDecl>(V.getParentFunctionOrMethod());
  if (!FD || !FD->getBody())
    return nullptr;
  // The block that declares V, and the declaration's place in it.
  const DeclStmt *Decl = nullptr;
  const CompoundStmt *Block = nullptr;
  for (const DynTypedNode &N : Ctx.getParents(V)) {
    Decl = N.get<DeclStmt>();
    if (Decl) {
      auto Up = Ctx.getParents(*Decl);
      Block = Up.size() == 1 ? Up[0].get<CompoundStmt>() : nullptr;
    }
  }
  if (!Decl || !Block || !referencesTo(Decl, &V).empty())
    return nullptr;
  // The first statement after the declaration that names V.
  const BinaryOperator *Assign = nullptr;
  bool After = false;
  for (const Stmt *S : Block->body()) {
    if (S == Decl) {
      After = true;
      continue;
    }
    if (!After || referencesTo(S, &V).empty())
      continue;
    const auto *BO = dyn_cast<BinaryOperator>(S);
    if (BO && BO->getOpcode() == BO_Assign)
      if (const auto *L = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParens());
          L && L->getDecl() == &V && referencesTo(BO->getRHS(), &V).empty())
        Assign = BO;
    break;
  }
  if (!Assign)
    return nullptr;
  const Expr *Target = Assign->getLHS()->IgnoreParens();
  for (const DeclRefExpr *DR : referencesTo(FD->getBody(), &V))
    if (DR != Target && !isRead(Ctx, DR))
      return nullptr;
  return Assign->getRHS();
}

/// Whether \p V is a value of the integer type \p T.
static bool fitsIn(const ASTContext &Ctx, int64_t V, QualType T) {
  if (!T->isIntegerType())
    return false;
  unsigned Bits = Ctx.getTypeSize(T);
  if (T->isSignedIntegerType())
    return Bits >= 64 ||
           (V >= -(int64_t(1) << (Bits - 1)) && V < (int64_t(1) << (Bits - 1)));
  return V >= 0 && (Bits >= 63 || V < (int64_t(1) << Bits));
}

bool autoprof::gridCoversBound(ASTContext &Ctx, const Expr *Grid, int64_t Block,
                               const Expr *Bound) {
  if (Block <= 0 || Bound->HasSideEffects(Ctx))
    return false;
  const Expr *X = gridX(Ctx, Grid);
  if (!X)
    return false;
  const Expr *G = followLocals(Ctx, X);
  auto GC = launchInt(Ctx, G);
  // The bound through the same locals as the grid (`rows * cols` with
  // `int rows = 1024`), also under integer casts whose type holds it
  // (`(int)m`).
  auto NC = launchInt(Ctx, Bound);
  if (!NC)
    if ((NC = launchInt(Ctx, stripCasts(Bound))) &&
        !fitsIn(Ctx, *NC, Bound->getType()))
      NC.reset();
  if (GC && NC)
    return *NC >= 0 && *GC >= 0 && *GC * Block >= *NC;
  const Expr *Term = CeilDiv(Ctx, Block).term(G);
  return Term && sameValue(Ctx, stripCasts(followLocals(Ctx, Term)),
                           stripCasts(followLocals(Ctx, Bound)));
}

bool autoprof::gridCoversField(ASTContext &Ctx, const Expr *Grid, int64_t Block,
                               const Expr *Arg, unsigned Field) {
  if (Block <= 0 || Arg->HasSideEffects(Ctx))
    return false;
  const Expr *X = gridX(Ctx, Grid);
  if (!X)
    return false;
  const Expr *Term = CeilDiv(Ctx, Block).term(followLocals(Ctx, X));
  if (!Term)
    return false;
  // The struct the launch passes, through its copy.
  const Expr *A = Arg->IgnoreImplicit();
  if (const auto *Copy = dyn_cast<CXXConstructExpr>(A);
      Copy && Copy->getNumArgs() == 1 &&
      Copy->getConstructor()->isCopyOrMoveConstructor())
    A = Copy->getArg(0);
  // The grid divides that struct's field (`(s.n + 15) / 16`) ...
  const auto *ME = dyn_cast<MemberExpr>(stripCasts(followLocals(Ctx, Term)));
  const auto *FD = ME ? dyn_cast<FieldDecl>(ME->getMemberDecl()) : nullptr;
  if (FD && !ME->isArrow() && FD->getFieldIndex() == Field)
    return sameValue(Ctx, ME->getBase(), A);
  // ... or the value the struct's field was given: a local that keeps the
  // value of its braced initializer (`Shape s{m, n, k};`, grid `(n + 15) /
  // 16`).
  const auto *DR = dyn_cast<DeclRefExpr>(A->IgnoreParenImpCasts());
  const auto *V = DR ? dyn_cast<VarDecl>(DR->getDecl()) : nullptr;

  const auto *RD = V ? V->getType()->getAsCXXRecordDecl() : nullptr;
  if (!V || !V->isLocalVarDecl() || !RD || RD->getNumBases() != 0 ||
      !V->getInit() || !isUnmodified(Ctx, *V))
    return false;
  const auto *Init = dyn_cast<InitListExpr>(V->getInit()->IgnoreImplicit());
  if (!Init || Field >= Init->getNumInits())
    return false;
  const Expr *Given = Init->getInit(Field);
  return sameValue(Ctx, stripCasts(followLocals(Ctx, Term)),
                   stripCasts(followLocals(Ctx, Given)));
}

bool autoprof::gridCoversCount(ASTContext &Ctx, const Expr *Grid, int64_t Block,
                               int64_t Count) {
  if (Block <= 0 || Count < 0)
    return false;
  const Expr *X = gridX(Ctx, Grid);
  if (!X)
    return false;
  const Expr *G = followLocals(Ctx, X);
  if (auto GC = launchInt(Ctx, G))
    return *GC >= 0 && *GC * Block >= Count;
  const Expr *Term = CeilDiv(Ctx, Block).term(G);
  auto N = Term ? evaluateInt(followLocals(Ctx, Term), Ctx) : std::nullopt;
  if (N)
    return *N >= Count;
  // Grid arithmetic in floating point on constants; the launch converts
  // the value to unsigned int, truncating.
  auto V = launchNumber(Ctx, X);
  if (!V)
    return false;
  double Blocks = std::trunc(*V);
  return Blocks >= 0 && Blocks < 4294967296.0 &&
         Blocks * double(Block) >= double(Count);
}

std::optional<std::string> autoprof::sourceText(const ASTContext &Ctx,
                                                const Stmt *E) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  return Lexer::getSourceText(R, SM, Ctx.getLangOpts()).str();
}

std::optional<tooling::Replacement>
autoprof::replaceExpr(const ASTContext &Ctx, const Expr *E,
                      llvm::StringRef Text) {
  const SourceManager &SM = Ctx.getSourceManager();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(E->getSourceRange()), SM,
      Ctx.getLangOpts());
  if (R.isInvalid())
    return std::nullopt;
  return tooling::Replacement(SM, R, Text, Ctx.getLangOpts());
}

std::string autoprof::freshName(const FunctionDecl &Kernel,
                                llvm::StringRef Base,
                                llvm::ArrayRef<std::string> Taken) {
  class Names : public RecursiveASTVisitor<Names> {
  public:
    bool VisitNamedDecl(NamedDecl *D) {
      if (D->getIdentifier())
        Set.insert(D->getName());
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *DR) {
      if (DR->getDecl()->getIdentifier())
        Set.insert(DR->getDecl()->getName());
      return true;
    }
    llvm::StringSet<> Set;
  } N;
  for (const ParmVarDecl *P : Kernel.parameters())
    N.TraverseDecl(const_cast<ParmVarDecl *>(P));
  if (Kernel.getBody())
    N.TraverseStmt(const_cast<Stmt *>(Kernel.getBody()));
  for (const std::string &T : Taken)
    N.Set.insert(T);
  std::string Name = Base.str();
  while (N.Set.contains(Name))
    Name += "_";
  return Name;
}

bool autoprof::isReturnOnly(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return CS->size() == 1 && isReturnOnly(CS->body_front());
  const auto *R = dyn_cast_or_null<ReturnStmt>(S);
  return R && !R->getRetValue();
}

std::vector<const Stmt *> autoprof::statementsOf(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S))
    return {CS->body_begin(), CS->body_end()};
  if (!S)
    return {};
  return {S};
}

std::string autoprof::lineIndent(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  std::pair<FileID, unsigned> At = SM.getDecomposedLoc(Loc);
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(At.first, &Invalid);
  if (Invalid || At.second > Buffer.size())
    return "";
  size_t Start = Buffer.rfind('\n', At.second == 0 ? 0 : At.second - 1);
  Start = Start == StringRef::npos ? 0 : Start + 1;
  if (At.second == 0)
    Start = 0;
  StringRef Line = Buffer.slice(Start, At.second);
  return Line.take_while([](char C) { return C == ' ' || C == '\t'; }).str();
}

std::string autoprof::parenthesize(const Expr *E, llvm::StringRef Text) {
  E = E->IgnoreImpCasts();
  if (isa<DeclRefExpr, IntegerLiteral, FloatingLiteral, ParenExpr, CallExpr,
          CXXFunctionalCastExpr, CXXNamedCastExpr, MemberExpr,
          ArraySubscriptExpr, PseudoObjectExpr, MSPropertyRefExpr>(E))
    return Text.str();
  return "(" + Text.str() + ")";
}

bool autoprof::isConstantZero(const ASTContext &Ctx, const Expr *E) {
  Expr::EvalResult R;
  if (!E || !E->EvaluateAsRValue(R, Ctx))
    return false;
  if (R.Val.isInt())
    return R.Val.getInt().isZero();
  return R.Val.isFloat() && R.Val.getFloat().isZero();
}

void autoprof::scopeToUserCode(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<Decl *> User;
  for (Decl *D : Ctx.getTranslationUnitDecl()->decls()) {
    SourceLocation L = SM.getFileLoc(D->getLocation());
    if (L.isValid() && !SM.isInSystemHeader(L))
      User.push_back(D);
  }
  Ctx.setTraversalScope(User);
}

bool autoprof::isWithin(ASTContext &Ctx, const Stmt *Inner, const Stmt *Outer) {
  // Through the declarations of variables, to the statements declaring
  // them.
  DynTypedNode N = DynTypedNode::create(*Inner);
  while (true) {
    const auto *S = N.get<Stmt>();
    if (S && S == Outer)
      return true;
    if (!S && !N.get<VarDecl>())
      return false;
    auto Parents = Ctx.getParents(N);
    if (Parents.size() != 1)
      return false;
    N = Parents[0];
  }
}

bool autoprof::isLoadIntrinsic(StringRef N) {
  return N == "__ldg" || N == "__ldca" || N == "__ldcg" || N == "__ldcs" ||
         N == "__ldlu" || N == "__ldcv";
}

bool autoprof::mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (const auto *DR = dyn_cast<DeclRefExpr>(S))
    if (DR->getDecl() == V)
      return true;
  for (const Stmt *C : S->children())
    if (mentions(C, V))
      return true;
  return false;
}

std::vector<const DeclRefExpr *> autoprof::referencesTo(const Stmt *S,
                                                        const VarDecl *V) {
  class Refs : public RecursiveASTVisitor<Refs> {
  public:
    explicit Refs(const VarDecl *V) : V(V) {}
    bool VisitDeclRefExpr(DeclRefExpr *D) {
      if (D->getDecl() == V)
        Found.push_back(D);
      return true;
    }
    const VarDecl *V;
    std::vector<const DeclRefExpr *> Found;
  } R(V);
  R.TraverseStmt(const_cast<Stmt *>(S));
  return R.Found;
}

/// The launch argument \p Grid, written \p Text, with its x dimension
/// \p NewX of its old text: that of a number or of the first argument of
/// `dim3(...)` written at the launch, in parentheses where needed, or
/// `g.x` of another dim3 `g`.
static std::string
gridWithX(const ASTContext &Ctx, const Expr *Grid, StringRef Text,
          llvm::function_ref<std::string(const std::string &)> NewX) {
  if (Grid->getType()->isIntegerType() || Grid->getType()->isRealFloatingType())
    return NewX(parenthesize(Grid, Text));
  // `dim3(gx, gy)` written at the launch (`dim3(gx)` is a functional
  // cast): gx replaced, the rest as written.
  const Expr *Built = Grid->IgnoreImplicit();
  if (const auto *FC = dyn_cast<CXXFunctionalCastExpr>(Built))
    Built = FC->getSubExpr()->IgnoreImplicit();
  if (const auto *CE = dyn_cast<CXXConstructExpr>(Built);
      CE && CE->getNumArgs() > 0 &&
      !CE->getConstructor()->isCopyOrMoveConstructor()) {
    std::string Args;
    for (const Expr *A : CE->arguments()) {
      if (isa<CXXDefaultArgExpr>(A))
        break;
      std::optional<std::string> T = sourceText(Ctx, A);
      if (!T) {
        Args.clear();
        break;
      }
      Args += Args.empty() ? NewX(parenthesize(A->IgnoreImplicit(), *T))
                           : ", " + *T;
    }
    if (!Args.empty())
      return "dim3(" + Args + ")";
  }
  std::string G = isa<DeclRefExpr>(Grid->IgnoreUnlessSpelledInSource())
                      ? Text.str()
                      : "(" + Text.str() + ")";
  return "dim3(" + NewX(G + ".x") + ", " + G + ".y, " + G + ".z)";
}

std::string autoprof::scaledGridText(const ASTContext &Ctx, const Expr *Grid,
                                     StringRef Text, StringRef Factor) {
  return gridWithX(Ctx, Grid, Text, [&](const std::string &X) {
    return X + " * " + Factor.str();
  });
}

std::optional<std::string>
autoprof::gridWithNewX(ASTContext &Ctx, const Expr *Grid, StringRef NewX) {
  if (Grid->getType()->isIntegerType() ||
      Grid->getType()->isRealFloatingType() || launchGridX(Ctx, Grid))
    return NewX.str();
  std::optional<std::string> Text = sourceText(Ctx, Grid);
  if (!Text)
    return std::nullopt;
  return gridWithX(Ctx, Grid, *Text,
                   [&](const std::string &) { return NewX.str(); });
}

bool autoprof::isReferenceTo(const Expr *E, const VarDecl *V) {
  const auto *DR =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return DR && DR->getDecl() == V;
}

bool autoprof::isUnitIncrement(const ASTContext &Ctx, const Expr *E,
                               const VarDecl *I) {
  if (!E)
    return false;
  E = E->IgnoreParens();
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->isIncrementOp() && isReferenceTo(U->getSubExpr(), I);
  const auto *CA = dyn_cast<CompoundAssignOperator>(E);
  return CA && CA->getOpcode() == BO_AddAssign &&
         isReferenceTo(CA->getLHS(), I) &&
         evaluateInt(CA->getRHS()->IgnoreParenImpCasts(), Ctx) == 1;
}

std::string autoprof::spelledType(const ASTContext &Ctx, QualType T) {
  for (QualType U = T.getUnqualifiedType();;) {
    if (const auto *S = dyn_cast<SubstTemplateTypeParmType>(U.getTypePtr()))
      if (const TemplateTypeParmDecl *P = S->getReplacedParameter();
          P && P->getIdentifier())
        return P->getName().str();
    QualType Next = U.getSingleStepDesugaredType(Ctx);
    if (Next == U)
      break;
    U = Next.getUnqualifiedType();
  }
  return T.getCanonicalType().getUnqualifiedType().getAsString(
      Ctx.getPrintingPolicy());
}
