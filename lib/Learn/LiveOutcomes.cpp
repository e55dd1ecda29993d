//===- LiveOutcomes.cpp - Outcomes measured while learning ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Learn/LiveOutcomes.h"
#include "autoprof/Verify/OptimizeReport.h"

#include "autoprof/Profile/Profile.h"

#include "autoprof/JSON/BoundedParse.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <cstdio>

using namespace autoprof;
using namespace autoprof::learn;
using llvm::Expected;
using llvm::StringRef;

namespace {

std::string quote(const std::string &S) {
  std::string Q = "'";
  for (char C : S)
    Q += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Q + "'";
}

/// The cache key: the kernel and every metric value shown.
std::string keyOf(const DatasetKernel &K, const MetricMap &Seen) {
  std::string Key = K.Program + "\n" + K.MangledName;
  char Buf[64];
  for (const auto &[Name, V] : Seen) {
    std::snprintf(Buf, sizeof(Buf), "%.17g", V);
    Key += "\n" + Name + "=" + Buf;
  }
  return Key;
}

Expected<std::vector<std::string>> strings(const rapidjson::Value &V,
                                           const char *Key) {
  std::vector<std::string> Out;
  auto It = V.FindMember(Key);
  if (It == V.MemberEnd())
    return Out;
  if (!It->value.IsArray())
    return llvm::createStringError(std::string("'") + Key +
                                   "' must be a list of strings");
  for (const auto &E : It->value.GetArray()) {
    if (!E.IsString())
      return llvm::createStringError(std::string("'") + Key +
                                     "' must be a list of strings");
    Out.push_back(E.GetString());
  }
  return Out;
}

} // namespace

Expected<std::map<std::string, ProgramSpec>>
learn::loadProgramManifest(StringRef Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError("cannot read the manifest '" + Path +
                                   "': " + Buf.getError().message());
  rapidjson::Document Doc;
  StringRef Text = (*Buf)->getBuffer();
  auto Fail = [&](const llvm::Twine &Msg) {
    return llvm::createStringError(Path + ": " + Msg);
  };
  std::string JSONError;
  if (!json::parseBounded(Text.data(), Text.size(), Doc, JSONError))
    return Fail(JSONError);
  if (!Doc.IsObject() || !Doc.HasMember("programs") ||
      !Doc["programs"].IsArray())
    return Fail("expected an object with a list of 'programs'");
  llvm::SmallString<256> Dir(llvm::sys::path::parent_path(Path));
  llvm::sys::fs::make_absolute(Dir);
  std::map<std::string, ProgramSpec> Out;
  for (const auto &P : Doc["programs"].GetArray()) {
    if (!P.IsObject() || !P.HasMember("name") || !P["name"].IsString() ||
        !P.HasMember("source") || !P["source"].IsString())
      return Fail("each program needs a 'name' and a 'source'");
    ProgramSpec S;
    S.Name = P["name"].GetString();
    llvm::SmallString<256> Src(Dir);
    llvm::sys::path::append(Src, P["source"].GetString());
    S.Source = std::string(Src);
    Expected<std::vector<std::string>> Flags = strings(P, "nvcc_flags");
    if (!Flags)
      return Fail("program '" + S.Name + "': " + toString(Flags.takeError()));
    Expected<std::vector<std::string>> Args = strings(P, "args");
    if (!Args)
      return Fail("program '" + S.Name + "': " + toString(Args.takeError()));
    S.NvccFlags = std::move(*Flags);
    S.Args = std::move(*Args);
    Out[S.Name] = std::move(S);
  }
  return Out;
}

Expected<std::unique_ptr<LiveOutcomes>>
LiveOutcomes::create(std::map<std::string, ProgramSpec> Programs,
                     LiveOptions O) {
  std::unique_ptr<LiveOutcomes> L(new LiveOutcomes());
  L->Programs = std::move(Programs);
  L->O = std::move(O);
  if (L->O.CacheFile.empty() || !llvm::sys::fs::exists(L->O.CacheFile))
    return std::move(L);
  auto Buf = llvm::MemoryBuffer::getFile(L->O.CacheFile, /*IsText=*/true);
  if (!Buf)
    return llvm::createStringError("cannot read the outcome cache '" +
                                   L->O.CacheFile +
                                   "': " + Buf.getError().message());
  StringRef Text = (*Buf)->getBuffer();
  unsigned LineNo = 0;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    ++LineNo;
    if (Line.trim().empty())
      continue;
    rapidjson::Document D;
    std::string JSONError;
    if (!json::parseBounded(Line.data(), Line.size(), D, JSONError) ||
        !D.IsObject() || !D.HasMember("key") || !D["key"].IsString() ||
        !D.HasMember("gain") || !D["gain"].IsNumber() || !D.HasMember("win") ||
        !D["win"].IsBool())
      return llvm::createStringError(L->O.CacheFile + ":" +
                                     std::to_string(LineNo) +
                                     ": not an outcome line");
    L->Known[D["key"].GetString()] = {D["gain"].GetDouble(),
                                      D["win"].GetBool()};
  }
  return std::move(L);
}

