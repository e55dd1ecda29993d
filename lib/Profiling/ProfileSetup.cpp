//===- ProfileSetup.cpp - What a profile request is filled from -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ProfileSetup.h"

#include "autoprof/JSON/BoundedParse.h"
#include "autoprof/Profiling/TreeFiles.h"
#include "autoprof/Tree/Plan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::profiling;

std::vector<std::string> profiling::parseMetricList(StringRef List) {
  std::vector<std::string> Out;
  SmallVector<StringRef> Names;
  List.split(Names, ',', -1, /*KeepEmpty=*/false);
  for (StringRef N : Names) {
    std::string M = N.trim().str();
    if (!M.empty() && !is_contained(Out, M))
      Out.push_back(M);
  }
  return Out;
}

Error profiling::useTree(StringRef NameOrPath, StringRef ModelsDir,
                         ProfileRequest &R) {
  Expected<std::string> P = findTree(
      NameOrPath.empty() ? StringRef(DefaultTreeName) : NameOrPath, ModelsDir);
  if (!P)
    return P.takeError();
  R.TreePath = *P;
  return loadCheckedTree(R.TreePath, R.Tree);
}

Error profiling::usePlan(StringRef Path, StringRef ModelsDir,
                         ProfileRequest &R) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf =
      MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read '%s': %s", Path.str().c_str(),
                             Buf.getError().message().c_str());
  Plan P;
  std::string Why;
  if (!parsePlanJSON((*Buf)->getBuffer().str(), P, Why))
    return createStringError("%s: %s", Path.str().c_str(), Why.c_str());
  // The tree's file where it still is, else its name.
  std::string Tree =
      !P.TreeFile.empty() && sys::fs::exists(P.TreeFile) ? P.TreeFile : P.Tree;
  if (Tree.empty())
    return createStringError("%s: $.tree: missing, and the tree_file '%s' "
                             "does not exist",
                             Path.str().c_str(),
                             json::printableText(P.TreeFile).c_str());
  if (Error E = useTree(Tree, ModelsDir, R))
    return E;
  for (PlanKernel &K : P.Kernels) {
    StaticKernel S;
    S.Name = std::move(K.Name);
    S.QualifiedName = std::move(K.QualifiedName);
    S.MangledName = std::move(K.MangledName);
    for (auto &[Name, V] : K.Features)
      S.Features[Name] = V;
    R.Kernels.push_back(std::move(S));
  }
  return Error::success();
}

void profiling::addReportKernels(const FeatureReport &Report,
                                 std::vector<StaticKernel> &Out) {
  for (const KernelRecord &K : Report.Kernels) {
    if (K.Template == TemplateKind::Primary)
      continue;
    StaticKernel S{K.Name, K.QualifiedName, K.MangledName, {}};
    for (const auto &[Name, V] : K.Features.values())
      S.Features[Name] = V;
    Out.push_back(std::move(S));
  }
}

Error profiling::checkDeviceWith(ProfilerHost &Host, const ProfileRequest &R,
                                 const MetricClasses &Classes) {
  Expected<std::vector<std::string>> Chips = Host.deviceChips();
  if (!Chips)
    return Chips.takeError();
  return checkDevice(R, Classes, *Chips, Host);
}
