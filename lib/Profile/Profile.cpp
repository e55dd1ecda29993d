//===- Profile.cpp - The profile that `profile` writes --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profile/Profile.h"
#include "autoprof/JSON/FieldReader.h"

#include "rapidjson/document.h"
#include "rapidjson/prettywriter.h"
#include "rapidjson/stringbuffer.h"

#include <climits>
#include <cmath>
#include <cstdio>
#include <unistd.h>

using namespace autoprof;
using namespace autoprof::json;

const MetricValue *ProfileRecord::find(const std::string &Name) const {
  for (const auto &[N, V] : Metrics)
    if (N == Name)
      return &V;
  return nullptr;
}

void ProfileRecord::set(const std::string &Name, double Value,
                        const std::string &Unit) {
  for (auto &[N, V] : Metrics)
    if (N == Name) {
      V = {Value, Unit};
      return;
    }
  Metrics.push_back({Name, {Value, Unit}});
}

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void writeNumber(Writer &W, double V) {
  // JSON has no NaN or infinity; a metric CUPTI could not evaluate is null.
  if (!std::isfinite(V)) {
    W.Null();
    return;
  }
  if (V == std::floor(V) && std::fabs(V) < 9e15)
    W.Int64(static_cast<int64_t>(V));
  else
    W.Double(V);
}

void writeDim(Writer &W, const char *Key, const std::array<unsigned, 3> &D) {
  W.Key(Key);
  W.StartArray();
  for (unsigned X : D)
    W.Uint(X);
  W.EndArray();
}

void writeStrings(Writer &W, const char *Key,
                  const std::vector<std::string> &S) {
  W.Key(Key);
  W.StartArray();
  for (const std::string &X : S)
    W.String(X.c_str(), X.size());
  W.EndArray();
}

void writeRecord(Writer &W, const ProfileRecord &R) {
  W.StartObject();
  W.Key("kernel");
  W.String(R.Kernel.c_str());
  // Optional fields that are unknown are left out.
  if (!R.MangledName.empty()) {
    W.Key("mangled_name");
    W.String(R.MangledName.c_str());
  }
  W.Key("launch");
  W.Uint(R.Launch);
  W.Key("run");
  W.Uint(R.Run);
  W.Key("device");
  W.Int(R.Device);
  writeDim(W, "grid", R.Grid);
  writeDim(W, "block", R.Block);
  W.Key("dynamic_shared_mem");
  W.Uint(R.DynamicSharedMem);
  W.Key("duration_ns");
  if (R.DurationNs)
    writeNumber(W, *R.DurationNs);
  else
    W.Null();
  if (!R.Stage.empty()) {
    W.Key("stage");
    W.String(R.Stage.c_str());
  }
  W.Key("passes");
  W.Uint(R.Passes);
  W.Key("metrics");
  W.StartObject();
  for (const auto &[Name, V] : R.Metrics) {
    W.Key(Name.c_str());
    W.StartObject();
    W.Key("value");
    writeNumber(W, V.Value);
    W.Key("unit");
    W.String(V.Unit.c_str());
    W.EndObject();
  }
  W.EndObject();
  if (!R.Route.empty() || !R.Leaf.empty()) {
    W.Key("route");
    W.StartArray();
    for (const ProfileRouteStep &S : R.Route) {
      W.StartObject();
      W.Key("node");
      W.String(S.Node.c_str());
      W.Key("value");
      if (S.Value)
        writeNumber(W, *S.Value);
      else
        W.Null();
      W.Key("branch");
      W.String(S.Branch.c_str());
      W.EndObject();
    }
    W.EndArray();
    W.Key("leaf");
    W.String(R.Leaf.c_str());
    W.Key("focus");
    W.String(R.Focus.c_str());
  }
  W.EndObject();
}

/// The stages a record names (docs/profile-format.md).
bool knownStage(const std::string &S) {
  return S == "stage1" || S == "leaf" || S == "stage1+leaf" || S == "metrics";
}

