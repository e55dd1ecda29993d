//===- LaunchSites.h - Launch sites of a kernel and their grids -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Helpers of the transformations that change a kernel's launch
/// configuration: every launch of the kernel in the translation unit, the
/// grid and block expressions as written, and the proof that a grid covers a
/// bound (`(N + B - 1) / B` blocks of B threads cover N).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_KERNELMODEL_LAUNCHSITES_H
#define AUTOPROF_KERNELMODEL_LAUNCHSITES_H

#include "clang/AST/Type.h"
#include "clang/Tooling/Core/Replacement.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class SourceLocation;
class SourceManager;
class CUDAKernelCallExpr;
class DeclRefExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace autoprof {

/// One `kernel<<<grid, block, ...>>>(args)` expression.
struct KernelLaunch {
  const clang::CUDAKernelCallExpr *Call = nullptr;
  /// The grid and block arguments as written (inside their conversion to
  /// dim3).
  const clang::Expr *Grid = nullptr;
  const clang::Expr *Block = nullptr;
};

/// Every launch of \p Kernel in the translation unit, or nullopt (with the
/// reason in \p Why, when given) when the kernel is a template's pattern
/// (an instantiation has its own launches), is defined in a system header,
/// is referred to other than by a launch (its address taken,
/// cudaLaunchKernel) or by a CUDA runtime function that only reads or sets
/// its attributes (the occupancy calculator, cudaFuncGetAttributes,
/// cudaFuncSetAttribute), or has a launch in a system header or written through
/// a macro. The kernel and its launches may lie in the main file or in
/// headers it includes. A launch written in a template (a host function
/// template launching it with `dim3 block(TX, TY)`) is one launch per
/// instantiation of that template, each with its own grid and block
/// expressions at the same place; one that nothing instantiates gives
/// nullopt. The result may be empty.
std::optional<std::vector<KernelLaunch>>
findLaunches(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel,
             std::string *Why = nullptr);

/// The x, y and z dimensions of a launch argument.
using Dim3 = std::array<int64_t, 3>;

/// The constant dimensions of the launch argument \p E: an integer, a dim3
/// of constants (each also through integer locals that keep one value,
/// soleValue()), or a local dim3 variable initialised with one (or set
/// field by field right after its declaration) and only copied or read
/// field by field; nullopt otherwise.
std::optional<Dim3> constantDims(clang::ASTContext &Ctx, const clang::Expr *E,
                                 unsigned Depth = 0);

/// The expressions of the x, y and z dimensions of the launch argument
/// \p E: an integer (x), `dim3(x)`, `dim3(x, y[, z])`, or a dim3 local so
/// initialised and only copied or read field by field; a dimension left
/// out (1) is null. Nullopt for anything else.
std::optional<std::array<const clang::Expr *, 3>>
launchDimExprs(clang::ASTContext &Ctx, const clang::Expr *E);

/// The x dimension of the launch argument \p E when its y and z are 1
/// (launchDimExprs()), else null.
const clang::Expr *launchGridX(clang::ASTContext &Ctx, const clang::Expr *E);

/// Whether the launch argument \p E has a z dimension of 1: an integer,
/// `dim3(x)`, `dim3(x, y)`, `dim3(x, y, 1)`, or a dim3 local so
/// initialised and only copied or read field by field.
bool hasDepthOne(clang::ASTContext &Ctx, const clang::Expr *E);

/// The value of the integer constant expression \p E, or nullopt.
std::optional<int64_t> evaluateInt(const clang::Expr *E,
                                   const clang::ASTContext &Ctx);

/// Whether \p V keeps its initial value: it is const, or every reference to
/// it in its function reads its value.
bool isUnmodified(clang::ASTContext &Ctx, const clang::VarDecl &V);

/// Whether the value of \p E is discarded: \p E is a statement of its own
/// (in a block, the body or branch of a statement, a `for`'s first or last
/// part), not the condition of an `if`, a loop or a `switch`.
bool isDiscardedValue(clang::ASTContext &Ctx, const clang::Expr &E);

/// The expression whose value the local variable \p V holds wherever it is
/// read: its initializer when nothing changes it (isUnmodified), or, for a
/// variable declared without one (`int i; i = e;`), the right side of its
/// one assignment, when that assignment is a statement of the block that
/// declares \p V, the first after the declaration to name \p V, \p e does
/// not name \p V, and every other reference to \p V reads it. Null
/// otherwise.
const clang::Expr *soleValue(clang::ASTContext &Ctx, const clang::VarDecl &V);

/// The expression whose value the local variable \p V holds when \p S
/// starts, read from the straight-line code before it: in \p S's block and
/// the blocks and `if` branches around it, the last statement naming \p V
/// is its declaration (its initializer; null without one) or `V = e;` with
/// \p e not naming \p V. Null when another statement names \p V first or a
/// loop encloses the search.
const clang::Expr *valueOnEntry(clang::ASTContext &Ctx, const clang::VarDecl &V,
                                const clang::Stmt &S);

/// Whether \p Grid blocks of \p Block threads provably cover \p Bound
/// threads, where \p Bound is a side-effect-free expression evaluated at the
/// same launch: both constants with Grid * Block >= Bound >= 0 (each through
/// unmodified locals, `rows * cols` with `int rows = 1024`; the bound also
/// under integer casts whose type holds its value), or Grid of
/// the form `(N + Block - 1) / Block` (through unmodified local variables)
/// with N the same unmodified variable as \p Bound.
bool gridCoversBound(clang::ASTContext &Ctx, const clang::Expr *Grid,
                     int64_t Block, const clang::Expr *Bound);

/// Whether \p Grid blocks of \p Block threads provably cover the field
/// \p Field (its index) of the struct \p Arg passed to a launch: the grid
/// is a ceiling division of that field of the same unmodified struct
/// (`(p.n + 255) / 256` with `p` passed).
bool gridCoversField(clang::ASTContext &Ctx, const clang::Expr *Grid,
                     int64_t Block, const clang::Expr *Arg, unsigned Field);

/// Whether \p Grid blocks of \p Block threads provably cover \p Count
/// threads: the grid is a constant (through unmodified locals) with
/// Grid * Block >= Count, or `(N + Block - 1) / Block` with N a constant of
/// at least \p Count.
bool gridCoversCount(clang::ASTContext &Ctx, const clang::Expr *Grid,
                     int64_t Block, int64_t Count);

/// The source text of \p S (an expression, or a declaration with its `;`),
/// or nullopt when it is not a plain range of one file.
std::optional<std::string> sourceText(const clang::ASTContext &Ctx,
                                      const clang::Stmt *S);

/// A replacement of the source range of \p E by \p Text, or nullopt when the
/// range is not a plain range of one file.
std::optional<clang::tooling::Replacement>
replaceExpr(const clang::ASTContext &Ctx, const clang::Expr *E,
            llvm::StringRef Text);

/// \p Base, followed by as many `_` as needed to differ from the name of
/// every parameter of \p Kernel and every declaration or reference in its
/// body, and from \p Taken.
std::string freshName(const clang::FunctionDecl &Kernel, llvm::StringRef Base,
                      llvm::ArrayRef<std::string> Taken = {});

/// Whether \p E, through parentheses and implicit casts, is a reference to
/// \p V (false for a null \p E).
bool isReferenceTo(const clang::Expr *E, const clang::VarDecl *V);

/// Whether \p E is `++I`, `I++` or `I += 1` for the variable \p I.
bool isUnitIncrement(const clang::ASTContext &Ctx, const clang::Expr *E,
                     const clang::VarDecl *I);

/// Restricts the traversal scope of \p Ctx, and so the parent map that
/// parent queries (isWithin(), the kernel model) build on first use, to the
/// top-level declarations outside system headers: kernels and their launches
/// live there, and the CUDA and C++ headers, most of a translation unit,
/// need no parents. Call it before the first parent query of a translation
/// unit.
void scopeToUserCode(clang::ASTContext &Ctx);

/// Whether \p Inner is \p Outer or inside it (also through the declaration
/// of a variable it initialises), following the one parent of
/// each node.
bool isWithin(clang::ASTContext &Ctx, const clang::Stmt *Inner,
              const clang::Stmt *Outer);

/// Every reference to \p V in \p S, in order.
std::vector<const clang::DeclRefExpr *> referencesTo(const clang::Stmt *S,
                                                     const clang::VarDecl *V);

/// The launch argument \p Grid, written \p Text, with its x dimension
/// multiplied by \p Factor: `(g) * F` for a number (an integer, or a
/// floating value the launch converts, `ceil(n / 256.0)`), evaluated once
/// as before; `dim3((gx) * F, gy)` for `dim3(gx, gy)` written at the
/// launch; `dim3(g.x * F, g.y, g.z)` for another dim3, which evaluates g
/// three times.
std::string scaledGridText(const clang::ASTContext &Ctx,
                           const clang::Expr *Grid, llvm::StringRef Text,
                           llvm::StringRef Factor);

/// The launch argument \p Grid with its x dimension replaced by \p NewX:
/// \p NewX for a number or a dim3 whose y and z are 1 (launchGridX());
/// `dim3(NewX, gy)` for `dim3(gx, gy)` written at the launch; `dim3(NewX,
/// g.y, g.z)` for another dim3. Nullopt when a dim3 is written through a
/// macro.
std::optional<std::string> gridWithNewX(clang::ASTContext &Ctx,
                                        const clang::Expr *Grid,
                                        llvm::StringRef NewX);

/// Whether \p S refers to \p V anywhere in it.
bool mentions(const clang::Stmt *S, const clang::VarDecl *V);

/// Whether \p Name is a load intrinsic, which only reads the element its
/// argument points to (`__ldg`, `__ldca`, `__ldcg`, `__ldcs`, `__ldlu`,
/// `__ldcv`).
bool isLoadIntrinsic(llvm::StringRef Name);

/// Whether \p E is a constant integer or floating-point zero (false for a
/// null \p E).
bool isConstantZero(const clang::ASTContext &Ctx, const clang::Expr *E);

/// Whether \p S is `return;` or a block holding only that.
bool isReturnOnly(const clang::Stmt *S);

/// The statements of \p S: its children when it is a compound statement,
/// else \p S itself (none for a null \p S).
std::vector<const clang::Stmt *> statementsOf(const clang::Stmt *S);

/// The spaces and tabs that start the line of \p Loc, for code inserted
/// beside the statement there.
std::string lineIndent(const clang::SourceManager &SM,
                       clang::SourceLocation Loc);

/// The type \p T as a rewrite writes it into the kernel: the name of the
/// template parameter it was substituted for, in an instantiation (`T` of
/// `template <typename T>`, so that every instantiation gets the same
/// edit), else the canonical type of \p T without qualifiers (an alias
/// may be declared where the edit cannot see it).
std::string spelledType(const clang::ASTContext &Ctx, clang::QualType T);

/// \p Text in parentheses unless \p E is a primary or postfix expression (an
/// identifier, a literal, a call, a cast written as a call, a member or an
/// element).
std::string parenthesize(const clang::Expr *E, llvm::StringRef Text);

} // namespace autoprof

#endif // AUTOPROF_KERNELMODEL_LAUNCHSITES_H
