//===- LearnReport.cpp - What learning writes -----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/LearnReport.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdio>

using namespace autoprof;
using namespace autoprof::learn;

namespace {

template <typename W> void str(W &Wr, const char *Key, const std::string &V) {
  Wr.Key(Key);
  Wr.String(V.c_str(), V.size());
}

} // namespace

ReportRow learn::reportRow(const std::string &Name, const std::string &Kind,
                           bool HeldOut, const Evaluation &E) {
  ReportRow R{Name,    Kind,         HeldOut,     E.GeoMean,
              E.Fast1, E.MeanPasses, E.MaxPasses, {}};
  for (const KernelResult &K : E.Kernels)
    R.Kernels.push_back(
        {K.Kernel->Program, K.Kernel->Kernel, K.Leaf,
         K.Chosen ? K.Kernel->Outcomes[*K.Chosen].Transformation : "", K.Gain});
  return R;
}

std::string learn::writeLogLine(const LogEntry &E, int Fold) {
  rapidjson::StringBuffer Buf;
  rapidjson::Writer<rapidjson::StringBuffer> W(Buf);
  W.StartObject();
  W.Key("fold");
  if (Fold < 0)
    W.Null();
  else
    W.Int(Fold);
  W.Key("iteration");
  W.Uint(E.Iteration);
  str(W, "operation", E.Operation);
  str(W, "node", E.Node);
  str(W, "change", E.Change);
  W.Key("before");
  W.Double(E.Before);
  W.Key("after");
  if (E.Invalid.empty())
    W.Double(E.After);
  else
    W.Null();
  W.Key("passes_before");
  W.Double(E.PassesBefore);
  W.Key("passes_after");
  if (E.Invalid.empty())
    W.Double(E.PassesAfter);
  else
    W.Null();
  W.Key("accepted");
  W.Bool(E.Accepted);
  if (!E.Invalid.empty())
    str(W, "invalid", E.Invalid);
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}

std::string learn::writeLearnReportJSON(const LearnReportData &R) {
  rapidjson::StringBuffer Buf;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> W(Buf);
  W.SetIndent(' ', 1);
  W.StartObject();
  W.Key("version");
  W.Int(1);
  W.Key("budget");
  W.Uint(R.Budget);
  W.Key("kernels");
  W.Uint(R.Kernels);
  W.Key("folds");
  W.Uint(R.Folds);
  W.Key("seed");
  W.Uint64(R.Seed);
  W.Key("datasets");
  W.StartArray();
  for (const std::string &D : R.Datasets)
    W.String(D.c_str(), D.size());
  W.EndArray();
  if (!R.HeldOutDatasets.empty()) {
    W.Key("held_out_datasets");
    W.StartArray();
    for (const std::string &D : R.HeldOutDatasets)
      W.String(D.c_str(), D.size());
    W.EndArray();
    W.Key("training_kernels");
    W.Uint(R.TrainingKernels);
  }
  W.Key("rows");
  W.StartArray();
  for (const ReportRow &Row : R.Rows) {
    W.StartObject();
    str(W, "name", Row.Name);
    str(W, "kind", Row.Kind);
    W.Key("held_out");
    W.Bool(Row.HeldOut);
    W.Key("geomean");
    W.Double(Row.GeoMean);
    W.Key("fast_1");
    W.Double(Row.Fast1);
    W.Key("mean_passes");
    W.Double(Row.MeanPasses);
    W.Key("max_passes");
    W.Uint(Row.MaxPasses);
    W.Key("per_kernel");
    W.StartArray();
    for (const ReportRow::KernelLine &K : Row.Kernels) {
      W.StartObject();
      str(W, "program", K.Program);
      str(W, "kernel", K.Kernel);
      str(W, "leaf", K.Leaf);
      str(W, "chose", K.Chosen);
      W.Key("gain");
      W.Double(K.Gain);
      W.EndObject();
    }
    W.EndArray();
    W.EndObject();
  }
  W.EndArray();
  if (!R.Curve.empty()) {
    W.Key("curve_orders");
    W.Uint(R.CurveOrders);
    W.Key("curve");
    W.StartArray();
    for (const CurvePoint &P : R.Curve) {
      W.StartObject();
      W.Key("metrics");
      W.Uint(P.Count);
      W.Key("mean_passes");
      W.Double(P.Passes);
      W.Key("geomean");
      W.Double(P.GeoMean);
      W.Key("geomean_lowest");
      W.Double(P.Lowest);
      W.Key("geomean_highest");
      W.Double(P.Highest);
      W.Key("fast_1");
      W.Double(P.Fast1);
      W.Key("orders_lowered");
      W.Uint(P.Drops);
      W.EndObject();
    }
    W.EndArray();
  }
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}

std::string learn::writeLearnReportText(const LearnReportData &R) {
  // llvm::format grows its buffer: a value of any size prints whole.
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  if (!R.HeldOutDatasets.empty())
    OS << "learned on " << R.TrainingKernels << " kernels, judged on "
       << R.Kernels << " kernels of other programs\n";
  OS << llvm::format("%-36s %8s %7s %11s %10s\n", "configuration", "geomean",
                     "fast_1", "passes/kern", "max passes");
  for (const ReportRow &Row : R.Rows) {
    std::string Name = Row.Name + (Row.HeldOut ? "" : " (in-sample)");
    OS << llvm::format("%-36s %7.3fx %6.1f%% %11.2f %10u\n", Name.c_str(),
                       Row.GeoMean, 100 * Row.Fast1, Row.MeanPasses,
                       Row.MaxPasses);
  }
  if (!R.Curve.empty()) {
    OS << llvm::format(
        "\nthe same metrics for every kernel (%u random orders):\n",
        R.CurveOrders);
    OS << llvm::format("%8s %11s %8s %17s %7s %8s\n", "metrics", "passes/kern",
                       "geomean", "range", "fast_1", "lowered");
    for (const CurvePoint &P : R.Curve)
      OS << llvm::format("%8u %11.2f %7.3fx %7.3fx-%7.3fx %6.1f%% %8u\n",
                         P.Count, P.Passes, P.GeoMean, P.Lowest, P.Highest,
                         100 * P.Fast1, P.Drops);
  }
  return OS.str();
}