bool readRoute(Reader &Rd, const Value &V, const std::string &Path,
               std::vector<ProfileRouteStep> &Out) {
  if (!V.IsArray())
    return Rd.fail(Path, "expected an array");
  for (unsigned I = 0; I < V.Size(); ++I) {
    const Value &S = V[I];
    std::string SPath = Path + "[" + std::to_string(I) + "]";
    if (!S.IsObject())
      return Rd.fail(SPath, "expected an object");
    ProfileRouteStep Step;
    if (!Rd.string(S, "node", SPath, Step.Node, true) ||
        !Rd.string(S, "branch", SPath, Step.Branch, true))
      return false;
    if (Step.Node.empty())
      return Rd.fail(SPath + ".node", "expected a non-empty string");
    if (Step.Branch != "then" && Step.Branch != "else" &&
        Step.Branch != "pending")
      return Rd.fail(SPath + ".branch",
                     "expected \"then\", \"else\" or \"pending\"");
    auto SV = S.FindMember("value");
    if (SV != S.MemberEnd() && !SV->value.IsNull()) {
      if (!SV->value.IsNumber())
        return Rd.fail(SPath + ".value", "expected a number or null");
      Step.Value = SV->value.GetDouble();
    }
    Out.push_back(Step);
  }
  return true;
}

bool readRecord(Reader &Rd, const Value &V, const std::string &Path,
                ProfileRecord &R) {
  if (!V.IsObject())
    return Rd.fail(Path, "expected an object");
  if (!Rd.string(V, "kernel", Path, R.Kernel, true) ||
      !Rd.string(V, "mangled_name", Path, R.MangledName, false) ||
      !Rd.uint(V, "launch", Path, R.Launch) ||
      !Rd.uint(V, "run", Path, R.Run) || !Rd.dim(V, "grid", Path, R.Grid) ||
      !Rd.dim(V, "block", Path, R.Block) ||
      !Rd.uint(V, "dynamic_shared_mem", Path, R.DynamicSharedMem) ||
      !Rd.string(V, "stage", Path, R.Stage, false) ||
      !Rd.uint(V, "passes", Path, R.Passes) ||
      !Rd.string(V, "leaf", Path, R.Leaf, false) ||
      !Rd.string(V, "focus", Path, R.Focus, false))
    return false;
  unsigned Device = 0;
  if (!Rd.uint(V, "device", Path, Device))
    return false;
  if (Device > static_cast<unsigned>(INT_MAX))
    return Rd.fail(Path + ".device", "expected a CUDA device ordinal");
  R.Device = static_cast<int>(Device);
  if (R.Kernel.empty())
    return Rd.fail(Path + ".kernel", "expected a non-empty string");
  if (V.HasMember("mangled_name") && R.MangledName.empty())
    return Rd.fail(Path + ".mangled_name", "expected a non-empty string");
  if (R.Run != 1 && R.Run != 2)
    return Rd.fail(Path + ".run", "expected 1 or 2");
  for (const char *Key : {"grid", "block"})
    for (unsigned D : Key[0] == 'g' ? R.Grid : R.Block)
      if (D == 0)
        return Rd.fail(Path + "." + Key, "expected [x, y, z], each at least 1");
  if (V.HasMember("stage") && !knownStage(R.Stage))
    return Rd.fail(Path + ".stage", "expected \"stage1\", \"leaf\", "
                                    "\"stage1+leaf\" or \"metrics\"");
  auto D = V.FindMember("duration_ns");
  if (D != V.MemberEnd() && !D->value.IsNull()) {
    if (!D->value.IsNumber() || D->value.GetDouble() < 0)
      return Rd.fail(Path + ".duration_ns",
                     "expected a non-negative number or null");
    R.DurationNs = D->value.GetDouble();
  }
  auto M = V.FindMember("metrics");
  if (M == V.MemberEnd())
    return Rd.fail(Path, "missing 'metrics'");
  if (!M->value.IsObject())
    return Rd.fail(Path + ".metrics", "expected an object");
  for (const auto &E : M->value.GetObject()) {
    std::string MPath = Path + ".metrics." + E.name.GetString();
    if (E.name.GetStringLength() == 0)
      return Rd.fail(MPath, "a metric needs a name");
    const Value &MV = E.value;
    auto Val = MV.IsObject() ? MV.FindMember("value") : MV.MemberEnd();
    if (!MV.IsObject() || Val == MV.MemberEnd() ||
        !(Val->value.IsNumber() || Val->value.IsNull()))
      return Rd.fail(MPath, "expected {\"value\": <number>, ...}");
    MetricValue X;
    X.Value = Val->value.IsNull() ? NAN : Val->value.GetDouble();
    if (!Rd.string(MV, "unit", MPath, X.Unit, false))
      return false;
    R.Metrics.push_back({E.name.GetString(), X});
  }
  auto Route = V.FindMember("route");
  if (Route != V.MemberEnd() &&
      !readRoute(Rd, Route->value, Path + ".route", R.Route))
    return false;
  return true;
}

} // namespace

