//===- SessionTest.cpp - A whole optimize session with fakes --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Optimize/Session.h"

#include "autoprof/Profile/Measurement.h"
#include "autoprof/Profile/Profile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "rapidjson/document.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace autoprof;
using namespace autoprof::optimize;
using namespace autoprof::verify;

namespace {

std::string readFile(llvm::StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  return Buf ? (*Buf)->getBuffer().str() : std::string();
}

/// A program of two kernels, `k` and `j`, whose source is a list of words:
/// "k*3" makes k three times faster (factors multiply), "k!" changes one of
/// its outputs, "BROKEN" fails the build. "j" launches only when the text
/// holds "both".
class FakeProgram : public CommandRunner {
public:
  std::string Source;
  /// The text the last build compiled.
  std::string Built;
  unsigned Builds = 0;

  llvm::Expected<ChildResult> run(const ChildOptions &O) override {
    ChildResult R;
    const std::string &Cmd = O.Argv.back();
    if (Cmd == "build") {
      ++Builds;
      std::string Text = readFile(Source);
      if (Text.find("BROKEN") != std::string::npos) {
        std::error_code EC;
        llvm::raw_fd_ostream(O.OutputFile, EC) << "k.cu:1: error: BROKEN\n";
        R.Status = 1;
        return R;
      }
      Built = Text;
      return R;
    }
    rapidjson::Document Cfg;
    std::string Text = readFile(O.Env.at("AUTOPROF_MEASURE_CONFIG"));
    Cfg.Parse(Text.c_str());
    bool Poisoned = Cfg.HasMember("poison");
    Measurement M;
    for (std::string Name : {"k", "j"}) {
      if (Name == "j" && Built.find("both") == std::string::npos)
        continue;
      KernelMeasurement K;
      K.MangledName = "_Z1" + Name + "Pf";
      K.Launches = 3;
      double D = 100 * 1000;
      llvm::SmallVector<llvm::StringRef> Words;
      llvm::SplitString(Built, Words);
      for (llvm::StringRef W : Words) {
        unsigned Factor;
        if (W.consume_front(Name + "*") && !W.getAsInteger(10, Factor))
          D /= Factor;
      }
      double Seed = std::stod(O.Env.at("AUTOPROF_SEED"));
      K.DurationsNs = {D * 5, D, D + Seed};
      if (Cfg.HasMember("snapshot_dir") &&
          Cfg["kernels"].HasMember(K.MangledName.c_str())) {
        std::string Dir = Cfg["snapshot_dir"].GetString();
        float V[2] = {1, llvm::is_contained(Words, Name + "!") ? 3.f : 2.f};
        if (Poisoned) {
          K.SnapshotLaunch = 1;
          K.PoisonedBytes = sizeof V;
        }
        std::string Out = Dir + "/out-" + Name;
        std::error_code EC;
        llvm::raw_fd_ostream(Out, EC).write(reinterpret_cast<const char *>(V),
                                            sizeof V);
        K.Snapshots.push_back({{0}, sizeof V, sizeof V, Out});
        std::string In = Dir + "/in-" + Name;
        std::string SeedText = O.Env.at("AUTOPROF_SEED");
        llvm::raw_fd_ostream(In, EC) << SeedText;
        K.Snapshots.push_back({{1}, SeedText.size(), 0, In});
      }
      M.Kernels.push_back(K);
    }
    writeFileAtomically(Cfg["output"].GetString(), writeMeasurementJSON(M));
    return R;
  }
};

/// One proposal of the fake source model: the word it adds, and whether its
/// trigger fires.
struct FakeProposal {
  std::string Name;
  std::string Word;
  bool Triggers = true;
};

/// Proposes, for each kernel, the words of Proposals; each candidate adds
/// its word to the text of its base. A candidate whose text holds "HIDDEN"
/// reaches hidden state; candidates holding "CLASH" cannot be combined.
class FakeSource : public SourceModel {
public:
  std::string Path;
  std::map<std::string, std::vector<FakeProposal>> Proposals;
  /// The bases proposals were asked on: "" for the original.
  std::vector<std::string> Bases;

