//===- MissingBoundsCheck.cpp - autoprof-missing-bounds-check -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "MissingBoundsCheck.h"

#include "CheckUtils.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang;
using namespace autoprof;
using namespace autoprof::checks;

namespace {

std::optional<int64_t> constant(const Expr *E, const ASTContext &Ctx) {
  if (E->isValueDependent() || E->isTypeDependent() ||
      !E->getType()->isIntegralOrEnumerationType())
    return std::nullopt;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return std::nullopt;
  return R.Val.getInt().getExtValue();
}

bool isOne(const Expr *E, const ASTContext &Ctx) {
  auto V = constant(E, Ctx);
  return V && *V == 1;
}

/// The expression by which \p E computes a grid size rounded up:
/// `(n + b - 1) / b`, `(n + 255) / 256`, or a call of a ceil-div helper;
/// looks into dim3 constructors and the initialisers of local variables.
/// Null when there is none.
const Expr *roundsUp(const Expr *E, const ASTContext &Ctx, unsigned Depth = 0) {
  if (!E || Depth > 8)
    return nullptr;
  E = E->IgnoreParenImpCasts();
  if (isa<CXXDefaultArgExpr>(E))
    return nullptr;
  if (const auto *DR = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(DR->getDecl()))
      if (V->isLocalVarDecl())
        return roundsUp(V->getInit(), Ctx, Depth + 1);
    return nullptr;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Div) {
    const Expr *L = BO->getLHS()->IgnoreParenImpCasts();
    if (const auto *Sub = dyn_cast<BinaryOperator>(L);
        Sub && Sub->getOpcode() == BO_Sub && isOne(Sub->getRHS(), Ctx))
      return BO; // (n + b) - 1
    if (const auto *Add = dyn_cast<BinaryOperator>(L);
        Add && Add->getOpcode() == BO_Add) {
      for (const Expr *Op : {Add->getLHS(), Add->getRHS()}) {
        const auto *S = dyn_cast<BinaryOperator>(Op->IgnoreParenImpCasts());
        if (S && S->getOpcode() == BO_Sub && isOne(S->getRHS(), Ctx))
          return BO; // n + (b - 1)
      }
      auto D = constant(BO->getRHS(), Ctx);
      auto C1 = constant(Add->getLHS(), Ctx);
      auto C2 = constant(Add->getRHS(), Ctx);
      if (D && ((C1 && *C1 == *D - 1) || (C2 && *C2 == *D - 1)))
        return BO; // (n + 255) / 256
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    std::string N = llvm::StringRef(calleeName(CE)).lower();
    if (N == "cdiv" || N == "divup" || N == "div_up" ||
        (llvm::StringRef(N).contains("div") &&
         (llvm::StringRef(N).contains("ceil") ||
          llvm::StringRef(N).contains("round_up") ||
          llvm::StringRef(N).contains("roundup"))))
      return CE;
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (const Expr *R = roundsUp(CE, Ctx, Depth + 1))
        return R;
  return nullptr;
}

/// Whether \p E is built from the block index and the thread index.
bool isGridIndex(const Expr *E, BuiltinUses &Uses) {
  return Uses.mentions(E, "blockIdx") && Uses.mentions(E, "threadIdx");
}

bool threadVarying(const Polynomial &P) {
  return P.dependsOn([](const Symbol &S) {
    return S.Kind == Symbol::ThreadIdx || S.Kind == Symbol::BlockIdx;
  });
}

/// Whether \p P is a global thread index: it reads blockIdx and threadIdx.
bool isGlobalIndex(const Polynomial &P) {
  auto Reads = [&](Symbol::KindTy K) {
    return P.dependsOn([K](const Symbol &S) { return S.Kind == K; });
  };
  return Reads(Symbol::ThreadIdx) && Reads(Symbol::BlockIdx);
}

/// Whether the threads for which \p Cond is \p Holds are kept below a bound:
/// some comparison, by value, puts a value that varies with the thread
/// under one that does not (`i < n`, `n > i`; `i >= n` when it does not
/// hold). A condition whose values the model does not see counts when it
/// mentions the global index.
bool boundsThreads(const KernelModel &M, const Expr *Cond, bool Holds,
                   BuiltinUses &Uses) {
  Cond = Cond->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Cond);
      UO && UO->getOpcode() == UO_LNot)
    return boundsThreads(M, UO->getSubExpr(), !Holds, Uses);
  const auto *BO = dyn_cast<BinaryOperator>(Cond);
  if (BO && (BO->getOpcode() == BO_LAnd || BO->getOpcode() == BO_LOr)) {
    bool L = boundsThreads(M, BO->getLHS(), Holds, Uses);
    bool R = boundsThreads(M, BO->getRHS(), Holds, Uses);
    // `a && b` holds when both do, and fails when either fails; `a || b`
    // the reverse.
    bool Both = (BO->getOpcode() == BO_LAnd) != Holds;
    return Both ? L && R : L || R;
  }
  if (BO && BO->isRelationalOp()) {
    ModelValue L = M.value(BO->getLHS()), R = M.value(BO->getRHS());
    if (!L || !R)
      return isGridIndex(Cond, Uses);
    bool LV = threadVarying(*L.Value), RV = threadVarying(*R.Value);
    if (LV == RV)
      return false;
    // Whether the comparison, as taken, says "varying below fixed".
    bool Less = BO->getOpcode() == BO_LT || BO->getOpcode() == BO_LE;
    if (!LV)
      Less = !Less;
    return Less == Holds;
  }
  if (BO && BO->isEqualityOp())
    return false;
  return isGridIndex(Cond, Uses);
}

