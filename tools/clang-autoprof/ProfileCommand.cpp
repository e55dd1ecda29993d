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

#include "AgentConfig.h"
#include "Commands.h"
#include "autoprof/JSON/BoundedParse.h"
#include "autoprof/Verify/ChildProcess.h"

#include "autoprof/Metrics/DerivedMetrics.h"
#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Metrics/TreeBudget.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Tree/Plan.h"
#include "autoprof/Tree/ProfilingTree.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <map>
#include <regex>
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

/// A kernel the sources or the plan showed.
struct StaticKernel {
  std::string Name;
  std::string QualifiedName;
  std::string MangledName;
  std::map<std::string, std::optional<double>> Features;
};

struct Request {
  std::vector<std::string> Program;
  std::optional<std::vector<std::string>> CompilerArgs;
  bool FixedMetrics = false;
  std::vector<std::string> Metrics;
  std::string TreePath;
  ProfilingTree Tree;
  std::vector<StaticKernel> Kernels;
};

/// Splits the arguments after the first `--`: with sources, a second `--`
/// separates their compiler arguments from the program.
void splitProgram(const ProfileOptions &O, Request &R) {
  if (!ArgsAfterDashDash)
    return;
  const std::vector<std::string> &A = *ArgsAfterDashDash;
  if (!O.Sources.empty()) {
    auto It = std::find(A.begin(), A.end(), "--");
    if (It != A.end()) {
      R.CompilerArgs.emplace(A.begin(), It);
      R.Program.assign(It + 1, A.end());
      return;
    }
  }
  R.Program = A;
}

Error readPlan(StringRef Path, StringRef ModelsDir, Request &R) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read '%s': %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  Plan P;
  std::string Why;
  if (!parsePlanJSON((*Buf)->getBuffer().str(), P, Why))
    return createStringError("%s: %s", Path.str().c_str(), Why.c_str());
  // The tree's file where it still is, else its name.
  std::string Tree =
      !P.TreeFile.empty() && sys::fs::exists(P.TreeFile) ? P.TreeFile : P.Tree;
  if (Tree.empty())
    return createStringError("%s: $.tree: missing, and the tree_file '%s' "
                             "does not exist",
                             Path.str().c_str(),
                             json::printableText(P.TreeFile).c_str());
  Expected<std::string> TreePath = findTree(Tree, ModelsDir);
  if (!TreePath)
    return TreePath.takeError();
  R.TreePath = *TreePath;
  for (PlanKernel &K : P.Kernels) {
    StaticKernel S;
    S.Name = std::move(K.Name);
    S.QualifiedName = std::move(K.QualifiedName);
    S.MangledName = std::move(K.MangledName);
    for (auto &[Name, V] : K.Features)
      S.Features[Name] = V;
    R.Kernels.push_back(std::move(S));
  }
  return Error::success();
}

/// How each requested metric is obtained.
struct MetricClasses {
  /// Collected by the range profiler.
  std::vector<std::string> Range;
  /// Derived metrics, with their formulas' inputs.
  std::map<std::string, std::vector<std::string>> Derived;
  /// Needing the SASS metrics API, which the injection library does not
  /// drive: left out with a warning.
  std::set<std::string> Sass;
};

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

