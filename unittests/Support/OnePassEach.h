//===- OnePassEach.h - A pass counter for tests -----------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A pass counter that knows every metric on every chip and prices each
/// metric one pass, recording its calls and the last chip asked about.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_UNITTESTS_SUPPORT_ONEPASSEACH_H
#define AUTOPROF_UNITTESTS_SUPPORT_ONEPASSEACH_H

#include "autoprof/Metrics/TreeBudget.h"

#include <string>
#include <vector>

namespace autoprof {
namespace test {

class OnePassEach : public PassCounter {
public:
  unsigned Calls = 0;
  std::string Chip;
  bool isValid(const std::string &, const std::string &) override {
    return true;
  }
  llvm::Expected<unsigned>
  passCount(const std::string &C,
            const std::vector<std::string> &Metrics) override {
    ++Calls;
    Chip = C;
    return Metrics.size();
  }
};

} // namespace test
} // namespace autoprof

#endif // AUTOPROF_UNITTESTS_SUPPORT_ONEPASSEACH_H
