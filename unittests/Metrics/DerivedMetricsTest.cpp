//===- DerivedMetricsTest.cpp - Tests of formula evaluation ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/DerivedMetrics.h"

#include "gtest/gtest.h"

#include <map>

using namespace autoprof;

namespace {

std::map<std::string, double> Values = {
    {"a.sum", 30}, {"b.sum", 10}, {"zero", 0}};

MetricLookup lookup() {
  return [](llvm::StringRef N) -> std::optional<double> {
    auto It = Values.find(N.str());
    if (It == Values.end())
      return std::nullopt;
    return It->second;
  };
}

double eval(llvm::StringRef F) {
  llvm::Expected<double> V = evaluateFormula(F, lookup());
  if (!V) {
    ADD_FAILURE() << llvm::toString(V.takeError());
    return -1;
  }
  return *V;
}

std::string error(llvm::StringRef F) {
  llvm::Expected<double> V = evaluateFormula(F, lookup());
  if (V)
    return "value " + std::to_string(*V);
  return llvm::toString(V.takeError());
}

TEST(DerivedMetricsTest, ArithmeticWithPrecedence) {
  EXPECT_DOUBLE_EQ(eval("a.sum + b.sum * 2"), 50);
  EXPECT_DOUBLE_EQ(eval("(a.sum + b.sum) * 2"), 80);
  EXPECT_DOUBLE_EQ(eval("100 * b.sum / max(1, a.sum + b.sum)"), 25);
  EXPECT_DOUBLE_EQ(eval("a.sum / (b.sum * 1e-9)"), 3e9);
  EXPECT_DOUBLE_EQ(eval("-b.sum + a.sum"), 20);
  EXPECT_DOUBLE_EQ(eval("min(a.sum, b.sum) - max(zero, 1)"), 9);
}

TEST(DerivedMetricsTest, TheCatalogsGuardAgainstZero) {
  EXPECT_DOUBLE_EQ(eval("100 * zero / max(1, zero)"), 0);
  EXPECT_EQ(error("a.sum / zero"), "division by zero");
}

TEST(DerivedMetricsTest, MissingInputsAndNonArithmeticFormulas) {
  EXPECT_EQ(error("a.sum + c.sum"), "needs 'c.sum', which was not collected");
  EXPECT_EQ(error("sum over SASS instructions pc of a.sum"),
            "needs 'sum', which was not collected");
  EXPECT_EQ(error("a.sum +"), "unexpected end of formula");
  EXPECT_EQ(error("max(a.sum b.sum)"), "expected ',' in max");
  EXPECT_EQ(error("a.sum ; b"), "unexpected '; b'");
}

} // namespace
