//===- ProfilingTree.cpp - The profiling tree model -----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tree/ProfilingTree.h"

#include "autoprof/Features/KernelRecord.h"

#include "autoprof/JSON/BoundedParse.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <set>

using namespace autoprof;

const TreeNode *ProfilingTree::find(const std::string &Id) const {
  for (const TreeNode &N : Nodes)
    if (N.Id == Id)
      return &N;
  return nullptr;
}

namespace {

using Value = rapidjson::Value;

struct Parser {
  std::vector<TreeProblem> &Problems;
  bool Ok = true;

  void fail(const std::string &Path, const std::string &Msg) {
    Problems.push_back({Path, Msg});
    Ok = false;
  }
  const Value *member(const Value &Obj, const char *Key,
                      const std::string &Path, bool Required = true) {
    auto It = Obj.FindMember(Key);
    if (It == Obj.MemberEnd()) {
      if (Required)
        fail(Path, std::string("missing \"") + Key + "\"");
      return nullptr;
    }
    return &It->value;
  }
  bool string(const Value &Obj, const char *Key, const std::string &Path,
              std::string &Out, bool Required = true) {
    const Value *V = member(Obj, Key, Path, Required);
    if (!V)
      return false;
    if (!V->IsString() || V->GetStringLength() == 0) {
      fail(Path + "." + Key, "expected a non-empty string");
      return false;
    }
    Out = V->GetString();
    return true;
  }
  void strings(const Value &Obj, const char *Key, const std::string &Path,
               std::vector<std::string> &Out, bool AllowEmpty) {
    const Value *V = member(Obj, Key, Path);
    if (!V)
      return;
    if (!V->IsArray() || (!AllowEmpty && V->Empty())) {
      fail(Path + "." + Key, AllowEmpty
                                 ? "expected an array of strings"
                                 : "expected a non-empty array of strings");
      return;
    }
    for (rapidjson::SizeType I = 0; I < V->Size(); ++I) {
      if (!(*V)[I].IsString())
        fail(Path + "." + Key + "[" + std::to_string(I) + "]",
             "expected a string");
      else
        Out.push_back((*V)[I].GetString());
    }
  }
};

std::string formatNumber(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%g", V);
  return Buf;
}

std::string testText(const NodeTest &T) {
  return std::string(T.From == NodeTest::Source::Feature ? "feature "
                                                         : "sample ") +
         T.Key + " " + T.Op + " " + formatNumber(T.Threshold);
}

} // namespace

