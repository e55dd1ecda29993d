//===- CheckCommand.cpp - clang-autoprof check, as a library call ---------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckCommand.h"
#include "autoprof/Check/CheckConfig.h"
#include "autoprof/Check/CheckOutput.h"
#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Check/CheckRun.h"
#include "autoprof/Check/ExportFixes.h"
#include "autoprof/Check/FixMerge.h"
#include "autoprof/Check/PerfGate.h"
#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Verify/Files.h"
#include "autoprof/Verify/PerfBaseline.h"

#include "llvm/Support/FileSystem.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

namespace {

/// The check run's options that --list-checks needs: the globs.
CheckRunOptions globOptions(const CheckCommandOptions &O) {
  CheckRunOptions R;
  R.Checks = O.Checks;
  R.WarningsAsErrors = O.WarningsAsErrors;
  return R;
}

/// `--list-checks`: the checks enabled for the first source, or for a file
/// in the current directory, one per line as clang-tidy lists them.
Error listChecks(const CheckCommandOptions &O, const CheckCommandHooks &H) {
  std::string Where =
      O.Sources.empty() ? normalPath(CheckConfigFileName) : O.Sources.front();
  Expected<CheckSelection> Sel = selectChecks(
      globOptions(O), Where, O.Sources.empty() ? "the current directory" : "");
  if (!Sel)
    return Sel.takeError();
  std::string Text = "Enabled checks:\n";
  for (const Check *C : Sel->Checks)
    Text += "    " + C->name().str() + "\n";
  return H.Write(O.Output, Text + "\n");
}

/// Whether the performance gate runs: --perf-record or --perf-baseline.
bool perfGate(const CheckCommandOptions &O) {
  return !O.PerfRecord.empty() || !O.PerfBaseline.empty();
}

std::string plural(unsigned N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// The gate's settings from the options; --perf-record written as the
/// gate asks.
PerfGateOptions gateOptions(const CheckCommandOptions &O,
                            const CheckCommandHooks &H, raw_ostream &Log) {
  PerfGateOptions G;
  G.RunCommand = O.Run;
  G.InjectLibrary = O.InjectLibrary;
  G.Runs = O.PerfRuns;
  G.Timeout = O.Timeout;
  G.DeviceLock = O.DeviceLock;
  G.Tolerance = O.PerfTolerance;
  G.Verbose = O.Verbose;
  if (!O.PerfRecord.empty())
    G.Record = [&O, &H, &Log](const PerfBaseline &Current) -> Error {
      if (Error E = H.Write(O.PerfRecord, writePerfBaselineJSON(Current)))
        return E;
      Log << "clang-autoprof: perf gate: recorded "
          << plural(Current.Kernels.size(), "kernel", "kernels") << " in '"
          << O.PerfRecord << "' (" << O.PerfRuns << " runs)\n";
      return Error::success();
    };
  G.Warn = H.Messages.Warning;
  return G;
}

/// Fails when an option of the performance gate is given without the gate,
/// or the gate's options do not go together for the sources \p Inputs.
Error checkPerfOptions(const CheckCommandOptions &O, const CheckCommandHooks &H,
                       const std::vector<std::string> &Inputs) {
  if (perfGate(O))
    return checkGateOptions(gateOptions(O, H, nulls()), O.PerfRecord,
                            O.PerfBaseline, Inputs);
  if (!O.GateOptionsGiven.empty())
    return createStringError("--" + O.GateOptionsGiven.front() +
                             " is an option of the performance gate, which "
                             "runs with --perf-record or --perf-baseline");
  return Error::success();
}

/// What `check` runs over, read from its options before anything runs.
struct CheckInputs {
  std::vector<std::string> Sources;
  std::optional<PerfBaseline> Baseline;
  KernelFilter Filter;
};

/// Checks the options and reads what they name, before anything runs.
Error readInputs(const CheckCommandOptions &O, const CheckCommandHooks &H,
                 CheckInputs &In) {
  Expected<std::vector<std::string>> Found =
      sourcesToRun(O.Sources, O.Parse.BuildPath);
  if (!Found)
    return Found.takeError();
  In.Sources = std::move(*Found);
  if (O.Output != "-" && sys::fs::exists(O.Output))
    for (const std::string &Src : In.Sources)
      if (sys::fs::exists(Src) && sys::fs::equivalent(O.Output, Src))
        return createStringError("-o '" + O.Output +
                                 "' names a source, which the report would "
                                 "replace");
  if (Error E = checkPerfOptions(O, H, In.Sources))
    return E;
  // The baseline and the injection library before anything runs.
  if (!O.PerfBaseline.empty()) {
    Expected<PerfBaseline> B = readPerfBaselineFile(O.PerfBaseline);
    if (!B)
      return B.takeError();
    In.Baseline = std::move(*B);
  }
  if (perfGate(O) && !sys::fs::exists(O.InjectLibrary))
    return createStringError("cannot find the injection library '" +
                             O.InjectLibrary +
                             "'; set AUTOPROF_INJECT_LIBRARY");
  Expected<KernelFilter> F = kernelNameFilter(O.KernelRegex);
  if (!F)
    return F.takeError();
  In.Filter = std::move(*F);
  return Error::success();
}

/// The report of \p Findings: SARIF or text, with each file named as the
/// command line named it.
std::string renderFindings(const CheckCommandOptions &O,
                           const CheckCommandHooks &H,
                           const CheckEngine &Engine,
                           const std::vector<Finding> &Findings,
                           const std::vector<std::string> &Inputs) {
  std::map<std::string, std::string> Shown;
  for (const std::string &In : Inputs)
    Shown.emplace(normalPath(In), In);
  auto Text = [&](StringRef File) { return Engine.fileText(File); };
  if (O.Sarif)
    return formatFindingsSarif(Findings, CheckRegistry::all(), Text, O.Version,
                               O.DocsURL);
  bool Color = O.UseColor ? *O.UseColor : O.Output == "-" && H.StdoutHasColors;
  return formatFindingsText(
      Findings, Text,
      [&](StringRef File) {
        auto It = Shown.find(File.str());
        return It == Shown.end() ? File.str() : It->second;
      },
      Color);
}

/// Writes the report and the exported fixes, and applies the fixes when
/// asked; false after a tool error.
bool writeResults(const CheckCommandOptions &O, const CheckCommandHooks &H,
                  const CheckRunResult &R, const std::vector<std::string> &In,
                  raw_ostream &Log) {
  std::string Report = renderFindings(O, H, *R.Engine, R.Findings, In);
  if (!Report.empty() || O.Output != "-")
    if (Error E = H.Write(O.Output, Report)) {
      H.Messages.Error(toString(std::move(E)));
      return false;
    }
  MergedFixes Fixes = mergeFixes(R.Findings);
  if (!O.ExportFixes.empty()) {
    std::string Main = In.empty() ? "" : normalPath(In.front());
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    if (Error E =
            H.Write(O.ExportFixes,
                    exportFindingsYAML(Main, R.Findings, Fixes.Applied, Cwd))) {
      H.Messages.Error(toString(std::move(E)));
      return false;
    }
  }
  return !O.Fix || Fixes.Edits.empty() ||
         applyFixes(*R.Engine, Fixes, H.Messages, Log);
}

} // namespace

int autoprof::runCheckCommand(const CheckCommandOptions &O,
                              const CheckCommandHooks &H,
                              verify::CommandRunner &Runner, raw_ostream &Log) {
  auto Fail = [&](Error E) {
    H.Messages.Error(toString(std::move(E)));
    return 2;
  };
  // Options first: bad globs are errors even without a configuration file
  // or a source.
  if (O.Checks)
    if (Error E = parseCheckGlobs(*O.Checks, "--checks").takeError())
      return Fail(std::move(E));
  if (O.WarningsAsErrors)
    if (Error E = parseCheckGlobs(*O.WarningsAsErrors, "--warnings-as-errors")
                      .takeError())
      return Fail(std::move(E));
  if (O.ListChecks) {
    if (Error E = listChecks(O, H))
      return Fail(std::move(E));
    return 0;
  }
  CheckInputs In;
  if (Error E = readInputs(O, H, In))
    return Fail(std::move(E));

  CheckRunOptions Run = globOptions(O);
  Run.Sources = O.Parse;
  Run.Inputs = In.Sources;
  Run.Filter = std::move(In.Filter);
  Run.KernelGiven = !O.KernelRegex.empty();
  Run.Verbose = O.Verbose;
  if (perfGate(O))
    Run.Gate = gateOptions(O, H, Log);
  Run.Baseline = std::move(In.Baseline);
  Expected<CheckRunResult> R = runCheck(Run, Runner, H.Messages, Log);
  if (!R)
    return Fail(R.takeError());
  if (R->Interrupted)
    return 130;
  if (!writeResults(O, H, *R, In.Sources, Log) || R->ToolError)
    return 2;
  for (const Finding &F : R->Findings)
    if (F.Level == Severity::Error)
      return 1;
  return 0;
}