  std::vector<Candidate> proposals(const SessionKernel &K,
                                   const Candidate *Base) override {
    Bases.push_back(Base ? Base->Name : "");
    std::vector<Candidate> Out;
    for (const FakeProposal &P : Proposals[K.Name]) {
      Candidate C;
      C.Name = Base ? Base->Name + "+" + P.Name : P.Name;
      if (Base)
        C.Chain = Base->Chain;
      C.Chain.push_back(P.Name);
      C.Texts[Path] =
          (Base ? Base->Texts.at(Path) : "original\n") + P.Word + "\n";
      bool Fires = P.Triggers;
      std::string Name = P.Name;
      C.Trigger = [Fires, Name](const Metrics &M) {
        return Fires ? std::optional<std::string>(
                           Name + " fires at " +
                           std::to_string(int(M.count("m") ? M.at("m") : -1)))
                     : std::nullopt;
      };
      Out.push_back(std::move(C));
    }
    return Out;
  }

  CandidateCheck inspect(const SessionKernel &K, const Candidate &C) override {
    CandidateCheck Out;
    Out.Renamed = K.Launched;
    if (C.Texts.begin()->second.find("HIDDEN") != std::string::npos) {
      Judgement J;
      J.V = Verdict::HiddenState;
      J.Reason = "it keeps state";
      Out.Refused = J;
    }
    return Out;
  }

  std::optional<Candidate>
  combine(llvm::ArrayRef<const Candidate *> Kept) override {
    Candidate C;
    std::string Text = "original\n";
    for (const Candidate *P : Kept) {
      const std::string &T = P->Texts.at(Path);
      if (T.find("CLASH") != std::string::npos)
        return std::nullopt;
      Text += T.substr(strlen("original\n"));
    }
    C.Texts[Path] = Text;
    return C;
  }
};

class FakeProfiler : public KernelProfiler {
public:
  ProfiledKernels P;
  bool Fails = false;
  unsigned Calls = 0;
  std::string describe() const override { return "profiling"; }
  llvm::Expected<ProfiledKernels> profile(uint64_t) override {
    ++Calls;
    if (Fails)
      return llvm::createStringError("profiling failed");
    return P;
  }
};

/// Replies with Replies in turn: a word to add, or "" for a reply that
/// fails the contract.
class FakeModel : public ModelRewriter {
public:
  std::string Path;
  std::vector<std::string> Replies;
  std::vector<std::optional<RoundFailure>> Told;
  std::string Name = "fake-model";
  const std::string &model() const override { return Name; }
  llvm::Expected<ModelRound>
  round(const SessionKernel &, const ProfiledKernel &,
        const std::optional<RoundFailure> &Previous) override {
    Told.push_back(Previous);
    ModelRound R;
    std::string Word = Replies.at(Told.size() - 1);
    R.Code = Word;
    if (Word.empty()) {
      R.Reason = "no code block";
      return R;
    }
    Candidate C;
    C.Texts[Path] = "original\n" + Word + "\n";
    R.C = C;
    return R;
  }
};

class SessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("session-test", Dir));
    Source = (Dir + "/k.cu").str();
    writeFileAtomically(Source, "original\n");
    Fake.Source = Source;
    Src.Path = Source;
    Model.Path = Source;
    llvm::SmallString<128> Work(Dir);
    llvm::sys::path::append(Work, "work");
    llvm::sys::fs::create_directories(Work);
    VO.Source = Source;
    VO.BuildCommand = "build";
    VO.RunCommand = "run";
    VO.InjectLibrary = "libautoprof-inject.so";
    VO.WorkDir = std::string(Work);
    O.Source = Source;
    O.Tree = "fake-tree";
    O.Warn = [this](const std::string &L) { Warnings.push_back(L); };
    Prof.P["_Z1kPf"].Values["m"] = 7;
    Prof.P["_Z1kPf"].Leaf = "leaf-1";
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  static SessionKernel kernel(const std::string &Name) {
    SessionKernel K;
    K.Name = Name;
    KernelSignature S;
    S.Name = Name;
    S.MangledName = "_Z1" + Name + "Pf";
    S.Pointers[0] = {"out", ElementKind::F32};
    K.Launched.push_back(S);
    return K;
  }

  llvm::Expected<SessionResult>
  run(std::vector<SessionKernel> Ks = {kernel("k")}, bool UseModel = false,
      std::vector<Candidate> Given = {}) {
    std::vector<KernelSignature> All;
    for (const SessionKernel &K : Ks)
      All.insert(All.end(), K.Launched.begin(), K.Launched.end());
    V.emplace(Fake, VO, All);
    Session S(O, *V, Src, &Prof, UseModel ? &Model : nullptr, std::move(Given),
              std::move(Ks), Log);
    return S.run();
  }

  static std::vector<std::string> tried(const KernelReport &K) {
    std::vector<std::string> Out;
    for (const AttemptReport &A : K.Attempts)
      Out.push_back(A.Transformation + ":" + verdictName(A.Result.V).str());
    return Out;
  }

  llvm::SmallString<128> Dir;
  std::string Source;
  FakeProgram Fake;
  FakeSource Src;
  FakeProfiler Prof;
  FakeModel Model;
  VerifierOptions VO;
  std::optional<Verifier> V;
  SessionOptions O;
  std::vector<std::string> Warnings;
  std::string LogText;
  llvm::raw_string_ostream Log{LogText};
};

