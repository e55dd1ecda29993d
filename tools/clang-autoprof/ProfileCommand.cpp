//===- ProfileCommand.cpp - clang-autoprof profile ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs the user's program unchanged with the injection library loaded
/// (CUDA_INJECTION64_PATH), which collects the tree's stage-1 samples and
/// the leaf's metrics of each selected kernel launch, or a fixed metric list.
/// Everything that can be wrong with the request is checked before the
/// program starts. Afterwards the tool adds units and derived metrics, runs
/// the program a second time when a kernel launched only once before its
/// leaf's metrics could be collected, and writes the profile.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"
#include "autoprof/Profiling/ProfileProgram.h"
#include "autoprof/Profiling/ProfileSetup.h"
#include "autoprof/Verify/ChildProcess.h"
#include "autoprof/Verify/Verifier.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

struct ProfileOptions {
  cl::list<std::string> Sources{cl::Positional, cl::desc("[<source>...]"),
                                cl::ZeroOrMore, cl::sub(profileCommand())};
  cl::opt<std::string> Tree{
      "tree",
      cl::desc("Tree to route kernels with: a name in tree-models/ or a path "
               "(default: learned)"),
      cl::value_desc("name|path"), cl::sub(profileCommand())};
  cl::opt<std::string> Plan{
      "plan",
      cl::desc("A plan written by 'plan --format=json': its tree and the "
               "kernels' static features, instead of sources"),
      cl::value_desc("plan.json"), cl::sub(profileCommand())};
  cl::opt<std::string> Metrics{
      "metrics", cl::desc("Collect this fixed list instead of a tree"),
      cl::value_desc("m1,m2,..."), cl::sub(profileCommand())};
  cl::opt<unsigned> LaunchSkip{
      "launch-skip",
      cl::desc("Launches of each selected kernel to skip before profiling"),
      cl::init(0), cl::value_desc("N"), cl::sub(profileCommand())};
  cl::opt<unsigned> LaunchCount{
      "launch-count", cl::desc("Launches of each selected kernel to profile"),
      cl::init(1), cl::value_desc("N"), cl::sub(profileCommand())};
  cl::opt<unsigned> Timeout{
      "timeout",
      cl::desc("Stop the program after this many seconds (0: no limit)"),
      cl::init(0), cl::value_desc("S"), cl::sub(profileCommand())};
  cl::opt<std::string> Catalog{
      "catalog", cl::desc("Metric catalog (default: the one shipped)"),
      cl::value_desc("file"), cl::sub(profileCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Profile to write"),
                              cl::value_desc("profile.json"),
                              cl::sub(profileCommand())};
};

ProfileOptions &profileOptions() {
  static ProfileOptions O;
  return O;
}

[[maybe_unused]] const ProfileOptions &Registered = profileOptions();

using profiling::ProfileRequest;
using profiling::StaticKernel;

/// Splits the arguments after the first `--`: with sources, a second `--`
/// separates their compiler arguments from the program.
void splitProgram(const ProfileOptions &O, ProfileRequest &R,
                  std::optional<std::vector<std::string>> &CompilerArgs) {
  if (!ArgsAfterDashDash)
    return;
  const std::vector<std::string> &A = *ArgsAfterDashDash;
  if (!O.Sources.empty()) {
    auto It = std::find(A.begin(), A.end(), "--");
    if (It != A.end()) {
      CompilerArgs.emplace(A.begin(), It);
      R.Program.assign(It + 1, A.end());
      return;
    }
  }
  R.Program = A;
}

/// Reports each error \p E holds on its own line; returns 1.
int reportAll(Error E) {
  handleAllErrors(std::move(E),
                  [](const ErrorInfoBase &EI) { reportError(EI.message()); });
  return 1;
}

/// Fills \p R's metrics or tree from the options.
Error chooseMetrics(const ProfileOptions &O, StringRef ModelsDir,
                    ProfileRequest &R) {
  if (!O.Metrics.empty()) {
    R.Metrics = profiling::parseMetricList(O.Metrics);
    if (R.Metrics.empty())
      return createStringError("--metrics names no metric");
    return Error::success();
  }
  if (!O.Plan.empty())
    return profiling::usePlan(O.Plan, ModelsDir, R);
  return profiling::useTree(O.Tree, ModelsDir, R);
}

} // namespace

Error autoprof::tool::addSourceKernels(
    const std::vector<std::string> &Sources,
    const std::optional<std::vector<std::string>> *CompilerArgs,
    std::vector<profiling::StaticKernel> &Out) {
  FeatureReport Report;
  std::vector<std::string> Srcs = Sources;
  if (extractSources(Report, &Srcs, CompilerArgs) != 0)
    return createStringError("the sources could not be read");
  profiling::addReportKernels(Report, Out);
  return Error::success();
}

