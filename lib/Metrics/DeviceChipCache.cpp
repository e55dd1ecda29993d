//===- DeviceChipCache.cpp - Remembering the chips of this machine --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/DeviceChipCache.h"

#include "autoprof/Profile/Profile.h"

#include "autoprof/JSON/BoundedParse.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cstdlib>

using namespace autoprof;
using llvm::StringRef;

std::optional<std::string> autoprof::deviceKey(StringRef ProcDir) {
  if (std::getenv("CUDA_VISIBLE_DEVICES"))
    return std::nullopt;
  llvm::SmallString<256> VersionPath(ProcDir);
  llvm::sys::path::append(VersionPath, "version");
  auto Version = llvm::MemoryBuffer::getFile(VersionPath, /*IsText=*/true);
  if (!Version)
    return std::nullopt;
  std::string Key =
      (*Version)->getBuffer().split('\n').first.trim().str() + "\n";

  llvm::SmallString<256> Gpus(ProcDir);
  llvm::sys::path::append(Gpus, "gpus");
  std::vector<std::string> UUIDs;
  std::error_code EC;
  for (llvm::sys::fs::directory_iterator It(Gpus, EC), End; It != End && !EC;
       It.increment(EC)) {
    llvm::SmallString<256> Info(It->path());
    llvm::sys::path::append(Info, "information");
    auto Buf = llvm::MemoryBuffer::getFile(Info, /*IsText=*/true);
    if (!Buf)
      return std::nullopt;
    StringRef Text = (*Buf)->getBuffer();
    size_t At = Text.find("GPU UUID:");
    if (At == StringRef::npos)
      return std::nullopt;
    UUIDs.push_back(Text.drop_front(At + 9).split('\n').first.trim().str());
  }
  if (EC || UUIDs.empty())
    return std::nullopt;
  std::sort(UUIDs.begin(), UUIDs.end());
  for (const std::string &U : UUIDs)
    Key += U + "\n";
  return Key;
}

std::string autoprof::deviceChipCachePath() {
  llvm::SmallString<256> P;
  if (const char *X = std::getenv("XDG_CACHE_HOME"); X && *X) {
    P = X;
  } else if (const char *H = std::getenv("HOME"); H && *H) {
    P = H;
    llvm::sys::path::append(P, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(P, "clang-autoprof", "device-chips.json");
  return std::string(P);
}

std::optional<std::vector<std::string>>
autoprof::cachedDeviceChips(StringRef File, StringRef Key) {
  if (File.empty())
    return std::nullopt;
  auto Buf = llvm::MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf)
    return std::nullopt;
  rapidjson::Document Doc;
  StringRef Text = (*Buf)->getBuffer();
  std::string JSONError;
  if (!json::parseBounded(Text.data(), Text.size(), Doc, JSONError) ||
      !Doc.IsObject() || !Doc.HasMember("key") || !Doc["key"].IsString() ||
      Doc["key"].GetString() != Key || !Doc.HasMember("chips") ||
      !Doc["chips"].IsArray())
    return std::nullopt;
  std::vector<std::string> Chips;
  for (const auto &C : Doc["chips"].GetArray()) {
    if (!C.IsString())
      return std::nullopt;
    Chips.push_back(C.GetString());
  }
  if (Chips.empty())
    return std::nullopt;
  return Chips;
}

void autoprof::storeDeviceChips(StringRef File, StringRef Key,
                                const std::vector<std::string> &Chips) {
  if (File.empty())
    return;
  rapidjson::StringBuffer Buf;
  rapidjson::Writer<rapidjson::StringBuffer> W(Buf);
  W.StartObject();
  W.Key("version");
  W.Int(1);
  W.Key("key");
  W.String(Key.data(), Key.size());
  W.Key("chips");
  W.StartArray();
  for (const std::string &C : Chips)
    W.String(C.c_str(), C.size());
  W.EndArray();
  W.EndObject();
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(File)))
    return;
  writeFileAtomically(File.str(), std::string(Buf.GetString()) + "\n");
}
