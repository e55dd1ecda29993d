//===- Polynomial.cpp - Integer values of a kernel as polynomials ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/KernelModel/Polynomial.h"

#include <algorithm>

using namespace autoprof;

namespace {

const char *const DimNames[] = {"x", "y", "z"};

Symbol builtin(Symbol::KindTy K, const char *Var, unsigned Dim) {
  Symbol S;
  S.Kind = K;
  S.Index = Dim;
  S.Name = std::string(Var) + "." + DimNames[Dim < 3 ? Dim : 0];
  return S;
}

Symbol named(Symbol::KindTy K, unsigned Index, std::string Name) {
  Symbol S;
  S.Kind = K;
  S.Index = Index;
  S.Name = std::move(Name);
  return S;
}

} // namespace

Symbol Symbol::threadIdx(unsigned Dim) {
  return builtin(ThreadIdx, "threadIdx", Dim);
}
Symbol Symbol::blockIdx(unsigned Dim) {
  return builtin(BlockIdx, "blockIdx", Dim);
}
Symbol Symbol::blockDim(unsigned Dim) {
  return builtin(BlockDim, "blockDim", Dim);
}
Symbol Symbol::gridDim(unsigned Dim) {
  return builtin(GridDim, "gridDim", Dim);
}
Symbol Symbol::param(unsigned Position, std::string Name) {
  return named(Param, Position, std::move(Name));
}
Symbol Symbol::paramField(unsigned Position, unsigned Field, std::string Name) {
  return named(ParamField, Position * 1024 + Field, std::move(Name));
}
Symbol Symbol::loopVar(unsigned Loop, std::string Name) {
  return named(LoopVar, Loop, std::move(Name));
}
Symbol Symbol::opaque(unsigned Number, std::string Name) {
  return named(Opaque, Number, std::move(Name));
}

Polynomial Polynomial::constant(int64_t V) {
  Polynomial P;
  if (V != 0)
    P.Terms[{}] = V;
  return P;
}

Polynomial Polynomial::symbol(const Symbol &S) {
  Polynomial P;
  P.Terms[{S}] = 1;
  return P;
}

bool Polynomial::addTerm(const Monomial &M, int64_t C) {
  if (C == 0)
    return true;
  auto It = Terms.find(M);
  if (It == Terms.end()) {
    Terms.emplace(M, C);
    return true;
  }
  int64_t Sum;
  if (__builtin_add_overflow(It->second, C, &Sum))
    return false;
  if (Sum == 0)
    Terms.erase(It);
  else
    It->second = Sum;
  return true;
}

std::optional<Polynomial> Polynomial::add(const Polynomial &A,
                                          const Polynomial &B) {
  Polynomial R = A;
  for (const auto &[M, C] : B.Terms)
    if (!R.addTerm(M, C))
      return std::nullopt;
  return R;
}

std::optional<Polynomial> Polynomial::sub(const Polynomial &A,
                                          const Polynomial &B) {
  Polynomial R = A;
  for (const auto &[M, C] : B.Terms) {
    if (C == INT64_MIN || !R.addTerm(M, -C))
      return std::nullopt;
  }
  return R;
}

std::optional<Polynomial> Polynomial::mul(const Polynomial &A,
                                          const Polynomial &B) {
  Polynomial R;
  for (const auto &[MA, CA] : A.Terms)
    for (const auto &[MB, CB] : B.Terms) {
      Monomial M = MA;
      M.insert(M.end(), MB.begin(), MB.end());
      std::sort(M.begin(), M.end());
      int64_t C;
      if (__builtin_mul_overflow(CA, CB, &C) || !R.addTerm(M, C))
        return std::nullopt;
    }
  return R;
}

std::optional<Polynomial> Polynomial::divExact(const Polynomial &A, int64_t D) {
  if (D == 0 || (D == -1 && A.Terms.count({}) && A.Terms.at({}) == INT64_MIN))
    return std::nullopt;
  Polynomial R;
  for (const auto &[M, C] : A.Terms) {
    if (C % D != 0 || (C == INT64_MIN && D == -1))
      return std::nullopt;
    R.Terms.emplace(M, C / D);
  }
  return R;
}