bool autoprof::parseTree(const std::string &Text, ProfilingTree &Out,
                         std::vector<TreeProblem> &Problems) {
  rapidjson::Document Doc;
  std::string JSONError;
  if (!json::parseBounded(Text, Doc, JSONError)) {
    // "<where>: <what>", where is a position or a JSON path.
    size_t Split = JSONError.find(": ");
    if (Split == std::string::npos)
      Problems.push_back({"$", JSONError});
    else
      Problems.push_back(
          {JSONError.substr(0, Split), JSONError.substr(Split + 2)});
    return false;
  }
  Parser P{Problems};
  if (!Doc.IsObject()) {
    P.fail("$", "expected an object");
    return false;
  }
  const Value *Version = P.member(Doc, "version", "$");
  if (!Version)
    return false;
  if (!Version->IsInt() || Version->GetInt() != TreeFormatVersion) {
    P.fail("$.version", "unsupported version (this tool reads version " +
                            std::to_string(TreeFormatVersion) + ")");
    return false;
  }
  P.string(Doc, "name", "$", Out.Name);
  P.strings(Doc, "chips", "$", Out.Chips, /*AllowEmpty=*/false);
  if (const Value *B = P.member(Doc, "budget", "$")) {
    if (!B->IsUint() || B->GetUint() == 0)
      P.fail("$.budget", "expected a positive integer (replay passes)");
    else
      Out.Budget = B->GetUint();
  }
  P.strings(Doc, "stage1", "$", Out.Stage1, /*AllowEmpty=*/true);
  P.string(Doc, "root", "$", Out.Root);
  const Value *Nodes = P.member(Doc, "nodes", "$");
  if (Nodes && (!Nodes->IsArray() || Nodes->Empty())) {
    P.fail("$.nodes", "expected a non-empty array");
    Nodes = nullptr;
  }
  for (rapidjson::SizeType I = 0; Nodes && I < Nodes->Size(); ++I) {
    const Value &N = (*Nodes)[I];
    TreeNode TN;
    TN.Path = "$.nodes[" + std::to_string(I) + "]";
    if (!N.IsObject()) {
      P.fail(TN.Path, "expected an object");
      continue;
    }
    P.string(N, "id", TN.Path, TN.Id);
    const Value *Leaf = P.member(N, "leaf", TN.Path, /*Required=*/false);
    const Value *Test = P.member(N, "test", TN.Path, /*Required=*/false);
    if ((Leaf != nullptr) == (Test != nullptr)) {
      P.fail(TN.Path, "a node has either \"test\" (with \"then\" and "
                      "\"else\") or \"leaf\"");
      continue;
    }
    if (Leaf) {
      TN.Leaf = true;
      std::string LP = TN.Path + ".leaf";
      if (!Leaf->IsObject()) {
        P.fail(LP, "expected an object");
        continue;
      }
      P.strings(*Leaf, "metrics", LP, TN.Metrics, /*AllowEmpty=*/false);
      P.string(*Leaf, "focus", LP, TN.Focus);
    } else {
      std::string TP = TN.Path + ".test";
      if (!Test->IsObject()) {
        P.fail(TP, "expected an object");
        continue;
      }
      bool HasFeature = Test->HasMember("feature");
      bool HasSample = Test->HasMember("sample");
      if (HasFeature == HasSample) {
        P.fail(TP, "a test names either \"feature\" or \"sample\"");
      } else {
        TN.Test.From =
            HasFeature ? NodeTest::Source::Feature : NodeTest::Source::Sample;
        P.string(*Test, HasFeature ? "feature" : "sample", TP, TN.Test.Key);
      }
      P.string(*Test, "op", TP, TN.Test.Op);
      if (const Value *Th = P.member(*Test, "threshold", TP)) {
        if (!Th->IsNumber())
          P.fail(TP + ".threshold", "expected a number");
        else
          TN.Test.Threshold = Th->GetDouble();
      }
      P.string(N, "then", TN.Path, TN.Then);
      P.string(N, "else", TN.Path, TN.Else);
    }
    Out.Nodes.push_back(std::move(TN));
  }
  return P.Ok;
}

