//===- CheckUtils.h - AST helpers shared by the checks ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Small AST queries that several checks make: the parent of a statement,
/// the loops around it, what a variable's value is built from.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_CHECK_CHECKS_CHECKUTILS_H
#define AUTOPROF_LIB_CHECK_CHECKS_CHECKUTILS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace autoprof {
namespace checks {

/// The single parent statement of \p S (the DeclStmt of a variable for
/// its initialiser), or null.
const clang::Stmt *parentStmt(clang::ASTContext &Ctx, const clang::Stmt *S);

/// Whether \p S runs in a loop of the function whose body is \p Body: it is
/// in a loop's body, condition or increment (not a `for`'s init).
bool isInLoop(clang::ASTContext &Ctx, const clang::Stmt *S,
              const clang::Stmt *Body);

/// Answers which CUDA builtin variables (`threadIdx`, `blockIdx`, ...) an
/// expression of one function body reads, directly or through the
/// initialisers and assignments of its local variables. Answers for
/// variables are remembered.
class BuiltinUses {
public:
  explicit BuiltinUses(const clang::Stmt *Body);
  /// Whether \p E reads \p Builtin ("threadIdx", "blockIdx", ...).
  bool mentions(const clang::Expr *E, llvm::StringRef Builtin);

private:
  bool variableMentions(const clang::VarDecl *V, llvm::StringRef Builtin);
  /// The values assigned to each local variable, its initialiser first.
  llvm::DenseMap<const clang::VarDecl *, std::vector<const clang::Expr *>>
      Values;
  std::map<std::pair<const clang::VarDecl *, std::string>, bool> Known;
  std::set<std::pair<const clang::VarDecl *, std::string>> InProgress;
  bool SawCycle = false;
};

/// The condition of \p P that decides whether its child \p Child runs (an
/// `if`, a loop, a `switch`, `?:`, or the left side of `&&` and `||`), or
/// null.
const clang::Expr *controllingCondition(const clang::Stmt *P,
                                        const clang::Stmt *Child);

/// The name of the function \p CE calls, also in dependent code.
std::string calleeName(const clang::CallExpr *CE);

} // namespace checks
} // namespace autoprof

#endif // AUTOPROF_LIB_CHECK_CHECKS_CHECKUTILS_H
