//===- KernelModel.h - One model of a kernel for every question -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The kernel model: what a kernel computes, read once from its AST and
/// shared by the transformations, whatever the spelling. It holds
///   - the value of every integer expression as a Polynomial over the
///     thread-hierarchy builtins, parameters, loop variables and constants,
///     seen through locals computed once, macros, `constexpr`, casts;
///   - the guard: the early returns and enclosing `if`s before the work of
///     a thread, as bounds `L < R` or `L <= R`, and the statements it
///     guards;
///   - the loops, with their variable, first value, end, step and trip
///     count;
///   - every access to a parameter's memory or a `__shared__` array, with
///     its array, element index, direction and enclosing loops;
///   - the reductions: a local scalar or a global element accumulated
///     across a loop;
///   - the launch sites, with their grid and block.
/// Calls of transparent helpers (helperReturn()) are seen through.
/// A question the model cannot answer comes with a one-line reason, so
/// that a transformation can say why it did not apply.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_KERNELMODEL_KERNELMODEL_H
#define AUTOPROF_KERNELMODEL_KERNELMODEL_H

#include "autoprof/KernelModel/LaunchSites.h"
#include "autoprof/KernelModel/Polynomial.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FieldDecl;
class ParmVarDecl;
class FunctionDecl;
class IfStmt;
class Stmt;
class QualType;
class VarDecl;
} // namespace clang

namespace autoprof {

/// A value or the reason there is none.
struct ModelValue {
  std::optional<Polynomial> Value;
  /// Why Value is absent; empty when it is present.
  std::string Why;

  explicit operator bool() const { return Value.has_value(); }
};

/// One condition of the guard: `Lhs < Rhs` (Strict) or `Lhs <= Rhs`.
struct GuardBound {
  Polynomial Lhs, Rhs;
  bool Strict = true;
  /// The comparison as written (inside a negation when it came from an
  /// early return).
  const clang::Expr *Cond = nullptr;
  /// Whether the guard requires Cond to fail rather than hold (a term of an
  /// early return's condition, `if (i >= n || b >= batches) return;`).
  bool Negated = false;
};

/// A condition of the guard that bounds no index (`!enabled`, `cols > 0`,
/// `mode == 2`): it reads parameters passed by value, constants and locals
/// set from them, and neither memory nor the thread hierarchy, so it has one
/// value for every thread of a launch, whatever the launch's shape. All of
/// a launch's threads pass it or none do.
struct GuardCondition {
  /// The condition as written.
  const clang::Expr *Cond = nullptr;
  /// Whether the guard requires Cond to fail rather than hold (a term of an
  /// early return's condition, `if (!enabled || ...) return;`).
  bool Negated = false;
};

/// A counted loop: `for (V = First; V < End; V += Step)`, `T V = First;
/// while (V < End) { ...; V += Step; }` whose variable, declared before it,
/// changes nowhere but in the last statement of its body, or `T V = First;
/// for (; V < End; V += Step)`, the variable only read between. A loop counting
/// down by one in a signed type, `for (V = Hi; V >= Lo; --V)`, is counted
/// too (Descending), and so is one in an unsigned type that cannot pass
/// zero (`V > Lo`, or `V >= Lo` with Lo a positive constant): First, End and
/// Step then describe the values it takes as a set, First = Lo,
/// End = Hi + 1, Step = 1. So is `for (V = Hi; V-- > Lo;)`, which takes the
/// values from Lo up to Hi - 1 (DecrementsInCond).
struct ModelLoop {
  const clang::Stmt *S = nullptr;
  /// Null when the loop is not counted; Why says why.
  const clang::VarDecl *Var = nullptr;
  /// The variable the loop's init statement sets, even when the loop is not
  /// counted.
  const clang::VarDecl *InitVar = nullptr;
  /// Whether the variable is declared by the loop's init statement.
  bool DeclaredByLoop = false;
  /// The statement that steps the variable: a `for`'s increment, or the
  /// last statement of a `while`'s body; null when there is none.
  const clang::Expr *StepStmt = nullptr;
  /// For a `while` loop and a `for` without an init statement, the
  /// declaration before the loop that gives its variable its first value;
  /// null for other loops.
  const clang::Stmt *VarDeclStmt = nullptr;
  Polynomial First, End, Step;
  /// The loop's end as written (`N` of `j < N`), or null; null for a loop
  /// counting down.
  const clang::Expr *EndExpr = nullptr;
  /// Whether the loop counts down by one (see above). FirstExpr is then its
  /// highest value as written, LowExpr the bound of its condition (`0` of
  /// `j >= 0`, `Lo` of `j > Lo`, strict with LowStrict).
  bool Descending = false;
  const clang::Expr *LowExpr = nullptr;
  bool LowStrict = false;
  /// Whether the loop is a `for` without a step whose condition decrements
  /// the variable as it tests it: `V-- > Lo`, `V-- >= Lo`, or, unsigned,
  /// `V-- != 0` and `V--` (LowExpr null), as `V-- > 0`. It is Descending,
  /// and its body sees each value one below the one tested: from Lo (Lo - 1
  /// with `>=`) up to FirstExpr - 1. StepStmt is null.
  bool DecrementsInCond = false;
  /// Whether the condition is written `V != End` (or `End != V`): a loop
  /// counting up by one from at most End. A rewrite that changes the
  /// loop's first value or step must then write the condition `V < End`.
  bool NotEqual = false;
  /// Whether First or End is an opaque symbol: a side-effect-free value
  /// the model does not see through (`RowPtr[Row]`), fixed for the loop.
  bool OpaqueBounds = false;
  std::optional<int64_t> TripCount;
  /// The enclosing model loop, or -1.
  int Parent = -1;
  std::string Why;
  /// For a loop that is not counted because it multiplies or divides its
  /// variable by a constant each iteration (`s *= 2`, `s <<= 1`,
  /// `s = s / 2`, `s >>= 1`) and changes it nowhere else: the factor (2 for
  /// all of these), and whether the loop divides. The variable (InitVar) is
  /// then a loop symbol inside the loop, and its first value as written is
  /// FirstExpr; zero for other loops. FirstExpr is also set for counted
  /// loops.
  int64_t Factor = 0;
  bool Divides = false;
  const clang::Expr *FirstExpr = nullptr;

