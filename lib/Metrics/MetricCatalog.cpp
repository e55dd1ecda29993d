//===- MetricCatalog.cpp - The metrics the tool may collect ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/MetricCatalog.h"

#include "autoprof/JSON/BoundedParse.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <rapidjson/document.h>

#include <algorithm>

using namespace autoprof;

const char *autoprof::metricSourceName(MetricSource S) {
  switch (S) {
  case MetricSource::RangeProfiler:
    return "range-profiler";
  case MetricSource::Launch:
    return "launch";
  case MetricSource::Sass:
    return "sass";
  case MetricSource::Derived:
    return "derived";
  }
  return "range-profiler";
}

namespace {

/// Builds "<path>: <json path>: <message>" errors.
struct Reporter {
  std::string Path;
  llvm::Error error(const std::string &Where, const std::string &What) const {
    return llvm::createStringError("%s: %s: %s", Path.c_str(), Where.c_str(),
                                   What.c_str());
  }
};

llvm::Error getString(const rapidjson::Value &Obj, const char *Key,
                      const std::string &Where, const Reporter &R,
                      std::string &Out, bool Required = true) {
  auto It = Obj.FindMember(Key);
  if (It == Obj.MemberEnd()) {
    if (!Required)
      return llvm::Error::success();
    return R.error(Where, std::string("missing \"") + Key + "\"");
  }
  if (!It->value.IsString() || It->value.GetStringLength() == 0)
    return R.error(Where + "." + Key, "expected a non-empty string");
  Out = It->value.GetString();
  return llvm::Error::success();
}

llvm::Error getStrings(const rapidjson::Value &Obj, const char *Key,
                       const std::string &Where, const Reporter &R,
                       std::vector<std::string> &Out, bool Required = true) {
  auto It = Obj.FindMember(Key);
  if (It == Obj.MemberEnd()) {
    if (!Required)
      return llvm::Error::success();
    return R.error(Where, std::string("missing \"") + Key + "\"");
  }
  if (!It->value.IsArray() || It->value.Empty())
    return R.error(Where + "." + Key, "expected a non-empty array of strings");
  for (rapidjson::SizeType I = 0; I < It->value.Size(); ++I) {
    if (!It->value[I].IsString())
      return R.error(Where + "." + Key + "[" + std::to_string(I) + "]",
                     "expected a string");
    Out.push_back(It->value[I].GetString());
  }
  return llvm::Error::success();
}

} // namespace

