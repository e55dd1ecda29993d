//===- PerfBaseline.cpp - Kernel timings to compare later -----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/PerfBaseline.h"

#include "autoprof/JSON/BoundedParse.h"
#include "llvm/Support/MemoryBuffer.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

std::string autoprof::verify::writePerfBaselineJSON(const PerfBaseline &B) {
  rapidjson::StringBuffer Buf;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> W(Buf);
  W.SetIndent(' ', 2);
  W.StartObject();
  W.Key("version");
  W.Int(PerfBaselineVersion);
  W.Key("kernels");
  W.StartArray();
  for (const BaselineKernel &K : B.Kernels) {
    W.StartObject();
    W.Key("name");
    W.String(K.Name.c_str());
    W.Key("mangled_name");
    W.String(K.MangledName.c_str());
    W.Key("median_ns");
    W.Double(K.T.MedianNs);
    W.Key("min_ns");
    W.Double(K.T.MinNs);
    W.Key("max_ns");
    W.Double(K.T.MaxNs);
    W.Key("runs");
    W.Uint(K.T.Runs);
    W.EndObject();
  }
  W.EndArray();
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}

Expected<PerfBaseline> autoprof::verify::parsePerfBaselineJSON(StringRef Text,
                                                               StringRef Path) {
  auto Fail = [&](const Twine &Why) -> Error {
    return createStringError("malformed baseline '" + Path + "': " + Why);
  };
  rapidjson::Document Doc;
  std::string JSONError;
  if (!json::parseBounded(Text.data(), Text.size(), Doc, JSONError))
    return Fail(JSONError);
  if (!Doc.IsObject())
    return Fail("$: not an object");
  if (!Doc.HasMember("version") || !Doc["version"].IsInt())
    return Fail("$.version: missing or not an integer");
  if (Doc["version"].GetInt() != PerfBaselineVersion)
    return Fail("$.version: unsupported version " +
                Twine(Doc["version"].GetInt()));
  if (!Doc.HasMember("kernels") || !Doc["kernels"].IsArray())
    return Fail("$.kernels: missing or not an array");
  PerfBaseline B;
  const rapidjson::Value &Ks = Doc["kernels"];
  for (rapidjson::SizeType I = 0; I < Ks.Size(); ++I) {
    std::string At = "$.kernels[" + std::to_string(I) + "]";
    const rapidjson::Value &K = Ks[I];
    if (!K.IsObject())
      return Fail(At + ": not an object");
    BaselineKernel Out;
    for (const char *Key : {"name", "mangled_name"}) {
      if (!K.HasMember(Key) || !K[Key].IsString())
        return Fail(At + "." + Key + ": missing or not a string");
    }
    Out.Name = K["name"].GetString();
    Out.MangledName = K["mangled_name"].GetString();
    double *Fields[] = {&Out.T.MedianNs, &Out.T.MinNs, &Out.T.MaxNs};
    const char *Keys[] = {"median_ns", "min_ns", "max_ns"};
    for (int F = 0; F < 3; ++F) {
      if (!K.HasMember(Keys[F]) || !K[Keys[F]].IsNumber() ||
          K[Keys[F]].GetDouble() <= 0)
        return Fail(At + "." + Keys[F] + ": missing or not a positive number");
      *Fields[F] = K[Keys[F]].GetDouble();
    }
    if (!K.HasMember("runs") || !K["runs"].IsUint())
      return Fail(At + ".runs: missing or not a count");
    Out.T.Runs = K["runs"].GetUint();
    B.Kernels.push_back(std::move(Out));
  }
  return B;
}

static double spread(const Timing &T) {
  return T.MedianNs > 0 ? (T.MaxNs - T.MinNs) / T.MedianNs : 0;
}

std::vector<PerfComparison>
autoprof::verify::comparePerf(const PerfBaseline &Baseline,
                              const PerfBaseline &Current, double Tolerance) {
  std::vector<PerfComparison> Out;
  auto Find = [](const PerfBaseline &B,
                 StringRef Mangled) -> const BaselineKernel * {
    for (const BaselineKernel &K : B.Kernels)
      if (K.MangledName == Mangled)
        return &K;
    return nullptr;
  };
  for (const BaselineKernel &K : Current.Kernels) {
    PerfComparison C;
    C.Name = K.Name;
    C.MangledName = K.MangledName;
    C.Current = K.T;
    const BaselineKernel *B = Find(Baseline, K.MangledName);
    if (!B) {
      C.Status = PerfStatus::NotInBaseline;
      Out.push_back(std::move(C));
      continue;
    }
    C.Baseline = B->T;
    C.Noise = std::max(spread(B->T), spread(K.T));
    C.Ratio = K.T.MedianNs / B->T.MedianNs;
    C.Status = C.Ratio > 1 + Tolerance + C.Noise ? PerfStatus::Slower
                                                 : PerfStatus::Within;
    Out.push_back(std::move(C));
  }
  for (const BaselineKernel &B : Baseline.Kernels)
    if (!Find(Current, B.MangledName)) {
      PerfComparison C;
      C.Name = B.Name;
      C.MangledName = B.MangledName;
      C.Status = PerfStatus::NotLaunched;
      C.Baseline = B.T;
      Out.push_back(std::move(C));
    }
  return Out;
}

Expected<PerfBaseline> autoprof::verify::readPerfBaselineFile(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read the baseline '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return parsePerfBaselineJSON((*Buf)->getBuffer(), Path);
}
