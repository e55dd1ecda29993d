//===- OptimizeCommand.cpp - clang-autoprof optimize ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "OptimizeOptions.h"

#include "autoprof/OptimizeTooling/OptimizeCommand.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

OptimizeOptions &autoprof::tool::optimizeOptions() {
  static OptimizeOptions O;
  return O;
}

// Register the options before the command line is parsed.
[[maybe_unused]] static const OptimizeOptions &Registered = optimizeOptions();

int autoprof::tool::runOptimize(const char *Argv0) {
  OptimizeOptions &O = optimizeOptions();
  O.V.TreeGiven = O.Tree.getNumOccurrences();
  SourceOptions &S = sourceOptions();
  OptimizeCommandEnv Env;
  Env.Sources.assign(S.Sources.begin(), S.Sources.end());
  Env.Parse = sourceSettings(ArgsAfterDashDash);
  Env.KernelRegex = S.Kernel;
  Env.KernelGiven = S.Kernel.getNumOccurrences();
  Env.CatalogPath = catalogPath(Argv0, "");
  Env.InjectLibrary = injectionLibrary(Argv0);
  Env.CheckDevice = checkProfilingDevice;
  Env.Write = writeOutput;
  Env.Messages = toolMessages();
  return runOptimizeCommand(O.V, Env, errs());
}