llvm::Expected<MetricCatalog> MetricCatalog::parse(llvm::StringRef Text,
                                                   llvm::StringRef Path) {
  Reporter R{Path.str()};
  rapidjson::Document Doc;
  std::string JSONError;
  if (!json::parseBounded(Text.data(), Text.size(), Doc, JSONError))
    return llvm::createStringError("%s:%s", Path.str().c_str(),
                                   JSONError.c_str());
  if (!Doc.IsObject())
    return R.error("$", "expected an object");
  auto V = Doc.FindMember("version");
  if (V == Doc.MemberEnd() || !V->value.IsInt())
    return R.error("$.version", "missing or not an integer");
  if (V->value.GetInt() != 1)
    return R.error("$.version", "unsupported version " +
                                    std::to_string(V->value.GetInt()) +
                                    " (this tool reads version 1)");
  MetricCatalog C;
  if (llvm::Error E = getString(Doc, "name", "$", R, C.Name))
    return std::move(E);
  if (llvm::Error E = getStrings(Doc, "chips", "$", R, C.Chips))
    return std::move(E);
  auto Ms = Doc.FindMember("metrics");
  if (Ms == Doc.MemberEnd() || !Ms->value.IsArray())
    return R.error("$.metrics", "missing or not an array");
  llvm::StringSet<> Seen;
  for (rapidjson::SizeType I = 0; I < Ms->value.Size(); ++I) {
    const rapidjson::Value &M = Ms->value[I];
    std::string Where = "$.metrics[" + std::to_string(I) + "]";
    if (!M.IsObject())
      return R.error(Where, "expected an object");
    CatalogMetric CM;
    std::string Source;
    if (llvm::Error E = getString(M, "name", Where, R, CM.Name))
      return std::move(E);
    if (!Seen.insert(CM.Name).second)
      return R.error(Where + ".name", "duplicate metric '" + CM.Name + "'");
    if (llvm::Error E = getString(M, "source", Where, R, Source))
      return std::move(E);
    if (Source == "range-profiler")
      CM.Source = MetricSource::RangeProfiler;
    else if (Source == "launch")
      CM.Source = MetricSource::Launch;
    else if (Source == "sass")
      CM.Source = MetricSource::Sass;
    else if (Source == "derived")
      CM.Source = MetricSource::Derived;
    else
      return R.error(Where + ".source",
                     "'" + Source +
                         "' is not one of range-profiler, launch, sass, "
                         "derived");
    for (auto [Key, Out] :
         {std::pair<const char *, std::string *>{"section", &CM.Section},
          {"unit", &CM.Unit},
          {"meaning", &CM.Meaning}})
      if (llvm::Error E = getString(M, Key, Where, R, *Out))
        return std::move(E);
    if (llvm::Error E = getStrings(M, "questions", Where, R, CM.Questions))
      return std::move(E);
    bool Derived = CM.Source == MetricSource::Derived;
    if (llvm::Error E = getString(M, "formula", Where, R, CM.Formula, Derived))
      return std::move(E);
    if (llvm::Error E = getStrings(M, "inputs", Where, R, CM.Inputs, Derived))
      return std::move(E);
    if (!Derived && (M.HasMember("formula") || M.HasMember("inputs")))
      return R.error(Where, "only derived metrics have a formula and inputs");
    C.Metrics.push_back(std::move(CM));
  }
  for (size_t I = 0; I < C.Metrics.size(); ++I)
    for (const std::string &In : C.Metrics[I].Inputs)
      if (!C.find(In))
        return R.error("$.metrics[" + std::to_string(I) + "].inputs",
                       "'" + In + "' is not a metric of the catalog");
  return C;
}

llvm::Expected<MetricCatalog> MetricCatalog::load(llvm::StringRef Path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError("cannot read '%s': %s", Path.str().c_str(),
                                   Buf.getError().message().c_str());
  return parse((*Buf)->getBuffer(), Path);
}

std::string MetricCatalog::defaultPath(const char *Argv0, void *MainAddr) {
  std::string Exe = llvm::sys::fs::getMainExecutable(Argv0, MainAddr);
  llvm::SmallString<256> Installed(
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(Exe)));
  llvm::sys::path::append(Installed, "share", "clang-autoprof", "tree-models",
                          "metric-catalog.json");
  if (llvm::sys::fs::exists(Installed))
    return std::string(Installed);
  llvm::SmallString<256> Source(AUTOPROF_SOURCE_TREE_MODELS);
  llvm::sys::path::append(Source, "metric-catalog.json");
  return std::string(Source);
}

void MetricCatalog::appendRangeProfilerMetrics(
    const std::vector<std::string> &Names,
    std::vector<std::string> &Out) const {
  for (const std::string &N : Names) {
    const CatalogMetric *M = find(N);
    if (!M)
      continue;
    // A derived metric costs what its inputs cost.
    if (M->Source == MetricSource::Derived) {
      appendRangeProfilerMetrics(M->Inputs, Out);
      continue;
    }
    if (M->Source == MetricSource::RangeProfiler &&
        std::find(Out.begin(), Out.end(), N) == Out.end())
      Out.push_back(N);
  }
}

const CatalogMetric *MetricCatalog::find(llvm::StringRef Name) const {
  for (const CatalogMetric &M : Metrics)
    if (M.Name == Name)
      return &M;
  return nullptr;
}
