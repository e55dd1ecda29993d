//===- PlanCommand.cpp - clang-autoprof plan ------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Profiling/PlanCommand.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

enum class PlanFormat { Text, JSON };

struct PlanOptions {
  cl::opt<std::string> Tree{
      "tree", cl::desc("Tree: a name in tree-models/ or a path"),
      cl::value_desc("name|path"), cl::Required, cl::sub(planCommand())};
  cl::opt<std::string> Samples{
      "samples", cl::desc("Profile with the stage-1 samples (a profile JSON)"),
      cl::value_desc("profile.json"), cl::sub(planCommand())};
  cl::opt<std::string> Catalog{
      "catalog", cl::desc("Metric catalog (default: the one shipped)"),
      cl::value_desc("file"), cl::sub(planCommand())};
  cl::opt<PlanFormat> Format{
      "format", cl::desc("Output format"), cl::init(PlanFormat::Text),
      cl::values(clEnumValN(PlanFormat::Text, "text", "readable text"),
                 clEnumValN(PlanFormat::JSON, "json", "JSON")),
      cl::sub(planCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(planCommand())};
};

PlanOptions &planOptions() {
  static PlanOptions O;
  return O;
}

[[maybe_unused]] const PlanOptions &Registered = planOptions();

} // namespace

int autoprof::tool::runPlan(const char *Argv0) {
  PlanOptions &O = planOptions();
  profiling::PlanCommandOptions P;
  P.Tree = O.Tree;
  P.CatalogPath = catalogPath(Argv0, O.Catalog);
  P.Samples = O.Samples;
  P.JSON = O.Format == PlanFormat::JSON;
  P.Output = O.Output;
  profiling::PlanCommandHooks H;
  H.LoadCounter = []() -> Expected<std::unique_ptr<PassCounter>> {
    return loadProfilerHost();
  };
  H.Sources = [](FeatureReport &R) { return extractSources(R); };
  H.Write = writeOutput;
  H.Error = [](const std::string &E) { reportError(E); };
  return profiling::runPlanCommand(P, H);
}
