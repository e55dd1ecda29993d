//===- ProfileCommand.cpp - `profile` as a library call -------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ProfileCommand.h"

#include "autoprof/Profiling/ProfileSetup.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstring>
#include <regex>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

/// Why \p O cannot run, before anything is read; empty when it can.
std::string optionsProblem(const ProfileCommandOptions &O) {
  if (O.Output.empty())
    return "no output file: give -o <profile.json>";
  if (O.Program.empty())
    return "no program to profile: give it after '--', as in "
           "'clang-autoprof profile -o p.json -- ./app args'";
  if (O.LaunchCount == 0)
    return "--launch-count must be at least 1";
  if (!O.Metrics.empty() && (!O.Tree.empty() || !O.Plan.empty()))
    return "--metrics collects a fixed list; it cannot be combined with "
           "--tree or --plan";
  if (!O.Plan.empty() && (!O.Tree.empty() || !O.Sources.empty()))
    return "--plan gives the tree and the kernels; it cannot be combined "
           "with --tree or sources";
  // The injection library compiles it again with the same syntax.
  if (!O.KernelRegex.empty()) {
    try {
      std::regex(O.KernelRegex, std::regex::ECMAScript);
    } catch (const std::regex_error &E) {
      return "invalid --kernel regular expression '" + O.KernelRegex +
             "': " + E.what();
    }
  }
  return "";
}

/// Fills \p R's metrics, or its tree (and kernels, from a plan).
Error chooseMetrics(const ProfileCommandOptions &O, StringRef ModelsDir,
                    ProfileRequest &R) {
  if (!O.Metrics.empty()) {
    R.Metrics = parseMetricList(O.Metrics);
    if (R.Metrics.empty())
      return createStringError("--metrics names no metric");
    return Error::success();
  }
  if (!O.Plan.empty())
    return usePlan(O.Plan, ModelsDir, R);
  return useTree(O.Tree, ModelsDir, R);
}

/// The request of \p O, its metrics sorted by how they are obtained.
Expected<ProfileRequest> request(const ProfileCommandOptions &O,
                                 const MetricCatalog &Catalog,
                                 MetricClasses &Classes) {
  ProfileRequest R;
  R.Program = O.Program;
  R.KernelRegex = O.KernelRegex;
  R.LaunchSkip = O.LaunchSkip;
  R.LaunchCount = O.LaunchCount;
  R.FlushCaches = O.FlushCaches;
  R.Timeout = O.Timeout;
  R.InjectionLibrary = O.InjectionLibrary;
  if (Error E = chooseMetrics(O, sys::path::parent_path(O.CatalogPath), R))
    return std::move(E);
  Expected<MetricClasses> C = classifyMetrics(R, Catalog);
  if (!C)
    return C.takeError();
  Classes = std::move(*C);
  return R;
}

/// Checks, before the program starts, the device and the metrics on its
/// chip, and the injection library.
Error checkRun(const ProfileRequest &R, const MetricClasses &Classes,
               ProfileCommandHooks &H) {
  if (H.CheckDevice)
    if (Error E = H.CheckDevice(R, Classes))
      return E;
  if (!sys::fs::exists(R.InjectionLibrary))
    return createStringError("cannot find the injection library '" +
                             R.InjectionLibrary +
                             "'; set AUTOPROF_INJECT_LIBRARY");
  return Error::success();
}

} // namespace

int autoprof::profiling::runProfileCommand(const ProfileCommandOptions &O,
                                           ProfileCommandHooks &H,
                                           verify::CommandRunner &Runner,
                                           raw_ostream &Log) {
  auto ReportAll = [&](Error E) {
    handleAllErrors(std::move(E),
                    [&](const ErrorInfoBase &EI) { H.Error(EI.message()); });
    return 1;
  };
  if (std::string Problem = optionsProblem(O); !Problem.empty()) {
    H.Error(Problem);
    return 1;
  }
  Expected<MetricCatalog> Catalog = MetricCatalog::load(O.CatalogPath);
  if (!Catalog)
    return ReportAll(Catalog.takeError());
  MetricClasses Classes;
  Expected<ProfileRequest> R = request(O, *Catalog, Classes);
  if (!R)
    return ReportAll(R.takeError());
  if (!O.Sources.empty() && H.SourceKernels && !H.SourceKernels(R->Kernels))
    return 1;
  if (Error E = checkRun(*R, Classes, H))
    return ReportAll(std::move(E));

  // The clocks stay locked for both runs of the program.
  std::unique_ptr<ClockLock> Clocks;
  if (O.LockClocks) {
    Expected<ClockAPI> API = H.Clocks ? H.Clocks() : loadNVML();
    if (!API)
      return ReportAll(API.takeError());
    Expected<std::unique_ptr<ClockLock>> L = ClockLock::lockToBase(*API);
    if (!L)
      return ReportAll(L.takeError());
    Clocks = std::move(*L);
  }
  Expected<ProfileRun> Run = profileProgram(*R, *Catalog, Classes, Runner, Log);
  Clocks.reset();
  if (!Run)
    return ReportAll(Run.takeError());
  const Profile &Final = Run->P;
  const verify::ChildResult &First = Run->First;
  if (Error E = H.Write(O.Output, writeProfileJSON(Final)))
    return ReportAll(std::move(E));
  for (const std::string &W : Final.Warnings)
    H.Warning(W);
  for (const std::string &E : Final.Errors)
    H.Error(E);
  unsigned Passes = 0;
  std::set<std::string> Kernels;
  for (const ProfileRecord &Rec : Final.Records) {
    Passes += Rec.Passes;
    Kernels.insert(Rec.MangledName);
  }
  Log << "clang-autoprof: " << Final.Records.size() << " launch(es) of "
      << Kernels.size() << " kernel(s) profiled in " << Passes
      << " pass(es); wrote " << O.Output << "\n";
  if (First.TimedOut) {
    H.Error("the program ran past --timeout=" + std::to_string(O.Timeout) +
            " s and was stopped; the records collected so far are in " +
            O.Output);
    return 124;
  }
  if (First.Signal)
    H.Error("the program was killed by signal " + std::to_string(First.Signal) +
            " (" + strsignal(First.Signal) +
            "); the records collected so far are in " + O.Output);
  if (First.Status != 0)
    return First.Status;
  return Final.Errors.empty() ? 0 : 1;
}

void autoprof::profiling::splitProgramArguments(
    const std::vector<std::string> &A, bool HasSources,
    std::vector<std::string> &Program,
    std::optional<std::vector<std::string>> &CompilerArgs) {
  auto It = HasSources ? std::find(A.begin(), A.end(), "--") : A.end();
  if (It == A.end()) {
    Program = A;
    return;
  }
  CompilerArgs.emplace(A.begin(), It);
  Program.assign(It + 1, A.end());
}

std::string autoprof::profiling::injectionLibraryPath(const char *Argv0,
                                                      void *MainAddr) {
  if (const char *Exact = std::getenv("AUTOPROF_INJECT_LIBRARY"))
    return Exact;
  std::string Exe = sys::fs::getMainExecutable(Argv0, MainAddr);
  SmallString<256> P(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(P, "lib", "libautoprof-inject.so");
  return std::string(P);
}