  bool counted() const { return Var != nullptr; }
  /// Whether the loop scales its variable by Factor (see Factor).
  bool geometric() const { return Factor > 1; }
  /// The variable that is a loop symbol inside the loop: Var, or InitVar of
  /// a geometric loop; null for other loops.
  const clang::VarDecl *symbolVar() const {
    return Var ? Var : geometric() ? InitVar : nullptr;
  }
};

/// The statements of the body of \p L's loop, without the step of a
/// `while` loop.
std::vector<const clang::Stmt *> loopBody(const ModelLoop &L);
/// Whether every reference to \p V inside \p S only reads its value (no
/// assignment, increment, address or reference taken).
bool readsOnly(clang::ASTContext &Ctx, const clang::VarDecl *V,
               const clang::Stmt *S);
/// The condition of \p L's loop, or null.
const clang::Expr *loopCond(const ModelLoop &L);
/// The replacements that make the counted loop \p L, which steps by one,
/// take the values First + Offset, First + Offset + Stride, ... below End,
/// however it is written: a loop written `V != End` gets the condition
/// `V < End`, a loop counting down runs up from its low bound to its
/// first value, and one whose condition decrements (`V-- > Lo`) gets a step
/// written into its parentheses. \p Offset is empty for none. nullopt when a
/// part of the loop is not in one file's plain text.
std::optional<std::vector<clang::tooling::Replacement>>
strideLoop(const clang::ASTContext &Ctx, const ModelLoop &L,
           llvm::StringRef Offset, llvm::StringRef Stride);

/// The memory an access reaches: a pointer parameter, a pointer field of a
/// parameter passed by value (`A.elements` of `struct Matrix A`, which no
/// statement of the kernel changes), a `__shared__` array or a local
/// array. Two of them are equal when they are the same variable and the
/// same field; distinct ones may still alias unless declared
/// `__restrict__`.
class ModelArray {
public:
  ModelArray() = default;
  ModelArray(const clang::VarDecl *Var, const clang::FieldDecl *Field = nullptr)
      : Var(Var), Field(Field) {}

  explicit operator bool() const { return Var != nullptr; }
  /// The parameter or array; for a field, the parameter that holds it.
  const clang::VarDecl *var() const { return Var; }
  /// The pointer field, or null.
  const clang::FieldDecl *field() const { return Field; }
  /// The type of the pointer or array: the field's for a field.
  clang::QualType type() const;
  /// Whether the pointer is declared `__restrict__`.
  bool isRestrict() const;
  /// How it is written: `p`, `A.elements`.
  std::string name() const;

