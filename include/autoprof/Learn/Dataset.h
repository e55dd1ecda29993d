//===- Dataset.h - The learning dataset ------------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The dataset tree learning replays (docs/dataset-format.md): per kernel,
/// its static features, the value of every catalog metric, and the verified
/// outcome of every built-in transformation that applies to it.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_DATASET_H
#define AUTOPROF_LEARN_DATASET_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Metrics/MetricCatalog.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace learn {

constexpr int DatasetFormatVersion = 1;

/// What verifying one transformation of a kernel gave.
struct Outcome {
  std::string Transformation;
  /// The verifier's verdict ("faster", "not-faster", "wrong-output", ...).
  std::string Verdict;
  /// Original over candidate median kernel time, when both were measured.
  std::optional<double> Speedup;

  /// Whether the rewrite would be kept: a verified win.
  bool win() const { return Verdict == "faster" && Speedup && *Speedup > 0; }
  /// What the kernel gains when the rewriter chooses this transformation:
  /// the speedup of a win, else 1 (the rewrite is not kept).
  double gain() const { return win() ? *Speedup : 1.0; }
};

/// One kernel of the dataset.
struct DatasetKernel {
  std::string Program;
  std::string Kernel;
  std::string MangledName;
  KernelFeatures Features;
  /// Every metric collected for the kernel, by catalog name.
  std::map<std::string, double> Metrics;
  /// The transformations the rewriter proposes, in its order.
  std::vector<Outcome> Outcomes;

  /// "program:kernel", for messages and logs.
  std::string label() const { return Program + ":" + Kernel; }
};

/// Parses the JSON lines \p Text (\p Path names it in messages) and checks
/// every record against \p Catalog: the first problem fails the whole
/// dataset with "<path>:<line>: <problem>".
llvm::Expected<std::vector<DatasetKernel>>
parseDataset(llvm::StringRef Text, llvm::StringRef Path,
             const MetricCatalog &Catalog);

/// Reads and parses the dataset file at \p Path.
llvm::Expected<std::vector<DatasetKernel>>
loadDataset(llvm::StringRef Path, const MetricCatalog &Catalog);

/// Appends \p More, read from \p Path, to \p Into; fails on a kernel
/// (program and mangled name) that \p Into already has.
llvm::Error mergeDataset(std::vector<DatasetKernel> &Into,
                         std::vector<DatasetKernel> More, llvm::StringRef Path);

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_DATASET_H
