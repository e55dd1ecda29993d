//===- KernelRecord.cpp - Feature names and the feature map ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/KernelRecord.h"

#include <algorithm>
#include <cassert>

using namespace autoprof;

const std::vector<std::string> &autoprof::featureNames() {
  static const std::vector<std::string> Names = {
      // Memory.
      "global_loads", "global_stores", "global_loads_in_loops",
      "global_stores_in_loops", "shared_arrays", "shared_bytes_static",
      "uses_dynamic_shared", "local_arrays", "uses_ldg", "vector_accesses",
      "restrict_params", "const_params",
      // Global access patterns.
      "access_coalesced", "access_strided", "access_uniform", "access_indirect",
      "shared_bank_conflict_risk",
      // Control.
      "loops", "max_loop_depth", "const_trip_loops", "unrolled_loops",
      "thread_dependent_branches", "early_exits",
      // Synchronisation.
      "syncthreads", "syncthreads_in_loops", "warp_shuffles", "warp_votes",
      "atomics_global", "atomics_shared", "uses_cooperative_groups",
      // Arithmetic.
      "flops_fp32", "flops_fp64", "flops_fp16", "int_ops", "divisions",
      "transcendentals", "fast_intrinsics", "uses_tensor_cores",
      // Derived.
      "arithmetic_intensity_estimate"};
  return Names;
}

KernelFeatures::KernelFeatures() {
  for (const std::string &N : featureNames())
    Values.emplace_back(N, 0.0);
}

static auto
findFeature(std::vector<std::pair<std::string, std::optional<double>>> &Values,
            const std::string &Name) {
  auto It = std::find_if(Values.begin(), Values.end(),
                         [&](const auto &P) { return P.first == Name; });
  assert(It != Values.end() && "unknown feature name");
  return It;
}

void KernelFeatures::set(const std::string &Name, double Value) {
  findFeature(Values, Name)->second = Value;
}

void KernelFeatures::add(const std::string &Name, double Delta) {
  auto It = findFeature(Values, Name);
  It->second = It->second.value_or(0.0) + Delta;
}

void KernelFeatures::clear(const std::string &Name) {
  findFeature(Values, Name)->second.reset();
}

std::optional<double> KernelFeatures::get(const std::string &Name) const {
  for (const auto &[N, V] : Values)
    if (N == Name)
      return V;
  return std::nullopt;
}
