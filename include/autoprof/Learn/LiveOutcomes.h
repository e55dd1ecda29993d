//===- LiveOutcomes.h - Outcomes measured while learning -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// With the LLM rewriter, what a kernel gains from the metrics it is shown
/// is not in the dataset: it is measured by a trial of the model on a copy
/// of the kernel's program, built and run as a corpus manifest says: what
/// `optimize --rewriter=llm --attempts=1 --profile=<those metrics>` does,
/// run by the caller in-process. Each outcome is kept in a JSON-lines file
/// keyed by the kernel and the metric values shown, so that learning again
/// costs no run.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LIVEOUTCOMES_H
#define AUTOPROF_LEARN_LIVEOUTCOMES_H

#include "autoprof/Learn/Replay.h"
#include "autoprof/Verify/OptimizeReport.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
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

/// One trial: the model rewrites Kernel of the copy Source (its headers
/// beside it, in Dir) shown the profile ProfileFile, the program built and
/// run by Build and Run; progress goes to the file Log.
struct LiveTrial {
  std::string Source, Dir, Kernel, ProfileFile, Build, Run, Log;
};

/// Runs a trial: its report, or nullopt when it stopped without one (it
/// says why in the trial's log); an error stops learning.
using LiveOptimize =
    std::function<llvm::Expected<std::optional<verify::OptimizeReport>>(
        const LiveTrial &)>;

struct LiveOptions {
  /// Runs the trials.
  LiveOptimize Optimize;
  std::string Nvcc = "/usr/local/cuda/bin/nvcc";
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