  friend bool operator==(const ModelArray &A, const ModelArray &B) {
    return A.Var == B.Var && A.Field == B.Field;
  }
  friend bool operator!=(const ModelArray &A, const ModelArray &B) {
    return !(A == B);
  }
  /// An order for maps; not the order of the source.
  friend bool operator<(const ModelArray &A, const ModelArray &B) {
    return A.Var != B.Var ? std::less<>()(A.Var, B.Var)
                          : std::less<>()(A.Field, B.Field);
  }

private:
  const clang::VarDecl *Var = nullptr;
  const clang::FieldDecl *Field = nullptr;
};

/// One access to memory: `P[i]`, `*(P + i)`, `S[i][j]`.
struct ModelAccess {
  /// The subscript or dereference expression.
  const clang::Expr *E = nullptr;
  /// The parameter or field (for global memory) or the `__shared__` array
  /// it reaches; empty when the model cannot tell.
  ModelArray Array;
  bool Shared = false;
  /// The element index from the start of Array, when known.
  std::optional<Polynomial> Index;
  std::string Why;
  bool Read = false, Write = false;
  /// The model loops around the access, outermost first.
  std::vector<unsigned> Loops;
};

/// `X += e`, `X = X + e`, `X -= e`, `X = X - e`, `++X`, `X--`,
/// `X = f(X, e)` (f a minimum or maximum; also written as a choice that
/// takes e only where a comparison of e with X holds, `X = e > X ? e : X`
/// or `if (e > X) X = e;`, X a local scalar and e of its type, recorded
/// with the function of X's type, unguarded; with integers also `X = X >
/// e ? X : e`) or `X = fmaf(a, b, X)` (a sum of products, each rounded once
/// with the sum: `fmaf`, `fma`, `__fmaf_rn`, `__fma_rn`) across a loop, with
/// X a local scalar or one global element; the update may be the only
/// statement of an `if` without `else` (`if (v > t) ++n;`), which makes
/// the reduction a sum or combination over the iterations where its guard
/// holds.
struct ModelReduction {
  unsigned Loop = 0;
  /// The statement of the loop's body that holds the update: the update
  /// itself, or its guarding `if`.
  const clang::Stmt *Statement = nullptr;
  /// The update expression.
  const clang::Expr *Update = nullptr;
  /// The condition of the guarding `if`, or null when the update is a
  /// statement of the loop's body itself.
  const clang::Expr *Guard = nullptr;
  /// Whether the update adds or subtracts one (`++X`, `X--`); Term is
  /// then null.
  bool Increment = false;
  /// Whether a sum subtracts its term (`X -= e`, `X = X - e`, `--X`):
  /// the sum of the negated terms.
  bool Subtract = false;
  /// The scalar accumulated, or null.
  const clang::VarDecl *Scalar = nullptr;
  /// The accumulated element's access (index into accesses()), or -1.
  int Element = -1;
  /// "+" for a sum, or the function's name ("fmaxf").
  std::string Combine;
  /// The term e added or combined each iteration; for a fused
  /// multiply-add, its first factor a; null for an increment.
  const clang::Expr *Term = nullptr;
  /// For a fused multiply-add, its second factor b (the term added is
  /// Term * Factor, rounded once with the sum); else null.
  const clang::Expr *Factor = nullptr;
  /// For a fused multiply-add, the function called; else empty.
  std::string Fused;
};

/// `if (e > X) { X = e; P = p; }` across a loop (or `X < e`; `e < X`, `X >
/// e` for the least; the two assignments in either order), with X and P
/// local scalars that nothing else in the loop touches and e of X's type:
/// X ends as the greatest (least) of its value before the loop and the
/// iterations' e, and P as p at the first iteration that reached it, or
/// as before the loop when none exceeded X's value then. A comparison
/// with `>=` or `<=` (the last iteration that reaches it) is not one.
struct ModelArgExtreme {
  unsigned Loop = 0;
  /// The `if` statement of the loop's body.
  const clang::IfStmt *Statement = nullptr;
  /// X and P.
  const clang::VarDecl *Extreme = nullptr, *Position = nullptr;
  /// e, as assigned to X (the condition compares the same expression), and
  /// p.
  const clang::Expr *Term = nullptr, *PositionValue = nullptr;
  /// Whether X is the greatest e (else the least).
  bool Greatest = true;
};

/// The expression that \p FD returns when it is a transparent helper: a
/// function defined outside system headers whose body is one `return E;`,
/// with no parameter by reference, where E touches no memory and calls only
/// math functions and transparent helpers. Its calls are values of their
/// arguments for the model (`__device__ int at(int r, int c, int ld)
/// { return r * ld + c; }`, `__device__ int gid() { return blockIdx.x *
/// blockDim.x + threadIdx.x; }`); null for any other function.
const clang::Expr *helperReturn(const clang::ASTContext &Ctx,
                                const clang::FunctionDecl *FD);

/// When \p FD is a load helper, the element it returns: a non-member
/// function defined outside system headers whose body is one `return
/// P[I];` (or `return __ldg(&P[I]);`), with P one of its pointer
/// parameters or a pointer field of one of its struct parameters
/// (`m.elements`), and I an integer value of its parameters (pure, touching
/// no memory). A call of it is one read of memory for the model, an access
/// through the pointer argument (`__device__ float at(const float *p, int
/// i) { return p[i]; }`); null for any other function.
const clang::ArraySubscriptExpr *loadHelper(const clang::ASTContext &Ctx,
                                            const clang::FunctionDecl *FD);

/// The parameter whose memory the subscript \p AS of a load helper
/// (loadHelper()) reads, and the pointer field of it that it reads through
/// (`m.elements[i]`), or null for a pointer parameter itself (`p[i]`); a
/// null parameter for any other base.
std::pair<const clang::ParmVarDecl *, const clang::FieldDecl *>
loadHelperPointer(const clang::ArraySubscriptExpr *AS);

/// Whether \p T is `float`, `double` or a 32- or 64-bit integer: the
/// scalars that warp shuffles carry and whose maximum and minimum CUDA's
/// functions give (`fmaxf`, `fmax`, `max`).
bool isWordType(clang::QualType T);

/// Whether the model leaves the body of \p FD unread: a function defined
/// outside system headers that is neither a transparent helper
/// (helperReturn()) nor a load helper (loadHelper()). A call of it may do
/// anything, and its kernel's threads may depend on each other.
bool isOpaqueFunction(const clang::ASTContext &Ctx,
                      const clang::FunctionDecl *FD);

/// Whether \p E, through parentheses, qualifying casts and copies, is an
/// argument of a call of a transparent helper (helperReturn()) or a load
/// helper (loadHelper()), by value or by reference: such a helper writes
/// nothing, so the call only reads E.
bool isHelperArgument(clang::ASTContext &Ctx, const clang::Expr *E);

/// The model of one kernel. It refers to the AST of \p Kernel, which must
/// outlive it.
class KernelModel {
public:
  KernelModel(clang::ASTContext &Ctx, const clang::FunctionDecl &Kernel);
  ~KernelModel();
  KernelModel(const KernelModel &) = delete;
  KernelModel &operator=(const KernelModel &) = delete;

