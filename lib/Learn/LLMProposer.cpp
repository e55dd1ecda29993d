//===- LLMProposer.cpp - Tree operations proposed by a model --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/LLMProposer.h"

#include "autoprof/Tree/Routing.h"

#include "autoprof/JSON/BoundedParse.h"

#include <rapidjson/document.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;
using llvm::StringRef;

namespace {

using Value = rapidjson::Value;

llvm::Error fail(const llvm::Twine &Msg) {
  return llvm::createStringError("the reply " + Msg);
}

/// The text of the first JSON object in \p Reply: a fenced block's body, or
/// from the first '{' to the last '}'.
std::optional<StringRef> objectText(StringRef Reply) {
  size_t Fence = Reply.find("```");
  if (Fence != StringRef::npos) {
    StringRef After = Reply.drop_front(Fence + 3);
    After = After.drop_until([](char C) { return C == '\n'; });
    size_t End = After.find("```");
    if (End != StringRef::npos)
      Reply = After.take_front(End);
  }
  size_t Open = Reply.find('{'), Close = Reply.rfind('}');
  if (Open == StringRef::npos || Close == StringRef::npos || Close < Open)
    return std::nullopt;
  return Reply.slice(Open, Close + 1);
}

Expected<std::vector<std::string>> metricList(const Value &Obj, const char *Key,
                                              const MetricCatalog &Catalog) {
  auto It = Obj.FindMember(Key);
  if (It == Obj.MemberEnd() || !It->value.IsArray())
    return fail(std::string("needs '") + Key + "', a list of metrics");
  std::vector<std::string> Out;
  for (const Value &V : It->value.GetArray()) {
    if (!V.IsString())
      return fail(std::string("'") + Key + "' must hold metric names");
    std::string Name = V.GetString();
    if (!Catalog.find(Name))
      return fail("names the unknown metric '" + Name + "'");
    if (std::find(Out.begin(), Out.end(), Name) == Out.end())
      Out.push_back(Name);
  }
  return Out;
}

std::string number(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.4g", V);
  return Buf;
}

} // namespace

