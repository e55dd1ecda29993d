//===- FeatureWriters.cpp - JSON and text forms of a feature report -------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Features/KernelRecord.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cmath>
#include <cstdio>

using namespace autoprof;

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

const char *templateKindName(TemplateKind K) {
  switch (K) {
  case TemplateKind::None:
    return "none";
  case TemplateKind::Primary:
    return "primary";
  case TemplateKind::Instantiation:
    return "instantiation";
  }
  return "none";
}

void writeString(Writer &W, const std::string &S) {
  W.String(S.data(), static_cast<rapidjson::SizeType>(S.size()));
}

void writeNumber(Writer &W, double V) {
  if (V == std::floor(V) && std::fabs(V) < 9.0e15)
    W.Int64(static_cast<int64_t>(V));
  else
    W.Double(V);
}

void writeOptionalString(Writer &W, const std::optional<std::string> &S) {
  if (S)
    writeString(W, *S);
  else
    W.Null();
}

void writeKernel(Writer &W, const KernelRecord &K) {
  W.StartObject();
  W.Key("name");
  writeString(W, K.Name);
  W.Key("qualified_name");
  writeString(W, K.QualifiedName);
  W.Key("mangled_name");
  if (K.MangledName.empty())
    W.Null();
  else
    writeString(W, K.MangledName);
  W.Key("file");
  writeString(W, K.File);
  W.Key("line");
  W.Uint(K.Line);
  W.Key("column");
  W.Uint(K.Column);
  W.Key("template");
  W.String(templateKindName(K.Template));
  W.Key("template_args");
  W.StartArray();
  for (const std::string &A : K.TemplateArgs)
    writeString(W, A);
  W.EndArray();
  W.Key("params");
  W.StartArray();
  for (const KernelParam &P : K.Params) {
    W.StartObject();
    W.Key("name");
    writeString(W, P.Name);
    W.Key("type");
    writeString(W, P.Type);
    W.Key("pointer");
    W.Bool(P.Pointer);
    W.Key("const");
    W.Bool(P.Const);
    W.Key("restrict");
    W.Bool(P.Restrict);
    W.EndObject();
  }
  W.EndArray();
  W.Key("features");
  W.StartObject();
  for (const auto &[Name, Value] : K.Features.values()) {
    writeString(W, Name);
    if (Value)
      writeNumber(W, *Value);
    else
      W.Null();
  }
  W.Key("launch_bounds");
  if (!K.Bounds) {
    W.Null();
  } else {
    W.StartObject();
    W.Key("max_threads_per_block");
    if (K.Bounds->MaxThreadsPerBlock)
      W.Int64(*K.Bounds->MaxThreadsPerBlock);
    else
      W.Null();
    W.Key("min_blocks_per_sm");
    if (K.Bounds->MinBlocksPerMultiprocessor)
      W.Int64(*K.Bounds->MinBlocksPerMultiprocessor);
    else
      W.Null();
    W.Key("max_blocks_per_cluster");
    if (K.Bounds->MaxBlocksPerCluster)
      W.Int64(*K.Bounds->MaxBlocksPerCluster);
    else
      W.Null();
    W.EndObject();
  }
  W.EndObject();
  W.EndObject();
}

void writeLaunch(Writer &W, const LaunchSite &L) {
  W.StartObject();
  W.Key("kernel");
  writeString(W, L.Kernel);
  W.Key("qualified_kernel");
  writeString(W, L.QualifiedKernel);
  W.Key("caller");
  writeString(W, L.Caller);
  W.Key("file");
  writeString(W, L.File);
  W.Key("line");
  W.Uint(L.Line);
  W.Key("column");
  W.Uint(L.Column);
  W.Key("grid");
  writeString(W, L.Grid);
  W.Key("block");
  writeString(W, L.Block);
  W.Key("shared_mem");
  writeOptionalString(W, L.SharedMem);
  W.Key("stream");
  writeOptionalString(W, L.Stream);
  W.Key("block_size");
  if (L.BlockSize)
    W.Int64(*L.BlockSize);
  else
    W.Null();
  W.EndObject();
}

