//===- ProfileProgramTest.cpp - Tests of profileProgram() -----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// A fake program stands in for the user's program and the injection
// library: it reads the configuration the tool wrote, the way the library
// does, and writes the raw profile the test asks for.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ProfileProgram.h"

#include "AgentConfig.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <functional>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

std::string modelsFile(StringRef Name) {
  return std::string(AUTOPROF_TEST_TREE_MODELS) + "/" + Name.str();
}

const MetricCatalog &catalog() {
  static MetricCatalog C = [] {
    Expected<MetricCatalog> C =
        MetricCatalog::load(modelsFile("metric-catalog.json"));
    if (!C) {
      ADD_FAILURE() << toString(C.takeError());
      return MetricCatalog();
    }
    return std::move(*C);
  }();
  return C;
}

/// What one run of the fake program writes: the records, given the
/// configuration the tool wrote; std::nullopt writes no profile (the program
/// never initialised CUDA).
using Behaviour =
    std::function<std::optional<Profile>(const inject::AgentConfig &)>;

/// Runs the fake program: one behaviour and one exit status per run.
class FakeProgram : public verify::CommandRunner {
public:
  std::vector<Behaviour> Runs;
  std::vector<int> Status;
  std::vector<verify::ChildOptions> Seen;
  std::vector<inject::AgentConfig> Configs;
  /// Written instead of a profile, when set.
  std::string Garbage;

  Expected<verify::ChildResult> run(const verify::ChildOptions &O) override {
    Seen.push_back(O);
    unsigned N = Seen.size() - 1;
    inject::AgentConfig C;
    std::string Error;
    if (!inject::loadAgentConfig(O.Env.at("AUTOPROF_PROFILE_CONFIG"), C,
                                 Error)) {
      ADD_FAILURE() << Error;
      return createStringError("bad config");
    }
    std::optional<Profile> P =
        N < Runs.size() ? Runs[N](C) : std::optional<Profile>();
    if (P || !Garbage.empty()) {
      std::error_code EC;
      raw_fd_ostream OS(C.Output, EC);
      OS << (Garbage.empty() ? writeProfileJSON(*P) : Garbage);
    }
    Configs.push_back(std::move(C));
    verify::ChildResult R;
    R.Status = N < Status.size() ? Status[N] : 0;
    return R;
  }
};

ProfileRecord record(StringRef Mangled, StringRef Stage, StringRef Leaf = "") {
  ProfileRecord R;
  R.Kernel = Mangled.str();
  R.MangledName = Mangled.str();
  R.Stage = Stage.str();
  R.Leaf = Leaf.str();
  R.Passes = 1;
  return R;
}

ProfileRequest fixedRequest(std::vector<std::string> Metrics) {
  ProfileRequest R;
  R.Program = {"./app", "--size", "1024"};
  R.Metrics = std::move(Metrics);
  R.InjectionLibrary = "/opt/autoprof/lib/libautoprof-inject.so";
  return R;
}

ProfileRequest treeRequest() {
  ProfileRequest R;
  R.Program = {"./app"};
  R.TreePath = modelsFile("default.json");
  std::vector<TreeProblem> Problems;
  auto Buf = MemoryBuffer::getFile(R.TreePath);
  EXPECT_TRUE(Buf);
  EXPECT_TRUE(parseTree((*Buf)->getBuffer().str(), R.Tree, Problems));
  R.InjectionLibrary = "/opt/autoprof/lib/libautoprof-inject.so";
  return R;
}

