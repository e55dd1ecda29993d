//===- CheckRun.cpp - One run of `check` ----------------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckRun.h"

#include "autoprof/Check/CheckConfig.h"
#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Verify/Files.h"
#include "autoprof/Verify/Verifier.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

Expected<CheckSelection> autoprof::selectChecks(const CheckRunOptions &O,
                                                StringRef Source,
                                                StringRef Name) {
  return checkSelectionFor(Source, O.Checks ? &*O.Checks : nullptr,
                           O.WarningsAsErrors ? &*O.WarningsAsErrors : nullptr,
                           Name);
}

namespace {

/// The kernels the gate times: every launchable kernel of a translation
/// unit whose checks compare it with the baseline, or every one when the
/// timings are recorded; each once, compared when one of its units asks.
/// Sets \p AnyLaunchable when a source defines a kernel that launches.
std::vector<GateKernel>
gateKernels(const CheckEngine &Engine,
            const std::function<const CheckSelection &(StringRef)> &Selection,
            const CheckRunOptions &O, bool &AnyLaunchable, raw_ostream &Log) {
  const Check *Perf = CheckRegistry::find(PerfRegressionCheckName);
  bool Record = O.Gate && O.Gate->Record;
  std::vector<GateKernel> Kernels;
  std::set<std::string> Seen;
  AnyLaunchable = false;
  for (const CheckedKernel &K : Engine.checkedKernels()) {
    const CheckSelection &Sel = Selection(K.MainFile);
    bool Compare = O.Baseline && llvm::is_contained(Sel.Checks, Perf);
    AnyLaunchable |= !K.Launchable.empty();
    if (K.Launchable.empty() && O.Verbose)
      Log << "clang-autoprof: perf gate: kernel template '" << K.QualifiedName
          << "' is instantiated nowhere; not timed\n";
    if (!Compare && !Record)
      continue;
    for (const KernelRecord &R : K.Launchable) {
      if (Seen.insert(R.MangledName).second)
        Kernels.push_back(
            {signatureOf(R), K.Where, false, &Sel.WarningsAsErrors});
      if (Compare)
        for (GateKernel &G : Kernels)
          if (G.Signature.MangledName == R.MangledName)
            G.Compare = true;
    }
  }
  return Kernels;
}

/// The gate over the kernels \p Engine checked; its findings appended to
/// \p R's.
void runGate(const CheckRunOptions &O,
             const std::function<const CheckSelection &(StringRef)> &Selection,
             CommandRunner &Runner, const SourceMessages &Messages,
             raw_ostream &Log, CheckRunResult &R) {
  bool AnyLaunchable = false;
  std::vector<GateKernel> Kernels =
      gateKernels(*R.Engine, Selection, O, AnyLaunchable, Log);
  if (Kernels.empty()) {
    if (AnyLaunchable) {
      Log << "clang-autoprof: perf gate: " << PerfRegressionCheckName
          << " is enabled for no source; nothing is timed\n";
      return;
    }
    Messages.Error(std::string("the performance gate has no kernel to time: "
                               "the sources define none") +
                   (O.KernelGiven ? " that --kernel selects" : ""));
    R.ToolError = true;
    return;
  }
  ScopedDir Work;
  if (Error E = Work.create("clang-autoprof-check")) {
    Messages.Error(toString(std::move(E)));
    R.ToolError = true;
    return;
  }
  PerfGateOptions G = *O.Gate;
  G.WorkDir = Work.path().str();
  Expected<PerfGateRun> Run = timeAndGate(Kernels, O.Baseline, G, Runner, Log);
  if (!Run) {
    std::string Msg = toString(Run.takeError());
    Messages.Error(Msg);
    R.ToolError = true;
    R.Interrupted = Msg == "interrupted";
    return;
  }
  llvm::append_range(R.Findings, std::move(Run->Findings));
  sortFindings(R.Findings);
}

} // namespace