Error autoprof::tool::checkProfilingDevice(
    const profiling::ProfileRequest &R,
    const profiling::MetricClasses &Classes) {
  Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
  if (!Host)
    return Host.takeError();
  return profiling::checkDeviceWith(**Host, R, Classes);
}

std::string autoprof::tool::injectionLibrary(const char *Argv0) {
  if (const char *Exact = std::getenv("AUTOPROF_INJECT_LIBRARY"))
    return Exact;
  static int Anchor;
  std::string Exe = sys::fs::getMainExecutable(Argv0, &Anchor);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, "lib", "libautoprof-inject.so");
  return std::string(P);
}

int autoprof::tool::runProfile(const char *Argv0) {
  ProfileOptions &O = profileOptions();
  ProfileRequest R;
  std::optional<std::vector<std::string>> CompilerArgs;
  splitProgram(O, R, CompilerArgs);
  if (O.Output.empty()) {
    reportError("no output file: give -o <profile.json>");
    return 1;
  }
  if (R.Program.empty()) {
    reportError("no program to profile: give it after '--', as in "
                "'clang-autoprof profile -o p.json -- ./app args'");
    return 1;
  }
  if (O.LaunchCount == 0) {
    reportError("--launch-count must be at least 1");
    return 1;
  }
  if (!O.Metrics.empty() && (!O.Tree.empty() || !O.Plan.empty())) {
    reportError("--metrics collects a fixed list; it cannot be combined with "
                "--tree or --plan");
    return 1;
  }
  if (!O.Plan.empty() && (!O.Tree.empty() || !O.Sources.empty())) {
    reportError("--plan gives the tree and the kernels; it cannot be "
                "combined with --tree or sources");
    return 1;
  }
  R.KernelRegex = sourceOptions().Kernel;
  // The injection library compiles it again with the same syntax.
  if (!R.KernelRegex.empty() && !compileKernelRegex(R.KernelRegex))
    return 1;
  R.LaunchSkip = O.LaunchSkip;
  R.LaunchCount = O.LaunchCount;
  R.Timeout = O.Timeout;

  std::string CatalogPath = catalogPath(Argv0, O.Catalog);
  Expected<MetricCatalog> Catalog = MetricCatalog::load(CatalogPath);
  if (!Catalog)
    return reportAll(Catalog.takeError());
  if (Error E = chooseMetrics(O, sys::path::parent_path(CatalogPath), R))
    return reportAll(std::move(E));
  Expected<profiling::MetricClasses> Classes =
      profiling::classifyMetrics(R, *Catalog);
  if (!Classes)
    return reportAll(Classes.takeError());
  if (!O.Sources.empty())
    if (Error E = addSourceKernels(
            std::vector<std::string>(O.Sources.begin(), O.Sources.end()),
            &CompilerArgs, R.Kernels)) {
      consumeError(std::move(E)); // extractSources reported why.
      return 1;
    }
  // The device, and the metrics on its chip, before the program starts.
  if (Error E = checkProfilingDevice(R, *Classes))
    return reportAll(std::move(E));
  R.InjectionLibrary = injectionLibrary(Argv0);
  if (!sys::fs::exists(R.InjectionLibrary)) {
    reportError("cannot find the injection library '" + R.InjectionLibrary +
                "'; set AUTOPROF_INJECT_LIBRARY");
    return 1;
  }

  ProcessRunner Runner;
  Expected<profiling::ProfileRun> Run =
      profiling::profileProgram(R, *Catalog, *Classes, Runner, errs());
  if (!Run)
    return reportAll(Run.takeError());
  const Profile &Final = Run->P;
  const ChildResult &First = Run->First;
  if (Error E = writeOutput(O.Output, writeProfileJSON(Final)))
    return reportAll(std::move(E));
  for (const std::string &W : Final.Warnings)
    reportWarning(W);
  for (const std::string &E : Final.Errors)
    reportError(E);
  unsigned Passes = 0;
  std::set<std::string> Kernels;
  for (const ProfileRecord &Rec : Final.Records) {
    Passes += Rec.Passes;
    Kernels.insert(Rec.MangledName);
  }
  errs() << "clang-autoprof: " << Final.Records.size() << " launch(es) of "
         << Kernels.size() << " kernel(s) profiled in " << Passes
         << " pass(es); wrote " << O.Output << "\n";
  if (First.TimedOut) {
    reportError("the program ran past --timeout=" + std::to_string(O.Timeout) +
                " s and was stopped; the records collected so far are in " +
                O.Output);
    return 124;
  }
  if (First.Signal)
    reportError("the program was killed by signal " +
                std::to_string(First.Signal) + " (" + strsignal(First.Signal) +
                "); the records collected so far are in " + O.Output);
  if (First.Status != 0)
    return First.Status;
  return Final.Errors.empty() ? 0 : 1;
}