Expected<Proposal> learn::parseOperation(StringRef Reply,
                                         const ProfilingTree &T,
                                         const MetricCatalog &Catalog) {
  std::optional<StringRef> Text = objectText(Reply);
  if (!Text)
    return fail("has no JSON object");
  rapidjson::Document Doc;
  std::string JSONError;
  if (!json::parseBounded(Text->data(), Text->size(), Doc, JSONError))
    return fail("is not valid JSON (" + JSONError + ")");
  if (!Doc.IsObject())
    return fail("is not a JSON object");
  auto Str = [&](const char *Key) -> std::string {
    auto It = Doc.FindMember(Key);
    return It != Doc.MemberEnd() && It->value.IsString() ? It->value.GetString()
                                                         : "";
  };
  Proposal P;
  P.Operation = Str("operation");
  P.Node = Str("node");
  P.Tree = T;
  if (P.Operation != "REWRITE" && P.Operation != "SPLIT")
    return fail("has no operation REWRITE or SPLIT");
  if (P.Node.empty())
    return fail("names no node");

  if (P.Operation == "REWRITE" && P.Node == "stage1") {
    Expected<std::vector<std::string>> S = metricList(Doc, "stage1", Catalog);
    if (!S)
      return S.takeError();
    for (const TreeNode &N : T.Nodes)
      if (!N.Leaf && N.Test.From == NodeTest::Source::Sample &&
          std::find(S->begin(), S->end(), N.Test.Key) == S->end())
        return fail("drops the stage-1 sample '" + N.Test.Key +
                    "', which test '" + N.Id + "' reads");
    P.Tree.Stage1 = *S;
    P.Change = "stage 1 becomes " + std::to_string(S->size()) + " samples";
    return P;
  }

  auto NodeIt = std::find_if(P.Tree.Nodes.begin(), P.Tree.Nodes.end(),
                             [&](const TreeNode &N) { return N.Id == P.Node; });
  if (NodeIt == P.Tree.Nodes.end())
    return fail("names the unknown node '" + P.Node + "'");
  TreeNode &N = *NodeIt;

  if (P.Operation == "REWRITE") {
    if (N.Leaf) {
      Expected<std::vector<std::string>> M =
          metricList(Doc, "metrics", Catalog);
      if (!M)
        return M.takeError();
      if (M->empty())
        return fail("leaves leaf '" + N.Id + "' without metrics");
      N.Metrics = *M;
      P.Change = "leaf '" + N.Id + "' collects " + std::to_string(M->size()) +
                 " metrics";
      return P;
    }
    auto Th = Doc.FindMember("threshold");
    if (Th == Doc.MemberEnd() || !Th->value.IsNumber())
      return fail("needs a numeric 'threshold' for test '" + N.Id + "'");
    P.Change = "test '" + N.Id + "' " + N.Test.Key + " " + N.Test.Op + " " +
               number(N.Test.Threshold) + " -> " +
               number(Th->value.GetDouble());
    N.Test.Threshold = Th->value.GetDouble();
    return P;
  }

  // SPLIT
  if (!N.Leaf)
    return fail("splits '" + N.Id + "', which is a test, not a leaf");
  auto TestIt = Doc.FindMember("test");
  if (TestIt == Doc.MemberEnd() || !TestIt->value.IsObject())
    return fail("needs a 'test' object");
  const Value &Test = TestIt->value;
  NodeTest NT;
  auto F = Test.FindMember("feature"), S = Test.FindMember("sample");
  if (F != Test.MemberEnd() && F->value.IsString()) {
    NT.From = NodeTest::Source::Feature;
    NT.Key = F->value.GetString();
    const auto &Names = featureNames();
    if (std::find(Names.begin(), Names.end(), NT.Key) == Names.end())
      return fail("tests the unknown feature '" + NT.Key + "'");
  } else if (S != Test.MemberEnd() && S->value.IsString()) {
    NT.From = NodeTest::Source::Sample;
    NT.Key = S->value.GetString();
    if (!Catalog.find(NT.Key))
      return fail("tests the unknown metric '" + NT.Key + "'");
  } else {
    return fail("needs a test on a 'feature' or a 'sample'");
  }
  auto Op = Test.FindMember("op");
  NT.Op = Op != Test.MemberEnd() && Op->value.IsString() ? Op->value.GetString()
                                                         : "";
  if (NT.Op != "<" && NT.Op != "<=" && NT.Op != ">" && NT.Op != ">=")
    return fail("has the unknown operator '" + NT.Op + "'");
  auto Th = Test.FindMember("threshold");
  if (Th == Test.MemberEnd() || !Th->value.IsNumber())
    return fail("needs a numeric test 'threshold'");
  NT.Threshold = Th->value.GetDouble();
  Expected<std::vector<std::string>> Then = metricList(Doc, "then", Catalog);
  if (!Then)
    return Then.takeError();
  Expected<std::vector<std::string>> Else = metricList(Doc, "else", Catalog);
  if (!Else)
    return Else.takeError();
  if (Then->empty() || Else->empty())
    return fail("leaves a new leaf without metrics");
  if (NT.From == NodeTest::Source::Sample &&
      std::find(P.Tree.Stage1.begin(), P.Tree.Stage1.end(), NT.Key) ==
          P.Tree.Stage1.end())
    P.Tree.Stage1.push_back(NT.Key);
  auto [ThenId, ElseId] = splitLeaf(P.Tree, P.Node, NT, *Then, *Else);
  P.Change = "leaf '" + P.Node + "' becomes " + NT.Key + " " + NT.Op + " " +
             number(NT.Threshold) + " ? " + ThenId + " (" +
             std::to_string(Then->size()) + " metrics) : " + ElseId + " (" +
             std::to_string(Else->size()) + " metrics)";
  return P;
}