TEST(ProfileProgramTest, AFixedListCollectsDerivedInputsAndComputesThem) {
  ProfileRequest R = fixedRequest(
      {"derived__shared_bank_conflict_pct", "gpu__time_duration.sum"});
  R.Env["AUTOPROF_SEED"] = "7";
  R.OutputFile = "/tmp/profile.log";
  R.DeviceLock = "/tmp/device.lock";
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_TRUE(bool(Classes)) << toString(Classes.takeError());
  EXPECT_EQ(Classes->Range.size(), 5u);
  EXPECT_TRUE(std::is_sorted(Classes->Range.begin(), Classes->Range.end()));
  EXPECT_EQ(Classes->Derived.count("derived__shared_bank_conflict_pct"), 1u);

  FakeProgram F;
  F.Runs.push_back([](const inject::AgentConfig &C) -> std::optional<Profile> {
    Profile P;
    ProfileRecord Rec = record("_Z4tilePf", "metrics");
    // Every range metric is asked for, the derived one's inputs included.
    for (const std::string &M : C.Metrics)
      if (StringRef(M).starts_with("l1tex__") || M == "gpu__time_duration.sum")
        Rec.set(M, StringRef(M).contains("bank_conflicts") ? 25 : 75, "");
    P.Records.push_back(Rec);
    return P;
  });
  std::string Log;
  raw_string_ostream LogOS(Log);
  Expected<ProfileRun> Run = profileProgram(R, catalog(), *Classes, F, LogOS);
  ASSERT_TRUE(bool(Run)) << toString(Run.takeError());
  ASSERT_EQ(F.Seen.size(), 1u);
  EXPECT_EQ(Run->Runs, 1u);
  const verify::ChildOptions &O = F.Seen[0];
  EXPECT_EQ(O.Argv, R.Program);
  EXPECT_EQ(O.Env.at("CUDA_INJECTION64_PATH"), R.InjectionLibrary);
  EXPECT_EQ(O.Env.at("AUTOPROF_SEED"), "7");
  EXPECT_EQ(O.OutputFile, "/tmp/profile.log");
  EXPECT_EQ(O.DeviceLock, "/tmp/device.lock");
  EXPECT_EQ(O.Phase, "profile");
  EXPECT_FALSE(O.Quiet);
  EXPECT_EQ(F.Configs[0].Metrics.size(), 6u);
  EXPECT_FALSE(F.Configs[0].Tree);
  EXPECT_FALSE(F.Configs[0].FlushCaches);

  ASSERT_EQ(Run->P.Records.size(), 1u);
  const ProfileRecord &Rec = Run->P.Records[0];
  const MetricValue *D = Rec.find("derived__shared_bank_conflict_pct");
  ASSERT_TRUE(D);
  // 100 * (25 + 25) / (75 + 75): conflicts over wavefronts.
  EXPECT_DOUBLE_EQ(D->Value, 100.0 * 50 / 150);
  EXPECT_EQ(D->Unit, "percent");
  EXPECT_EQ(Rec.find("gpu__time_duration.sum")->Unit, "nsecond");
  EXPECT_TRUE(Run->P.Warnings.empty());
  EXPECT_TRUE(Log.empty());
  // The temporary directory is gone.
  EXPECT_FALSE(sys::fs::exists(F.Configs[0].Output));
}

TEST(ProfileProgramTest, BadFixedListsAreOneErrorPerMetric) {
  ProfileRequest R =
      fixedRequest({"smsp__sass_inst_executed.sum", "launch__no_such_attribute",
                    "gpu__time_duration.sum"});
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_FALSE(bool(Classes));
  std::vector<std::string> Lines;
  handleAllErrors(Classes.takeError(), [&](const ErrorInfoBase &E) {
    Lines.push_back(E.message());
  });
  ASSERT_EQ(Lines.size(), 2u);
  EXPECT_EQ(Lines[0], "metric 'smsp__sass_inst_executed.sum' needs the SASS "
                      "metrics API, which 'profile' does not collect yet");
  EXPECT_EQ(Lines[1], "metric 'launch__no_such_attribute' is not a launch "
                      "attribute of the catalog");
}

