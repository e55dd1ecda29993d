//===- Dataset.cpp - The learning dataset ---------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/Dataset.h"

#include "autoprof/JSON/BoundedParse.h"
#include "autoprof/Verify/Judge.h"
#include "llvm/Support/MemoryBuffer.h"

#include <rapidjson/document.h>

#include <cmath>
#include <set>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace {

using Value = rapidjson::Value;

/// Reads one record; returns an empty string or the problem.
std::string parseRecord(const Value &V, const MetricCatalog &Catalog,
                        const std::set<std::string> &Features,
                        DatasetKernel &K) {
  if (!V.IsObject())
    return "expected an object";
  auto Str = [&](const char *Name, std::string &Out) -> std::string {
    auto It = V.FindMember(Name);
    if (It == V.MemberEnd())
      return std::string("missing '") + Name + "'";
    if (!It->value.IsString())
      return std::string("'") + Name + "' must be a string";
    Out = It->value.GetString();
    return "";
  };
  auto Version = V.FindMember("version");
  if (Version == V.MemberEnd())
    return "missing 'version'";
  if (!Version->value.IsInt() ||
      Version->value.GetInt() != DatasetFormatVersion)
    return "unsupported version (this tool reads version " +
           std::to_string(DatasetFormatVersion) + ")";
  for (auto [Name, Out] :
       {std::pair<const char *, std::string *>{"program", &K.Program},
        {"kernel", &K.Kernel},
        {"mangled_name", &K.MangledName}})
    if (std::string P = Str(Name, *Out); !P.empty())
      return P;
    else if (Out->empty())
      return std::string("'") + Name + "' must not be empty";

  auto F = V.FindMember("features");
  if (F == V.MemberEnd() || !F->value.IsObject())
    return "missing 'features' (an object)";
  for (const auto &E : F->value.GetObject()) {
    std::string Name = E.name.GetString();
    if (!Features.count(Name))
      return "unknown feature '" + Name + "' in 'features'";
    if (E.value.IsNumber())
      K.Features.set(Name, E.value.GetDouble());
    else if (E.value.IsNull())
      K.Features.clear(Name);
    else
      return "feature '" + Name + "' must be a number or null";
  }

  auto M = V.FindMember("metrics");
  if (M == V.MemberEnd() || !M->value.IsObject())
    return "missing 'metrics' (an object)";
  for (const auto &E : M->value.GetObject()) {
    std::string Name = E.name.GetString();
    if (!Catalog.find(Name))
      return "unknown metric '" + Name + "' (not in the catalog)";
    if (!E.value.IsNumber())
      return "metric '" + Name + "' must be a number";
    K.Metrics[Name] = E.value.GetDouble();
  }

  auto O = V.FindMember("outcomes");
  if (O == V.MemberEnd())
    return "kernel '" + K.Kernel + "' has no 'outcomes'";
  if (!O->value.IsArray())
    return "'outcomes' must be an array";
  std::set<std::string> Seen;
  for (const Value &E : O->value.GetArray()) {
    Outcome Out;
    if (!E.IsObject())
      return "an outcome must be an object";
    auto T = E.FindMember("transformation");
    auto Vd = E.FindMember("verdict");
    if (T == E.MemberEnd() || !T->value.IsString() || Vd == E.MemberEnd() ||
        !Vd->value.IsString())
      return "an outcome needs 'transformation' and 'verdict' (strings)";
    Out.Transformation = T->value.GetString();
    Out.Verdict = Vd->value.GetString();
    if (Out.Transformation.empty())
      return "an outcome's 'transformation' must not be empty";
    if (!verify::verdictFromName(Out.Verdict))
      return "'" + json::printableText(Out.Transformation) +
             "' has an unknown verdict '" + json::printableText(Out.Verdict) +
             "' (docs/verify.md lists them)";
    if (!Seen.insert(Out.Transformation).second)
      return "transformation '" + Out.Transformation + "' appears twice";
    auto S = E.FindMember("speedup");
    if (S != E.MemberEnd() && !S->value.IsNull()) {
      if (!S->value.IsNumber() || !(S->value.GetDouble() > 0))
        return "the speedup of '" + Out.Transformation +
               "' must be a positive number";
      Out.Speedup = S->value.GetDouble();
    }
    auto R = E.FindMember("speedup_range");
    if (R != E.MemberEnd() && !R->value.IsNull()) {
      const Value &A = R->value;
      if (!A.IsArray() || A.Size() != 2 || !A[0].IsNumber() ||
          !A[1].IsNumber() || !(A[0].GetDouble() > 0) ||
          !(A[0].GetDouble() <= A[1].GetDouble()) ||
          !std::isfinite(A[1].GetDouble()))
        return "the speedup_range of '" + Out.Transformation +
               "' must be [low, high], positive and finite, low <= high";
    }
    if (Out.Speedup && !std::isfinite(*Out.Speedup))
      return "the speedup of '" + Out.Transformation + "' must be finite";
    if (Out.Verdict == "faster" && !Out.Speedup)
      return "'" + Out.Transformation + "' is faster but has no speedup";
    K.Outcomes.push_back(std::move(Out));
  }
  return "";
}

} // namespace

Expected<std::vector<DatasetKernel>>
learn::parseDataset(StringRef Text, StringRef Path,
                    const MetricCatalog &Catalog) {
  std::set<std::string> Features(featureNames().begin(), featureNames().end());
  std::vector<DatasetKernel> Out;
  std::set<std::pair<std::string, std::string>> Keys;
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    if (Line.trim().empty())
      continue;
    auto Fail = [&](const llvm::Twine &Msg) {
      return llvm::createStringError(Path + ":" + llvm::Twine(LineNo) + ": " +
                                     Msg);
    };
    rapidjson::Document Doc;
    std::string JSONError;
    if (!json::parseBounded(Line.data(), Line.size(), Doc, JSONError)) {
      // A record is one line: its column says where.
      llvm::StringRef E(JSONError);
      if (E.consume_front("1:")) {
        auto [Col, Rest] = E.split(": malformed JSON: ");
        if (!Rest.empty())
          return Fail("malformed JSON at column " + Col + ": " + Rest);
      }
      return Fail(JSONError);
    }
    DatasetKernel K;
    if (std::string P = parseRecord(Doc, Catalog, Features, K); !P.empty())
      return Fail(P);
    if (!Keys.insert({K.Program, K.MangledName}).second)
      return Fail("kernel '" + K.Kernel + "' of '" + K.Program +
                  "' appears twice");
    Out.push_back(std::move(K));
  }
  if (Out.empty())
    return llvm::createStringError(Path + ": the dataset has no kernels");
  return Out;
}

Expected<std::vector<DatasetKernel>>
learn::loadDataset(StringRef Path, const MetricCatalog &Catalog) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError(Buf.getError(),
                                   "cannot read the dataset '" + Path +
                                       "': " + Buf.getError().message());
  return parseDataset((*Buf)->getBuffer(), Path, Catalog);
}

Error learn::mergeDataset(std::vector<DatasetKernel> &Into,
                          std::vector<DatasetKernel> More, StringRef Path) {
  std::set<std::pair<std::string, std::string>> Keys;
  for (const DatasetKernel &K : Into)
    Keys.insert({K.Program, K.MangledName});
  for (DatasetKernel &K : More) {
    if (!Keys.insert({K.Program, K.MangledName}).second)
      return llvm::createStringError(Path + ": kernel '" + K.Kernel + "' of '" +
                                     K.Program +
                                     "' is already in another dataset");
    Into.push_back(std::move(K));
  }
  return Error::success();
}
