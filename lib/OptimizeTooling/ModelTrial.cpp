//===- ModelTrial.cpp - One attempt of the model on one kernel ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/ModelTrial.h"

#include "autoprof/OptimizeTooling/VerifiedOptimize.h"
#include "clang/Tooling/Tooling.h"

using namespace llvm;
using namespace autoprof;

namespace {

/// The profile the trial shows.
class ShownProfile : public optimize::KernelProfiler {
public:
  explicit ShownProfile(optimize::ProfiledKernels P) : P(std::move(P)) {}
  std::string describe() const override { return "the metrics shown"; }
  Expected<optimize::ProfiledKernels> profile(uint64_t) override { return P; }

private:
  optimize::ProfiledKernels P;
};

} // namespace

Expected<std::optional<verify::OptimizeReport>>
autoprof::runModelTrial(const ModelTrialOptions &O, raw_ostream &Log,
                        std::string *Why) {
  auto Line = [&Log](const std::string &Prefix) {
    return [&Log, Prefix](const std::string &M) {
      Log << "clang-autoprof: " << Prefix << M << "\n";
    };
  };
  SourceMessages Messages{Line("error: "), Line("warning: ")};
  auto Stop = [&](const Twine &Reason) {
    Messages.Error(Reason.str());
    if (Why)
      *Why = Reason.str();
    return std::optional<verify::OptimizeReport>();
  };
  Expected<optimize::ProfiledKernels> Shown =
      optimize::readProfiledKernels(O.ProfileFile);
  if (!Shown)
    return Stop(toString(Shown.takeError()));
  LLMRewriterOptions LO = O.LLM;
  LO.Parse = O.Parse;
  LO.Messages = Messages;
  Expected<std::unique_ptr<LLMRewriter>> LLM = LLMRewriter::create(LO);
  if (!LLM)
    return LLM.takeError();

  std::string Kernel = O.Kernel;
  RewriteEngine Engine(
      {}, [Kernel](const std::string &Name, const std::string &Qualified) {
        return Name == Kernel || Qualified == Kernel;
      });
  auto Factory = Engine.newActionFactory();
  int Status = runSource(O.Parse, O.Source, *Factory, Messages, Log);
  if (Status != 0 || Engine.translationUnitsWithErrors())
    return Stop("'" + O.Source + "' does not compile; nothing is proposed");
  if (Engine.kernels().empty())
    return Stop("no kernel '" + Kernel + "' in '" + O.Source + "'");

  VerifiedOptimizeOptions VO;
  VO.Session.Source = O.Source;
  VO.Session.Tree = "learn";
  VO.Session.Attempts = 1;
  VO.Session.Warn = Messages.Warning;
  VO.Parse = O.Parse;
  VO.Build = O.Build;
  VO.Run = O.Run;
  VO.InjectLibrary = O.InjectLibrary;
  VO.Timeout = O.Timeout;
  VO.Messages = Messages;
  VerifiedOptimizeHooks Hooks;
  Hooks.Profiler =
      [&](verify::CommandRunner &,
          StringRef) -> Expected<std::unique_ptr<optimize::KernelProfiler>> {
    return std::make_unique<ShownProfile>(*Shown);
  };
  Hooks.Model = [&](EngineModel &Edits) {
    return std::make_unique<LLMRounds>(**LLM, Engine, O.Source, Edits);
  };
  Hooks.ModelUnsupported = [&](size_t I) {
    return llmUnsupported(Engine, I, O.Source);
  };
  Expected<VerifiedOptimizeResult> R = verifiedOptimize(VO, Engine, Hooks, Log);
  if (!R) {
    std::string Error = toString(R.takeError());
    if (Error == "interrupted")
      return createStringError(Error);
    return Stop(Error);
  }
  return std::move(R->Report);
}

llvm::Error ModelTrials::check() const {
  return LLMRewriter::create(LLM).takeError();
}

llvm::Expected<std::optional<verify::OptimizeReport>>
ModelTrials::run(ModelTrialOptions O, llvm::StringRef LogFile) {
  std::error_code EC;
  llvm::raw_fd_ostream Log(LogFile, EC);
  if (EC)
    return llvm::createStringError("cannot write '" + LogFile +
                                   "': " + EC.message());
  O.LLM = LLM;
  std::string Why;
  llvm::Expected<std::optional<verify::OptimizeReport>> R =
      runModelTrial(O, Log, &Why);
  // A trial without a report gains nothing: say why, once per reason.
  if (R && !*R && Problems.insert(Why).second && Warn)
    Warn("a trial on '" + O.Kernel +
         "' ended without a report, so it gains nothing: " + Why);
  return R;
}
