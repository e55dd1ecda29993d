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
#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/UnifiedDiff.h"
#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/PhaseTimes.h"
#include "autoprof/Verify/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

/// The tree profiler's options from the tool's; false after reporting a
/// bad --kernel.
std::optional<TreeProfilerOptions>
treeProfilerOptions(const char *Argv0, const OptimizeOptions &O,
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

/// The --candidate files, read.
Expected<std::vector<std::pair<std::string, std::string>>>
readCandidates(const OptimizeOptions &O) {
  std::vector<std::pair<std::string, std::string>> Given;
  for (const std::string &F : O.Candidates) {
    auto Buf = MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf)
      return createStringError("cannot read --candidate '" + F +
                               "': " + Buf.getError().message());
    Given.emplace_back(F, (*Buf)->getBuffer().str());
  }
  return Given;
}

/// Writes what the options ask of \p R's kept edits: the files in place, a
/// diff, fixes or a copy; returns the text to print.
Expected<std::string> writeResult(const OptimizeOptions &O,
                                  const std::string &Source,
                                  const VerifiedOptimizeResult &R) {
  if (O.InPlace)
    for (const auto &[File, Text] : R.FinalTexts)
      if (Error E = writeOutput(File, Text))
        return std::move(E);
  std::string Main = absolutePath(Source);
  if (O.Diff) {
    std::string Text;
    raw_string_ostream OS(Text);
    for (const auto &[File, New] : R.FinalTexts)
      OS << unifiedDiff(File == Main ? Source : shownPath(File),
                        R.Originals.at(File), New);
    return Text;
  }
  if (!O.ExportFixes.empty()) {
    if (Error E = writeOutput(O.ExportFixes, exportFixesYAML(Main, R.Final)))
      return std::move(E);
  } else if (!O.Output.empty()) {
    auto It = R.FinalTexts.find(Main);
    if (Error E = writeOutput(O.Output, It == R.FinalTexts.end()
                                            ? R.Originals.at(Main)
                                            : It->second))
      return std::move(E);
  }
  return renderOptimizeReportText(R.Report,
                                  O.Output.empty() && O.ExportFixes.empty());
}

/// The run's options from the tool's.
VerifiedOptimizeOptions verifiedOptimizeOptions(const OptimizeOptions &O,
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
  OptimizeOptions &O = optimizeOptions();
  auto Fail = [&](Error E) {
    std::string Msg = toString(std::move(E));
    reportError(Msg);
    return Msg == "interrupted" ? 130 : 1;
  };
  // Rewrites given as files replace the built-in proposals.
  auto Given = readCandidates(O);
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
  Expected<std::string> Text = writeResult(O, Source, *R);
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
