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
#include "autoprof/OptimizeTooling/LLMRewriter.h"
#include "autoprof/OptimizeTooling/VerifiedOptimize.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Profiling/ProfileProgram.h"
#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Rewrite/UnifiedDiff.h"
#include "autoprof/Verify/OptimizeReport.h"
#include "autoprof/Verify/PhaseTimes.h"
#include "autoprof/Verify/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

/// Profiles the original, built, with the tree, in-process: the kernels'
/// static features from \p Source, the program the run command, its output
/// in \p Dir's profile.log; writes \p Dir's profile.json and returns the
/// profiled kernels by mangled name.
Expected<optimize::ProfiledKernels>
profileKernels(CommandRunner &Runner, const char *Argv0,
               const OptimizeOptions &O, const std::string &Source,
               StringRef Dir, uint64_t Seed) {
  auto Failed = [&](const Twine &Why) {
    return createStringError("profiling with tree '" + O.Tree +
                             "' failed: " + Why);
  };
  std::string CatalogPath = catalogPath(Argv0, "");
  Expected<MetricCatalog> Catalog = MetricCatalog::load(CatalogPath);
  if (!Catalog)
    return Catalog.takeError();
  profiling::ProfileRequest R;
  Expected<std::string> Tree =
      findTree(O.Tree, sys::path::parent_path(CatalogPath));
  if (!Tree)
    return Tree.takeError();
  R.TreePath = *Tree;
  if (Error E = loadCheckedTree(R.TreePath, R.Tree))
    return std::move(E);
  Expected<profiling::MetricClasses> Classes =
      profiling::classifyMetrics(R, *Catalog);
  if (!Classes)
    return Classes.takeError();
  if (Error E = addSourceKernels({Source}, &ArgsAfterDashDash, R.Kernels))
    return Failed(toString(std::move(E)));
  if (Error E = checkProfilingDevice(R, *Classes))
    return Failed(toString(std::move(E)));
  R.InjectionLibrary = injectionLibrary(Argv0);
  if (!sys::fs::exists(R.InjectionLibrary))
    return Failed("cannot find the injection library '" + R.InjectionLibrary +
                  "'; set AUTOPROF_INJECT_LIBRARY");
  R.Program = {"/bin/sh", "-c", O.Run};
  R.Env["AUTOPROF_SEED"] = std::to_string(Seed);
  R.KernelRegex = sourceOptions().Kernel;
  R.Timeout = O.Timeout;
  SmallString<256> Log(Dir), Out(Dir);
  sys::path::append(Log, "profile.log");
  sys::path::append(Out, "profile.json");
  R.OutputFile = std::string(Log);
  R.NewProcessGroup = true;
  R.DeviceLock = O.DeviceLock;
  Expected<profiling::ProfileRun> Run =
      profiling::profileProgram(R, *Catalog, *Classes, Runner, nulls());
  if (!Run)
    return Failed(toString(Run.takeError()));
  const ChildResult &First = Run->First;
  if (First.Interrupted)
    return createStringError("interrupted");
  if (First.TimedOut)
    return Failed("the program ran past --timeout=" +
                  std::to_string(O.Timeout.getValue()) + " s");
  if (First.Status != 0)
    return Failed("the program exited with status " +
                  std::to_string(First.Status));
  if (!Run->P.Errors.empty())
    return Failed(Run->P.Errors.front());
  if (Error E = writeOutput(Out, writeProfileJSON(Run->P)))
    return std::move(E);
  return optimize::readProfiledKernels(Out);
}

/// Copies the profile \p From to --keep-profile, when given.
Error keepProfile(const OptimizeOptions &O, StringRef From) {
  if (O.KeepProfile.empty())
    return Error::success();
  auto Buf = MemoryBuffer::getFile(From, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read the profile");
  return writeOutput(O.KeepProfile, (*Buf)->getBuffer());
}

/// Profiles the original with the tree.
class TreeProfiler : public optimize::KernelProfiler {
public:
  TreeProfiler(CommandRunner &Runner, const char *Argv0,
               const OptimizeOptions &O, const std::string &Source,
               StringRef Dir)
      : Runner(Runner), Argv0(Argv0), O(O), Source(Source), Dir(Dir) {}
  std::string describe() const override {
    return "profiling with tree '" + O.Tree + "'";
  }
  Expected<optimize::ProfiledKernels> profile(uint64_t Seed) override {
    Expected<optimize::ProfiledKernels> P =
        profileKernels(Runner, Argv0, O, Source, Dir, Seed);
    if (!P)
      return P.takeError();
    SmallString<256> File(Dir);
    sys::path::append(File, "profile.json");
    if (Error E = keepProfile(O, File))
      return std::move(E);
    return P;
  }

private:
  CommandRunner &Runner;
  const char *Argv0;
  const OptimizeOptions &O;
  const std::string &Source;
  std::string Dir;
};

/// The profile --profile names.
class GivenProfiler : public optimize::KernelProfiler {
public:
  GivenProfiler(const OptimizeOptions &O, optimize::ProfiledKernels P)
      : O(O), P(std::move(P)) {}
  std::string describe() const override {
    return "using the profile '" + O.ProfileFile + "'";
  }
  Expected<optimize::ProfiledKernels> profile(uint64_t) override {
    if (Error E = keepProfile(O, O.ProfileFile))
      return std::move(E);
    return P;
  }

private:
  const OptimizeOptions &O;
  optimize::ProfiledKernels P;
};

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

TempDir::~TempDir() {
  if (!Path.empty())
    sys::fs::remove_directories(Path);
}

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
  VerifiedOptimizeHooks Hooks;
  Hooks.Profiler = [&](CommandRunner &Runner, StringRef Dir)
      -> Expected<std::unique_ptr<optimize::KernelProfiler>> {
    if (GivenProfile)
      return std::make_unique<GivenProfiler>(O, std::move(*GivenProfile));
    return std::make_unique<TreeProfiler>(Runner, Argv0, O, Source, Dir);
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
