//===- LearnReport.h - What learning writes --------------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The proposal log (JSON lines) and the comparison report (JSON) of
/// `clang-autoprof learn`, documented in docs/learn.md.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_LEARN_LEARNREPORT_H
#define AUTOPROF_LEARN_LEARNREPORT_H

#include "autoprof/Learn/Baselines.h"
#include "autoprof/Learn/Learner.h"

#include <string>
#include <vector>

namespace autoprof {
namespace learn {

/// One line of the proposal log, with the fold it belongs to (-1: the
/// final tree, learned on every kernel).
std::string writeLogLine(const LogEntry &E, int Fold);

/// One row of the comparison: a configuration's replay.
struct ReportRow {
  std::string Name;
  /// "learned", "tree", "tree-unbudgeted" or "oracle".
  std::string Kind;
  /// Whether every kernel was judged by a tree that did not train on it.
  bool HeldOut = true;
  double GeoMean = 1, Fast1 = 0, MeanPasses = 0;
  unsigned MaxPasses = 0;
  /// Each kernel's replay: its leaf (empty for the oracle), the chosen
  /// transformation (empty for none) and its gain.
  struct KernelLine {
    std::string Program, Kernel, Leaf, Chosen;
    double Gain = 1;
  };
  std::vector<KernelLine> Kernels;
};

/// The row of \p E, named \p Name.
ReportRow reportRow(const std::string &Name, const std::string &Kind,
                    bool HeldOut, const Evaluation &E);

struct LearnReportData {
  unsigned Budget = 0;
  unsigned Kernels = 0;
  unsigned Folds = 0;
  uint64_t Seed = 0;
  std::vector<std::string> Datasets;
  /// With --held-out: its files and the kernels learned on (Kernels counts
  /// the judged ones).
  std::vector<std::string> HeldOutDatasets;
  unsigned TrainingKernels = 0;
  std::vector<ReportRow> Rows;
  std::vector<CurvePoint> Curve;
  unsigned CurveOrders = 0;
};

std::string writeLearnReportJSON(const LearnReportData &R);

/// The rows as a text table, one line each.
std::string writeLearnReportText(const LearnReportData &R);

} // namespace learn
} // namespace autoprof

#endif // AUTOPROF_LEARN_LEARNREPORT_H
