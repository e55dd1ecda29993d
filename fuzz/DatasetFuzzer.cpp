//===- DatasetFuzzer.cpp - Fuzzing the dataset and catalog readers --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/Dataset.h"
#include "autoprof/Metrics/MetricCatalog.h"

#include "llvm/Support/Error.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace autoprof;

namespace {

const MetricCatalog &catalog() {
  static MetricCatalog C = llvm::cantFail(MetricCatalog::parse(
      R"({"version": 1, "name": "c", "chips": ["GH100"], "metrics": [
        {"name": "r1", "source": "range-profiler", "section": "S",
         "unit": "1", "meaning": "m", "questions": ["q"]},
        {"name": "l", "source": "launch", "section": "S", "unit": "1",
         "meaning": "m", "questions": ["q"]}]})",
      "fuzz"));
  return C;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  llvm::consumeError(learn::parseDataset(Text, "fuzz.jsonl", catalog())
                         .takeError());
  llvm::consumeError(MetricCatalog::parse(Text, "fuzz.json").takeError());
  return 0;
}