using Strings = std::vector<std::string>;

TEST_F(SessionTest, KeepsTheFastestTriggeredProposal) {
  Src.Proposals["k"] = {{"a", "k*2"}, {"b", "k*4"}, {"c", "k*8", false}};
  O.Compose = false;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  const KernelReport &K = R->Report.Kernels.at(0);
  // c's trigger does not fire; a and b are judged, b is kept.
  EXPECT_EQ(tried(K), (Strings{"a:faster", "b:faster"}));
  EXPECT_EQ(K.Attempts[0].Trigger, "a fires at 7");
  EXPECT_EQ(K.Kept, "b");
  ASSERT_TRUE(K.Speedup);
  EXPECT_NEAR(*K.Speedup, 4, 0.01);
  EXPECT_EQ(K.Leaf, "leaf-1");
  EXPECT_EQ(R->Report.Outcome, "verified");
  EXPECT_EQ(R->Report.Tree, "fake-tree");
  ASSERT_TRUE(R->Result);
  EXPECT_EQ(R->Result->Texts.at(Source), "original\nk*4\n");
  // The build is left as the original's, and the source untouched.
  EXPECT_EQ(Fake.Built, "original\n");
  EXPECT_EQ(readFile(Source), "original\n");
  EXPECT_EQ(Prof.Calls, 1u);
}

TEST_F(SessionTest, AttemptsBoundTheProposalsTried) {
  Src.Proposals["k"] = {{"a", "k*2"}, {"b", "k*4"}, {"c", "k*8"}};
  O.Attempts = 2;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  // Two tried, none composed: the attempts are spent.
  EXPECT_EQ(tried(R->Report.Kernels[0]), (Strings{"a:faster", "b:faster"}));
  EXPECT_EQ(R->Report.Kernels[0].Kept, "b");
  EXPECT_EQ(Src.Bases, (Strings{""}));
}

TEST_F(SessionTest, ComposesTheKeptRewriteWithTheOthers) {
  Src.Proposals["k"] = {{"a", "k*2"}, {"b", "k*3"}};
  O.Attempts = 5;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  const KernelReport &K = R->Report.Kernels[0];
  // b is best alone; a is then tried on b's result; b is not applied twice.
  EXPECT_EQ(tried(K), (Strings{"a:faster", "b:faster", "b+a:faster"}));
  EXPECT_EQ(Src.Bases, (Strings{"", "b", "b+a"}));
  EXPECT_EQ(K.Kept, "b+a");
  EXPECT_NEAR(*K.Speedup, 6, 0.01);
  EXPECT_EQ(R->Result->Texts.at(Source), "original\nk*3\nk*2\n");
  EXPECT_EQ(R->Result->Chain, (Strings{"b", "a"}));
}

TEST_F(SessionTest, AChainMustBeatTheRewriteAlone) {
  // c undoes part of b's gain: the chain is verified correct but slower
  // than b alone, and b is kept. A wrong chain is never kept.
  Src.Proposals["k"] = {{"b", "k*3"}, {"c", "k! k*9"}, {"d", "k*1"}};
  O.Attempts = 5;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  const KernelReport &K = R->Report.Kernels[0];
  EXPECT_EQ(tried(K), (Strings{"b:faster", "c:wrong-output", "d:not-faster",
                               "b+c:wrong-output", "b+d:faster"}));
  EXPECT_EQ(K.Kept, "b");
}

