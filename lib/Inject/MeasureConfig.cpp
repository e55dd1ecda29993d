//===- MeasureConfig.cpp - What the verifier asks the agent ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "MeasureConfig.h"

#include "autoprof/JSON/BoundedParse.h"

#include "rapidjson/document.h"

using namespace autoprof;
using namespace autoprof::inject;

bool autoprof::inject::parseMeasureConfig(const std::string &Text,
                                          const std::string &Path,
                                          MeasureConfig &Out,
                                          std::string &Error) {
  rapidjson::Document Doc;
  auto Fail = [&](const std::string &What) {
    Error = "malformed measurement configuration '" + Path + "': " + What;
    return false;
  };
  std::string JSONError;
  if (!json::parseBounded(Text, Doc, JSONError))
    return Fail(JSONError);
  if (!Doc.IsObject())
    return Fail("not a JSON object");
  auto Output = Doc.FindMember("output");
  if (Output == Doc.MemberEnd() || !Output->value.IsString())
    return Fail("$.output: expected a string");
  Out.Output = Output->value.GetString();
  auto Dir = Doc.FindMember("snapshot_dir");
  if (Dir != Doc.MemberEnd()) {
    if (!Dir->value.IsString())
      return Fail("$.snapshot_dir: expected a string");
    Out.SnapshotDir = Dir->value.GetString();
  }
  auto Launch = Doc.FindMember("snapshot_launch");
  if (Launch != Doc.MemberEnd()) {
    if (!Launch->value.IsUint())
      return Fail("$.snapshot_launch: expected a non-negative integer");
    Out.SnapshotLaunch = Launch->value.GetUint();
  }
  auto Kernels = Doc.FindMember("kernels");
  if (Kernels == Doc.MemberEnd() || !Kernels->value.IsObject())
    return Fail("$.kernels: expected an object");
  for (const auto &K : Kernels->value.GetObject()) {
    std::string Where = std::string("$.kernels.") + K.name.GetString();
    if (!K.value.IsArray())
      return Fail(Where + ": expected an array of parameter indices");
    std::vector<unsigned> &Params = Out.Kernels[K.name.GetString()];
    for (const auto &P : K.value.GetArray()) {
      if (!P.IsUint())
        return Fail(Where + ": expected an array of parameter indices");
      Params.push_back(P.GetUint());
    }
  }
  auto Poison = Doc.FindMember("poison");
  if (Poison == Doc.MemberEnd())
    return true;
  const auto &P = Poison->value;
  if (!P.IsObject())
    return Fail("$.poison: expected an object");
  auto PL = P.FindMember("launch");
  if (PL == P.MemberEnd() || !PL->value.IsUint() || PL->value.GetUint() == 0)
    return Fail("$.poison.launch: expected a positive integer");
  Out.PoisonLaunch = PL->value.GetUint();
  auto Seed = P.FindMember("seed");
  if (Seed == P.MemberEnd() || !Seed->value.IsUint64())
    return Fail("$.poison.seed: expected a non-negative integer");
  Out.PoisonSeed = Seed->value.GetUint64();
  auto Kinds = P.FindMember("kinds");
  if (Kinds == P.MemberEnd())
    return true;
  if (!Kinds->value.IsObject())
    return Fail("$.poison.kinds: expected an object");
  for (const auto &K : Kinds->value.GetObject()) {
    std::string Where = std::string("$.poison.kinds.") + K.name.GetString();
    if (!K.value.IsArray())
      return Fail(Where + ": expected an array of element kinds");
    std::vector<std::string> &Names = Out.PoisonKinds[K.name.GetString()];
    for (const auto &N : K.value.GetArray()) {
      if (!N.IsString())
        return Fail(Where + ": expected an array of element kinds");
      Names.push_back(N.GetString());
    }
  }
  return true;
}