Expected<CheckRunResult> autoprof::runCheck(const CheckRunOptions &O,
                                            CommandRunner &Runner,
                                            const SourceMessages &Messages,
                                            raw_ostream &Log) {
  std::map<std::string, CheckSelection> Selections;
  for (const std::string &Src : O.Inputs) {
    if (!sys::fs::exists(Src))
      continue; // the driver reports it
    Expected<CheckSelection> Sel = selectChecks(O, Src);
    if (!Sel)
      return Sel.takeError();
    Selections[normalPath(Src)] = std::move(*Sel);
  }
  auto Default = std::make_shared<CheckSelection>();
  Default->Checks = CheckRegistry::all();
  if (!Selections.empty())
    *Default = Selections.begin()->second;
  auto Shared = std::make_shared<std::map<std::string, CheckSelection>>(
      std::move(Selections));
  std::function<const CheckSelection &(StringRef)> Selection =
      [Shared, Default](StringRef MainFile) -> const CheckSelection & {
    auto It = Shared->find(MainFile.str());
    return It == Shared->end() ? *Default : It->second;
  };

  // One engine per input, merged in input order into the first.
  CheckRunResult R;
  bool Gate = O.Gate.has_value();
  R.Engine = std::make_unique<CheckEngine>(Selection, O.Filter);
  R.Engine->collectKernels(Gate);
  std::vector<std::unique_ptr<CheckEngine>> Engines;
  std::vector<std::unique_ptr<clang::tooling::FrontendActionFactory>> Factories;
  for (size_t I = 0; I < O.Inputs.size(); ++I) {
    Engines.push_back(std::make_unique<CheckEngine>(Selection, O.Filter));
    Engines.back()->collectKernels(Gate);
    Factories.push_back(Engines.back()->newActionFactory());
  }
  SourceSettings S = O.Sources;
  S.Parallel = true;
  S.SearchBuildDirs = true;
  SourceRunSummary Sum;
  int Status = runSources(
      S, O.Inputs,
      [&](size_t I) -> clang::tooling::FrontendActionFactory & {
        return *Factories[I];
      },
      [&](size_t I) {
        R.Engine->merge(std::move(*Engines[I]));
        Factories[I].reset();
        Engines[I].reset();
      },
      Messages, &Sum, Log);
  if (Status != 2)
    writeRunSummary(Log, Sum, S.Jobs);
  R.ToolError = Status != 0;
  for (const std::string &F : R.Engine->filesWithErrors())
    Messages.Error("'" + F + "' does not compile; it was not checked");
  R.Findings = R.Engine->findings();

  // The performance gate, over the kernels of the sources that compiled.
  if (Gate) {
    if (R.ToolError)
      Messages.Error("the performance gate did not run: a source was not "
                     "checked");
    else
      runGate(O, Selection, Runner, Messages, Log, R);
  }
  return std::move(R);
}

bool autoprof::applyFixes(const CheckEngine &Engine, const MergedFixes &Fixes,
                          const SourceMessages &Messages, raw_ostream &Log) {
  if (!Engine.filesWithErrors().empty()) {
    Messages.Error("no fix is applied: a translation unit does not compile");
    return false;
  }
  bool Ok = true;
  for (const auto &[File, Edits] : Fixes.Edits) {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      Messages.Error("cannot read '" + File + "': " + Buf.getError().message());
      Ok = false;
      continue;
    }
    if ((*Buf)->getBuffer() != Engine.fileText(File) &&
        !Engine.fileText(File).empty()) {
      Messages.Error("'" + File + "' changed while it was checked; not fixed");
      Ok = false;
      continue;
    }
    Expected<std::string> New = applyEdits((*Buf)->getBuffer(), Edits);
    if (!New) {
      Messages.Error("cannot apply the fixes to '" + File +
                     "': " + toString(New.takeError()));
      Ok = false;
      continue;
    }
    if (Error E = writeFileAtomically(File, *New)) {
      Messages.Error(toString(std::move(E)));
      Ok = false;
    }
  }
  Log << "clang-autoprof: applied " << Fixes.Merged << " of " << Fixes.Suggested
      << " suggested fixes\n";
  return Ok;
}
