//===- DoublePrecision.cpp - autoprof-double-precision --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "DoublePrecision.h"

#include "CheckUtils.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;
using namespace autoprof;
using namespace autoprof::checks;

namespace {

bool isBuiltin(QualType T, BuiltinType::Kind K) {
  const auto *BT = T.getCanonicalType()->getAs<BuiltinType>();
  return BT && BT->getKind() == K;
}

/// Whether \p E is a float value converted to double.
///
/// A call like `exp(x)` with float x is not one: CUDA's <cmath> (Clang's
/// and nvcc's) has float overloads of the math functions.
bool isPromotedFloat(const Expr *E) {
  const auto *IC = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  return IC && IC->getCastKind() == CK_FloatingCast &&
         isBuiltin(IC->getType(), BuiltinType::Double) &&
         isBuiltin(IC->getSubExpr()->getType(), BuiltinType::Float);
}

/// The double-precision functions of <cmath> that have a float twin named
/// with a trailing 'f'.
const llvm::StringSet<> &mathFunctions() {
  static const llvm::StringSet<> Names = {
      "acos",  "acosh", "asin",  "asinh", "atan", "atan2", "atanh", "cbrt",
      "ceil",  "cos",   "cosh",  "erf",   "erfc", "exp",   "exp10", "exp2",
      "expm1", "fabs",  "fdim",  "floor", "fma",  "fmax",  "fmin",  "fmod",
      "hypot", "log",   "log10", "log1p", "log2", "pow",   "rcbrt", "rint",
      "round", "rsqrt", "sin",   "sinh",  "sqrt", "tan",   "tanh",  "trunc"};
  return Names;
}

class Finder : public RecursiveASTVisitor<Finder> {
public:
  Finder(const KernelContext &K, const Check &C, FindingSink &Out)
      : K(K), C(C), Out(Out), SM(K.Ctx.getSourceManager()),
        LO(K.Ctx.getLangOpts()) {}

  bool TraverseLambdaExpr(LambdaExpr *) { return true; }

  void literal(const Expr *E) {
    const auto *FL = dyn_cast<FloatingLiteral>(E->IgnoreParens());
    if (!FL || !isBuiltin(FL->getType(), BuiltinType::Double))
      return;
    SourceLocation Loc = FL->getLocation();
    tooling::Replacements Fix;
    std::string Text = "the literal";
    if (Loc.isFileID()) {
      llvm::StringRef Spelling = Lexer::getSourceText(
          CharSourceRange::getTokenRange(Loc, Loc), SM, LO);
      Text = "'" + Spelling.str() + "'";
      SourceLocation End = Lexer::getLocForEndOfToken(Loc, 0, SM, LO);
      if (!Spelling.empty() && End.isValid())
        llvm::consumeError(Fix.add(tooling::Replacement(SM, End, 0, "f")));
      Out.report(C, Loc,
                 "double-precision literal " + Text +
                     " makes float arithmetic double; write " +
                     Text.substr(0, Text.size() - 1) + "f'",
                 std::move(Fix));
      return;
    }
    Out.report(C, Loc,
               "double-precision literal makes float arithmetic double");
  }

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (const auto *CA = dyn_cast<CompoundAssignOperator>(BO)) {
      if (isBuiltin(CA->getLHS()->getType(), BuiltinType::Float) &&
          isBuiltin(CA->getComputationResultType(), BuiltinType::Double))
        literal(CA->getRHS());
      return true;
    }
    if (isPromotedFloat(BO->getLHS()))
      literal(BO->getRHS());
    if (isPromotedFloat(BO->getRHS()))
      literal(BO->getLHS());
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD || !FD->getDeclName().isIdentifier() ||
        !mathFunctions().contains(FD->getName()) ||
        !isBuiltin(FD->getReturnType(), BuiltinType::Double))
      return true;
    // A float argument converted to double, or given to a template
    // overload that computes in double (`pow(x, 2.0)`).
    bool FloatArg = false;
    for (const Expr *A : CE->arguments())
      FloatArg |=
          isBuiltin(A->IgnoreParenImpCasts()->getType(), BuiltinType::Float);
    if (!FloatArg)
      return true;
    const auto *DR =
        dyn_cast<DeclRefExpr>(CE->getCallee()->IgnoreParenImpCasts());
    if (!DR)
      return true;
    std::string Name = FD->getName().str();
    tooling::Replacements Fix;
    SourceLocation NameLoc = DR->getNameInfo().getLoc();
    // std::expf and friends are missing from some standard libraries.
    if (NameLoc.isFileID() && !DR->hasQualifier())
      llvm::consumeError(
          Fix.add(tooling::Replacement(SM, NameLoc, Name.size(), Name + "f")));
    Out.report(C, NameLoc,
               "'" + Name +
                   "' computes in double precision on a float "
                   "argument; call '" +
                   Name + "f'",
               std::move(Fix));
    return true;
  }

private:
  const KernelContext &K;
  const Check &C;
  FindingSink &Out;
  const SourceManager &SM;
  const LangOptions &LO;
};

} // namespace

llvm::StringRef DoublePrecisionCheck::summary() const {
  return "double-precision literal or math function in float arithmetic";
}

llvm::StringRef DoublePrecisionCheck::help() const {
  return "A double literal or a double math function turns float arithmetic "
         "into double, which runs many times slower on most GPUs. Write "
         "float literals with an f suffix (0.5f) and call the float "
         "functions (sqrtf, expf, powf); the fix does both. Keep double "
         "where the precision is needed, and silence the line with // "
         "NOLINT(autoprof-double-precision).";
}

void DoublePrecisionCheck::check(const KernelContext &K,
                                 FindingSink &Out) const {
  if (!K.Kernel.getBody())
    return;
  Finder F(K, *this, Out);
  F.TraverseStmt(K.Kernel.getBody());
}
