//===- PerfRegression.cpp - autoprof-perf-regression ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "PerfRegression.h"

using namespace autoprof;

llvm::StringRef PerfRegressionCheck::summary() const {
  return "a kernel slower than its performance baseline beyond the "
         "tolerance and the noise of the runs (with --perf-baseline, on a "
         "GPU)";
}

llvm::StringRef PerfRegressionCheck::help() const {
  return "check --perf-baseline=<file> --run \"<cmd>\" times each kernel of "
         "the sources over several runs of the program and compares its "
         "median with the baseline's. A kernel is slower when its median "
         "exceeds the baseline's by more than --perf-tolerance plus the "
         "larger relative spread (max - min) / median of the two timings. "
         "Find what made it slower, or, when the slowdown is intended, "
         "record a new baseline with --perf-record=<file>. A kernel of the "
         "baseline that did not launch is a warning.";
}