std::string agentConfig(const Request &R, const ProfileOptions &O,
                        const MetricClasses &Classes,
                        const std::string &OutputPath, unsigned Run,
                        const std::map<std::string, ProfileRecord> *Second) {
  inject::AgentRequest A;
  A.Output = OutputPath;
  A.Run = Run;
  A.KernelRegexText = sourceOptions().Kernel;
  A.LaunchSkip = O.LaunchSkip;
  A.LaunchCount = O.LaunchCount;
  if (R.FixedMetrics) {
    A.Metrics = R.Metrics;
    // The inputs of derived metrics.
    for (const std::string &M : Classes.Range)
      if (std::find(R.Metrics.begin(), R.Metrics.end(), M) == R.Metrics.end())
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

/// The metrics a record's kernel asked for: the fixed list, or its stage-1
/// samples and its leaf's metrics.
std::vector<std::string> wantedMetrics(const Request &R,
                                       const ProfileRecord &Rec) {
  if (R.FixedMetrics)
    return R.Metrics;
  std::vector<std::string> W;
  if (Rec.Stage != "leaf")
    W = R.Tree.Stage1;
  if (const TreeNode *L = R.Tree.find(Rec.Leaf))
    if (Rec.Stage != "stage1")
      W.insert(W.end(), L->Metrics.begin(), L->Metrics.end());
  return W;
}

Expected<Profile> readRawProfile(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("no profile");
  Profile P;
  std::string Err;
  if (!parseProfileJSON((*Buf)->getBuffer().str(), P, Err))
    return createStringError("the injection library wrote a bad profile: %s",
                             Err.c_str());
  return P;
}

} // namespace

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
  Request R;
  splitProgram(O, R);
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
  const std::string &KernelRe = sourceOptions().Kernel;
  // The injection library compiles it again with the same syntax.
  if (!KernelRe.empty() && !compileKernelRegex(KernelRe))
    return 1;

  std::string CatalogPath = catalogPath(Argv0, O.Catalog);
  Expected<MetricCatalog> Catalog = MetricCatalog::load(CatalogPath);
  if (!Catalog) {
    reportError(toString(Catalog.takeError()));
    return 1;
  }
  StringRef ModelsDir = sys::path::parent_path(CatalogPath);

  MetricClasses Classes;
  if (!O.Metrics.empty()) {
    R.FixedMetrics = true;
    SmallVector<StringRef> Names;
    StringRef(O.Metrics).split(Names, ',', -1, /*KeepEmpty=*/false);
    for (StringRef N : Names) {
      std::string M = N.trim().str();
      if (std::find(R.Metrics.begin(), R.Metrics.end(), M) == R.Metrics.end())
        R.Metrics.push_back(M);
    }
    if (R.Metrics.empty()) {
      reportError("--metrics names no metric");
      return 1;
    }
    for (const std::string &M : R.Metrics)
      classify(*Catalog, M, Classes);
    if (!Classes.Sass.empty()) {
      for (const std::string &M : Classes.Sass)
        reportError("metric '" + M +
                    "' needs the SASS metrics API, which 'profile' does not "
                    "collect yet");
      return 1;
    }
  } else {
    if (!O.Plan.empty()) {
      if (Error E = readPlan(O.Plan, ModelsDir, R)) {
        reportError(toString(std::move(E)));
        return 1;
      }
    } else {
      Expected<std::string> P = findTree(
          O.Tree.empty() ? std::string(DefaultTreeName) : std::string(O.Tree),
          ModelsDir);
      if (!P) {
        reportError(toString(P.takeError()));
        return 1;
      }
      R.TreePath = *P;
    }
    if (Error E = loadCheckedTree(R.TreePath, R.Tree)) {
      reportError(toString(std::move(E)));
      return 1;
    }
    std::vector<std::string> All = R.Tree.Stage1;
    for (const TreeNode &N : R.Tree.Nodes)
      All.insert(All.end(), N.Metrics.begin(), N.Metrics.end());
    for (const std::string &M : All)
      classify(*Catalog, M, Classes);
  }
  // Each range metric once.
  std::sort(Classes.Range.begin(), Classes.Range.end());
  Classes.Range.erase(std::unique(Classes.Range.begin(), Classes.Range.end()),
                      Classes.Range.end());

  if (!O.Sources.empty()) {
    FeatureReport Report;
    std::vector<std::string> Srcs(O.Sources.begin(), O.Sources.end());
    int Status = extractSources(Report, &Srcs, &R.CompilerArgs);
    if (Status != 0)
      return 1;
    for (const KernelRecord &K : Report.Kernels) {
      if (K.Template == TemplateKind::Primary)
        continue;
      StaticKernel S{K.Name, K.QualifiedName, K.MangledName, {}};
      for (const auto &[Name, V] : K.Features.values())
        S.Features[Name] = V;
      R.Kernels.push_back(std::move(S));
    }
  }

  // The device, and the metrics on its chip, before the program starts.
  Expected<std::unique_ptr<ProfilerHost>> Host = loadProfilerHost();
  if (!Host) {
    reportError(toString(Host.takeError()));
    return 1;
  }
  Expected<std::vector<std::string>> Chips = (*Host)->deviceChips();
  if (!Chips) {
    reportError(toString(Chips.takeError()));
    return 1;
  }
  std::set<std::string> ChipSet(Chips->begin(), Chips->end());
  if (!R.FixedMetrics)
    for (const std::string &Chip : ChipSet)
      if (!llvm::is_contained(R.Tree.Chips, Chip)) {
        reportError("tree '" + R.Tree.Name + "' is for " +
                    join(R.Tree.Chips, ", ") + "; this machine's GPU is " +
                    Chip);
        return 1;
      }
  for (const std::string &Chip : ChipSet) {
    if (!Classes.Range.empty() && (*Host)->passCount(Chip, Classes.Range))
      continue;
    bool Bad = false;
    for (const std::string &M : Classes.Range)
      if (!(*Host)->isValid(Chip, M)) {
        reportError("metric '" + M + "' is not valid on " + Chip);
        Bad = true;
      }
    if (Bad)
      return 1;
  }
  if (R.FixedMetrics)
    for (const std::string &M : R.Metrics)
      if (StringRef(M).starts_with("launch__") && !Catalog->find(M)) {
        reportError("metric '" + M +
                    "' is not a launch attribute of the "
                    "catalog");
        return 1;
      }

  std::string Inject = injectionLibrary(Argv0);
  if (!sys::fs::exists(Inject)) {
    reportError("cannot find the injection library '" + Inject +
                "'; set AUTOPROF_INJECT_LIBRARY");
    return 1;
  }
  SmallString<128> Dir;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("clang-autoprof", Dir)) {
    reportError("cannot create a temporary directory: " + EC.message());
    return 1;
  }
  auto Cleanup = [&]() {
    std::error_code EC;
    for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
         It.increment(EC))
      sys::fs::remove(It->path());
    sys::fs::remove(Dir);
  };

  auto RunOnce = [&](unsigned Run,
                     const std::map<std::string, ProfileRecord> *Second,
                     bool Quiet, ChildResult &Result, Profile &Raw) -> bool {
    SmallString<128> Cfg(Dir), Out(Dir);
    sys::path::append(Cfg, "config" + std::to_string(Run) + ".json");
    sys::path::append(Out, "raw" + std::to_string(Run) + ".json");
    if (Error E = writeOutput(
            Cfg, agentConfig(R, O, Classes, std::string(Out), Run, Second))) {
      reportError(toString(std::move(E)));
      return false;
    }
    ChildOptions CO;
    CO.Argv = R.Program;
    CO.Env["CUDA_INJECTION64_PATH"] = Inject;
    CO.Env["AUTOPROF_PROFILE_CONFIG"] = std::string(Cfg);
    CO.Timeout = O.Timeout;
    CO.Quiet = Quiet;
    Expected<ChildResult> Res = runChild(CO);
    if (!Res) {
      reportError(toString(Res.takeError()));
      return false;
    }
    Result = *Res;
    Expected<Profile> P = readRawProfile(Out);
    if (!P) {
      std::string Msg = toString(P.takeError());
      if (Msg != "no profile") {
        reportError(Msg);
        return false;
      }
      Raw = Profile();
      Raw.Warnings.push_back("the program never initialised CUDA: nothing "
                             "was profiled");
      return true;
    }
    Raw = std::move(*P);
    return true;
  };

  ChildResult First;
  Profile Final;
  if (!RunOnce(1, nullptr, false, First, Final)) {
    Cleanup();
    return 1;
  }
  if (!R.FixedMetrics)
    Final.Tree = R.Tree.Name;

  // Kernels routed on their stage-1 samples that never launched again.
  std::map<std::string, ProfileRecord> NeedSecond;
  if (!R.FixedMetrics) {
    std::set<std::string> HaveLeaf;
    for (const ProfileRecord &Rec : Final.Records)
      if (Rec.Stage != "stage1")
        HaveLeaf.insert(Rec.MangledName);
    for (const ProfileRecord &Rec : Final.Records)
      if (Rec.Stage == "stage1" && !HaveLeaf.count(Rec.MangledName) &&
          !Rec.Leaf.empty() && !NeedSecond.count(Rec.MangledName)) {
        ProfileRecord Samples = Rec;
        Samples.Metrics.clear();
        for (const std::string &M : R.Tree.Stage1)
          if (const MetricValue *V = Rec.find(M))
            Samples.set(M, V->Value, V->Unit);
        NeedSecond.emplace(Rec.MangledName, Samples);
      }
  }
  if (!NeedSecond.empty()) {
    if (First.Status != 0 || First.TimedOut) {
      Final.Warnings.push_back(
          std::to_string(NeedSecond.size()) +
          " kernel(s) have only their stage-1 samples: the program failed "
          "before their leaf's metrics were collected, so no second run was "
          "made");
    } else {
      errs() << "clang-autoprof: " << NeedSecond.size()
             << " kernel(s) launched once: running the program a second time "
                "(output discarded) for their leaf's metrics\n";
      ChildResult SecondResult;
      Profile Second;
      if (RunOnce(2, &NeedSecond, true, SecondResult, Second)) {
        for (ProfileRecord &Rec : Second.Records)
          Final.Records.push_back(std::move(Rec));
        for (std::string &E : Second.Errors)
          Final.Errors.push_back("second run: " + E);
        if (SecondResult.Status != 0)
          Final.Warnings.push_back(
              "the second run of the program exited with status " +
              std::to_string(SecondResult.Status));
      }
    }
  }
  Cleanup();

  std::set<std::string> Warned;
  std::vector<std::string> Uncollected;
  for (ProfileRecord &Rec : Final.Records) {
    std::vector<std::string> Wanted = wantedMetrics(R, Rec);
    for (const std::string &M : Wanted)
      if (Classes.Sass.count(M) && Warned.insert(M).second)
        Uncollected.push_back(M);
    complete(Rec, *Catalog, Wanted, Warned, Final);
  }
  if (!Uncollected.empty())
    Final.Warnings.insert(Final.Warnings.begin(),
                          std::to_string(Uncollected.size()) +
                              " metric(s) not collected: they need the SASS "
                              "metrics API, which 'profile' does not drive "
                              "yet: " +
                              join(Uncollected, ", "));
  // Selected kernels the sources showed that never launched.
  std::set<std::string> Launched;
  for (const ProfileRecord &Rec : Final.Records)
    Launched.insert(Rec.MangledName);
  for (const StaticKernel &K : R.Kernels)
    if (!Launched.count(K.MangledName))
      Final.Warnings.push_back(
          "kernel '" + K.QualifiedName + "' was selected but never " +
          (O.LaunchSkip ? "launched more than " +
                              std::to_string(O.LaunchSkip.getValue()) + " times"
                        : std::string("launched")));
  if (Final.Records.empty() && R.Kernels.empty() && !KernelRe.empty())
    Final.Warnings.push_back("no kernel launch matched --kernel='" + KernelRe +
                             "'");

  if (Error E = writeOutput(O.Output, writeProfileJSON(Final))) {
    reportError(toString(std::move(E)));
    return 1;
  }
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
