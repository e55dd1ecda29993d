//===- PerIndex.h - Kernels of one thread per index -------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Reads from a kernel model whether each thread of a kernel does the work
/// of its 1-D global index `blockIdx.x * blockDim.x + threadIdx.x` below a
/// bound N, or of every index from it below N in steps of the grid's size,
/// and reads the thread hierarchy nowhere else. The work done for an index
/// then does not depend on how the threads are grouped into blocks, which
/// the rewrites that regroup it (float4 vectors, other block sizes, a
/// grid-stride loop) need. The facts are of values, not spellings: the
/// index may be held in a local or written inline, the bound may be a
/// parameter, a macro or a constant, the guard an early return or an
/// enclosing `if`.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_KERNELMODEL_PERINDEX_H
#define AUTOPROF_KERNELMODEL_PERINDEX_H

#include "autoprof/KernelModel/KernelModel.h"

#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// A kernel of one thread per index.
struct PerIndexKernel {
  enum FormKind {
    /// One `if` (an early return or an enclosing `if`) bounds the index:
    /// `if (I >= N) return; S...` or `if (I < N) { S... }`.
    Guarded,
    /// The work is a loop `for (I = index; I < N; I += gridDim.x *
    /// blockDim.x)`, or `T I = index; while (I < N) { ...; I += ...; }`,
    /// after declarations.
    GridStride,
  };
  FormKind Form = Guarded;
  /// N, the number of indices: a value of parameters and constants.
  Polynomial Bound;
  /// N as written in the guard or the loop's condition, or null when the
  /// comparison is written otherwise (`I <= N - 1`).
  const clang::Expr *BoundExpr = nullptr;
  /// Guarded: the expressions that compute the index; each reads the
  /// thread hierarchy itself.
  std::vector<const clang::Expr *> IndexExprs;
  /// The variable that holds the index: a local of the prologue initialised
  /// with one of IndexExprs and never modified (Guarded), or the loop's
  /// variable (GridStride); null when the index is written inline.
  const clang::VarDecl *IndexVar = nullptr;
  /// Guarded: the conditions of the guard that bound the index from below
  /// by a value of parameters and constants (`1 <= I` of a stencil's
  /// interior); the threads below it do nothing, with any block.
  std::vector<GuardBound> LowerBounds;
  /// Guarded: the guard's `if`. GridStride: the loop.
  const clang::IfStmt *Guard = nullptr;
  const clang::Stmt *Loop = nullptr;
  /// The statements done for one index: the guarded statements, or the
  /// loop's body (without the step of a `while`).
  std::vector<const clang::Stmt *> Work;
  /// With \p OtherAxes of matchPerIndex(): the reads of the thread
  /// hierarchy outside the index (and the grid-stride loop's step), each of
  /// blocks of another axis only (`blockIdx.y`, `gridDim.z`;
  /// takeOtherAxes()), or with \p OtherThreads of another axis only
  /// (`threadIdx.y`).
  std::vector<const clang::Expr *> OtherAxisReads;
  /// Guarded, with \p OtherAxes: the guard's bounds of a batch index, a
  /// value of the blocks of other axes (with \p OtherThreads, of their
  /// threads too), by parameters and constants (`b < batches` with `b =
  /// blockIdx.y`, `y < h`): the same for every thread of a row of the
  /// block in x, so a rewrite of the x dimension keeps them as they are.
  std::vector<GuardBound> OtherAxisBounds;
};

/// The per-index shape of the kernel of \p M, or nullopt with the reason in
/// \p Why. With \p OtherAxes, the kernel may also read the blocks of
/// another axis (a batch index `blockIdx.y`), as takeOtherAxes() allows
/// for a rewrite that replaces the block: the index is then the thread's
/// own within its batch. With \p OtherThreads too, it may read the threads
/// of the block on those axes (a row `blockIdx.y * blockDim.y +
/// threadIdx.y` of 2-D blocks), for a rewrite that keeps the block.
std::optional<PerIndexKernel> matchPerIndex(const KernelModel &M,
                                            std::string &Why,
                                            bool OtherAxes = false,
                                            bool OtherThreads = false);

