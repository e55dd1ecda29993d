//===- ProfileProgram.cpp - Profile a user's program ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ProfileProgram.h"

#include "AgentConfig.h"
#include "autoprof/Metrics/DerivedMetrics.h"
#include "autoprof/Tree/Routing.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

void classify(const MetricCatalog &C, const std::string &M,
              MetricClasses &Out) {
  const CatalogMetric *CM = C.find(M);
  if (!CM) {
    if (!StringRef(M).starts_with("launch__"))
      Out.Range.push_back(M);
    return;
  }
  switch (CM->Source) {
  case MetricSource::RangeProfiler:
    Out.Range.push_back(M);
    break;
  case MetricSource::Launch:
    break;
  case MetricSource::Sass:
    Out.Sass.insert(M);
    break;
  case MetricSource::Derived: {
    Out.Derived[M] = CM->Inputs;
    MetricClasses Inner;
    for (const std::string &In : CM->Inputs)
      classify(C, In, Inner);
    if (!Inner.Sass.empty())
      Out.Sass.insert(M);
    Out.Range.insert(Out.Range.end(), Inner.Range.begin(), Inner.Range.end());
    for (auto &D : Inner.Derived)
      Out.Derived.insert(D);
    break;
  }
  }
}

/// Appends \p E to \p All.
void add(Error &All, Error E) {
  All = joinErrors(std::move(All), std::move(E));
}

std::string agentConfig(const ProfileRequest &R, const MetricClasses &Classes,
                        const std::string &OutputPath, unsigned Run,
                        const std::map<std::string, ProfileRecord> *Second) {
  inject::AgentRequest A;
  A.Output = OutputPath;
  A.Run = Run;
  A.KernelRegexText = R.KernelRegex;
  A.LaunchSkip = R.LaunchSkip;
  A.LaunchCount = R.LaunchCount;
  A.FlushCaches = R.FlushCaches;
  if (R.fixedMetrics()) {
    A.Metrics = R.Metrics;
    // The inputs of derived metrics.
    for (const std::string &M : Classes.Range)
      if (!is_contained(R.Metrics, M))
        A.Metrics.push_back(M);
    for (const auto &[D, Inputs] : Classes.Derived)
      for (const std::string &In : Inputs)
        if (StringRef(In).starts_with("launch__") ||
            In == "sm__maximum_warps_per_active_cycle_pct")
          A.Metrics.push_back(In);
  } else {
    A.TreeFile = R.TreePath;
  }
  A.RangeMetrics = Classes.Range;
  A.DerivedInputs.insert(Classes.Derived.begin(), Classes.Derived.end());
  for (const StaticKernel &K : R.Kernels)
    A.Kernels.emplace_back(K.MangledName, K.Features);
  if (Second)
    for (const auto &[Mangled, Rec] : *Second) {
      inject::SecondRunLaunch &L = A.SecondRun[Mangled];
      L.Launch = Rec.Launch;
      for (const auto &[Name, V] : Rec.Metrics)
        L.Samples[Name] = V.Value;
    }
  return inject::writeAgentConfig(A);
}

/// Units from the catalog, and the derived metrics each record can compute.
void complete(ProfileRecord &Rec, const MetricCatalog &C,
              const std::vector<std::string> &Wanted,
              std::set<std::string> &Warned, Profile &P) {
  for (auto &[Name, V] : Rec.Metrics)
    if (const CatalogMetric *CM = C.find(Name))
      V.Unit = CM->Unit;
  for (const std::string &M : Wanted) {
    const CatalogMetric *CM = C.find(M);
    if (!CM || CM->Source != MetricSource::Derived || Rec.find(M))
      continue;
    Expected<double> V = evaluateFormula(
        CM->Formula, [&](StringRef In) -> std::optional<double> {
          if (const MetricValue *X = Rec.find(In.str()))
            return X->Value;
          return std::nullopt;
        });
    if (V) {
      Rec.set(M, *V, CM->Unit);
    } else {
      std::string Msg = toString(V.takeError());
      if (Warned.insert(M).second)
        P.Warnings.push_back("metric '" + M + "' not computed: " + Msg);
    }
  }
}

/// The profile the injection library wrote at \p Path; std::nullopt when it
/// wrote none (the program never initialised CUDA).
Expected<std::optional<Profile>> readRawProfile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  Profile P;
  std::string Err;
  if (!parseProfileJSON((*Buf)->getBuffer().str(), P, Err))
    return createStringError("the injection library wrote a bad profile: %s",
                             Err.c_str());
  return P;
}

Error writeFile(StringRef Path, StringRef Text) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError("cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  OS << Text;
  OS.close();
  if (OS.has_error())
    return createStringError("cannot write '%s': %s", Path.str().c_str(),
                             OS.error().message().c_str());
  return Error::success();
}