void autoprof::checkTreeStructure(const ProfilingTree &T,
                                  std::vector<TreeProblem> &Problems) {
  std::map<std::string, const TreeNode *> ById;
  for (const TreeNode &N : T.Nodes)
    if (!ById.emplace(N.Id, &N).second)
      Problems.push_back({N.Path + ".id", "duplicate node id '" + N.Id + "'"});
  if (!ById.count(T.Root))
    Problems.push_back({"$.root", "no node has id '" + T.Root + "'"});
  const std::vector<std::string> &Features = featureNames();
  std::set<std::string> Stage1(T.Stage1.begin(), T.Stage1.end());
  for (const TreeNode &N : T.Nodes) {
    if (N.Leaf)
      continue;
    for (auto [Child, Key] :
         {std::pair<const std::string *, const char *>{&N.Then, "then"},
          {&N.Else, "else"}})
      if (!ById.count(*Child))
        Problems.push_back(
            {N.Path + "." + Key, "no node has id '" + *Child + "'"});
    const NodeTest &Te = N.Test;
    if (Te.Op != "<" && Te.Op != "<=" && Te.Op != ">" && Te.Op != ">=")
      Problems.push_back(
          {N.Path + ".test.op", "'" + Te.Op + "' is not one of <, <=, >, >="});
    if (Te.From == NodeTest::Source::Feature &&
        std::find(Features.begin(), Features.end(), Te.Key) == Features.end())
      Problems.push_back(
          {N.Path + ".test.feature", "unknown feature '" + Te.Key + "'"});
    if (Te.From == NodeTest::Source::Sample && !Stage1.count(Te.Key))
      Problems.push_back(
          {N.Path + ".test.sample", "'" + Te.Key +
                                        "' is not a stage-1 sample of the "
                                        "tree"});
  }
  // Reachability, cycles and shared nodes, by a depth-first walk from the
  // root with a stack of its own: a chain of any length is walked without
  // recursion, and each node is expanded once.
  std::map<std::string, int> State; // 1: on the path, 2: done.
  std::map<std::string, std::string> Parent;
  struct Frame {
    const TreeNode *Node;
    unsigned Next; // 0: then, 1: else, 2: done.
  };
  std::vector<Frame> Stack;
  bool TooDeep = false;
  auto Enter = [&](const std::string &Id, const std::string &From) {
    auto It = ById.find(Id);
    if (It == ById.end())
      return;
    int &S = State[Id];
    if (S == 1) {
      Problems.push_back(
          {It->second->Path, "cycle: node '" + Id + "' is its own descendant"});
      return;
    }
    if (S == 2) {
      Problems.push_back(
          {It->second->Path,
           Parent[Id] == From
               ? "both branches of node '" + From + "' lead to node '" + Id +
                     "': a tree's nodes are reached once"
               : "node '" + Id + "' has two parents, '" + Parent[Id] +
                     "' and '" + From + "': a tree's nodes are reached once"});
      return;
    }
    if (Stack.size() >= MaxTreeDepth) {
      if (!TooDeep)
        Problems.push_back(
            {It->second->Path, "node '" + Id + "' is deeper than " +
                                   std::to_string(MaxTreeDepth) + " levels"});
      TooDeep = true;
      return;
    }
    S = 1;
    Parent[Id] = From;
    Stack.push_back({It->second, It->second->Leaf ? 2u : 0u});
  };
  Enter(T.Root, "");
  while (!Stack.empty()) {
    Frame &F = Stack.back();
    if (F.Next == 2) {
      State[F.Node->Id] = 2;
      Stack.pop_back();
      continue;
    }
    const TreeNode *N = F.Node;
    const std::string &Child = F.Next++ == 0 ? N->Then : N->Else;
    Enter(Child, N->Id);
  }
  for (const TreeNode &N : T.Nodes)
    if (!State.count(N.Id) && !TooDeep)
      Problems.push_back({N.Path, "node '" + N.Id +
                                      "' is unreachable from "
                                      "the root"});
}

std::vector<std::vector<const TreeNode *>>
autoprof::leafPaths(const ProfilingTree &T) {
  std::vector<std::vector<const TreeNode *>> Paths;
  // The nodes from the root to the one being walked, each with the next
  // child to take (0: then, 1: else, 2: none left).
  std::vector<const TreeNode *> Path;
  std::vector<unsigned> Next;
  std::set<const TreeNode *> Seen;
  auto Enter = [&](const std::string &Id) {
    const TreeNode *N = T.find(Id);
    // A broken structure (a missing, shared or cyclic node, or one too
    // deep) has no paths.
    if (!N || !Seen.insert(N).second || Path.size() >= MaxTreeDepth)
      return false;
    Path.push_back(N);
    Next.push_back(N->Leaf ? 2 : 0);
    if (N->Leaf)
      Paths.push_back(Path);
    return true;
  };
  if (!Enter(T.Root))
    return {};
  while (!Path.empty()) {
    if (Next.back() == 2) {
      Path.pop_back();
      Next.pop_back();
      continue;
    }
    const TreeNode *N = Path.back();
    if (!Enter(Next.back()++ == 0 ? N->Then : N->Else))
      return {};
  }
  return Paths;
}

