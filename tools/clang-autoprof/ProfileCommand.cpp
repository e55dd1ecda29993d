//===- ProfileCommand.cpp - clang-autoprof profile ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `profile`: its options given to lib/Profiling's runProfileCommand(),
/// which runs the user's program unchanged with the injection library
/// loaded (CUDA_INJECTION64_PATH); the sources' kernels and the device
/// check come from here.
///
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Profiling/ProfileCommand.h"
#include "autoprof/Profiling/ProfileSetup.h"
#include "autoprof/Verify/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

enum class CacheControl { All, None };
enum class ClockControl { Base, None };

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
  cl::opt<CacheControl> Cache{
      "cache-control",
      cl::desc("Before each profiled launch, flush the L2 cache (all, the "
               "default, as ncu does) or leave it as the program left it "
               "(none)"),
      cl::init(CacheControl::All),
      cl::values(clEnumValN(CacheControl::All, "all", "flush the L2 cache"),
                 clEnumValN(CacheControl::None, "none",
                            "leave the caches as they are")),
      cl::sub(profileCommand())};
  cl::opt<ClockControl> Clock{
      "clock-control",
      cl::desc("While the program runs, lock every GPU's clock to its base "
               "frequency (base, as ncu does; needs root) or leave the "
               "clocks as they are (none, the default)"),
      cl::init(ClockControl::None),
      cl::values(
          clEnumValN(ClockControl::Base, "base", "lock the clocks to base"),
          clEnumValN(ClockControl::None, "none",
                     "leave the clocks as they are")),
      cl::sub(profileCommand())};
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

using profiling::StaticKernel;

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
  static int Anchor;
  return profiling::injectionLibraryPath(Argv0, &Anchor);
}

int autoprof::tool::runProfile(const char *Argv0) {
  ProfileOptions &O = profileOptions();
  profiling::ProfileCommandOptions P;
  std::optional<std::vector<std::string>> CompilerArgs;
  if (ArgsAfterDashDash)
    profiling::splitProgramArguments(*ArgsAfterDashDash, !O.Sources.empty(),
                                     P.Program, CompilerArgs);
  P.Sources.assign(O.Sources.begin(), O.Sources.end());
  P.Metrics = O.Metrics;
  P.Plan = O.Plan;
  P.Tree = O.Tree;
  P.KernelRegex = sourceOptions().Kernel;
  P.LaunchSkip = O.LaunchSkip;
  P.LaunchCount = O.LaunchCount;
  P.Timeout = O.Timeout;
  P.FlushCaches = O.Cache == CacheControl::All;
  P.LockClocks = O.Clock == ClockControl::Base;
  P.CatalogPath = catalogPath(Argv0, O.Catalog);
  P.InjectionLibrary = injectionLibrary(Argv0);
  P.Output = O.Output;
  profiling::ProfileCommandHooks H;
  H.SourceKernels = [&](std::vector<StaticKernel> &Out) {
    if (Error E = addSourceKernels(P.Sources, &CompilerArgs, Out)) {
      consumeError(std::move(E)); // extractSources reported why.
      return false;
    }
    return true;
  };
  H.CheckDevice = checkProfilingDevice;
  H.Write = writeOutput;
  H.Error = [](const std::string &E) { reportError(E); };
  H.Warning = [](const std::string &W) { reportWarning(W); };
  ProcessRunner Runner;
  return profiling::runProfileCommand(P, H, Runner, errs());
}