/// A temporary directory removed with everything in it when it goes.
class ScratchDir {
public:
  static Expected<ScratchDir> create() {
    ScratchDir D;
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("clang-autoprof", D.Path))
      return createStringError("cannot create a temporary directory: %s",
                               EC.message().c_str());
    return D;
  }
  ScratchDir(ScratchDir &&Other) : Path(std::move(Other.Path)) {
    Other.Path.clear();
  }
  ~ScratchDir() {
    if (Path.empty())
      return;
    std::error_code EC;
    for (sys::fs::directory_iterator It(Path, EC), End; It != End && !EC;
         It.increment(EC))
      sys::fs::remove(It->path());
    sys::fs::remove(Path);
  }
  std::string file(const Twine &Name) const {
    SmallString<128> P(Path);
    sys::path::append(P, Name);
    return std::string(P);
  }

private:
  ScratchDir() = default;
  SmallString<128> Path;
};

/// One run of the program with the injection library.
struct OneRun {
  verify::ChildResult Result;
  Profile Raw;
};

Expected<OneRun> runOnce(const ProfileRequest &R, const MetricClasses &Classes,
                         verify::CommandRunner &Runner, const ScratchDir &Dir,
                         unsigned Run,
                         const std::map<std::string, ProfileRecord> *Second) {
  std::string Cfg = Dir.file("config" + Twine(Run) + ".json");
  std::string Out = Dir.file("raw" + Twine(Run) + ".json");
  if (Error E = writeFile(Cfg, agentConfig(R, Classes, Out, Run, Second)))
    return std::move(E);
  verify::ChildOptions CO;
  CO.Argv = R.Program;
  CO.Env = R.Env;
  CO.Env["CUDA_INJECTION64_PATH"] = R.InjectionLibrary;
  CO.Env["AUTOPROF_PROFILE_CONFIG"] = Cfg;
  CO.Timeout = R.Timeout;
  CO.Quiet = Run > 1;
  if (!CO.Quiet)
    CO.OutputFile = R.OutputFile;
  CO.NewProcessGroup = R.NewProcessGroup;
  CO.DeviceLock = R.DeviceLock;
  CO.Phase = "profile";
  Expected<verify::ChildResult> Res = Runner.run(CO);
  if (!Res)
    return Res.takeError();
  OneRun O;
  O.Result = *Res;
  Expected<std::optional<Profile>> P = readRawProfile(Out);
  if (!P)
    return P.takeError();
  if (*P) {
    O.Raw = std::move(**P);
  } else {
    O.Raw.Warnings.push_back("the program never initialised CUDA: nothing "
                             "was profiled");
  }
  return O;
}

/// Kernels routed on their stage-1 samples whose leaf was never collected
/// (they launched only once), with those samples, by mangled name.
std::map<std::string, ProfileRecord> needSecondRun(const ProfileRequest &R,
                                                   const Profile &P) {
  std::map<std::string, ProfileRecord> Need;
  if (R.fixedMetrics())
    return Need;
  std::set<std::string> HaveLeaf;
  for (const ProfileRecord &Rec : P.Records)
    if (Rec.Stage != "stage1")
      HaveLeaf.insert(Rec.MangledName);
  for (const ProfileRecord &Rec : P.Records) {
    if (Rec.Stage != "stage1" || HaveLeaf.count(Rec.MangledName) ||
        Rec.Leaf.empty() || Need.count(Rec.MangledName))
      continue;
    ProfileRecord Samples = Rec;
    Samples.Metrics.clear();
    for (const std::string &M : R.Tree.Stage1)
      if (const MetricValue *V = Rec.find(M))
        Samples.set(M, V->Value, V->Unit);
    Need.emplace(Rec.MangledName, Samples);
  }
  return Need;
}

/// Units, derived metrics and the warnings about what the profile lacks.
void finish(const ProfileRequest &R, const MetricCatalog &C,
            const MetricClasses &Classes, Profile &P) {
  std::set<std::string> Warned;
  std::vector<std::string> Uncollected;
  for (ProfileRecord &Rec : P.Records) {
    std::vector<std::string> Wanted = wantedMetrics(R, Rec);
    for (const std::string &M : Wanted)
      if (Classes.Sass.count(M) && Warned.insert(M).second)
        Uncollected.push_back(M);
    complete(Rec, C, Wanted, Warned, P);
  }
  if (!Uncollected.empty())
    P.Warnings.insert(P.Warnings.begin(),
                      std::to_string(Uncollected.size()) +
                          " metric(s) not collected: they need the SASS "
                          "metrics API, which 'profile' does not drive yet: " +
                          join(Uncollected, ", "));
  // Selected kernels the sources showed that never launched.
  std::set<std::string> Launched;
  for (const ProfileRecord &Rec : P.Records)
    Launched.insert(Rec.MangledName);
  for (const StaticKernel &K : R.Kernels)
    if (!Launched.count(K.MangledName))
      P.Warnings.push_back(
          "kernel '" + K.QualifiedName + "' was selected but never " +
          (R.LaunchSkip
               ? "launched more than " + std::to_string(R.LaunchSkip) + " times"
               : std::string("launched")));
  if (P.Records.empty() && R.Kernels.empty() && !R.KernelRegex.empty())
    P.Warnings.push_back("no kernel launch matched --kernel='" + R.KernelRegex +
                         "'");
}

} // namespace