std::string autoprof::writeTreeText(const ProfilingTree &T) {
  std::string Out = "tree " + T.Name + " (chips:";
  for (const std::string &C : T.Chips)
    Out += " " + C;
  Out += ", budget " + std::to_string(T.Budget) + " passes)\n";
  Out += "stage1:";
  for (const std::string &S : T.Stage1)
    Out += " " + S;
  Out += "\n";
  // Depth first, with a stack of its own; a node shown once.
  struct Item {
    std::string Id;
    unsigned Depth;
    std::string Label;
  };
  std::vector<Item> Stack = {{T.Root, 0, ""}};
  std::set<const TreeNode *> Shown;
  while (!Stack.empty()) {
    Item I = std::move(Stack.back());
    Stack.pop_back();
    const TreeNode *N = T.find(I.Id);
    std::string Indent(2 * std::min<unsigned>(I.Depth, MaxTreeDepth), ' ');
    if (!N || I.Depth > MaxTreeDepth || !Shown.insert(N).second) {
      Out += Indent + I.Label + "<missing " + I.Id + ">\n";
      continue;
    }
    if (N->Leaf) {
      Out += Indent + I.Label + "leaf " + N->Id + ":";
      for (const std::string &M : N->Metrics)
        Out += " " + M;
      Out += "\n" + Indent + "  focus: " + N->Focus + "\n";
      continue;
    }
    Out += Indent + I.Label + "node " + N->Id + ": " + testText(N->Test) + "\n";
    Stack.push_back({N->Else, I.Depth + 1, "else: "});
    Stack.push_back({N->Then, I.Depth + 1, "then: "});
  }
  return Out;
}

std::string autoprof::writeTreeDot(const ProfilingTree &T) {
  auto Quote = [](const std::string &S) {
    std::string Q = "\"";
    for (char C : S) {
      if (C == '"' || C == '\\')
        Q += '\\';
      Q += C;
    }
    return Q + "\"";
  };
  std::string Out =
      "digraph " + Quote(T.Name) + " {\n  node [fontname=\"Helvetica\"];\n";
  for (const TreeNode &N : T.Nodes) {
    if (N.Leaf) {
      std::string Label = N.Id;
      for (const std::string &M : N.Metrics)
        Label += "\\n" + M;
      Out += "  " + Quote(N.Id) + " [shape=box, label=\"" + Label + "\"];\n";
    } else {
      Out += "  " + Quote(N.Id) +
             " [shape=ellipse, label=" + Quote(N.Id + ": " + testText(N.Test)) +
             "];\n";
      Out +=
          "  " + Quote(N.Id) + " -> " + Quote(N.Then) + " [label=\"yes\"];\n";
      Out += "  " + Quote(N.Id) + " -> " + Quote(N.Else) + " [label=\"no\"];\n";
    }
  }
  return Out + "}\n";
}

std::string autoprof::writeTreeJSON(const ProfilingTree &T) {
  rapidjson::StringBuffer Buf;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> W(Buf);
  W.SetIndent(' ', 2);
  auto Strings = [&](const std::vector<std::string> &V) {
    W.StartArray();
    for (const std::string &S : V)
      W.String(S.c_str(), S.size());
    W.EndArray();
  };
  W.StartObject();
  W.Key("version");
  W.Int(TreeFormatVersion);
  W.Key("name");
  W.String(T.Name.c_str(), T.Name.size());
  W.Key("chips");
  Strings(T.Chips);
  W.Key("budget");
  W.Uint(T.Budget);
  W.Key("stage1");
  Strings(T.Stage1);
  W.Key("root");
  W.String(T.Root.c_str(), T.Root.size());
  W.Key("nodes");
  W.StartArray();
  for (const TreeNode &N : T.Nodes) {
    W.StartObject();
    W.Key("id");
    W.String(N.Id.c_str(), N.Id.size());
    if (N.Leaf) {
      W.Key("leaf");
      W.StartObject();
      W.Key("metrics");
      Strings(N.Metrics);
      W.Key("focus");
      W.String(N.Focus.c_str(), N.Focus.size());
      W.EndObject();
    } else {
      W.Key("test");
      W.StartObject();
      W.Key(N.Test.From == NodeTest::Source::Feature ? "feature" : "sample");
      W.String(N.Test.Key.c_str(), N.Test.Key.size());
      W.Key("op");
      W.String(N.Test.Op.c_str(), N.Test.Op.size());
      W.Key("threshold");
      W.Double(N.Test.Threshold);
      W.EndObject();
      W.Key("then");
      W.String(N.Then.c_str(), N.Then.size());
      W.Key("else");
      W.String(N.Else.c_str(), N.Else.size());
    }
    W.EndObject();
  }
  W.EndArray();
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}
