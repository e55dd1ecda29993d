//===- AgentConfig.cpp - What the tool asks the injection library ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "AgentConfig.h"

#include "autoprof/JSON/BoundedParse.h"

#include "rapidjson/document.h"
#include "rapidjson/stringbuffer.h"
#include "rapidjson/writer.h"

#include <fstream>
#include <sstream>

using namespace autoprof;
using namespace autoprof::inject;

namespace {

bool readStrings(const rapidjson::Value &Doc, const char *Key,
                 std::vector<std::string> &Out) {
  auto It = Doc.FindMember(Key);
  if (It == Doc.MemberEnd())
    return true;
  if (!It->value.IsArray())
    return false;
  for (const auto &S : It->value.GetArray()) {
    if (!S.IsString())
      return false;
    Out.push_back(S.GetString());
  }
  return true;
}

std::string readFile(const std::string &Path, bool &Ok) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  Ok = static_cast<bool>(In);
  return SS.str();
}

} // namespace

bool autoprof::inject::loadAgentConfig(const std::string &Path,
                                       AgentConfig &Out, std::string &Error) {
  bool Ok = false;
  std::string Text = readFile(Path, Ok);
  if (!Ok) {
    Error = "cannot read the profiling configuration '" + Path + "'";
    return false;
  }
  rapidjson::Document Doc;
  std::string JSONError;
  if (!json::parseBounded(Text, Doc, JSONError) || !Doc.IsObject() ||
      !Doc.HasMember("output") || !Doc["output"].IsString()) {
    Error = "malformed profiling configuration '" + Path + "'";
    return false;
  }
  Out.Output = Doc["output"].GetString();
  auto Uint = [&](const char *Key, unsigned &V) {
    auto It = Doc.FindMember(Key);
    if (It != Doc.MemberEnd() && It->value.IsUint())
      V = It->value.GetUint();
  };
  Uint("run", Out.Run);
  Uint("launch_skip", Out.LaunchSkip);
  Uint("launch_count", Out.LaunchCount);
  if (auto It = Doc.FindMember("cache_control"); It != Doc.MemberEnd()) {
    std::string Control = It->value.IsString() ? It->value.GetString() : "";
    if (Control != "all" && Control != "none") {
      Error = "malformed cache control in '" + Path + "'";
      return false;
    }
    Out.FlushCaches = Control == "all";
  }
  if (Doc.HasMember("kernel_regex") && Doc["kernel_regex"].IsString()) {
    Out.KernelRegexText = Doc["kernel_regex"].GetString();
    if (!Out.KernelRegexText.empty()) {
      try {
        Out.KernelRegex.emplace(Out.KernelRegexText,
                                std::regex::ECMAScript | std::regex::optimize);
      } catch (const std::regex_error &E) {
        Error = "invalid kernel regular expression '" + Out.KernelRegexText +
                "': " + E.what();
        return false;
      }
    }
  }
  std::vector<std::string> Range;
  if (!readStrings(Doc, "metrics", Out.Metrics) ||
      !readStrings(Doc, "range_metrics", Range)) {
    Error = "malformed metric list in '" + Path + "'";
    return false;
  }
  Out.RangeMetrics.insert(Range.begin(), Range.end());
  if (Doc.HasMember("derived_inputs") && Doc["derived_inputs"].IsObject())
    for (const auto &E : Doc["derived_inputs"].GetObject()) {
      std::vector<std::string> Inputs;
      if (readStrings(Doc["derived_inputs"], E.name.GetString(), Inputs))
        Out.DerivedInputs[E.name.GetString()] = Inputs;
    }
  if (Doc.HasMember("tree_file") && Doc["tree_file"].IsString()) {
    std::string TreePath = Doc["tree_file"].GetString();
    std::string TreeText = readFile(TreePath, Ok);
    auto T = std::make_unique<ProfilingTree>();
    std::vector<TreeProblem> Problems;
    if (!Ok || !parseTree(TreeText, *T, Problems)) {
      Error = "cannot read the tree '" + TreePath + "'";
      return false;
    }
    Out.Tree = std::move(T);
  }
  if (Doc.HasMember("kernels") && Doc["kernels"].IsArray()) {
    std::set<std::string> Known(featureNames().begin(), featureNames().end());
    for (const auto &K : Doc["kernels"].GetArray()) {
      if (!K.IsObject() || !K.HasMember("mangled_name") ||
          !K["mangled_name"].IsString() || !K.HasMember("features") ||
          !K["features"].IsObject())
        continue;
      KernelFeatures F;
      for (const auto &E : K["features"].GetObject()) {
        std::string Name = E.name.GetString();
        if (!Known.count(Name))
          continue;
        if (E.value.IsNumber())
          F.set(Name, E.value.GetDouble());
        else
          F.clear(Name);
      }
      Out.Features[K["mangled_name"].GetString()] = F;
    }
  }
  if (Doc.HasMember("second_run") && Doc["second_run"].IsObject()) {
    for (const auto &E : Doc["second_run"].GetObject()) {
      SecondRunLaunch L;
      const auto &V = E.value;
      if (!V.IsObject())
        continue;
      if (V.HasMember("launch") && V["launch"].IsUint())
        L.Launch = V["launch"].GetUint();
      if (V.HasMember("samples") && V["samples"].IsObject())
        for (const auto &S : V["samples"].GetObject())
          if (S.value.IsNumber())
            L.Samples[S.name.GetString()] = S.value.GetDouble();
      Out.SecondRun[E.name.GetString()] = L;
    }
  }
  return true;
}