Expected<MetricClasses>
autoprof::profiling::classifyMetrics(const ProfileRequest &R,
                                     const MetricCatalog &C) {
  MetricClasses Classes;
  if (R.fixedMetrics()) {
    for (const std::string &M : R.Metrics)
      classify(C, M, Classes);
    Error All = Error::success();
    for (const std::string &M : Classes.Sass)
      add(All, createStringError("metric '" + M +
                                 "' needs the SASS metrics API, which "
                                 "'profile' does not collect yet"));
    for (const std::string &M : R.Metrics)
      if (StringRef(M).starts_with("launch__") && !C.find(M))
        add(All, createStringError("metric '" + M +
                                   "' is not a launch attribute of the "
                                   "catalog"));
    if (All)
      return std::move(All);
  } else {
    std::vector<std::string> Every = R.Tree.Stage1;
    for (const TreeNode &N : R.Tree.Nodes)
      Every.insert(Every.end(), N.Metrics.begin(), N.Metrics.end());
    for (const std::string &M : Every)
      classify(C, M, Classes);
  }
  llvm::sort(Classes.Range);
  Classes.Range.erase(std::unique(Classes.Range.begin(), Classes.Range.end()),
                      Classes.Range.end());
  return Classes;
}

Error autoprof::profiling::checkDevice(const ProfileRequest &R,
                                       const MetricClasses &Classes,
                                       ArrayRef<std::string> Chips,
                                       PassCounter &Host) {
  std::set<std::string> ChipSet(Chips.begin(), Chips.end());
  if (!R.fixedMetrics())
    for (const std::string &Chip : ChipSet)
      if (!is_contained(R.Tree.Chips, Chip))
        return createStringError("tree '" + R.Tree.Name + "' is for " +
                                 join(R.Tree.Chips, ", ") +
                                 "; this machine's GPU is " + Chip);
  Error All = Error::success();
  for (const std::string &Chip : ChipSet) {
    if (!Classes.Range.empty()) {
      Expected<unsigned> Passes = Host.passCount(Chip, Classes.Range);
      if (Passes)
        continue;
      consumeError(Passes.takeError());
    }
    for (const std::string &M : Classes.Range)
      if (!Host.isValid(Chip, M))
        add(All,
            createStringError("metric '" + M + "' is not valid on " + Chip));
  }
  return All;
}

std::vector<std::string>
autoprof::profiling::wantedMetrics(const ProfileRequest &R,
                                   const ProfileRecord &Rec) {
  if (R.fixedMetrics())
    return R.Metrics;
  const TreeNode *Leaf =
      Rec.Stage == "stage1" ? nullptr : R.Tree.find(Rec.Leaf);
  return shownMetricNames(R.Tree, Leaf, /*WithStage1=*/Rec.Stage != "leaf");
}

Expected<ProfileRun> autoprof::profiling::profileProgram(
    const ProfileRequest &R, const MetricCatalog &C,
    const MetricClasses &Classes, verify::CommandRunner &Runner,
    raw_ostream &Log) {
  if (R.Program.empty())
    return createStringError("no program to profile");
  Expected<ScratchDir> Dir = ScratchDir::create();
  if (!Dir)
    return Dir.takeError();
  Expected<OneRun> First = runOnce(R, Classes, Runner, *Dir, 1, nullptr);
  if (!First)
    return First.takeError();
  ProfileRun Out;
  Out.First = First->Result;
  Out.P = std::move(First->Raw);
  if (!R.fixedMetrics())
    Out.P.Tree = R.Tree.Name;

  std::map<std::string, ProfileRecord> Need = needSecondRun(R, Out.P);
  if (!Need.empty()) {
    if (Out.First.Status != 0 || Out.First.TimedOut || Out.First.Interrupted) {
      Out.P.Warnings.push_back(
          std::to_string(Need.size()) +
          " kernel(s) have only their stage-1 samples: the program failed "
          "before their leaf's metrics were collected, so no second run was "
          "made");
    } else {
      Log << "clang-autoprof: " << Need.size()
          << " kernel(s) launched once: running the program a second time "
             "(output discarded) for their leaf's metrics\n";
      Expected<OneRun> Second = runOnce(R, Classes, Runner, *Dir, 2, &Need);
      if (!Second)
        return Second.takeError();
      Out.Runs = 2;
      for (ProfileRecord &Rec : Second->Raw.Records)
        Out.P.Records.push_back(std::move(Rec));
      for (std::string &E : Second->Raw.Errors)
        Out.P.Errors.push_back("second run: " + E);
      if (Second->Result.Status != 0)
        Out.P.Warnings.push_back(
            "the second run of the program exited with status " +
            std::to_string(Second->Result.Status));
    }
  }
  finish(R, C, Classes, Out.P);
  return Out;
}
