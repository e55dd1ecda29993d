//===- FeaturesCommand.cpp - clang-autoprof features ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Threading.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

enum class OutputFormat { Text, JSON };

struct FeaturesOptions {
  cl::opt<OutputFormat> Format{
      "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
      cl::values(
          clEnumValN(OutputFormat::Text, "text", "readable text"),
          clEnumValN(OutputFormat::JSON, "json", "JSON (docs/features.md)")),
      cl::sub(featuresCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(featuresCommand())};
};

FeaturesOptions &featuresOptions() {
  static FeaturesOptions O;
  return O;
}

// Register the options before the command line is parsed.
[[maybe_unused]] const FeaturesOptions &Registered = featuresOptions();

} // namespace

bool autoprof::tool::kernelFilter(KernelFilter &Filter) {
  Expected<KernelFilter> F = kernelNameFilter(sourceOptions().Kernel);
  if (failed(F))
    return false;
  Filter = std::move(*F);
  return true;
}

SourceSettings autoprof::tool::sourceSettings(
    const std::optional<std::vector<std::string>> &FixedArgs) {
  SourceOptions &O = sourceOptions();
  SourceSettings S;
  S.BuildPath = O.BuildPath;
  S.FixedArgs = FixedArgs;
  S.ExtraArgs.assign(O.ExtraArgs.begin(), O.ExtraArgs.end());
  S.ExtraArgsBefore.assign(O.ExtraArgsBefore.begin(), O.ExtraArgsBefore.end());
  S.CudaPath = O.CudaPath;
  S.GpuArch = O.GpuArch;
  return S;
}

SourceMessages autoprof::tool::toolMessages() {
  return {[](const std::string &M) { reportError(M); },
          [](const std::string &M) { reportWarning(M); }};
}

unsigned autoprof::tool::jobs() {
  unsigned J = sourceOptions().Jobs;
  return J ? J
           : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}

std::optional<std::vector<std::string>>
autoprof::tool::sourcesToRun(bool FromDatabase) {
  SourceOptions &S = sourceOptions();
  Expected<std::vector<std::string>> Files =
      FromDatabase || !S.Sources.empty()
          ? autoprof::sourcesToRun({S.Sources.begin(), S.Sources.end()},
                                   S.BuildPath)
          : createStringError("no source given");
  if (failed(Files))
    return std::nullopt;
  return std::move(*Files);
}

int autoprof::tool::extractSources(
    FeatureReport &Report, const std::vector<std::string> *SourceList,
    const std::optional<std::vector<std::string>> *FixedArgs) {
  std::vector<std::string> Given;
  if (!SourceList) {
    std::optional<std::vector<std::string>> Found =
        sourcesToRun(/*FromDatabase=*/true);
    if (!Found)
      return 2;
    Given = std::move(*Found);
  }
  const std::vector<std::string> &Inputs = SourceList ? *SourceList : Given;
  KernelFilter Filter;
  if (!kernelFilter(Filter))
    return 2;
  SourceSettings S = sourceSettings(FixedArgs ? *FixedArgs : ArgsAfterDashDash);
  S.Jobs = jobs();
  S.Parallel = true;
  SourceRunSummary Sum;
  int Status = extractSourceFeatures(S, Inputs, Filter, Report, toolMessages(),
                                     &Sum, errs());
  if (Status != 2)
    writeRunSummary(errs(), Sum, S.Jobs);
  return Status;
}

int autoprof::tool::runFeatures() {
  FeaturesOptions &O = featuresOptions();
  FeatureReport Report;
  int Status = extractSources(Report);
  if (Status == 2)
    return 1;
  // A run that failed and found nothing prints nothing: "no kernels"
  // would not be true.
  if (Status != 0 && Report.Kernels.empty())
    return Status;
  std::string Text = O.Format == OutputFormat::JSON ? writeFeaturesJSON(Report)
                                                    : writeFeaturesText(Report);
  if (failed(writeOutput(O.Output, Text)))
    return 1;
  return Status;
}