std::string learn::learnPrompt(const ProfilingTree &T,
                               const Evaluation &Current,
                               const TriggerRewriter &Rewriter,
                               const MetricCatalog &Catalog, unsigned Budget,
                               const std::vector<LogEntry> &Tried) {
  std::string S;
  S += "Budget: " + std::to_string(Budget) +
       " replay passes per kernel (stage 1 and the leaf together).\n";
  S += "Objective now: geometric-mean speedup " + number(Current.GeoMean) +
       "x over " + std::to_string(Current.Kernels.size()) +
       " training kernels, " + number(Current.MeanPasses) +
       " passes per kernel.\n\n";
  S += "The tree:\n" + writeTreeJSON(T) + "\n";

  S += "Feedback per leaf (kernel: what it gained, what the rewriter chose; "
       "for a kernel that missed a verified win, the win and the metrics "
       "whose trigger would choose it, with the kernel's values):\n";
  std::map<std::string, std::vector<const KernelResult *>> ByLeaf;
  for (const KernelResult &R : Current.Kernels)
    ByLeaf[R.Leaf].push_back(&R);
  for (const auto &[Leaf, Rs] : ByLeaf) {
    S += "leaf '" + (Leaf.empty() ? std::string("(none)") : Leaf) + "', " +
         std::to_string(Rs.size()) + " kernels:\n";
    for (const KernelResult *R : Rs) {
      const DatasetKernel &K = *R->Kernel;
      S += "  " + K.label() + ": " + number(R->Gain) + "x, chose " +
           (R->Chosen ? K.Outcomes[*R->Chosen].Transformation + " (" +
                            K.Outcomes[*R->Chosen].Verdict + ")"
            : R->Win ? std::string("a verified rewrite")
                     : std::string("nothing"));
      const Outcome *Best = nullptr;
      for (const Outcome &O : K.Outcomes)
        if (O.win() && (!Best || O.gain() > Best->gain()))
          Best = &O;
      if (Best && Best->gain() > R->Gain) {
        S += "; missed " + Best->Transformation + " " + number(Best->gain()) +
             "x";
        if (const TriggerRewriter::Rule *Rule =
                Rewriter.find(Best->Transformation)) {
          S += ", its trigger reads";
          for (const std::string &M : Rule->Metrics) {
            auto It = K.Metrics.find(M);
            S +=
                " " + M + "=" +
                (It == K.Metrics.end() ? std::string("?") : number(It->second));
          }
        }
      }
      S += "\n";
    }
  }
  if (!Tried.empty()) {
    S += "\nOperations already tried:\n";
    for (const LogEntry &E : Tried)
      S += "  " + E.Operation + " " + E.Change + ": " +
           (!E.Invalid.empty() ? "invalid (" + E.Invalid + ")"
            : E.Accepted       ? "accepted, objective " + number(E.After)
                               : "rejected, objective " + number(E.After)) +
           "\n";
  }
  S += "\nThe metric catalog (name, source, section):\n";
  for (const CatalogMetric &M : Catalog.metrics())
    S += "  " + M.Name + " " + metricSourceName(M.Source) + " " + M.Section +
         "\n";
  S += "\nStatic features a test may read:";
  for (const std::string &F : featureNames())
    S += " " + F;
  S += "\n\nReply with one operation as a JSON object.\n";
  return S;
}

LLMProposer::LLMProposer(ChatClient &Client, const ReplyCache *Cache,
                         std::string SystemPrompt,
                         const TriggerRewriter &Rewriter,
                         const MetricCatalog &Catalog, unsigned Budget)
    : Client(Client), Cache(Cache), SystemPrompt(std::move(SystemPrompt)),
      Rewriter(Rewriter), Catalog(Catalog), Budget(Budget) {}

Expected<std::vector<Proposal>>
LLMProposer::propose(const ProfilingTree &T, const Evaluation &Current,
                     llvm::ArrayRef<const DatasetKernel *>) {
  std::vector<ChatMessage> Messages = {
      {"system", SystemPrompt},
      {"user", learnPrompt(T, Current, Rewriter, Catalog, Budget, Tried)}};
  ChatRequest Req = Client.config().makeRequest(std::move(Messages));
  Expected<ChatReply> Reply =
      Cache ? Cache->complete(Client, Req) : Client.complete(Req);
  if (!Reply)
    return Reply.takeError();
  if (!Reply->FromCache) {
    ++Requests;
    if (Reply->Usage)
      Tokens += Reply->Usage->TotalTokens;
  }
  Expected<Proposal> P = parseOperation(Reply->Text, T, Catalog);
  if (P)
    return std::vector<Proposal>{std::move(*P)};
  Proposal Bad;
  Bad.Operation = "INVALID";
  Bad.Node = "-";
  std::string Text = Reply->Text.substr(0, 200);
  std::replace(Text.begin(), Text.end(), '\n', ' ');
  Bad.Change = Text;
  Bad.Tree = T;
  Bad.Invalid = llvm::toString(P.takeError());
  return std::vector<Proposal>{std::move(Bad)};
}

void LLMProposer::feedback(const std::vector<LogEntry> &Round) {
  Tried.insert(Tried.end(), Round.begin(), Round.end());
}