Expected<std::pair<double, bool>> LiveOutcomes::gain(const DatasetKernel &K,
                                                     const MetricMap &Seen) {
  std::string Key = keyOf(K, Seen);
  if (auto It = Known.find(Key); It != Known.end()) {
    ++Hits;
    return It->second;
  }
  auto PIt = Programs.find(K.Program);
  if (PIt == Programs.end())
    return llvm::createStringError("program '" + K.Program +
                                   "' is not in the manifest");
  const ProgramSpec &P = PIt->second;
  auto Start = std::chrono::steady_clock::now();

  // A copy of the program and the headers beside it.
  llvm::SmallString<256> Work(O.WorkDir);
  llvm::sys::path::append(Work, K.Program + "-" + std::to_string(Runs));
  llvm::sys::fs::remove_directories(Work);
  if (std::error_code EC = llvm::sys::fs::create_directories(Work))
    return llvm::createStringError("cannot create '" + Work +
                                   "': " + EC.message());
  StringRef SrcDir = llvm::sys::path::parent_path(P.Source);
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(SrcDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Ext = llvm::sys::path::extension(It->path());
    if (Ext == ".cuh" || Ext == ".h" || It->path() == P.Source) {
      llvm::SmallString<256> To(Work);
      llvm::sys::path::append(To, llvm::sys::path::filename(It->path()));
      if (std::error_code CE = llvm::sys::fs::copy_file(It->path(), To))
        return llvm::createStringError("cannot copy '" + It->path() +
                                       "': " + CE.message());
    }
  }
  if (EC)
    return llvm::createStringError("cannot list '" + SrcDir +
                                   "': " + EC.message());
  llvm::SmallString<256> Src(Work), Exe(Work), Prof(Work), Report(Work),
      Log(Work);
  llvm::sys::path::append(Src, llvm::sys::path::filename(P.Source));
  llvm::sys::path::append(Exe, K.Program);
  llvm::sys::path::append(Prof, "profile.json");
  llvm::sys::path::append(Report, "report.json");
  llvm::sys::path::append(Log, "optimize.log");

  // The metrics shown, as a profile of the kernel.
  Profile Shown;
  Shown.Tree = "learn";
  ProfileRecord R;
  R.Kernel = K.Kernel;
  R.MangledName = K.MangledName;
  R.Leaf = "learn";
  R.Stage = "metrics";
  for (const auto &[Name, V] : Seen)
    R.set(Name, V, "");
  Shown.Records.push_back(std::move(R));
  if (!writeFileAtomically(std::string(Prof), writeProfileJSON(Shown)))
    return llvm::createStringError("cannot write '" + Prof + "'");

  std::string Build = quote(O.Nvcc);
  for (const std::string &F : P.NvccFlags)
    Build += " " + quote(F);
  Build += " -o " + quote(std::string(Exe)) + " " + quote(std::string(Src));
  std::string Run = quote(std::string(Exe));
  for (const std::string &A : P.Args)
    Run += " " + quote(A);
  LiveTrial T{std::string(Src),
              std::string(Work),
              K.Kernel,
              std::string(Prof),
              Build,
              Run,
              std::string(Log)};
  Expected<std::optional<verify::OptimizeReport>> Rep = O.Optimize(T);
  if (!Rep)
    return Rep.takeError();
  ++Runs;
  Seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();

  // The kept rewrite of the report, if any; no report is no rewrite.
  std::pair<double, bool> Out = {1.0, false};
  if (*Rep)
    for (const verify::KernelReport &KR : (*Rep)->Kernels)
      if (!KR.Kept.empty() && KR.Speedup && *KR.Speedup > Out.first)
        Out = {*KR.Speedup, true};
  Known[Key] = Out;
  if (!O.CacheFile.empty()) {
    rapidjson::StringBuffer B;
    rapidjson::Writer<rapidjson::StringBuffer> W(B);
    W.StartObject();
    W.Key("key");
    W.String(Key.c_str(), Key.size());
    W.Key("gain");
    W.Double(Out.first);
    W.Key("win");
    W.Bool(Out.second);
    W.Key("report");
    W.Bool(Rep->has_value());
    W.EndObject();
    std::error_code WE;
    llvm::raw_fd_ostream OS(O.CacheFile, WE, llvm::sys::fs::OF_Append);
    if (WE)
      return llvm::createStringError("cannot write the outcome cache '" +
                                     O.CacheFile + "': " + WE.message());
    OS << B.GetString() << "\n";
  }
  return Out;
}
