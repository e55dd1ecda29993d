//===- ProfileFuzzer.cpp - Fuzzing the profile and measurement readers ----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profile/Measurement.h"
#include "autoprof/Profile/Profile.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace autoprof;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string Text(reinterpret_cast<const char *>(Data), Size);
  std::string Error;
  Profile P;
  if (parseProfileJSON(Text, P, Error))
    writeProfileJSON(P);
  Measurement M;
  if (parseMeasurementJSON(Text, M, Error))
    writeMeasurementJSON(M);
  return 0;
}
