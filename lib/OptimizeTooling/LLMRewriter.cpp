//===- LLMRewriter.cpp - The model as a rewriter --------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/LLMRewriter.h"

#include "autoprof/LLM/KernelReply.h"
#include "autoprof/Rewrite/KernelReach.h"
#include "autoprof/Rewrite/KernelSplice.h"
#include "autoprof/Verify/Verifier.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace autoprof;
using verify::Verdict;

Expected<std::unique_ptr<LLMRewriter>>
LLMRewriter::create(LLMRewriterOptions O) {
  std::unique_ptr<LLMRewriter> R(new LLMRewriter());
  R->Config = ChatConfig::fromEnvironment();
  if (!O.BaseURL.empty())
    R->Config.BaseURL = O.BaseURL;
  if (!O.Model.empty())
    R->Config.Model = O.Model;
  R->Config.MaxRetries = O.Retries;
  if (O.TimeoutSeconds)
    R->Config.Timeout = std::chrono::milliseconds(1000ull * O.TimeoutSeconds);
  if (O.ReplayOnly && O.Cache.empty())
    return createStringError("--llm-replay-only answers from a reply cache: "
                             "give --llm-cache=<dir>");
  if (O.Send && R->Config.Model.empty())
    return createStringError("no LLM model configured: give --llm-model=<name> "
                             "or set AUTOPROF_LLM_MODEL");
  if (O.Send && R->Config.BaseURL.empty() && !O.ReplayOnly)
    return createStringError(
        "no LLM server configured: give --llm-base-url=<url> or set "
        "AUTOPROF_LLM_BASE_URL (for example https://api.openai.com/v1)");

  std::string Prompts = O.Prompts;
  if (Prompts.empty()) {
    SmallString<256> P(sys::path::parent_path(O.Catalog));
    sys::path::append(P, "prompts");
    Prompts = std::string(P);
  }
  Expected<PromptTemplates> T = PromptTemplates::load(Prompts);
  if (!T)
    return T.takeError();
  R->Templates = std::move(*T);
  Expected<MetricCatalog> C = MetricCatalog::load(O.Catalog);
  if (!C)
    return C.takeError();
  R->Catalog = std::move(*C);
  R->Client = std::make_unique<ChatClient>(R->Config);
  if (!O.Cache.empty())
    R->Cache.emplace(O.Cache, O.ReplayOnly ? ReplyCache::Mode::ReplayOnly
                                           : ReplyCache::Mode::ReadWrite);
  R->Parse = std::move(O.Parse);
  R->Parse.SearchBuildDirs = false;
  R->Messages = std::move(O.Messages);
  return std::move(R);
}

int LLMRewriter::parse(RewriteEngine &Engine, const std::string &Source,
                       std::map<std::string, std::string> Texts,
                       clang::DiagnosticConsumer &Diagnostics) const {
  SourceSettings S = Parse;
  S.Files = std::move(Texts);
  S.Diagnostics = &Diagnostics;
  auto Factory = Engine.newActionFactory();
  return runSource(S, Source, *Factory, Messages);
}

std::vector<ChatMessage>
LLMRewriter::prompt(const RewriteEngine &Engine, size_t Kernel,
                    const KernelProfile &Profile,
                    const std::optional<PromptFailure> &Previous) const {
  const KernelSource &KS = Engine.kernelSources()[Kernel];
  PromptInput In;
  In.Kernel = Engine.kernels()[Kernel];
  // The file's name only: the prompt (and the cache key) do not depend on
  // where the source lies.
  In.File = sys::path::filename(KS.File).str();
  In.KernelSource = Engine.originalText(KS.File).slice(KS.Begin, KS.End).str();
  In.LaunchSites = KS.LaunchSites;
  In.Leaf = Profile.Leaf;
  In.Focus = Profile.Focus;
  for (const auto &[Name, Value] : Profile.Metrics) {
    PromptMetric M;
    M.Name = Name;
    M.Value = Value;
    if (const CatalogMetric *CM = Catalog->find(Name)) {
      M.Unit = CM->Unit;
      M.Meaning = CM->Meaning;
    }
    In.Metrics.push_back(std::move(M));
  }
  In.Previous = Previous;
  return Templates->build(In);
}

Expected<ChatReply> LLMRewriter::ask(std::vector<ChatMessage> Messages) {
  ChatRequest Request = Config.makeRequest(std::move(Messages));
  if (Cache)
    return Cache->complete(*Client, Request);
  return Client->complete(Request);
}