std::string autoprof::inject::writeAgentConfig(const AgentRequest &R) {
  rapidjson::StringBuffer B;
  rapidjson::Writer<rapidjson::StringBuffer> W(B);
  auto Strings = [&](const std::vector<std::string> &V) {
    W.StartArray();
    for (const std::string &S : V)
      W.String(S.c_str(), S.size());
    W.EndArray();
  };
  W.StartObject();
  W.Key("version");
  W.Int(1);
  W.Key("output");
  W.String(R.Output.c_str(), R.Output.size());
  W.Key("run");
  W.Uint(R.Run);
  W.Key("kernel_regex");
  W.String(R.KernelRegexText.c_str(), R.KernelRegexText.size());
  W.Key("launch_skip");
  W.Uint(R.LaunchSkip);
  W.Key("launch_count");
  W.Uint(R.LaunchCount);
  W.Key("cache_control");
  W.String(R.FlushCaches ? "all" : "none");
  if (R.TreeFile.empty()) {
    W.Key("metrics");
    Strings(R.Metrics);
  } else {
    W.Key("tree_file");
    W.String(R.TreeFile.c_str(), R.TreeFile.size());
  }
  W.Key("range_metrics");
  Strings(R.RangeMetrics);
  W.Key("derived_inputs");
  W.StartObject();
  for (const auto &[D, Inputs] : R.DerivedInputs) {
    W.Key(D.c_str(), D.size());
    Strings(Inputs);
  }
  W.EndObject();
  W.Key("kernels");
  W.StartArray();
  for (const auto &[Mangled, Features] : R.Kernels) {
    W.StartObject();
    W.Key("mangled_name");
    W.String(Mangled.c_str(), Mangled.size());
    W.Key("features");
    W.StartObject();
    for (const auto &[Name, V] : Features) {
      W.Key(Name.c_str(), Name.size());
      if (V)
        W.Double(*V);
      else
        W.Null();
    }
    W.EndObject();
    W.EndObject();
  }
  W.EndArray();
  if (!R.SecondRun.empty()) {
    W.Key("second_run");
    W.StartObject();
    for (const auto &[Mangled, L] : R.SecondRun) {
      W.Key(Mangled.c_str(), Mangled.size());
      W.StartObject();
      W.Key("launch");
      W.Uint(L.Launch);
      W.Key("samples");
      W.StartObject();
      for (const auto &[Name, V] : L.Samples) {
        W.Key(Name.c_str(), Name.size());
        W.Double(V);
      }
      W.EndObject();
      W.EndObject();
    }
    W.EndObject();
  }
  W.EndObject();
  return std::string(B.GetString(), B.GetSize());
}