TEST(ProfileProgramTest, AKernelThatLaunchedOnceIsProfiledInASecondRun) {
  ProfileRequest R = treeRequest();
  R.FlushCaches = true;
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_TRUE(bool(Classes)) << toString(Classes.takeError());
  FakeProgram F;
  F.Runs.push_back([&](const inject::AgentConfig &C) -> std::optional<Profile> {
    EXPECT_TRUE(C.Tree);
    EXPECT_TRUE(C.SecondRun.empty());
    Profile P;
    ProfileRecord Once = record("_Z4oncePf", "stage1", "uncoalesced");
    for (const std::string &M : R.Tree.Stage1)
      Once.set(M, 42, "");
    P.Records.push_back(Once);
    // This one launched again and has its leaf: no second run for it.
    P.Records.push_back(record("_Z5twicePf", "stage1", "memory"));
    P.Records.push_back(record("_Z5twicePf", "leaf", "memory"));
    return P;
  });
  F.Runs.push_back([](const inject::AgentConfig &C) -> std::optional<Profile> {
    EXPECT_EQ(C.Run, 2u);
    EXPECT_EQ(C.SecondRun.size(), 1u);
    EXPECT_EQ(C.SecondRun.count("_Z4oncePf"), 1u);
    EXPECT_EQ(C.SecondRun.at("_Z4oncePf").Samples.size(), 3u);
    Profile P;
    ProfileRecord Leaf = record("_Z4oncePf", "leaf", "uncoalesced");
    Leaf.Run = 2;
    P.Records.push_back(Leaf);
    P.Errors.push_back("a launch failed");
    return P;
  });
  F.Status = {0, 5};
  std::string Log;
  raw_string_ostream LogOS(Log);
  Expected<ProfileRun> Run = profileProgram(R, catalog(), *Classes, F, LogOS);
  ASSERT_TRUE(bool(Run)) << toString(Run.takeError());
  EXPECT_EQ(Run->Runs, 2u);
  ASSERT_EQ(F.Seen.size(), 2u);
  EXPECT_TRUE(F.Seen[1].Quiet);
  // Both runs flush the cache as asked.
  EXPECT_TRUE(F.Configs[0].FlushCaches);
  EXPECT_TRUE(F.Configs[1].FlushCaches);
  EXPECT_EQ(Run->P.Tree, R.Tree.Name);
  ASSERT_EQ(Run->P.Records.size(), 4u);
  EXPECT_EQ(Run->P.Records[3].Run, 2u);
  EXPECT_EQ(Run->P.Errors,
            std::vector<std::string>{"second run: a launch failed"});
  ASSERT_EQ(Run->P.Warnings.size(), 1u);
  EXPECT_EQ(Run->P.Warnings[0],
            "the second run of the program exited with status 5");
  EXPECT_NE(Log.find("1 kernel(s) launched once: running the program a "
                     "second time"),
            std::string::npos);
}

TEST(ProfileProgramTest, NoSecondRunAfterTheProgramFailed) {
  ProfileRequest R = treeRequest();
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_TRUE(bool(Classes));
  FakeProgram F;
  F.Runs.push_back([](const inject::AgentConfig &) -> std::optional<Profile> {
    Profile P;
    P.Records.push_back(record("_Z4oncePf", "stage1", "uncoalesced"));
    return P;
  });
  F.Status = {3};
  std::string Log;
  raw_string_ostream LogOS(Log);
  Expected<ProfileRun> Run = profileProgram(R, catalog(), *Classes, F, LogOS);
  ASSERT_TRUE(bool(Run));
  EXPECT_EQ(F.Seen.size(), 1u);
  EXPECT_EQ(Run->First.Status, 3);
  ASSERT_EQ(Run->P.Warnings.size(), 1u);
  EXPECT_NE(Run->P.Warnings[0].find("only their stage-1 samples"),
            std::string::npos);
}

