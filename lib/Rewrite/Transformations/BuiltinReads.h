//===- BuiltinReads.h - Reads of the thread hierarchy -----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Syntactic reads of threadIdx, blockIdx, blockDim and gridDim, for the
/// transformations that still match the AST (tile-transpose-smem,
/// warp-shuffle-reduce); the others read the kernel model
/// (autoprof/KernelModel). And the static-feature test of independent
/// threads that the transformations' preconditions share.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_BUILTINREADS_H
#define AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_BUILTINREADS_H

#include "autoprof/Features/KernelRecord.h"
#include "llvm/ADT/StringRef.h"

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace autoprof {

/// Whether \p K is a plain function or an instantiation (not a template's
/// pattern) whose threads do not
/// cooperate: no `__shared__` arrays, barriers, warp shuffles or votes, or
/// cooperative groups. Rewrites that regroup its work over threads or
/// blocks need this.
bool hasIndependentThreads(const KernelRecord &K);

/// \p E without parentheses, implicit casts and explicit casts to integer
/// types of at least 32 bits.
const clang::Expr *stripCasts(const clang::ASTContext &Ctx,
                              const clang::Expr *E);

/// Whether \p E reads the builtin component \p Var . \p Field, such as
/// ("blockIdx", 'x'), through casts that stripCasts() removes.
bool isBuiltin(const clang::ASTContext &Ctx, const clang::Expr *E,
               llvm::StringRef Var, char Field);

/// Whether \p E is `blockIdx.F * blockDim.F + threadIdx.F` (in any order,
/// through such casts), with F one of 'x', 'y', 'z'.
bool isGlobalIndex(const clang::ASTContext &Ctx, const clang::Expr *E, char F);

} // namespace autoprof

#endif // AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_BUILTINREADS_H
