//===- KernelFilter.cpp - The --kernel pattern ----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/FeatureExtractor.h"

#include <memory>
#include <regex>

using namespace autoprof;

llvm::Expected<KernelFilter>
autoprof::kernelNameFilter(const std::string &Pattern) {
  std::shared_ptr<std::regex> R;
  if (!Pattern.empty()) {
    try {
      R = std::make_shared<std::regex>(Pattern, std::regex::ECMAScript |
                                                    std::regex::optimize);
    } catch (const std::regex_error &E) {
      return llvm::createStringError("invalid --kernel regular expression '" +
                                     Pattern + "': " + E.what());
    }
  }
  return [R](const std::string &Name, const std::string &Qualified) {
    return !R || std::regex_search(Name, *R) ||
           std::regex_search(Qualified, *R);
  };
}
