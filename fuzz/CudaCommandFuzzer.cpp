//===- CudaCommandFuzzer.cpp - Fuzzing compile-command translation --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/CudaCommand.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using namespace autoprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  // One argument per line, argv[0] first, as a database holds them.
  std::vector<std::string> Args(1);
  for (size_t I = 0; I < Size; ++I) {
    if (Data[I] == '\n')
      Args.emplace_back();
    else
      Args.back().push_back(char(Data[I]));
  }
  CudaSettings S;
  S.CudaPath = "/usr/local/cuda";
  adjustCudaCommand(Args, S);
  return 0;
}
