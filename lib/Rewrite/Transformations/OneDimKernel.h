//===- OneDimKernel.h - Kernels of one thread per index ---------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Recognises kernels whose only use of the thread hierarchy is a 1-D
/// global index `blockIdx.x * blockDim.x + threadIdx.x` bounded by an
/// integer parameter, so that the work done for each index does not depend
/// on how the threads are grouped into blocks:
///
///     T I = blockIdx.x * blockDim.x + threadIdx.x;
///     if (I < N) S                            // Guarded (the last statement)
///
///     T I = blockIdx.x * blockDim.x + threadIdx.x;
///     if (I >= N) return;                     // EarlyExit
///     S...
///
///     [T Stride = gridDim.x * blockDim.x;]
///     for (T I = blockIdx.x * blockDim.x + threadIdx.x; I < N; I += Stride)
///       S                                     // GridStride
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_ONEDIMKERNEL_H
#define AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_ONEDIMKERNEL_H

#include "autoprof/Features/KernelRecord.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <vector>

namespace clang {
class ASTContext;
class DeclStmt;
class ForStmt;
class FunctionDecl;
class IfStmt;
class ParmVarDecl;
class Expr;
class Stmt;
class VarDecl;
} // namespace clang

namespace autoprof {

/// The shape of a kernel of one thread per index.
struct OneDimKernel {
  enum FormKind { Guarded, EarlyExit, GridStride };
  FormKind Form = Guarded;
  /// The index variable I.
  const clang::VarDecl *Index = nullptr;
  /// The parameter N that bounds it, and its position.
  const clang::ParmVarDecl *Bound = nullptr;
  unsigned BoundParam = 0;
  /// Guarded and EarlyExit: the declaration of I and the `if`.
  const clang::DeclStmt *IndexDecl = nullptr;
  const clang::IfStmt *Guard = nullptr;
  /// GridStride: the loop.
  const clang::ForStmt *Loop = nullptr;
  /// The statements done for one index: the guarded statement, the
  /// statements after the early exit, or the loop's body.
  std::vector<const clang::Stmt *> Work;
};

/// The shape of \p Kernel, or nullopt when it is not one of the three forms
/// exactly, or when it reads threadIdx, blockIdx, blockDim or gridDim
/// elsewhere, modifies I (other than the grid-stride step) or N, declares
/// `__shared__` variables, or calls a function defined outside system
/// headers (which could read them).
std::optional<OneDimKernel>
matchOneDimKernel(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);

/// Whether \p K is a plain function (not a template) whose threads do not
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

#endif // AUTOPROF_LIB_REWRITE_TRANSFORMATIONS_ONEDIMKERNEL_H