/// A 2-D kernel of one thread per index pair: its guard bounds the global
/// indices X = blockIdx.x * blockDim.x + threadIdx.x and Y (the same in
/// y), each by a value of parameters and constants (and maybe from below
/// by constants), and the thread
/// hierarchy is read nowhere but in X and Y. Its threads then do the same
/// work under any block shape whose grid covers the bounds.
struct PerIndex2DKernel {
  /// The number of indices in x and in y.
  Polynomial BoundX, BoundY;
  /// The bounds as written in the guard, or null.
  const clang::Expr *BoundXExpr = nullptr;
  const clang::Expr *BoundYExpr = nullptr;
};

/// The 2-D per-index shape of the kernel of \p M, or nullopt with the
/// reason in \p Why.
std::optional<PerIndex2DKernel> matchPerIndex2D(const KernelModel &M,
                                                std::string &Why);

/// Whether the guard bound \p B is `c <= Index` or `c < Index` with a
/// constant c below 0 (or 0 for `<=`): it holds for every thread, since
/// the global index \p Index is never negative.
bool alwaysHolds(const GuardBound &B, const Polynomial &Index);

/// The value that the left side of \p B stays below: its right side, plus
/// one for `<=`; nullopt when that overflows.
std::optional<Polynomial> exclusiveBound(const GuardBound &B);

/// The first local of the prologue of \p M that holds the value \p P: an
/// integer of at least 32 bits, initialised with P and never modified, or
/// declared without a value and given P by its one assignment
/// (soleValue()) before the guard; or null.
const clang::VarDecl *localOfValue(const KernelModel &M, const Polynomial &P);

/// The statement `if (c1 || c2) return;` that ends the kernel of \p M for
/// every thread when one of its guard's conditions (guardConditions()) or
/// of \p Bounds fails, each written as in the guard, for a rewrite that
/// replaces the guard, on one line. Empty without conditions; nullopt when
/// one is written through a macro.
std::optional<std::string>
conditionsExit(const KernelModel &M, llvm::ArrayRef<GuardBound> Bounds = {});

/// Whether \p E, a read of the thread hierarchy, has a value the model sees
/// that reads no x component (`blockIdx.y`, `threadIdx.y + blockDim.y *
/// blockIdx.y`): a batch, plane or head index. A rewrite that changes only
/// the x dimension of the kernel's blocks and grid leaves it as it is, the
/// same for the 32 lanes of a warp when the blocks hold whole warps in x.
bool readsOtherAxesOnly(const KernelModel &M, const clang::Expr *E);

/// Removes from \p Uncovered, reads of the thread hierarchy outside the
/// global index x, those that read another axis only (readsOtherAxesOnly();
/// with \p BlocksOnly, only blockIdx and gridDim of y and z, for a rewrite
/// that replaces the block). Every element the kernel stores must depend
/// on each symbol they read: else threads apart on that axis store the
/// same elements, and false is returned with the reason in \p Why.
bool takeOtherAxes(const KernelModel &M,
                   std::vector<const clang::Expr *> &Uncovered, bool BlocksOnly,
                   std::string &Why);

/// Whether every symbol of \p P is a parameter: its value is known at each
/// launch.
bool isOfParameters(const Polynomial &P);

/// The text of \p P, a value of parameters and constants (isOfParameters()),
/// at the launch \p L: each parameter replaced by the launch's argument.
/// A constant is written as \p Spelled, its spelling in the kernel, when
/// that is a macro or names a global constant, both before the launch.
/// Nullopt when an argument is written through a macro or has side effects.
std::optional<std::string> textAtLaunch(clang::ASTContext &Ctx,
                                        const KernelLaunch &L,
                                        const Polynomial &P,
                                        const clang::Expr *Spelled = nullptr);

/// Whether \p Grid blocks of \p Block threads provably cover the \p Bound
/// indices at the launch \p L: gridCoversBound() for a parameter, or a
/// parameter less a constant, and gridCoversCount() for a constant. Of a
/// dim3 grid, its x dimension counts (launchDimExprs()).
bool gridCoversAtLaunch(clang::ASTContext &Ctx, const KernelLaunch &L,
                        int64_t Block, const Polynomial &Bound);

} // namespace autoprof

#endif // AUTOPROF_KERNELMODEL_PERINDEX_H