/// Whether the subscript \p AS is indexed by the global thread index: by
/// value when the model knows its index, else when it mentions both.
bool indexedByGlobalIndex(const KernelModel &M, const ArraySubscriptExpr *AS,
                          BuiltinUses &Uses) {
  for (const ModelAccess &A : M.accesses())
    if (A.E == AS && A.Index)
      return isGlobalIndex(*A.Index);
  return isGridIndex(AS->getIdx(), Uses);
}

class Accesses : public RecursiveASTVisitor<Accesses> {
public:
  explicit Accesses(const Stmt *Body) : Uses(Body) {}
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitArraySubscriptExpr(ArraySubscriptExpr *AS) {
    const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
    const auto *DR = dyn_cast<DeclRefExpr>(Base);
    if (DR && isa<ParmVarDecl>(DR->getDecl()) && DR->getType()->isPointerType())
      Found.push_back(AS);
    return true;
  }
  bool VisitIfStmt(IfStmt *If) {
    // `if (i >= n) return;`
    const Stmt *Then = If->getThen();
    if (const auto *CS = dyn_cast_or_null<CompoundStmt>(Then))
      Then = CS->size() == 1 ? CS->body_front() : nullptr;
    if (isa_and_nonnull<ReturnStmt>(Then))
      EarlyExits.push_back(If);
    return true;
  }
  BuiltinUses Uses;
  std::vector<const ArraySubscriptExpr *> Found;
  std::vector<const IfStmt *> EarlyExits;
};

} // namespace

llvm::StringRef MissingBoundsCheckCheck::summary() const {
  return "global thread index used without a bounds check in a kernel "
         "launched with a rounded-up grid";
}

llvm::StringRef MissingBoundsCheckCheck::help() const {
  return "The launch rounds the grid up, so the threads of the last block "
         "index past the end of the array. Guard the access with the array's "
         "length (if (i < n) ...), or return early for threads past it; pass "
         "the length to the kernel when it does not have it.";
}

void MissingBoundsCheckCheck::check(const KernelContext &K,
                                    FindingSink &Out) const {
  const Stmt *Body = K.Kernel.getBody();
  if (!Body)
    return;
  ASTContext &Ctx = K.Ctx;
  const SourceManager &SM = Ctx.getSourceManager();
  const CUDAKernelCallExpr *Launch = nullptr;
  const Expr *Rounding = nullptr;
  for (const CUDAKernelCallExpr *L : K.Launches)
    if (const CallExpr *Config = L->getConfig())
      if (Config->getNumArgs() > 0)
        if ((Rounding = roundsUp(Config->getArg(0), Ctx))) {
          Launch = L;
          break;
        }
  if (!Launch)
    return;
  Accesses A(Body);
  A.TraverseStmt(const_cast<Stmt *>(Body));
  std::vector<const ArraySubscriptExpr *> Unguarded;
  const KernelModel &M = K.Model;
  for (const ArraySubscriptExpr *AS : A.Found) {
    if (!indexedByGlobalIndex(M, AS, A.Uses))
      continue;
    bool Guarded = false;
    for (const IfStmt *If : A.EarlyExits)
      Guarded |=
          SM.isBeforeInTranslationUnit(If->getEndLoc(), AS->getBeginLoc()) &&
          boundsThreads(M, If->getCond(), /*Holds=*/false, A.Uses);
    const Stmt *Child = AS;
    for (const Stmt *P = parentStmt(Ctx, AS); P && !Guarded && Child != Body;
         Child = P, P = parentStmt(Ctx, P)) {
      const Expr *Cond = controllingCondition(P, Child);
      // Whether the child runs when the condition holds or when it fails.
      bool Holds = true;
      if (const auto *If = dyn_cast<IfStmt>(P))
        Holds = Child != If->getElse();
      else if (const auto *C = dyn_cast<AbstractConditionalOperator>(P))
        Holds = Child != C->getFalseExpr();
      else if (const auto *B = dyn_cast<BinaryOperator>(P))
        Holds = B->getOpcode() == BO_LAnd;
      Guarded = Cond && boundsThreads(M, Cond, Holds, A.Uses);
    }
    if (!Guarded)
      Unguarded.push_back(AS);
  }
  if (Unguarded.empty())
    return;
  const LangOptions &LO = Ctx.getLangOpts();
  auto Text = [&](const Expr *E) {
    return Lexer::getSourceText(SM.getExpansionRange(E->getSourceRange()), SM,
                                LO)
        .str();
  };
  const ArraySubscriptExpr *First = Unguarded.front();
  unsigned LaunchLine =
      SM.getPresumedLineNumber(SM.getFileLoc(Launch->getBeginLoc()));
  std::string More = Unguarded.size() > 1
                         ? " (" + std::to_string(Unguarded.size() - 1) +
                               " more in '" + K.Record.Name + "')"
                         : "";
  Out.report(*this, First->getBeginLoc(),
             "'" + Text(First) +
                 "' is indexed by the global thread index without a bounds "
                 "check, but the launch on line " +
                 std::to_string(LaunchLine) + " rounds the grid up ('" +
                 Text(Rounding) +
                 "'): threads of the last block access past the end" + More);
}
