//===- Plan.cpp - The plan `plan --format=json` writes --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tree/Plan.h"

#include "autoprof/JSON/BoundedParse.h"
#include "autoprof/JSON/FieldReader.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

using namespace autoprof;

namespace {

using Value = rapidjson::Value;
using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

/// Writes \p S whole, NUL bytes included.
void str(Writer &W, const std::string &S) {
  W.String(S.data(), static_cast<rapidjson::SizeType>(S.size()));
}

void writeOptional(Writer &W, const std::optional<double> &V) {
  if (V)
    W.Double(*V);
  else
    W.Null();
}

void writeKernel(Writer &W, const PlanKernel &K) {
  W.StartObject();
  W.Key("name");
  str(W, K.Name);
  W.Key("qualified_name");
  str(W, K.QualifiedName);
  W.Key("mangled_name");
  str(W, K.MangledName);
  W.Key("route");
  W.StartArray();
  for (const PlanStep &S : K.Route) {
    W.StartObject();
    W.Key("node");
    str(W, S.Node);
    W.Key(S.Feature ? "feature" : "sample");
    str(W, S.Key);
    W.Key("op");
    str(W, S.Op);
    W.Key("threshold");
    W.Double(S.Threshold);
    W.Key("value");
    writeOptional(W, S.Value);
    W.Key("branch");
    str(W, S.Branch);
    W.EndObject();
  }
  W.EndArray();
  W.Key("leaf");
  if (K.Leaf.empty())
    W.Null();
  else
    str(W, K.Leaf);
  W.Key("pending");
  W.Bool(K.Leaf.empty());
  W.Key(K.Leaf.empty() ? "samples_to_collect" : "metrics");
  W.StartArray();
  for (const std::string &M : K.Collect)
    str(W, M);
  W.EndArray();
  W.Key("focus");
  str(W, K.Focus);
  W.Key("passes");
  W.Uint(K.Passes);
  W.Key("features");
  W.StartObject();
  for (const auto &[Name, V] : K.Features) {
    W.Key(Name.data(), Name.size());
    writeOptional(W, V);
  }
  W.EndObject();
  W.EndObject();
}

/// Reads a plan's kernels and their routes, field by field.
struct PlanReader : json::Reader {
  bool step(const Value &S, const std::string &Path, PlanStep &Out) {
    if (!S.IsObject())
      return fail(Path, "expected an object");
    if (!nonEmptyString(S, "node", Path, Out.Node, true) ||
        !nonEmptyString(S, "op", Path, Out.Op, true) ||
        !nonEmptyString(S, "branch", Path, Out.Branch, true))
      return false;
    bool HasFeature = S.HasMember("feature"), HasSample = S.HasMember("sample");
    if (HasFeature == HasSample)
      return fail(Path, "expected one of 'feature' and 'sample'");
    Out.Feature = HasFeature;
    if (!nonEmptyString(S, HasFeature ? "feature" : "sample", Path, Out.Key,
                        true))
      return false;
    auto T = S.FindMember("threshold");
    if (T == S.MemberEnd() || !T->value.IsNumber())
      return fail(Path + ".threshold", "expected a number");
    Out.Threshold = T->value.GetDouble();
    auto V = S.FindMember("value");
    if (V != S.MemberEnd() &&
        !numberOrNull(V->value, Path + ".value", Out.Value))
      return false;
    if (Out.Branch != "then" && Out.Branch != "else" && Out.Branch != "pending")
      return fail(Path + ".branch",
                  "expected \"then\", \"else\" or \"pending\"");
    return true;
  }

