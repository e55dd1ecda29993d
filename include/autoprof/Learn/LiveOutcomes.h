//===- LiveOutcomes.h - Outcomes measured while learning -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// With the LLM rewriter, what a kernel gains from the metrics it is shown
/// is not in the dataset: it is measured by running `clang-autoprof optimize
/// --rewriter=llm --attempts=1 --profile=<those metrics>` on a copy of the
/// kernel's program, built and run as a corpus manifest says. Each outcome
/// is kept in a JSON-lines file keyed by the kernel and the metric values
/// shown, so that learning again costs no run.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LIVEOUTCOMES_H
#define AUTOPROF_LEARN_LIVEOUTCOMES_H

#include "autoprof/Learn/Replay.h"

#include "llvm/Support/Error.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

/// A program of a corpus manifest (docs/corpus.md).
struct ProgramSpec {
  std::string Name;
  /// The source, absolute; the headers beside it are copied with it.
  std::string Source;
  std::vector<std::string> NvccFlags;
  std::vector<std::string> Args;
};

/// The programs of the corpus manifest at \p Path, by name.
llvm::Expected<std::map<std::string, ProgramSpec>>
loadProgramManifest(llvm::StringRef Path);

struct LiveOptions {
  /// The clang-autoprof that runs optimize.
  std::string Tool;
  std::string Nvcc = "/usr/local/cuda/bin/nvcc";
  /// Passed to optimize as they are (--llm-model=..., --llm-cache=...).
  std::vector<std::string> OptimizeArgs;
  /// The outcomes measured so far (JSON lines); empty for none.
  std::string CacheFile;
  /// Where the copies are made.
  std::string WorkDir;
};

class LiveOutcomes {
public:
  /// Reads the cache file, when there is one.
  static llvm::Expected<std::unique_ptr<LiveOutcomes>>
  create(std::map<std::string, ProgramSpec> Programs, LiveOptions O);

  /// The gain of \p K shown \p Seen, and whether it is a verified win.
  llvm::Expected<std::pair<double, bool>> gain(const DatasetKernel &K,
                                               const MetricMap &Seen);

  /// optimize runs made, answers from the cache, and seconds spent.
  unsigned runs() const { return Runs; }
  unsigned hits() const { return Hits; }
  double seconds() const { return Seconds; }

private:
  LiveOutcomes() = default;
  std::map<std::string, ProgramSpec> Programs;
  LiveOptions O;
  std::map<std::string, std::pair<double, bool>> Known;
  unsigned Runs = 0, Hits = 0;
  double Seconds = 0;
};

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_LIVEOUTCOMES_H
