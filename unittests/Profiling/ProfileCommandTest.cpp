//===- ProfileCommandTest.cpp - Tests of runProfileCommand() --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
//
// `profile` as a library call: options refused before anything runs, and
// whole runs of a fake program that stands in for the user's program and
// the injection library (it reads the configuration the tool wrote and
// writes a raw profile), ending as the program ends.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ProfileCommand.h"

#include "AgentConfig.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <optional>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

namespace {

/// One run: writes a record of one launch of `_Z3addPf` with every metric
/// asked for, then ends as told.
class OneLaunch : public verify::CommandRunner {
public:
  int Status = 0;
  bool TimedOut = false;
  unsigned Runs = 0;
  /// Called as each run starts.
  std::function<void()> OnRun;

  Expected<verify::ChildResult> run(const verify::ChildOptions &O) override {
    ++Runs;
    if (OnRun)
      OnRun();
    inject::AgentConfig C;
    std::string Error;
    if (!inject::loadAgentConfig(O.Env.at("AUTOPROF_PROFILE_CONFIG"), C, Error))
      return createStringError(Error);
    Profile P;
    ProfileRecord Rec;
    Rec.Kernel = Rec.MangledName = "_Z3addPf";
    Rec.Stage = "metrics";
    Rec.Passes = 2;
    for (const std::string &M : C.Metrics)
      Rec.set(M, 1000, "");
    P.Records.push_back(Rec);
    std::error_code EC;
    raw_fd_ostream OS(C.Output, EC);
    OS << writeProfileJSON(P);
    verify::ChildResult R;
    R.Status = Status;
    R.TimedOut = TimedOut;
    return R;
  }
};

class ProfileCommandTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(sys::fs::createTemporaryFile("inject", "so", Library));
    O.Program = {"./add", "--n", "64"};
    O.Metrics = "gpu__time_duration.sum,dram__bytes_read.sum";
    O.CatalogPath =
        std::string(AUTOPROF_TEST_TREE_MODELS) + "/metric-catalog.json";
    O.InjectionLibrary = std::string(Library);
    O.Output = "out.json";
    H.Write = [this](StringRef Path, StringRef Text) {
      Written[Path.str()] = Text.str();
      return Error::success();
    };
    H.Error = [this](const std::string &E) { Errors.push_back(E); };
    H.Warning = [this](const std::string &W) { Warnings.push_back(W); };
  }
  void TearDown() override { sys::fs::remove(Library); }

  int run() {
    raw_string_ostream OS(Log);
    return runProfileCommand(O, H, Program, OS);
  }

  SmallString<128> Library;
  ProfileCommandOptions O;
  ProfileCommandHooks H;
  OneLaunch Program;
  std::map<std::string, std::string> Written;
  std::vector<std::string> Errors, Warnings;
  std::string Log;
};

TEST_F(ProfileCommandTest, OptionsThatCannotRunAreRefusedFirst) {
  struct Case {
    std::function<void(ProfileCommandOptions &)> Change;
    std::string Error;
  } Cases[] = {
      {[](auto &O) { O.Output.clear(); }, "no output file"},
      {[](auto &O) { O.Program.clear(); }, "no program to profile"},
      {[](auto &O) { O.LaunchCount = 0; }, "--launch-count must be at least 1"},
      {[](auto &O) { O.Tree = "default"; }, "--metrics collects a fixed list"},
      {[](auto &O) {
         O.Metrics.clear();
         O.Plan = "plan.json";
         O.Sources = {"add.cu"};
       },
       "--plan gives the tree and the kernels"},
      {[](auto &O) { O.KernelRegex = "add("; },
       "invalid --kernel regular expression 'add('"},
      {[](auto &O) { O.Metrics = " , "; }, "--metrics names no metric"},
      {[](auto &O) { O.InjectionLibrary = "/nonexistent/libinject.so"; },
       "cannot find the injection library '/nonexistent/libinject.so'"},
  };
  for (const Case &C : Cases) {
    ProfileCommandOptions Saved = O;
    Errors.clear();
    C.Change(O);
    EXPECT_EQ(run(), 1) << C.Error;
    ASSERT_EQ(Errors.size(), 1u) << C.Error;
    EXPECT_NE(Errors[0].find(C.Error), std::string::npos) << Errors[0];
    O = Saved;
  }
  EXPECT_EQ(Program.Runs, 0u);
  EXPECT_TRUE(Written.empty());
}

TEST_F(ProfileCommandTest, TheDeviceAndTheSourcesAreCheckedBeforeTheRun) {
  H.CheckDevice = [](const ProfileRequest &, const MetricClasses &) {
    return createStringError("no CUDA device answers");
  };
  EXPECT_EQ(run(), 1);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0], "no CUDA device answers");

  // Sources that fail were reported by whoever read them.
  Errors.clear();
  H.CheckDevice = nullptr;
  O.Sources = {"add.cu"};
  H.SourceKernels = [](std::vector<StaticKernel> &) { return false; };
  EXPECT_EQ(run(), 1);
  EXPECT_TRUE(Errors.empty());
  EXPECT_EQ(Program.Runs, 0u);
}