  clang::ASTContext &context() const { return Ctx; }
  const clang::FunctionDecl &kernel() const { return Kernel; }

  /// The value of the integer expression \p E of the kernel's body, at its
  /// place: loop variables inside their loop are symbols, locals assigned
  /// once stand for their initializer, constants are folded.
  ModelValue value(const clang::Expr *E) const;
  /// The value of the integer expression \p E of the body of the function
  /// that \p Call calls, with its parameters bound to the call's
  /// arguments (a load helper's index, loadHelper()).
  ModelValue valueInCall(const clang::CallExpr *Call,
                         const clang::Expr *E) const;

  /// Whether evaluating \p S changes nothing: no assignment, increment,
  /// volatile access or call, but reads of the thread-hierarchy builtins,
  /// calls to math functions that read only their arguments and trivial
  /// copies of structs.
  bool isPure(const clang::Stmt *S) const;

  /// Whether \p S is `v = e;` or `v op= e;` giving a local scalar variable
  /// of the kernel (not a parameter, not static, not a reference) the value
  /// of a pure \p e (`v op e`): a statement that changes only that
  /// variable.
  bool isLocalSet(const clang::Stmt *S) const;

  /// Whether \p S, a statement of the body of the `for` loop \p L, is
  /// `if (c) continue;` (or `{ continue; }`, no `else`) with a pure c: it
  /// skips the rest of the iteration where c holds, which the iteration
  /// itself decides, wherever and in whatever order it runs.
  bool isSkip(const clang::Stmt *S, const ModelLoop &L) const;

