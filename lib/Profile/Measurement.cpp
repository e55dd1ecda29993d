//===- Measurement.cpp - What a measured run of a program records ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profile/Measurement.h"
#include "autoprof/JSON/FieldReader.h"

#include "rapidjson/prettywriter.h"
#include "rapidjson/stringbuffer.h"

#include <cmath>

using namespace autoprof;
using namespace autoprof::json;

const KernelMeasurement *
Measurement::find(const std::string &MangledName) const {
  for (const KernelMeasurement &K : Kernels)
    if (K.MangledName == MangledName)
      return &K;
  return nullptr;
}

std::string autoprof::writeMeasurementJSON(const Measurement &M) {
  rapidjson::StringBuffer Buf;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> W(Buf);
  W.SetIndent(' ', 2);
  W.StartObject();
  W.Key("version");
  W.Int(MeasurementFormatVersion);
  W.Key("dram_bytes_per_second");
  W.Double(M.DramBytesPerSecond);
  W.Key("l2_bytes");
  W.Double(M.L2Bytes);
  W.Key("kernels");
  W.StartArray();
  for (const KernelMeasurement &K : M.Kernels) {
    W.StartObject();
    W.Key("mangled_name");
    W.String(K.MangledName.c_str());
    W.Key("launches");
    W.Uint(K.Launches);
    if (K.Other) {
      W.Key("other");
      W.Bool(true);
    }
    W.Key("durations_ns");
    W.StartArray();
    for (double D : K.DurationsNs)
      W.Double(D);
    W.EndArray();
    if (!K.Snapshots.empty()) {
      W.Key("snapshot_launch");
      W.Uint(K.SnapshotLaunch);
      W.Key("poisoned_bytes");
      W.Uint64(K.PoisonedBytes);
      W.Key("outside_watched");
      W.Uint(K.OutsideWatched);
      W.Key("outside_changed");
      W.StartArray();
      for (uint64_t B : K.OutsideChanged)
        W.Uint64(B);
      W.EndArray();
    }
    W.Key("snapshots");
    W.StartArray();
    for (const BufferSnapshot &S : K.Snapshots) {
      W.StartObject();
      W.Key("params");
      W.StartArray();
      for (unsigned P : S.Params)
        W.Uint(P);
      W.EndArray();
      W.Key("bytes");
      W.Uint64(S.Bytes);
      W.Key("changed_bytes");
      W.Uint64(S.ChangedBytes);
      W.Key("file");
      W.String(S.File.c_str());
      W.EndObject();
    }
    W.EndArray();
    W.EndObject();
  }
  W.EndArray();
  W.Key("errors");
  W.StartArray();
  for (const std::string &E : M.Errors)
    W.String(E.c_str());
  W.EndArray();
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}

