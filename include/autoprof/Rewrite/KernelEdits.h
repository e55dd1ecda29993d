//===- KernelEdits.h - Edits shared by transformations and checks -*- C++ -*-=//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The source edits that both the built-in transformations and the static
/// checks make: declaring read-only pointer parameters
/// `const T *__restrict__`, and padding 2-D `__shared__` tiles.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_KERNELEDITS_H
#define AUTOPROF_REWRITE_KERNELEDITS_H

#include "clang/Tooling/Core/Replacement.h"
#include "llvm/Support/Error.h"

#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
class ParmVarDecl;
class VarDecl;
} // namespace clang

namespace autoprof {

/// The pointer parameters of \p Kernel that lack `const` or `__restrict__`
/// and are only read through, in declaration order.
///
/// A parameter qualifies when every use of it in the body is a read: a load
/// through it (`p[i]`, `*p`, `*(p + i)`, `p[i].f`), a comparison, or an
/// argument to a pointer-to-const parameter. Unused parameters, pointers to
/// pointers, functions, void or volatile, and kernels with more than one
/// declaration give none.
std::vector<const clang::ParmVarDecl *>
readOnlyPointerParams(clang::ASTContext &Ctx,
                      const clang::FunctionDecl &Kernel);

/// Adds to \p Out the insertions of `const ` and `__restrict__ ` that
/// \p Param lacks. Adds nothing when the type is not spelled in a file.
llvm::Error addConstRestrict(clang::ASTContext &Ctx,
                             const clang::ParmVarDecl &Param,
                             clang::tooling::Replacements &Out);

/// Adds to \p Out the edit padding the inner dimension of the `__shared__`
/// array \p Array, declared in \p Kernel, from `T a[N][32k]` to
/// `T a[N][32k + 1]`, when T is 4 bytes and \p Kernel uses the array only as
/// `a[i][j]` elements. Returns whether an edit was added.
llvm::Expected<bool> padSharedTile(clang::ASTContext &Ctx,
                                   const clang::FunctionDecl &Kernel,
                                   const clang::VarDecl &Array,
                                   clang::tooling::Replacements &Out);

/// The `__shared__` arrays declared in the body of \p Kernel, in order.
std::vector<const clang::VarDecl *>
sharedArrays(const clang::FunctionDecl &Kernel);

} // namespace autoprof

#endif // AUTOPROF_REWRITE_KERNELEDITS_H