TEST_F(SessionTest, ComposingCanBeTurnedOff) {
  Src.Proposals["k"] = {{"a", "k*2"}, {"b", "k*3"}};
  O.Attempts = 5;
  O.Compose = false;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Report.Kernels[0].Kept, "b");
  EXPECT_EQ(Src.Bases, (Strings{""}));
}

TEST_F(SessionTest, TryAllJudgesProposalsThatDoNotTrigger) {
  Src.Proposals["k"] = {{"a", "k*2", false}};
  O.TryAll = true;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_EQ(R->Report.Kernels[0].Attempts.size(), 1u);
  EXPECT_EQ(R->Report.Kernels[0].Attempts[0].Trigger, "");
  EXPECT_EQ(R->Report.Kernels[0].Kept, "a");
}

TEST_F(SessionTest, HiddenStateIsRefusedUnbuilt) {
  Src.Proposals["k"] = {{"a", "HIDDEN k*2"}};
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(tried(R->Report.Kernels[0]), (Strings{"a:hidden-state"}));
  // The original's build and the final rebuild only.
  EXPECT_EQ(Fake.Builds, 2u);
  EXPECT_FALSE(R->Result);
  EXPECT_EQ(R->Report.Outcome, "no rewrite");
}

TEST_F(SessionTest, InPlaceLeavesTheBuildAsTheResult) {
  Src.Proposals["k"] = {{"a", "k*2"}};
  O.InPlace = true;
  auto R = run();
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Report.Outcome, "rewritten");
  EXPECT_EQ(Fake.Built, "original\nk*2\n");
  // Writing the files is the caller's.
  EXPECT_EQ(readFile(Source), "original\n");
}

TEST_F(SessionTest, KeptRewritesOfSeveralKernelsAreVerifiedTogether) {
  writeFileAtomically(Source, "original\nboth\n");
  Src.Proposals["k"] = {{"a", "both k*2"}};
  Src.Proposals["j"] = {{"b", "both j*4"}};
  auto R = run({kernel("k"), kernel("j")});
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  ASSERT_TRUE(R->Report.Combined);
  EXPECT_EQ(R->Report.Combined->Transformation, "a+b");
  EXPECT_EQ(R->Report.Combined->Result.V, Verdict::Faster)
      << R->Report.Combined->Result.Reason;
  EXPECT_EQ(R->Report.Kernels[0].Kept, "a");
  EXPECT_EQ(R->Report.Kernels[1].Kept, "b");
}

TEST_F(SessionTest, RewritesThatCannotBeCombinedKeepTheFastest) {
  writeFileAtomically(Source, "original\nboth\n");
  Src.Proposals["k"] = {{"a", "both k*2 CLASH"}};
  Src.Proposals["j"] = {{"b", "both j*4"}};
  auto R = run({kernel("k"), kernel("j")});
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_FALSE(R->Report.Combined);
  EXPECT_EQ(R->Report.Kernels[0].Kept, "");
  EXPECT_FALSE(R->Report.Kernels[0].Speedup);
  EXPECT_EQ(R->Report.Kernels[1].Kept, "b");
  EXPECT_EQ(R->Result->Texts.at(Source), "original\nboth j*4\n");
}

TEST_F(SessionTest, AKernelThatNeverLaunchesIsLeftAlone) {
  Src.Proposals["k"] = {{"a", "k*2"}};
  auto R = run({kernel("k"), kernel("j")});
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(Warnings, (Strings{"kernel 'j' never launched when the run "
                               "command ran; it is left alone"}));
  EXPECT_TRUE(R->Report.Kernels[1].Attempts.empty());
  EXPECT_EQ(R->Report.Kernels[0].Kept, "a");
}

