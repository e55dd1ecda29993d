//===- MetricsCommand.h - clang-autoprof metrics, as a call -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `metrics`: the catalog listed with each metric's validity and pass cost
/// on a chip, or the metrics of `--check` priced together.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_METRICSCOMMAND_H
#define AUTOPROF_METRICS_METRICSCOMMAND_H

#include "autoprof/Metrics/TreeBudget.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace autoprof {

struct MetricsCommandOptions {
  std::string Chip = "GH100";
  std::string CatalogPath;
  /// `--check`: the metrics priced together; empty: the whole catalog.
  std::vector<std::string> Check;
  std::string Output = "-";
};

struct MetricsCommandHooks {
  /// What knows the chips and their pass counts (CUPTI's host).
  std::function<llvm::Expected<std::unique_ptr<PassCounter>>()> LoadCounter;
  std::function<llvm::Error(llvm::StringRef Path, llvm::StringRef Text)> Write;
  std::function<void(const std::string &)> Error;
};

/// Runs `metrics`: 0; 1 after reporting an unknown chip, an unreadable
/// catalog, or each metric of --check that is not valid on the chip (the
/// listing is written all the same).
int runMetricsCommand(const MetricsCommandOptions &O,
                      const MetricsCommandHooks &H);

} // namespace autoprof

#endif // AUTOPROF_METRICS_METRICSCOMMAND_H
