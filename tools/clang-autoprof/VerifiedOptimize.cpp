//===- VerifiedOptimize.cpp - optimize with verification ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `optimize` without --dry-run: the options of lib/OptimizeTooling's
/// verified run from the command line, the profiler (the tree, in-process
/// through lib/Profiling, or a given profile) and the model's rounds, and
/// what the result is written as. The source changes only with --in-place
/// and only after a verified win.
///
//===----------------------------------------------------------------------===//

#include "OptimizeOptions.h"

#include "autoprof/Optimize/Session.h"
#include "autoprof/OptimizeTooling/KernelProfilers.h"
#include "autoprof/OptimizeTooling/LLMRewriter.h"
#include "autoprof/OptimizeTooling/VerifiedOptimize.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

/// The tree profiler's options from the tool's; false after reporting a
/// bad --kernel.
std::optional<TreeProfilerOptions>
treeProfilerOptions(const char *Argv0, const optimize::CommandOptions &O,
                    const std::string &Source) {
  TreeProfilerOptions T;
  T.CatalogPath = catalogPath(Argv0, "");
  T.Tree = O.Tree;
  T.Source = Source;
  T.Parse = sourceSettings(ArgsAfterDashDash);
  if (!kernelFilter(T.Filter))
    return std::nullopt;
  T.KernelRegex = sourceOptions().Kernel;
  T.InjectLibrary = injectionLibrary(Argv0);
  T.Run = O.Run;
  T.Timeout = O.Timeout;
  T.DeviceLock = O.DeviceLock;
  T.KeepProfile = O.KeepProfile;
  T.CheckDevice = checkProfilingDevice;
  T.Messages = toolMessages();
  return T;
}

/// The run's options from the tool's.
VerifiedOptimizeOptions
verifiedOptimizeOptions(const optimize::CommandOptions &O,
                        const std::string &Source) {
  VerifiedOptimizeOptions VO;
  optimize::SessionOptions &SO = VO.Session;
  SO.Source = Source;
  SO.Tree = O.Tree;
  SO.Attempts = O.Attempts;
  SO.TryAll = O.TryAll;
  SO.Compose = O.Compose;
  SO.Judge.RTol = O.RTol;
  SO.Judge.ATol = O.ATol;
  SO.Judge.MinSpeedup = O.MinSpeedup;
  SO.InPlace = O.InPlace;
  SO.SourceOnly = !O.Output.empty();
  SO.Warn = [](const std::string &Line) { reportWarning(Line); };
  VO.Parse = sourceSettings(ArgsAfterDashDash);
  VO.Build = O.Build;
  VO.Run = O.Run;
  VO.Runs = O.Runs;
  VO.Timeout = O.Timeout;
  VO.DeviceLock = O.DeviceLock;
  VO.Messages = toolMessages();
  return VO;
}

} // namespace

int autoprof::tool::runVerifiedOptimize(const char *Argv0,
                                        const RewriteEngine &Engine,
                                        const std::string &Source,
                                        LLMRewriter *LLM) {
  auto Started = std::chrono::steady_clock::now();
  const optimize::CommandOptions &O = optimizeOptions().V;
  auto Fail = [&](Error E) {
    std::string Msg = toString(std::move(E));
    reportError(Msg);
    return Msg == "interrupted" ? 130 : 1;
  };
  // Rewrites given as files replace the built-in proposals.
  auto Given = readCandidateFiles(
      std::vector<std::string>(O.Candidates.begin(), O.Candidates.end()));
  if (!Given)
    return Fail(Given.takeError());
  // A given profile replaces profiling the program.
  std::optional<optimize::ProfiledKernels> GivenProfile;
  VerifiedOptimizeOptions VO = verifiedOptimizeOptions(O, Source);
  if (!O.ProfileFile.empty()) {
    Expected<optimize::ProfiledKernels> P =
        optimize::readProfiledKernels(O.ProfileFile, &VO.Session.Tree);
    if (!P)
      return Fail(P.takeError());
    GivenProfile = std::move(*P);
  }
  VO.Candidates = std::move(*Given);
  VO.InjectLibrary = injectionLibrary(Argv0);
  std::optional<TreeProfilerOptions> TreeOptions =
      treeProfilerOptions(Argv0, O, Source);
  if (!TreeOptions)
    return 1;
  VerifiedOptimizeHooks Hooks;
  Hooks.Profiler = [&](CommandRunner &Runner, StringRef Dir)
      -> Expected<std::unique_ptr<optimize::KernelProfiler>> {
    if (GivenProfile)
      return newGivenProfiler(O.ProfileFile, std::move(*GivenProfile),
                              O.KeepProfile);
    return newTreeProfiler(*TreeOptions, Runner, Dir);
  };
  if (LLM) {
    Hooks.Model = [&](EngineModel &Edits) {
      return std::make_unique<LLMRounds>(*LLM, Engine, Source, Edits);
    };
    Hooks.ModelUnsupported = [&](size_t I) {
      return llmUnsupported(Engine, I, Source);
    };
  }
  Expected<VerifiedOptimizeResult> R =
      verifiedOptimize(VO, Engine, Hooks, errs());
  if (!R)
    return Fail(R.takeError());
  VerifiedOutputs Out;
  Out.InPlace = O.InPlace;
  Out.Diff = O.Diff;
  Out.ExportFixes = O.ExportFixes;
  Out.Copy = O.Output;
  Out.Write = writeOutput;
  Expected<std::string> Text = writeVerifiedResult(Out, Source, *R);
  if (!Text)
    return Fail(Text.takeError());
  R->Report.Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Started)
          .count();
  if (!O.Report.empty())
    if (Error E = writeOutput(O.Report, writeOptimizeReportJSON(R->Report)))
      return Fail(std::move(E));
  if (Error E = writeOutput("-", *Text))
    return Fail(std::move(E));
  return 0;
}
