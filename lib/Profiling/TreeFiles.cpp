//===- TreeFiles.cpp - The trees and profiles subcommands read ------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/TreeFiles.h"

#include "autoprof/Profile/Profile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace autoprof;

Expected<std::string> autoprof::findTree(StringRef NameOrPath,
                                         StringRef ModelsDir) {
  if (sys::fs::exists(NameOrPath))
    return NameOrPath.str();
  SmallString<256> P(ModelsDir);
  sys::path::append(P, NameOrPath + ".json");
  if (sys::fs::exists(P))
    return std::string(P);
  std::vector<std::string> Names;
  std::error_code EC;
  for (sys::fs::directory_iterator It(ModelsDir, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef F = sys::path::filename(It->path());
    if (F.ends_with(".json") && F != "metric-catalog.json")
      Names.push_back(F.drop_back(5).str());
  }
  std::sort(Names.begin(), Names.end());
  return createStringError("tree '%s' not found; available trees: %s",
                           NameOrPath.str().c_str(), join(Names, ", ").c_str());
}

Error autoprof::loadCheckedTree(StringRef Path, ProfilingTree &T) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read '%s': %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  std::vector<TreeProblem> Problems;
  if (parseTree((*Buf)->getBuffer().str(), T, Problems))
    checkTreeStructure(T, Problems);
  if (!Problems.empty())
    return createStringError(
        "%s:%s: %s (run 'clang-autoprof tree validate' for every problem)",
        Path.str().c_str(), Problems.front().Path.c_str(),
        Problems.front().Message.c_str());
  return Error::success();
}

Expected<SampleTable> autoprof::loadSamples(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read '%s': %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  Profile P;
  std::string Err;
  if (!parseProfileJSON((*Buf)->getBuffer().str(), P, Err))
    return createStringError("%s: %s", Path.str().c_str(), Err.c_str());
  SampleTable T;
  for (const ProfileRecord &R : P.Records) {
    std::map<std::string, double> Values;
    for (const auto &[Name, V] : R.Metrics)
      if (!std::isnan(V.Value)) // null: CUPTI could not evaluate it.
        Values[Name] = V.Value;
    T.ByName.emplace(R.Kernel, Values);
    if (!R.MangledName.empty())
      T.ByMangled.emplace(R.MangledName, Values);
  }
  return T;
}
