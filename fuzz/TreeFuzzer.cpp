//===- TreeFuzzer.cpp - Fuzzing the tree reader and its walks -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "autoprof/Tree/Routing.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace autoprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  ProfilingTree T;
  std::vector<TreeProblem> Problems;
  if (!parseTree(Text, T, Problems))
    return 0;
  checkTreeStructure(T, Problems);
  // The walks run on broken trees too (show prints what it can).
  writeTreeText(T);
  writeTreeDot(T);
  leafPaths(T);
  KernelFeatures F;
  routeKernel(T, F, nullptr);
  if (Problems.empty())
    writeTreeJSON(T);
  return 0;
}