  /// The access that \p S stores to when \p S is `a[e] = v;`, `a[e] op= v;`
  /// or `*p = v;`: an assignment to an element of memory; null otherwise
  /// (an assignment to a variable or to a member of a local struct).
  const ModelAccess *storeTarget(const clang::Stmt *S) const;

  /// The source text of \p E on one line, shortened, for reasons.
  std::string text(const clang::Expr *E) const;

  /// The guard's bounds; meaningful when guardWhy() is empty.
  llvm::ArrayRef<GuardBound> guard() const { return Guard; }
  /// The guard's conditions that bound no index; a rewrite that replaces
  /// the guard's text keeps them.
  llvm::ArrayRef<GuardCondition> guardConditions() const { return GuardConds; }
  /// The `if` statements the guard is made of, outermost first.
  llvm::ArrayRef<const clang::IfStmt *> guardStatements() const {
    return GuardStmts;
  }
  /// Why the guard is not a conjunction of bounds and conditions; empty when
  /// it is.
  const std::string &guardWhy() const { return GuardWhy; }
  /// The declarations before and between the guard's statements, which
  /// every thread evaluates.
  llvm::ArrayRef<const clang::Stmt *> prologue() const { return Prologue; }
  /// The statements the guard protects: the work of one thread.
  llvm::ArrayRef<const clang::Stmt *> work() const { return Work; }

  llvm::ArrayRef<ModelLoop> loops() const { return Loops; }
  /// The index in loops() of the loop statement \p S (or of the loop \p S
  /// attributes, as `#pragma unroll` does), or -1.
  int loopIndex(const clang::Stmt *S) const;
  /// A read of \p L's variable outside the loop, or null: a rewrite that
  /// changes the values the variable takes must find none (a later
  /// declarator of its declaration, `int c = 0, e = c + 4;`, reads it too).
  const clang::DeclRefExpr *counterOutside(const ModelLoop &L) const;
  /// Whether the position that \p A records grows with its loop's
  /// iterations: `c * j + r` with j the loop's variable, c a positive
  /// constant and r the same in every iteration. Threads that split the
  /// loop and keep, of equal extremes, the least position then keep the
  /// one the thread's order kept.
  bool positionGrows(const ModelArgExtreme &A) const;
  /// Why \p Threads (`lanes`, `slices`), which split \p A's loop upwards,
  /// each keep the first of its equal extremes and combine their pairs
  /// preferring the least position, may not find \p A's extreme and
  /// position: side effects, a variable given no value before the loop or
  /// updated elsewhere, a loop that counts down, a position that does not
  /// grow (positionGrows()). Empty when they find what the thread found.
  std::string splitArgExtremeWhy(const ModelArgExtreme &A,
                                 llvm::StringRef Threads) const;
  /// Why \p Threads threads that share the iterations of each loop of
  /// \p Loops (indices in loops()) would leave some idle from the start:
  /// every one of them runs a known number of iterations below \p Threads.
  /// Empty when one may run \p Threads or more (or \p Loops is empty).
  std::string fewerIterationsWhy(llvm::ArrayRef<unsigned> Loops,
                                 unsigned Threads) const;
  llvm::ArrayRef<ModelAccess> accesses() const { return Accesses; }
  llvm::ArrayRef<ModelReduction> reductions() const { return Reductions; }
  llvm::ArrayRef<ModelArgExtreme> argExtremes() const { return ArgExtremes; }

  /// Why the kernel's threads may depend on each other (`__shared__`
  /// memory, barriers, shuffles, votes, atomics, calls to functions defined
  /// outside system headers, inline assembly, kernel launches); empty when
  /// they cannot. With \p CountAtomics false, atomic operations are not
  /// counted: a rewrite that keeps each atomic operation as it is, done by
  /// some thread, may ignore them.
  const std::string &cooperationWhy(bool CountAtomics = true) const {
    return CountAtomics ? CooperationWhy : NonAtomicWhy;
  }