std::string autoprof::writeProfileJSON(const Profile &P) {
  rapidjson::StringBuffer Buf;
  Writer W(Buf);
  W.SetIndent(' ', 2);
  W.StartObject();
  W.Key("version");
  W.Int(ProfileFormatVersion);
  W.Key("tool");
  W.String("clang-autoprof");
  if (!P.Tree.empty()) {
    W.Key("tree");
    W.String(P.Tree.c_str());
  }
  W.Key("chip");
  W.String(P.Chip.c_str());
  W.Key("records");
  W.StartArray();
  for (const ProfileRecord &R : P.Records)
    writeRecord(W, R);
  W.EndArray();
  writeStrings(W, "warnings", P.Warnings);
  writeStrings(W, "errors", P.Errors);
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}

bool autoprof::parseProfileJSON(const std::string &Text, Profile &Out,
                                std::string &Error) {
  rapidjson::Document Doc;
  if (!parseObject(Text, Doc, Error))
    return false;
  Reader Rd{Error};
  auto Version = Doc.FindMember("version");
  if (Version == Doc.MemberEnd())
    return Rd.fail("$", "missing 'version'");
  if (!Version->value.IsInt() ||
      Version->value.GetInt() != ProfileFormatVersion)
    return Rd.fail("$.version", "unsupported version (expected " +
                                    std::to_string(ProfileFormatVersion) + ")");
  if (!Rd.string(Doc, "tree", "$", Out.Tree, false) ||
      !Rd.string(Doc, "chip", "$", Out.Chip, false) ||
      !Rd.strings(Doc, "warnings", "$", Out.Warnings) ||
      !Rd.strings(Doc, "errors", "$", Out.Errors))
    return false;
  auto Records = Doc.FindMember("records");
  if (Records == Doc.MemberEnd())
    return Rd.fail("$", "missing 'records'");
  if (!Records->value.IsArray())
    return Rd.fail("$.records", "expected an array");
  for (unsigned I = 0; I < Records->value.Size(); ++I) {
    ProfileRecord R;
    if (!readRecord(Rd, Records->value[I],
                    "$.records[" + std::to_string(I) + "]", R))
      return false;
    Out.Records.push_back(std::move(R));
  }
  return true;
}

bool autoprof::writeFileAtomically(const std::string &Path,
                                   const std::string &Text) {
  std::string Tmp = Path + ".tmp" + std::to_string(getpid());
  FILE *F = std::fopen(Tmp.c_str(), "wb");
  if (!F)
    return false;
  bool Ok = std::fwrite(Text.data(), 1, Text.size(), F) == Text.size();
  Ok &= std::fclose(F) == 0;
  if (!Ok || std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}
