//===- Transformation.cpp - Helpers of built-in transformations -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/Transformation.h"

#include <algorithm>
#include <cstdio>

using namespace autoprof;

Transformation::~Transformation() = default;

std::string Transformation::explain(const KernelModel &) const {
  return "the kernel does not have the shape this transformation rewrites "
         "(docs/rewrites.md)";
}

llvm::Error autoprof::addEdit(const clang::tooling::Replacement &Edit,
                              FileEdits &Out) {
  return Out[Edit.getFilePath().str()].add(Edit);
}

llvm::Error
autoprof::addEdits(llvm::ArrayRef<clang::tooling::Replacement> Edits,
                   FileEdits &Out) {
  for (const clang::tooling::Replacement &R : Edits)
    if (llvm::Error E = addEdit(R, Out))
      return E;
  return llvm::Error::success();
}

llvm::Error autoprof::addEdits(const clang::tooling::Replacements &Edits,
                               FileEdits &Out) {
  for (const clang::tooling::Replacement &R : Edits)
    if (llvm::Error E = addEdit(R, Out))
      return E;
  return llvm::Error::success();
}

size_t autoprof::editCount(const FileEdits &Edits) {
  size_t N = 0;
  for (const auto &[File, Rs] : Edits)
    N += Rs.size();
  return N;
}

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

std::optional<std::string>
autoprof::firstCondition(const MetricValues &M,
                         llvm::ArrayRef<MetricCondition> Conditions) {
  for (const MetricCondition &C : Conditions)
    if (auto R = compareMetric(M, C.Metric, C.Op, C.Threshold))
      return R;
  return std::nullopt;
}

std::vector<std::string>
autoprof::conditionMetrics(llvm::ArrayRef<MetricCondition> Conditions) {
  std::vector<std::string> Out;
  for (const MetricCondition &C : Conditions)
    if (std::find(Out.begin(), Out.end(), C.Metric) == Out.end())
      Out.push_back(C.Metric);
  return Out;
}
