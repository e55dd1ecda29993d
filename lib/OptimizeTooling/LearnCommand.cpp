//===- LearnCommand.cpp - clang-autoprof learn, as a library call ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/LearnCommand.h"
#include "autoprof/Learn/LearnReport.h"
#include "autoprof/OptimizeTooling/ModelTrial.h"
#include "autoprof/Rewrite/TransformationRegistry.h"

#include "llvm/Support/Path.h"

#include <cstdlib>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::learn;

learn::TriggerRewriter autoprof::builtinRewriter() {
  std::vector<TriggerRewriter::Rule> Rules;
  for (const Transformation *T : TransformationRegistry::all())
    if (!T->enabling())
      Rules.push_back(
          {T->name().str(), T->triggerMetrics(),
           [T](const MetricMap &M) { return T->trigger(M).has_value(); }});
  return TriggerRewriter(std::move(Rules));
}

namespace {

/// The session's options: the model's settings over the environment's,
/// nvcc from CUDAToolkit_ROOT (else /usr/local/cuda).
LearnSessionOptions sessionOptions(const LearnCommandOptions &O) {
  LearnSessionOptions S = O.Session;
  const char *Cuda = std::getenv("CUDAToolkit_ROOT");
  SmallString<256> Nvcc(Cuda && *Cuda ? Cuda : "/usr/local/cuda");
  sys::path::append(Nvcc, "bin", "nvcc");
  S.Nvcc = std::string(Nvcc);
  S.Chat = ChatConfig::fromEnvironment();
  if (!O.LLMBaseURL.empty())
    S.Chat.BaseURL = O.LLMBaseURL;
  if (!O.LLMModel.empty())
    S.Chat.Model = O.LLMModel;
  if (O.LLMTimeout)
    S.Chat.Timeout = std::chrono::milliseconds(1000ull * O.LLMTimeout);
  S.WantLearned = !O.Output.empty();
  S.CatalogPath = O.CatalogPath;
  return S;
}

/// The model of --rewriter=llm's trials.
LLMRewriterOptions trialModel(const LearnCommandOptions &O) {
  LLMRewriterOptions LLM;
  LLM.BaseURL = O.LLMBaseURL;
  LLM.Model = O.LLMModel;
  LLM.Cache = O.Session.LLMCache;
  LLM.ReplayOnly = O.Session.LLMReplayOnly;
  LLM.TimeoutSeconds = O.LLMTimeout;
  LLM.Catalog = O.CatalogPath;
  return LLM;
}

} // namespace

int autoprof::runLearnCommand(const LearnCommandOptions &O,
                              const LearnCommandHooks &H, raw_ostream &Progress,
                              raw_ostream &Out) {
  ModelTrials Trials(trialModel(O), H.Messages.Warning);
  LearnSessionHooks Hooks;
  Hooks.Rewriter = builtinRewriter();
  Hooks.LoadHost = H.LoadHost;
  Hooks.Trial = [&](const LiveTrial &T) {
    ModelTrialOptions MO;
    MO.Source = T.Source;
    MO.Kernel = T.Kernel;
    MO.ProfileFile = T.ProfileFile;
    MO.Build = T.Build;
    MO.Run = T.Run;
    MO.InjectLibrary = O.InjectLibrary;
    MO.Timeout = O.Timeout;
    MO.Parse = O.Parse;
    MO.Parse.FixedArgs = std::vector<std::string>{"-std=c++17", "-I" + T.Dir};
    return Trials.run(std::move(MO), T.Log);
  };
  Hooks.CheckTrialModel = [&] { return Trials.check(); };
  Expected<LearnSessionResult> R =
      runLearnSession(sessionOptions(O), std::move(Hooks), Progress);
  Error E = R ? Error::success() : R.takeError();
  if (!E && R->LearnedTree)
    E = H.Write(O.Output, *R->LearnedTree);
  if (!E && !O.Report.empty())
    E = H.Write(O.Report, writeLearnReportJSON(R->Report));
  if (E) {
    H.Messages.Error(toString(std::move(E)));
    return 1;
  }
  if (!R->Report.Rows.empty() || !R->Report.Curve.empty())
    Out << writeLearnReportText(R->Report);
  return 0;
}