std::optional<int64_t> Polynomial::constantValue() const {
  if (Terms.empty())
    return 0;
  if (Terms.size() == 1 && Terms.begin()->first.empty())
    return Terms.begin()->second;
  return std::nullopt;
}

int64_t Polynomial::constantTerm() const {
  auto It = Terms.find({});
  return It == Terms.end() ? 0 : It->second;
}

bool Polynomial::dependsOn(
    const std::function<bool(const Symbol &)> &Pred) const {
  for (const auto &Term : Terms)
    for (const Symbol &S : Term.first)
      if (Pred(S))
        return true;
  return false;
}

bool Polynomial::dependsOn(const Symbol &S) const {
  return dependsOn([&](const Symbol &T) { return T == S; });
}

std::vector<Symbol> Polynomial::symbols() const {
  std::vector<Symbol> Out;
  for (const auto &Term : Terms)
    for (const Symbol &S : Term.first)
      if (std::find(Out.begin(), Out.end(), S) == Out.end())
        Out.push_back(S);
  std::sort(Out.begin(), Out.end());
  return Out;
}

std::optional<Polynomial> Polynomial::coefficient(const Symbol &S) const {
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    auto N = std::count(M.begin(), M.end(), S);
    if (N > 1)
      return std::nullopt;
    if (N == 0)
      continue;
    Monomial Rest;
    for (const Symbol &T : M)
      if (T != S)
        Rest.push_back(T);
    R.Terms.emplace(Rest, C);
  }
  return R;
}

std::optional<Polynomial> Polynomial::substitute(const Symbol &S,
                                                 const Polynomial &By) const {
  Polynomial R;
  for (const auto &[M, C] : Terms) {
    Polynomial Term = constant(C);
    for (const Symbol &T : M) {
      std::optional<Polynomial> Next =
          mul(Term, T == S ? By : Polynomial::symbol(T));
      if (!Next)
        return std::nullopt;
      Term = std::move(*Next);
    }
    std::optional<Polynomial> Sum = add(R, Term);
    if (!Sum)
      return std::nullopt;
    R = std::move(*Sum);
  }
  return R;
}

std::string Polynomial::str() const {
  if (Terms.empty())
    return "0";
  // Terms of higher degree first, the constant last.
  std::vector<std::pair<Monomial, int64_t>> Order(Terms.begin(), Terms.end());
  std::stable_sort(Order.begin(), Order.end(),
                   [](const auto &A, const auto &B) {
                     return A.first.size() > B.first.size();
                   });
  std::string Out;
  bool First = true;
  for (const auto &[M, C] : Order) {
    uint64_t Mag = C < 0 ? 0 - static_cast<uint64_t>(C) : C;
    if (First)
      Out += C < 0 ? "-" : "";
    else
      Out += C < 0 ? " - " : " + ";
    First = false;
    std::string Factors;
    for (const Symbol &S : M)
      Factors += (Factors.empty() ? "" : " * ") + S.Name;
    if (M.empty())
      Out += std::to_string(Mag);
    else if (Mag == 1)
      Out += Factors;
    else
      Out += std::to_string(Mag) + " * " + Factors;
  }
  return Out;
}

Polynomial autoprof::globalIndex(unsigned Dim) {
  Polynomial P = *Polynomial::mul(Polynomial::symbol(Symbol::blockIdx(Dim)),
                                  Polynomial::symbol(Symbol::blockDim(Dim)));
  return *Polynomial::add(P, Polynomial::symbol(Symbol::threadIdx(Dim)));
}

Polynomial autoprof::gridSize() {
  return *Polynomial::mul(Polynomial::symbol(Symbol::gridDim(0)),
                          Polynomial::symbol(Symbol::blockDim(0)));
}