TEST_F(SessionTest, TheModelIsToldWhyItsLastReplyFailed) {
  Model.Replies = {"", "k!", "k*2"};
  auto R = run({kernel("k")}, /*UseModel=*/true);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  const KernelReport &K = R->Report.Kernels[0];
  EXPECT_EQ(tried(K),
            (Strings{"llm round 1:reply-rejected", "llm round 2:wrong-output",
                     "llm round 3:faster"}));
  EXPECT_EQ(K.Attempts[0].Trigger, "asked fake-model");
  ASSERT_EQ(Model.Told.size(), 3u);
  EXPECT_FALSE(Model.Told[0]);
  EXPECT_EQ(Model.Told[1]->Verdict, "reply-rejected");
  EXPECT_EQ(Model.Told[2]->Verdict, "wrong-output");
  EXPECT_EQ(Model.Told[2]->Code, "k!");
  EXPECT_EQ(K.Kept, "llm round 3");
  EXPECT_EQ(R->Report.Rewriter, "llm");
}

TEST_F(SessionTest, GivenCandidatesNeedNoProfile) {
  Candidate Slow, Fast;
  Slow.Name = "candidate slow.cu";
  Slow.Texts[Source] = "original\nk*1\n";
  Fast.Name = "candidate fast.cu";
  Fast.Texts[Source] = "original\nk*5\n";
  auto R = run({kernel("k")}, false, {Slow, Fast});
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(Prof.Calls, 0u);
  EXPECT_EQ(
      tried(R->Report.Kernels[0]),
      (Strings{"candidate slow.cu:not-faster", "candidate fast.cu:faster"}));
  EXPECT_EQ(R->Report.Kernels[0].Attempts[0].Trigger, "given by --candidate");
  EXPECT_EQ(R->Report.Kernels[0].Kept, "candidate fast.cu");
}

TEST_F(SessionTest, FailuresAreOneLine) {
  Prof.Fails = true;
  auto R = run();
  EXPECT_EQ(llvm::toString(R.takeError()), "profiling failed");

  writeFileAtomically(Source, "BROKEN\n");
  Prof.Fails = false;
  auto B = run();
  EXPECT_EQ(llvm::toString(B.takeError()),
            "the original program does not build: the build failed (exit "
            "status 1): k.cu:1: error: BROKEN");
}

TEST_F(SessionTest, ACopyMayOnlyChangeTheSource) {
  std::string Header = (Dir + "/k.cuh").str();
  writeFileAtomically(Header, "header\n");
  VO.Headers = {Header};
  Candidate C;
  C.Name = "candidate h";
  C.Texts[Source] = "original\nk*2\n";
  C.Texts[Header] = "header\nchanged\n";
  O.SourceOnly = true;
  auto R = run({kernel("k")}, false, {C});
  EXPECT_EQ(llvm::toString(R.takeError()),
            "the kept rewrite changes '" + Header +
                "', and -o writes a copy "
                "of '" +
                Source +
                "' only: use --in-place, --diff or "
                "--export-fixes");
  EXPECT_EQ(Fake.Built, "original\n");
}

TEST(ReadProfiledKernels, ReadsMetricsAndRoute) {
  llvm::SmallString<128> Path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("prof", "json", Path));
  Profile P;
  P.Tree = "t";
  ProfileRecord Rec;
  Rec.Kernel = "k";
  Rec.MangledName = "_Z1kPf";
  Rec.Metrics.push_back({"a", {2, ""}});
  Rec.Metrics.push_back({"nan", {std::nan(""), ""}});
  Rec.Leaf = "L";
  ProfileRouteStep Step;
  Step.Node = "n1";
  Step.Branch = "then";
  Rec.Route.push_back(Step);
  P.Records.push_back(Rec);
  writeFileAtomically(std::string(Path), writeProfileJSON(P));
  std::string Tree;
  auto K = readProfiledKernels(Path, &Tree);
  ASSERT_TRUE(static_cast<bool>(K)) << llvm::toString(K.takeError());
  EXPECT_EQ(Tree, "t");
  const ProfiledKernel &One = K->at("_Z1kPf");
  EXPECT_EQ(One.Values, (Metrics{{"a", 2}}));
  EXPECT_EQ(One.Route, (Strings{"n1:then"}));
  llvm::sys::fs::remove(Path);
  EXPECT_EQ(llvm::toString(readProfiledKernels(Path).takeError())
                .rfind("cannot read the profile", 0),
            0u);
}

} // namespace
