//===- DerivedMetrics.h - Evaluating the catalog's formulas -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A derived metric's formula is arithmetic over other metrics: numbers,
/// metric names, + - * /, parentheses, and max(a, b) / min(a, b). This
/// evaluates it over the values a profile collected. Formulas that are not
/// of that form (per-instruction sums over the SASS) are reported as such.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_DERIVEDMETRICS_H
#define AUTOPROF_METRICS_DERIVEDMETRICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <optional>

namespace autoprof {

/// The value of a metric, or nullopt when it was not collected.
using MetricLookup = std::function<std::optional<double>(llvm::StringRef)>;

/// Evaluates \p Formula. Fails when it is not an arithmetic formula or
/// names a metric that \p Lookup does not know; the message says which.
llvm::Expected<double> evaluateFormula(llvm::StringRef Formula,
                                       const MetricLookup &Lookup);

} // namespace autoprof

#endif // AUTOPROF_METRICS_DERIVEDMETRICS_H
