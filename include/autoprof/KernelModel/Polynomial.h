//===- Polynomial.h - Integer values of a kernel as polynomials -*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The value of an integer expression of a kernel as a polynomial with
/// integer coefficients over symbols: the thread-hierarchy builtins
/// (threadIdx, blockIdx, blockDim, gridDim in x, y, z), the kernel's
/// parameters, loop variables, and opaque values the model cannot see
/// through. A value that is affine in the thread and loop symbols may still
/// multiply them by parameters (`Row * Cols + C`): such a value is a
/// polynomial whose coefficient of each thread or loop symbol is a
/// polynomial in the others.
///
/// Plain algebra with no dependence on Clang or LLVM, so that it can be
/// tested on its own.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_KERNELMODEL_POLYNOMIAL_H
#define AUTOPROF_KERNELMODEL_POLYNOMIAL_H

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// A variable of a polynomial.
struct Symbol {
  enum KindTy {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    GridDim,
    /// A parameter of the kernel, by position; never modified.
    Param,
    /// An integer field of a parameter passed by value (`d.rows` of a
    /// `struct Dims d`), by the parameter's position * 1024 + the field's
    /// index; never modified.
    ParamField,
    /// The variable of a loop of the model, by the loop's index.
    LoopVar,
    /// A value the model does not see through (a load, a call), numbered.
    Opaque,
  };
  KindTy Kind = Opaque;
  /// The dimension (0 for x, 1 for y, 2 for z) of a builtin, the position
  /// of a parameter, the loop's index, or the opaque value's number.
  unsigned Index = 0;
  /// How the symbol is printed: `threadIdx.x`, a parameter's name.
  std::string Name;

  static Symbol threadIdx(unsigned Dim);
  static Symbol blockIdx(unsigned Dim);
  static Symbol blockDim(unsigned Dim);
  static Symbol gridDim(unsigned Dim);
  static Symbol param(unsigned Position, std::string Name);
  static Symbol paramField(unsigned Position, unsigned Field, std::string Name);
  /// Whether the value is fixed for the launch: a parameter or a field of
  /// one.
  bool isParameter() const { return Kind == Param || Kind == ParamField; }
  static Symbol loopVar(unsigned Loop, std::string Name);
  static Symbol opaque(unsigned Number, std::string Name);

  /// threadIdx, blockIdx, blockDim or gridDim.
  bool isBuiltin() const { return Kind <= GridDim; }
  /// Whether threads of one block may see different values: threadIdx, a
  /// loop variable or an opaque value.
  bool mayVaryInBlock() const {
    return Kind == ThreadIdx || Kind == LoopVar || Kind == Opaque;
  }

  friend bool operator<(const Symbol &A, const Symbol &B) {
    return A.Kind != B.Kind ? A.Kind < B.Kind : A.Index < B.Index;
  }
  friend bool operator==(const Symbol &A, const Symbol &B) {
    return A.Kind == B.Kind && A.Index == B.Index;
  }
  friend bool operator!=(const Symbol &A, const Symbol &B) { return !(A == B); }
};

/// A polynomial with 64-bit integer coefficients. Arithmetic that would
/// overflow gives nullopt, never a wrong value.
class Polynomial {
public:
  /// A product of symbols, sorted; empty for the constant term.
  using Monomial = std::vector<Symbol>;

  /// The zero polynomial.
  Polynomial() = default;
  static Polynomial constant(int64_t V);
  static Polynomial symbol(const Symbol &S);

  static std::optional<Polynomial> add(const Polynomial &A,
                                       const Polynomial &B);
  static std::optional<Polynomial> sub(const Polynomial &A,
                                       const Polynomial &B);
  static std::optional<Polynomial> mul(const Polynomial &A,
                                       const Polynomial &B);
  /// \p A divided by the constant \p D when every coefficient of \p A is a
  /// multiple of \p D (exact division); nullopt otherwise.
  static std::optional<Polynomial> divExact(const Polynomial &A, int64_t D);

  /// The value when the polynomial is a constant.
  std::optional<int64_t> constantValue() const;
  bool isZero() const { return Terms.empty(); }
  /// The constant term.
  int64_t constantTerm() const;

  /// Whether any symbol for which \p Pred holds occurs.
  bool dependsOn(const std::function<bool(const Symbol &)> &Pred) const;
  /// Whether \p S occurs.
  bool dependsOn(const Symbol &S) const;
  /// Every symbol that occurs, each once, in order.
  std::vector<Symbol> symbols() const;

  /// The coefficient C of \p S when the polynomial is `C * S + R` with
  /// neither C nor R depending on \p S (affine in \p S); nullopt when \p S
  /// occurs squared or more.
  std::optional<Polynomial> coefficient(const Symbol &S) const;
  /// The polynomial with \p S replaced by \p By.
  std::optional<Polynomial> substitute(const Symbol &S,
                                       const Polynomial &By) const;

  /// A stable, readable form: `blockIdx.x * blockDim.x + threadIdx.x`,
  /// `16 * Cols + 3`; terms in a fixed order, "0" for zero.
  std::string str() const;

  /// The terms, by monomial.
  const std::map<Monomial, int64_t> &terms() const { return Terms; }

  friend bool operator==(const Polynomial &A, const Polynomial &B) {
    return A.Terms == B.Terms;
  }
  friend bool operator!=(const Polynomial &A, const Polynomial &B) {
    return !(A == B);
  }

private:
  /// Adds \p C * \p M; false on overflow.
  bool addTerm(const Monomial &M, int64_t C);
  std::map<Monomial, int64_t> Terms;
};

/// `blockIdx.D * blockDim.D + threadIdx.D`: the global index of a thread
/// along dimension \p Dim.
Polynomial globalIndex(unsigned Dim);

/// `gridDim.x * blockDim.x`: the threads of a 1-D grid, the step of a
/// grid-stride loop.
Polynomial gridSize();

} // namespace autoprof

#endif // AUTOPROF_KERNELMODEL_POLYNOMIAL_H