TEST_F(ProfileCommandTest, TheProfileIsWrittenAndTheStatusIsTheProgramsOwn) {
  Program.Status = 3;
  EXPECT_EQ(run(), 3);
  EXPECT_EQ(Program.Runs, 1u);
  ASSERT_TRUE(Written.count("out.json"));
  Profile P;
  std::string Error;
  ASSERT_TRUE(parseProfileJSON(Written["out.json"], P, Error)) << Error;
  ASSERT_EQ(P.Records.size(), 1u);
  EXPECT_TRUE(P.Records[0].find("dram__bytes_read.sum"));
  EXPECT_NE(Log.find("1 launch(es) of 1 kernel(s) profiled in 2 pass(es); "
                     "wrote out.json"),
            std::string::npos)
      << Log;
  EXPECT_TRUE(Errors.empty());

  Program.Status = 0;
  Written.clear();
  EXPECT_EQ(run(), 0);
  EXPECT_TRUE(Written.count("out.json"));
}

TEST_F(ProfileCommandTest, AProgramPastItsTimeoutEndsWith124) {
  Program.TimedOut = true;
  Program.Status = -1;
  O.Timeout = 5;
  EXPECT_EQ(run(), 124);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_EQ(Errors[0], "the program ran past --timeout=5 s and was stopped; "
                       "the records collected so far are in out.json");
  EXPECT_TRUE(Written.count("out.json"));
}

/// NVML as a test sees it: which GPUs are locked, and a GPU that refuses.
struct FakeClocks {
  unsigned Count = 2;
  std::set<unsigned> Locked;
  std::optional<unsigned> Refuses;
  bool ShutDown = false;

  ClockAPI api() {
    ClockAPI A;
    A.DeviceCount = [this](unsigned &N) {
      N = Count;
      return std::string();
    };
    A.LockToBase = [this](unsigned I) {
      if (Refuses == I)
        return std::string("Insufficient Permissions");
      Locked.insert(I);
      return std::string();
    };
    A.Unlock = [this](unsigned I) {
      Locked.erase(I);
      return std::string();
    };
    A.Shutdown = [this] { ShutDown = true; };
    return A;
  }
};

TEST(ProfileArgumentsTest, WithSourcesASecondDashDashEndsTheirArguments) {
  std::vector<std::string> Program;
  std::optional<std::vector<std::string>> Args;
  splitProgramArguments({"-DN=4", "--", "./app", "--", "x"}, true, Program,
                        Args);
  EXPECT_EQ(Program, (std::vector<std::string>{"./app", "--", "x"}));
  ASSERT_TRUE(Args);
  EXPECT_EQ(*Args, std::vector<std::string>{"-DN=4"});
  // Without sources, or without a second `--`, all of it is the program.
  Args.reset();
  splitProgramArguments({"./app", "--", "x"}, false, Program, Args);
  EXPECT_EQ(Program, (std::vector<std::string>{"./app", "--", "x"}));
  EXPECT_FALSE(Args);
  splitProgramArguments({"./app", "1"}, true, Program, Args);
  EXPECT_EQ(Program, (std::vector<std::string>{"./app", "1"}));
  EXPECT_FALSE(Args);
}

TEST(ClockLockTest, EveryGPUIsLockedUntilTheLockIsGone) {
  FakeClocks F;
  {
    Expected<std::unique_ptr<ClockLock>> L = ClockLock::lockToBase(F.api());
    ASSERT_TRUE(bool(L)) << toString(L.takeError());
    EXPECT_EQ(F.Locked, (std::set<unsigned>{0, 1}));
  }
  EXPECT_TRUE(F.Locked.empty());
  EXPECT_TRUE(F.ShutDown);
}

TEST(ClockLockTest, AGPUThatRefusesUnlocksTheOthers) {
  FakeClocks F;
  F.Count = 3;
  F.Refuses = 1;
  Expected<std::unique_ptr<ClockLock>> L = ClockLock::lockToBase(F.api());
  ASSERT_FALSE(bool(L));
  EXPECT_EQ(toString(L.takeError()),
            "cannot lock the clock of GPU 1 to base: NVML: Insufficient "
            "Permissions (locking clocks needs root); use "
            "--clock-control=none");
  EXPECT_TRUE(F.Locked.empty());
}

TEST_F(ProfileCommandTest, ClocksAreLockedWhileTheProgramRuns) {
  FakeClocks F;
  O.LockClocks = true;
  H.Clocks = [&F]() -> Expected<ClockAPI> { return F.api(); };
  std::set<unsigned> During;
  Program.OnRun = [&] { During = F.Locked; };
  EXPECT_EQ(run(), 0);
  EXPECT_EQ(During, (std::set<unsigned>{0, 1}));
  EXPECT_TRUE(F.Locked.empty());

  // A lock that cannot be had stops the command before the program runs.
  F.Refuses = 0;
  Program.Runs = 0;
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(Program.Runs, 0u);
  ASSERT_EQ(Errors.size(), 1u);
  EXPECT_NE(Errors[0].find("cannot lock the clock of GPU 0"),
            std::string::npos);

  // Without NVML, one line.
  Errors.clear();
  H.Clocks = []() -> Expected<ClockAPI> {
    return createStringError("cannot lock the GPU clocks: NVML "
                             "(libnvidia-ml.so.1) cannot be loaded; use "
                             "--clock-control=none");
  };
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(Program.Runs, 0u);
  ASSERT_EQ(Errors.size(), 1u);
}

} // namespace