namespace {

bool number(Reader &Rd, const Value &Obj, const char *Key,
            const std::string &Path, double &Out) {
  auto It = Obj.FindMember(Key);
  if (It == Obj.MemberEnd())
    return true;
  if (!It->value.IsNumber() || !std::isfinite(It->value.GetDouble()) ||
      It->value.GetDouble() < 0)
    return Rd.fail(Path + "." + Key, "expected a non-negative number");
  Out = It->value.GetDouble();
  return true;
}

bool readSnapshot(Reader &Rd, const Value &V, const std::string &Path,
                  BufferSnapshot &S) {
  if (!V.IsObject())
    return Rd.fail(Path, "expected an object");
  if (!Rd.string(V, "file", Path, S.File, true))
    return false;
  auto Params = V.FindMember("params");
  if (Params == V.MemberEnd() || !Params->value.IsArray())
    return Rd.fail(Path + ".params", "expected an array of parameter indices");
  for (const Value &P : Params->value.GetArray()) {
    if (!P.IsUint())
      return Rd.fail(Path + ".params", "expected an array of parameter "
                                       "indices");
    S.Params.push_back(P.GetUint());
  }
  auto Bytes = V.FindMember("bytes");
  if (Bytes == V.MemberEnd() || !Bytes->value.IsUint64())
    return Rd.fail(Path + ".bytes", "expected a byte count");
  S.Bytes = Bytes->value.GetUint64();
  auto Changed = V.FindMember("changed_bytes");
  if (Changed == V.MemberEnd() || !Changed->value.IsUint64() ||
      Changed->value.GetUint64() > S.Bytes)
    return Rd.fail(Path + ".changed_bytes", "expected a byte count up to "
                                            "'bytes'");
  S.ChangedBytes = Changed->value.GetUint64();
  return true;
}

bool readKernel(Reader &Rd, const Value &V, const std::string &Path,
                KernelMeasurement &K) {
  if (!V.IsObject())
    return Rd.fail(Path, "expected an object");
  if (!Rd.string(V, "mangled_name", Path, K.MangledName, true) ||
      !Rd.uint(V, "launches", Path, K.Launches) ||
      !Rd.uint(V, "snapshot_launch", Path, K.SnapshotLaunch) ||
      !Rd.uint(V, "outside_watched", Path, K.OutsideWatched))
    return false;
  auto Poisoned = V.FindMember("poisoned_bytes");
  if (Poisoned != V.MemberEnd()) {
    if (!Poisoned->value.IsUint64())
      return Rd.fail(Path + ".poisoned_bytes", "expected a byte count");
    K.PoisonedBytes = Poisoned->value.GetUint64();
  }
  auto Outside = V.FindMember("outside_changed");
  if (Outside != V.MemberEnd()) {
    if (!Outside->value.IsArray())
      return Rd.fail(Path + ".outside_changed", "expected an array of byte "
                                                "counts");
    for (const Value &X : Outside->value.GetArray()) {
      if (!X.IsUint64())
        return Rd.fail(Path + ".outside_changed", "expected an array of byte "
                                                  "counts");
      K.OutsideChanged.push_back(X.GetUint64());
    }
  }
  auto Other = V.FindMember("other");
  if (Other != V.MemberEnd()) {
    if (!Other->value.IsBool())
      return Rd.fail(Path + ".other", "expected true or false");
    K.Other = Other->value.GetBool();
  }
  auto D = V.FindMember("durations_ns");
  if (D != V.MemberEnd()) {
    if (!D->value.IsArray())
      return Rd.fail(Path + ".durations_ns", "expected an array of numbers");
    for (const Value &X : D->value.GetArray()) {
      if (!X.IsNumber() || X.GetDouble() < 0)
        return Rd.fail(Path + ".durations_ns",
                       "expected an array of non-negative numbers");
      K.DurationsNs.push_back(X.GetDouble());
    }
  }
  auto S = V.FindMember("snapshots");
  if (S != V.MemberEnd()) {
    if (!S->value.IsArray())
      return Rd.fail(Path + ".snapshots", "expected an array");
    for (unsigned I = 0; I < S->value.Size(); ++I) {
      BufferSnapshot B;
      if (!readSnapshot(Rd, S->value[I],
                        Path + ".snapshots[" + std::to_string(I) + "]", B))
        return false;
      K.Snapshots.push_back(std::move(B));
    }
  }
  return true;
}

} // namespace

bool autoprof::parseMeasurementJSON(const std::string &Text, Measurement &Out,
                                    std::string &Error) {
  rapidjson::Document Doc;
  if (!parseObject(Text, Doc, Error))
    return false;
  Reader Rd{Error};
  auto Version = Doc.FindMember("version");
  if (Version == Doc.MemberEnd() || !Version->value.IsInt() ||
      Version->value.GetInt() != MeasurementFormatVersion)
    return Rd.fail("$.version", "expected version " +
                                    std::to_string(MeasurementFormatVersion));
  if (!number(Rd, Doc, "dram_bytes_per_second", "$", Out.DramBytesPerSecond) ||
      !number(Rd, Doc, "l2_bytes", "$", Out.L2Bytes) ||
      !Rd.strings(Doc, "errors", "$", Out.Errors))
    return false;
  auto Kernels = Doc.FindMember("kernels");
  if (Kernels == Doc.MemberEnd() || !Kernels->value.IsArray())
    return Rd.fail("$.kernels", "expected an array");
  for (unsigned I = 0; I < Kernels->value.Size(); ++I) {
    KernelMeasurement K;
    if (!readKernel(Rd, Kernels->value[I],
                    "$.kernels[" + std::to_string(I) + "]", K))
      return false;
    Out.Kernels.push_back(std::move(K));
  }
  return true;
}
