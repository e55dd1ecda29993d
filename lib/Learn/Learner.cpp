//===- Learner.cpp - Learning a profiling tree ----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/Learner.h"

#include <algorithm>
#include <map>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;

Proposer::~Proposer() = default;

uint64_t SplitMix64::next() {
  uint64_t Z = (State += 0x9e3779b97f4a7c15ULL);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
  return Z ^ (Z >> 31);
}

/// Why \p T cannot be evaluated, or an empty string.
static std::string invalidTree(const ProfilingTree &T) {
  std::vector<TreeProblem> Problems;
  checkTreeStructure(T, Problems);
  if (!Problems.empty())
    return Problems.front().Path + ": " + Problems.front().Message;
  return "";
}

Expected<LearnResult>
learn::learnTree(ProfilingTree Init,
                 llvm::ArrayRef<const DatasetKernel *> Train, Proposer &P,
                 const TriggerRewriter &Rewriter, PassPricer &Pricer,
                 const LearnOptions &O) {
  LearnResult R;
  R.Tree = std::move(Init);
  R.Tree.Budget = O.Budget;
  if (std::string Why = invalidTree(R.Tree); !Why.empty())
    return llvm::createStringError("the initial tree is invalid: " + Why);
  Expected<Evaluation> Cur =
      evaluateTree(R.Tree, Train, Rewriter, Pricer, O.Live);
  if (!Cur)
    return Cur.takeError();
  if (Cur->MaxPasses > O.Budget)
    return llvm::createStringError("the initial tree '" + R.Tree.Name +
                                   "' costs " + std::to_string(Cur->MaxPasses) +
                                   " passes, over the budget of " +
                                   std::to_string(O.Budget));
  R.Train = std::move(*Cur);
  if (O.OnRound)
    O.OnRound(0, R.Train);

  for (unsigned It = 1; It <= O.Iterations; ++It) {
    Expected<std::vector<Proposal>> Props = P.propose(R.Tree, R.Train, Train);
    if (!Props)
      return Props.takeError();
    if (Props->empty())
      break;
    std::optional<size_t> Best;
    Evaluation BestEval;
    std::vector<LogEntry> Entries;
    for (size_t I = 0; I < Props->size(); ++I) {
      Proposal &Prop = (*Props)[I];
      Prop.Tree.Budget = O.Budget;
      LogEntry E;
      E.Iteration = It;
      E.Operation = Prop.Operation;
      E.Node = Prop.Node;
      E.Change = Prop.Change;
      E.Before = R.Train.GeoMean;
      E.PassesBefore = R.Train.MeanPasses;
      E.Invalid = Prop.Invalid.empty() ? invalidTree(Prop.Tree) : Prop.Invalid;
      if (E.Invalid.empty()) {
        Expected<Evaluation> Ev =
            evaluateTree(Prop.Tree, Train, Rewriter, Pricer, O.Live);
        if (!Ev)
          return Ev.takeError();
        if (Ev->MaxPasses > O.Budget) {
          E.Invalid = "costs " + std::to_string(Ev->MaxPasses) +
                      " passes, over the budget of " + std::to_string(O.Budget);
        } else {
          E.After = Ev->GeoMean;
          E.PassesAfter = Ev->MeanPasses;
          bool Ties =
              Best && !Ev->betterThan(BestEval) && !BestEval.betterThan(*Ev);
          if (Ev->betterThan(R.Train) &&
              (!Best || Ev->betterThan(BestEval) ||
               (Ties && Prop.Preference > (*Props)[*Best].Preference))) {
            Best = I;
            BestEval = std::move(*Ev);
          }
        }
      }
      Entries.push_back(std::move(E));
    }
    if (Best)
      Entries[*Best].Accepted = true;
    if (O.OnProposal)
      for (const LogEntry &E : Entries)
        O.OnProposal(E);
    P.feedback(Entries);
    R.Rounds = It;
    if (Best) {
      R.Tree = std::move((*Props)[*Best].Tree);
      R.Train = std::move(BestEval);
    }
    if (O.OnRound)
      O.OnRound(It, R.Train);
    if (!Best && P.stopsWhenNothingImproves())
      break;
  }
  return R;
}

llvm::Error learn::fillLeaves(LearnResult &R,
                              llvm::ArrayRef<const DatasetKernel *> Train,
                              const TriggerRewriter &Rewriter,
                              PassPricer &Pricer, unsigned Budget) {
  // The rules whose transformation won on more training kernels first (a
  // held-out kernel is likelier to gain from them); then the rewriter's
  // order.
  std::vector<const TriggerRewriter::Rule *> Order;
  std::map<std::string, unsigned> Wins;
  for (const TriggerRewriter::Rule &Rule : Rewriter.rules())
    Order.push_back(&Rule);
  for (const DatasetKernel *K : Train)
    for (const Outcome &O : K->Outcomes)
      if (O.win())
        ++Wins[O.Transformation];
  std::stable_sort(
      Order.begin(), Order.end(),
      [&](const TriggerRewriter::Rule *A, const TriggerRewriter::Rule *B) {
        return Wins[A->Name] > Wins[B->Name];
      });
  for (size_t N = 0; N < R.Tree.Nodes.size(); ++N) {
    if (!R.Tree.Nodes[N].Leaf)
      continue;
    for (const TriggerRewriter::Rule *RulePtr : Order) {
      const TriggerRewriter::Rule &Rule = *RulePtr;
      ProfilingTree T = R.Tree;
      std::vector<std::string> &M = T.Nodes[N].Metrics;
      size_t Before = M.size();
      for (const std::string &Name : Rule.Metrics)
        if (std::find(M.begin(), M.end(), Name) == M.end())
          M.push_back(Name);
      if (M.size() == Before)
        continue;
      Expected<unsigned> P = Pricer.passes(T.Stage1, M);
      if (!P)
        return P.takeError();
      if (*P > Budget)
        continue;
      Expected<Evaluation> E = evaluateTree(T, Train, Rewriter, Pricer);
      if (!E)
        return E.takeError();
      // Not lower: equal up to rounding, or higher.
      if (E->GeoMean < R.Train.GeoMean * (1 - 1e-9))
        continue;
      R.Tree = std::move(T);
      R.Train = std::move(*E);
    }
  }
  return llvm::Error::success();
}

std::pair<std::string, std::string>
learn::splitLeaf(ProfilingTree &T, const std::string &Leaf,
                 const NodeTest &Test, std::vector<std::string> Then,
                 std::vector<std::string> Else) {
  auto Fresh = [&](const std::string &Taken) {
    for (unsigned K = 1;; ++K) {
      std::string Id = "n" + std::to_string(K);
      if (!T.find(Id) && Id != Taken)
        return Id;
    }
  };
  std::string ThenId = Fresh(""), ElseId = Fresh(ThenId);
  for (TreeNode &N : T.Nodes)
    if (N.Id == Leaf) {
      N.Leaf = false;
      N.Metrics.clear();
      N.Focus.clear();
      N.Test = Test;
      N.Then = ThenId;
      N.Else = ElseId;
    }
  for (auto *Side : {&Then, &Else}) {
    TreeNode L;
    L.Id = Side == &Then ? ThenId : ElseId;
    L.Leaf = true;
    L.Metrics = std::move(*Side);
    L.Path = "$.nodes[" + std::to_string(T.Nodes.size()) + "]";
    T.Nodes.push_back(std::move(L));
  }
  return {ThenId, ElseId};
}
