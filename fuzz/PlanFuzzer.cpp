//===- PlanFuzzer.cpp - Fuzzing the plan reader ---------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tree/Plan.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

using namespace autoprof;

namespace {

/// Equal, but for the last bits of a number (the reader's numbers may be
/// one unit in the last place off what was written).
bool near(double A, double B) {
  return A == B || std::fabs(A - B) <= 1e-12 * std::fabs(A);
}

bool near(const std::optional<double> &A, const std::optional<double> &B) {
  return A.has_value() == B.has_value() && (!A || near(*A, *B));
}

bool same(const Plan &A, const Plan &B) {
  if (A.Tree != B.Tree || A.TreeFile != B.TreeFile || A.Chip != B.Chip ||
      A.Budget != B.Budget || A.Kernels.size() != B.Kernels.size())
    return false;
  for (size_t I = 0; I < A.Kernels.size(); ++I) {
    const PlanKernel &X = A.Kernels[I], &Y = B.Kernels[I];
    if (X.Name != Y.Name || X.QualifiedName != Y.QualifiedName ||
        X.MangledName != Y.MangledName || X.Leaf != Y.Leaf ||
        X.Collect != Y.Collect || X.Focus != Y.Focus || X.Passes != Y.Passes ||
        X.Route.size() != Y.Route.size() ||
        X.Features.size() != Y.Features.size())
      return false;
    for (size_t J = 0; J < X.Route.size(); ++J) {
      const PlanStep &S = X.Route[J], &T = Y.Route[J];
      if (S.Node != T.Node || S.Feature != T.Feature || S.Key != T.Key ||
          S.Op != T.Op || !near(S.Threshold, T.Threshold) ||
          !near(S.Value, T.Value) || S.Branch != T.Branch)
        return false;
    }
    for (size_t J = 0; J < X.Features.size(); ++J)
      if (X.Features[J].first != Y.Features[J].first ||
          !near(X.Features[J].second, Y.Features[J].second))
        return false;
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  Plan P;
  std::string Error;
  if (!parsePlanJSON(Text, P, Error))
    return 0;
  // What was read writes back and reads again to the same plan.
  Plan Again;
  if (!parsePlanJSON(writePlanJSON(P), Again, Error) || !same(P, Again))
    std::abort();
  return 0;
}
