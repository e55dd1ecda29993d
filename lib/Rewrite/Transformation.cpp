//===- Transformation.cpp - Helpers of built-in transformations -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/Transformation.h"

#include <cstdio>

using namespace autoprof;

Transformation::~Transformation() = default;

std::string autoprof::formatMetricValue(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%g", V);
  return Buf;
}

std::optional<std::string> autoprof::compareMetric(const MetricValues &M,
                                                   llvm::StringRef Metric,
                                                   llvm::StringRef Op,
                                                   double Threshold) {
  auto It = M.find(Metric.str());
  if (It == M.end())
    return std::nullopt;
  double V = It->second;
  bool Fires = Op == "<"    ? V < Threshold
               : Op == "<=" ? V <= Threshold
               : Op == ">"  ? V > Threshold
               : Op == ">=" ? V >= Threshold
                            : false;
  if (!Fires)
    return std::nullopt;
  return Metric.str() + " = " + formatMetricValue(V) + " " + Op.str() + " " +
         formatMetricValue(Threshold);
}