  /// Every read of threadIdx, blockIdx, blockDim or gridDim in the body,
  /// and every call of a transparent helper that reads them.
  llvm::ArrayRef<const clang::Expr *> builtinUses() const {
    return BuiltinUses;
  }
  /// The outermost expressions of the body whose value is \p P and that
  /// read a builtin themselves (not through a local); the uses of builtins
  /// outside them go to \p Uncovered.
  std::vector<const clang::Expr *>
  expressionsOfValue(const Polynomial &P,
                     std::vector<const clang::Expr *> &Uncovered) const;
  /// expressionsOfValue() for any of the values \p Ps (the x and y global
  /// indices of a 2-D kernel).
  std::vector<const clang::Expr *>
  expressionsOfValues(llvm::ArrayRef<Polynomial> Ps,
                      std::vector<const clang::Expr *> &Uncovered) const;

  /// The kernel's launches in the translation unit (findLaunches()), or
  /// nullopt with launchWhy().
  const std::optional<std::vector<KernelLaunch>> &launches() const {
    return Launches;
  }
  const std::string &launchWhy() const { return LaunchWhy; }
  /// The kernel's launches when there is at least one; else null, with the
  /// reason in \p Why.
  const std::vector<KernelLaunch> *someLaunches(std::string &Why) const;

  /// The block every launch of the kernel has, when they all have the same
  /// constant one. Values then read a constant multiple of it as the block
  /// size: with blocks of 256, `blockIdx.x * 256 + threadIdx.x` is the
  /// global index `blockIdx.x * blockDim.x + threadIdx.x` (CUDA samples
  /// write `blockIdx.x * BLOCK_SIZE`).
  const std::optional<Dim3> &fixedBlock() const { return FixedBlock; }
  /// Why a rewrite may not change the block's size: a value of the kernel
  /// was read through fixedBlock() (`the index at line 4 takes the block
  /// size as 256`); empty when none was.
  const std::string &blockSizeWhy() const { return BlockSizeWhy; }
  /// The expressions whose values were read through fixedBlock(), so far:
  /// a rewrite that changes the block's size and replaces each of them
  /// (with the code around them) keeps no value of the old size.
  llvm::ArrayRef<const clang::Expr *> blockSizeReads() const {
    return BlockSizeReads;
  }

  /// "line N" of \p S, for reasons; "line N of <file>" when \p S lies in
  /// another file than the kernel.
  std::string where(const clang::Stmt *S) const;

private:
  /// \p V, the value of \p E, with the block's size taken as the constant
  /// of the launches when they all have one.
  ModelValue forFixedBlock(ModelValue V, const clang::Expr *E) const;
  class Builder;
  clang::ASTContext &Ctx;
  const clang::FunctionDecl &Kernel;
  std::vector<GuardBound> Guard;
  std::vector<GuardCondition> GuardConds;
  std::vector<const clang::IfStmt *> GuardStmts;
  std::string GuardWhy;
  std::vector<const clang::Stmt *> Prologue, Work;
  std::vector<ModelLoop> Loops;
  llvm::DenseMap<const clang::Stmt *, unsigned> LoopOfStmt;
  std::vector<ModelAccess> Accesses;
  std::vector<ModelReduction> Reductions;
  std::vector<ModelArgExtreme> ArgExtremes;
  std::string CooperationWhy, NonAtomicWhy;
  std::vector<const clang::Expr *> BuiltinUses;
  std::optional<std::vector<KernelLaunch>> Launches;
  std::string LaunchWhy;
  std::optional<Dim3> FixedBlock;
  mutable std::string BlockSizeWhy;
  mutable std::vector<const clang::Expr *> BlockSizeReads;
  mutable llvm::DenseMap<const clang::Expr *, ModelValue> Values;
};

/// The stride of the element index \p Index of \p M across the threads of a
/// warp, which run the same iteration of each loop: the coefficient of
/// threadIdx.x once every loop variable is replaced by its loop's first
/// value (a counted loop whose step is the same for every thread). Nullopt,
/// with the reason in \p Why, when the index depends on a value the model
/// does not see through, on the variable of a loop that is not counted or
/// whose step varies between threads, or on threadIdx.x other than
/// linearly.
std::optional<Polynomial> warpStride(const KernelModel &M,
                                     const Polynomial &Index, std::string &Why);

} // namespace autoprof

#endif // AUTOPROF_KERNELMODEL_KERNELMODEL_H