std::string formatNumber(double V) {
  char Buf[64];
  if (V == std::floor(V) && std::fabs(V) < 9.0e15)
    std::snprintf(Buf, sizeof(Buf), "%lld", static_cast<long long>(V));
  else
    std::snprintf(Buf, sizeof(Buf), "%.4g", V);
  return Buf;
}

} // namespace

std::string autoprof::writeFeaturesJSON(const FeatureReport &Report) {
  rapidjson::StringBuffer Buffer;
  Writer W(Buffer);
  W.SetIndent(' ', 2);
  W.StartObject();
  W.Key("version");
  W.Int(FeaturesFormatVersion);
  W.Key("kernels");
  W.StartArray();
  for (const KernelRecord &K : Report.Kernels)
    writeKernel(W, K);
  W.EndArray();
  W.Key("launch_sites");
  W.StartArray();
  for (const LaunchSite &L : Report.LaunchSites)
    writeLaunch(W, L);
  W.EndArray();
  W.EndObject();
  return std::string(Buffer.GetString(), Buffer.GetSize()) + "\n";
}

std::string autoprof::writeFeaturesText(const FeatureReport &Report) {
  std::string Out;
  auto Line = [&Out](const std::string &S) { Out += S + "\n"; };
  for (const KernelRecord &K : Report.Kernels) {
    Line("kernel " + K.QualifiedName + " at " + K.File + ":" +
         std::to_string(K.Line) + ":" + std::to_string(K.Column));
    if (K.Template != TemplateKind::None) {
      std::string Args;
      for (const std::string &A : K.TemplateArgs)
        Args += (Args.empty() ? "" : ", ") + A;
      Line(std::string("  template: ") + templateKindName(K.Template) +
           (Args.empty() ? "" : " <" + Args + ">"));
    }
    if (!K.MangledName.empty())
      Line("  mangled: " + K.MangledName);
    for (const KernelParam &P : K.Params) {
      std::string Flags;
      if (P.Pointer)
        Flags += " pointer";
      if (P.Const)
        Flags += " const";
      if (P.Restrict)
        Flags += " restrict";
      Line("  param " + P.Name + ": " + P.Type +
           (Flags.empty() ? "" : " [" + Flags.substr(1) + "]"));
    }
    if (K.Bounds) {
      std::string B = K.Bounds->MaxThreadsPerBlock
                          ? std::to_string(*K.Bounds->MaxThreadsPerBlock)
                          : "?";
      if (K.Bounds->MinBlocksPerMultiprocessor)
        B += ", " + std::to_string(*K.Bounds->MinBlocksPerMultiprocessor);
      if (K.Bounds->MaxBlocksPerCluster)
        B += ", " + std::to_string(*K.Bounds->MaxBlocksPerCluster);
      Line("  launch_bounds: " + B);
    } else {
      Line("  launch_bounds: none");
    }
    for (const auto &[Name, Value] : K.Features.values())
      Line("  " + Name + ": " + (Value ? formatNumber(*Value) : "null"));
  }
  for (const LaunchSite &L : Report.LaunchSites) {
    std::string S = "launch " + L.QualifiedKernel + " at " + L.File + ":" +
                    std::to_string(L.Line) + ":" + std::to_string(L.Column) +
                    " in " + L.Caller + ": grid=" + L.Grid +
                    " block=" + L.Block;
    if (L.SharedMem)
      S += " shared=" + *L.SharedMem;
    if (L.Stream)
      S += " stream=" + *L.Stream;
    S += " block_size=" + (L.BlockSize ? std::to_string(*L.BlockSize) : "?");
    Line(S);
  }
  if (Report.Kernels.empty())
    Line("no kernels");
  return Out;
}