TEST(ProfileProgramTest, KernelsThatNeverLaunchedAreNamed) {
  ProfileRequest R = fixedRequest({"gpu__time_duration.sum"});
  R.LaunchSkip = 2;
  R.Kernels.push_back({"tile", "ns::tile", "_ZN2ns4tileEPf", {}});
  R.Kernels.push_back({"other", "other", "_Z5otherv", {{"loops", 1.0}}});
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_TRUE(bool(Classes));
  FakeProgram F;
  F.Runs.push_back([](const inject::AgentConfig &C) -> std::optional<Profile> {
    // The static features travel to the injection library.
    EXPECT_EQ(C.Features.size(), 2u);
    EXPECT_EQ(C.Features.at("_Z5otherv").get("loops"), 1.0);
    Profile P;
    P.Records.push_back(record("_Z5otherv", "metrics"));
    return P;
  });
  std::string Log;
  raw_string_ostream LogOS(Log);
  Expected<ProfileRun> Run = profileProgram(R, catalog(), *Classes, F, LogOS);
  ASSERT_TRUE(bool(Run));
  EXPECT_EQ(Run->P.Warnings,
            std::vector<std::string>{"kernel 'ns::tile' was selected but "
                                     "never launched more than 2 times"});
}

TEST(ProfileProgramTest, NoProfileMeansCUDANeverStarted) {
  ProfileRequest R = fixedRequest({"gpu__time_duration.sum"});
  R.KernelRegex = "^nothing$";
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_TRUE(bool(Classes));
  FakeProgram F;
  std::string Log;
  raw_string_ostream LogOS(Log);
  Expected<ProfileRun> Run = profileProgram(R, catalog(), *Classes, F, LogOS);
  ASSERT_TRUE(bool(Run));
  EXPECT_EQ(Run->P.Warnings,
            (std::vector<std::string>{
                "the program never initialised CUDA: nothing was profiled",
                "no kernel launch matched --kernel='^nothing$'"}));
}

TEST(ProfileProgramTest, ABadRawProfileIsOneLine) {
  ProfileRequest R = fixedRequest({"gpu__time_duration.sum"});
  Expected<MetricClasses> Classes = classifyMetrics(R, catalog());
  ASSERT_TRUE(bool(Classes));
  FakeProgram F;
  F.Garbage = "{\"version\": 1, \"records\": [\x01";
  std::string Log;
  raw_string_ostream LogOS(Log);
  Expected<ProfileRun> Run = profileProgram(R, catalog(), *Classes, F, LogOS);
  ASSERT_FALSE(bool(Run));
  std::string Msg = toString(Run.takeError());
  EXPECT_EQ(Msg.rfind("the injection library wrote a bad profile: ", 0), 0u)
      << Msg;
  EXPECT_EQ(Msg.find('\n'), std::string::npos);
  EXPECT_EQ(Msg.find('\x01'), std::string::npos);
}

/// Knows one metric to be invalid everywhere.
class FakeHost : public PassCounter {
public:
  Expected<unsigned> passCount(const std::string &,
                               const std::vector<std::string> &M) override {
    for (const std::string &Name : M)
      if (Name == "bad.sum")
        return createStringError("invalid");
    return 1u;
  }
  bool isValid(const std::string &, const std::string &M) override {
    return M != "bad.sum";
  }
};

TEST(ProfileProgramTest, TheDeviceIsCheckedBeforeTheProgramRuns) {
  FakeHost Host;
  ProfileRequest T = treeRequest();
  Expected<MetricClasses> Classes = classifyMetrics(T, catalog());
  ASSERT_TRUE(bool(Classes));
  EXPECT_FALSE(bool(checkDevice(T, *Classes, {"GH100"}, Host)));
  Error E = checkDevice(T, *Classes, {"GH100", "GB100"}, Host);
  ASSERT_TRUE(bool(E));
  EXPECT_EQ(toString(std::move(E)), "tree '" + T.Tree.Name +
                                        "' is for GH100; this machine's "
                                        "GPU is GB100");

  ProfileRequest F = fixedRequest({"bad.sum", "gpu__time_duration.sum"});
  Expected<MetricClasses> FC = classifyMetrics(F, catalog());
  ASSERT_TRUE(bool(FC));
  Error Bad = checkDevice(F, *FC, {"GH100"}, Host);
  ASSERT_TRUE(bool(Bad));
  EXPECT_EQ(toString(std::move(Bad)), "metric 'bad.sum' is not valid on GH100");
}

} // namespace