LLMRound LLMRewriter::handle(const RewriteEngine &Engine, size_t Kernel,
                             const std::string &Source, StringRef ReplyText,
                             StringRef FinishReason) {
  LLMRound R;
  KernelReply Reply = extractKernelCode(ReplyText);
  if (!Reply.ok()) {
    R.V = Reply.P == KernelReply::Problem::NoCodeBlock ? Verdict::NoCodeBlock
                                                       : Verdict::ReplyRejected;
    R.Reason = Reply.Reason;
    return R;
  }
  if (FinishReason == "length" && Reply.Unclosed) {
    R.V = Verdict::ReplyRejected;
    R.Reason = "the reply was cut at the model's length limit (finish_reason "
               "\"length\") inside its code block";
    return R;
  }
  R.Code = Reply.Code;
  const KernelSource &KS = Engine.kernelSources()[Kernel];
  StringRef Original = Engine.originalText(KS.File);
  if (StringRef(R.Code).trim() == Original.slice(KS.Begin, KS.End).trim()) {
    R.V = Verdict::ReplyRejected;
    R.Reason = "the reply's kernel is the original, unchanged";
    return R;
  }
  Expected<std::string> Text = spliceKernel(Original, KS, R.Code);
  if (!Text) {
    R.V = Verdict::ReplyRejected;
    R.Reason = toString(Text.takeError());
    return R;
  }

  if (!AllKernels) {
    RewriteEngine All({}, nullptr);
    FirstErrorConsumer Quiet;
    OriginalReach.assign(Engine.kernelSources().size(), std::nullopt);
    All.onTranslationUnit([&](clang::ASTContext &Ctx) {
      for (size_t I = 0; I < Engine.kernelSources().size(); ++I) {
        const KernelSource &S = Engine.kernelSources()[I];
        if (!OriginalReach[I] && S.valid())
          OriginalReach[I] = kernelReach(Ctx, S.File, S.Begin, S.End);
      }
    });
    parse(All, Source, {}, Quiet);
    AllKernels = All.kernels();
  }
  RewriteEngine Check({}, nullptr);
  // Errors elsewhere than the source are not quoted: the reason goes back
  // to the model's server.
  FirstErrorConsumer Errors(KS.File);
  // The candidate's kernel spans from the original's start to the end of
  // the code put there.
  unsigned NewEnd =
      KS.Begin + (Text->size() - Original.size()) + (KS.End - KS.Begin);
  std::optional<KernelReach> Reach;
  Check.onTranslationUnit([&](clang::ASTContext &Ctx) {
    if (!Reach)
      Reach = kernelReach(Ctx, KS.File, KS.Begin, NewEnd);
  });
  int Status = parse(Check, Source, {{KS.File, *Text}}, Errors);
  if (Status != 0 || Check.translationUnitsWithErrors() ||
      !Errors.firstError().empty()) {
    R.V = Verdict::CompileError;
    R.Reason = Errors.firstError().empty()
                   ? std::string("Clang cannot parse the candidate")
                   : "Clang: " + Errors.firstError();
    return R;
  }
  if (std::optional<CandidateProblem> P = checkCandidateKernels(
          Engine.kernels()[Kernel], *AllKernels, Check.kernels())) {
    R.V = P->K == CandidateProblem::Kind::ExtraKernel
              ? Verdict::ReplyRejected
              : Verdict::SignatureChanged;
    R.Reason = P->Reason;
    return R;
  }
  // What the kernel reaches outside itself: no state across launches, no
  // memory outside its pointer arguments (docs/llm.md).
  const std::optional<KernelReach> &Before =
      OriginalReach.size() > Kernel ? OriginalReach[Kernel] : std::nullopt;
  if (!Before || !Reach) {
    R.V = Verdict::ReplyRejected;
    R.Reason = "the reply's kernel could not be compared with the original's "
               "(what each reaches outside itself)";
    return R;
  }
  if (std::optional<std::string> P = reachProblem(*Before, *Reach)) {
    R.V = Verdict::ReplyRejected;
    R.Reason = *P;
    return R;
  }
  R.Candidate = std::move(*Text);
  return R;
}

std::optional<std::string> autoprof::llmUnsupported(const RewriteEngine &Engine,
                                                    size_t Kernel,
                                                    const std::string &Source) {
  const KernelSource &KS = Engine.kernelSources()[Kernel];
  if (!KS.valid())
    return std::string("its definition starts or ends inside a macro");
  if (KS.File != verify::normalPath(Source))
    return "it is defined in '" + KS.File + "', not in '" + Source + "'";
  return std::nullopt;
}

Expected<optimize::ModelRound>
LLMRounds::round(const optimize::SessionKernel &K,
                 const optimize::ProfiledKernel &P,
                 const std::optional<optimize::RoundFailure> &Previous) {
  std::optional<PromptFailure> Failed;
  if (Previous)
    Failed = PromptFailure{Previous->Verdict, Previous->Reason, Previous->Code};
  Expected<ChatReply> Reply = LLM.ask(LLM.prompt(
      Engine, K.Index, KernelProfile{P.Leaf, P.Focus, P.Values}, Failed));
  if (!Reply)
    return Reply.takeError();
  LLMRound R =
      LLM.handle(Engine, K.Index, Source, Reply->Text, Reply->FinishReason);
  optimize::ModelRound Out;
  Out.Code = R.Code;
  Out.V = R.V;
  Out.Reason = R.Reason;
  if (R.Candidate) {
    FileEdits E;
    consumeError(
        addEdit(kernelReplacement(Engine.kernelSources()[K.Index], R.Code), E));
    // The text the model rewriter checked.
    Out.C = Edits.candidate("", std::move(E),
                            {{verify::normalPath(Source), *R.Candidate}});
  }
  return Out;
}