  bool kernel(const Value &K, const std::string &Path, PlanKernel &Out) {
    if (!K.IsObject() || !K.HasMember("name") || !K["name"].IsString() ||
        !K["name"].GetStringLength() || !K.HasMember("mangled_name") ||
        !K["mangled_name"].IsString() || !K["mangled_name"].GetStringLength())
      return fail(Path, "expected name and mangled_name");
    Out.Name = K["name"].GetString();
    Out.MangledName = K["mangled_name"].GetString();
    Out.QualifiedName = Out.Name;
    if (!nonEmptyString(K, "qualified_name", Path, Out.QualifiedName, false) ||
        !nonEmptyString(K, "focus", Path, Out.Focus, false) ||
        !uint(K, "passes", Path, Out.Passes))
      return false;
    auto F = K.FindMember("features");
    if (F == K.MemberEnd() || !F->value.IsObject())
      return fail(Path + ".features",
                  "missing (a plan from 'plan --format=json' has them)");
    for (const auto &E : F->value.GetObject()) {
      std::string Name = E.name.GetString();
      std::string FPath = Path + ".features." + json::printableText(Name, 80);
      if (Name.empty())
        return fail(FPath, "a feature needs a name");
      std::optional<double> V;
      if (!numberOrNull(E.value, FPath, V))
        return false;
      Out.Features.emplace_back(Name, V);
    }
    auto R = K.FindMember("route");
    if (R != K.MemberEnd()) {
      if (!R->value.IsArray())
        return fail(Path + ".route", "expected an array");
      for (rapidjson::SizeType I = 0; I < R->value.Size(); ++I) {
        PlanStep S;
        if (!step(R->value[I], Path + ".route[" + std::to_string(I) + "]", S))
          return false;
        Out.Route.push_back(std::move(S));
      }
    }
    auto L = K.FindMember("leaf");
    if (L != K.MemberEnd() && !L->value.IsNull() &&
        !nonEmptyString(K, "leaf", Path, Out.Leaf, true))
      return false;
    auto P = K.FindMember("pending");
    if (P != K.MemberEnd() &&
        (!P->value.IsBool() || P->value.GetBool() != Out.Leaf.empty()))
      return fail(Path + ".pending",
                  "expected true exactly when 'leaf' is null");
    const char *Collect = Out.Leaf.empty() ? "samples_to_collect" : "metrics";
    const char *Other = Out.Leaf.empty() ? "metrics" : "samples_to_collect";
    if (K.HasMember(Other))
      return fail(Path + "." + Other,
                  Out.Leaf.empty() ? "unexpected while the route is pending"
                                   : "unexpected once a leaf is reached");
    return strings(K, Collect, Path, Out.Collect, /*NonEmpty=*/true);
  }
};

} // namespace

std::string autoprof::writePlanJSON(const Plan &P) {
  rapidjson::StringBuffer B;
  Writer W(B);
  W.SetIndent(' ', 2);
  W.StartObject();
  W.Key("version");
  W.Int(PlanFormatVersion);
  W.Key("tree");
  str(W, P.Tree);
  W.Key("tree_file");
  str(W, P.TreeFile);
  W.Key("chip");
  str(W, P.Chip);
  W.Key("budget");
  W.Uint(P.Budget);
  W.Key("kernels");
  W.StartArray();
  for (const PlanKernel &K : P.Kernels)
    writeKernel(W, K);
  W.EndArray();
  W.EndObject();
  return std::string(B.GetString(), B.GetSize()) + "\n";
}

bool autoprof::parsePlanJSON(const std::string &Text, Plan &Out,
                             std::string &Error) {
  rapidjson::Document Doc;
  if (!json::parseBounded(Text, Doc, Error))
    return false;
  PlanReader Rd{{Error}};
  if (!Doc.IsObject() || !Doc.HasMember("version") || !Doc["version"].IsInt() ||
      Doc["version"].GetInt() != PlanFormatVersion)
    return Rd.fail("$.version", "expected version 1 (a plan from 'plan "
                                "--format=json')");
  if (!Rd.nonEmptyString(Doc, "tree", "$", Out.Tree, false) ||
      !Rd.nonEmptyString(Doc, "tree_file", "$", Out.TreeFile, false) ||
      !Rd.nonEmptyString(Doc, "chip", "$", Out.Chip, false) ||
      !Rd.uint(Doc, "budget", "$", Out.Budget))
    return false;
  if (Out.Tree.empty() && Out.TreeFile.empty())
    return Rd.fail("$.tree", "missing");
  auto Ks = Doc.FindMember("kernels");
  if (Ks == Doc.MemberEnd() || !Ks->value.IsArray())
    return Rd.fail("$.kernels", "missing or not an array");
  for (rapidjson::SizeType I = 0; I < Ks->value.Size(); ++I) {
    PlanKernel K;
    if (!Rd.kernel(Ks->value[I], "$.kernels[" + std::to_string(I) + "]", K))
      return false;
    Out.Kernels.push_back(std::move(K));
  }
  return true;
}
