//===- CheckCommand.cpp - clang-autoprof check ----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Check/CheckConfig.h"
#include "autoprof/Check/CheckEngine.h"
#include "autoprof/Check/CheckOutput.h"
#include "autoprof/Check/CheckRegistry.h"
#include "autoprof/Check/CheckRun.h"
#include "autoprof/Check/ExportFixes.h"
#include "autoprof/Check/FixMerge.h"
#include "autoprof/Check/PerfGate.h"
#include "autoprof/Verify/PerfBaseline.h"
#include "autoprof/Verify/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;
using namespace autoprof::verify;

namespace {

enum class CheckFormat { Text, Sarif };

struct CheckOptions {
  cl::opt<std::string> Checks{
      "checks",
      cl::desc("Comma-separated globs of checks to run, '-' to remove one; "
               "appended to the Checks of .clang-autoprof, later globs win "
               "(default: autoprof-*)"),
      cl::value_desc("globs"), cl::sub(checkCommand())};
  cl::opt<std::string> WarningsAsErrors{
      "warnings-as-errors",
      cl::desc("Globs of checks whose warnings are errors; appended to the "
               "WarningsAsErrors of .clang-autoprof"),
      cl::value_desc("globs"), cl::sub(checkCommand())};
  cl::opt<bool> Fix{"fix",
                    cl::desc("Apply the fixes to the files, in place, unless "
                             "a translation unit does not compile"),
                    cl::sub(checkCommand())};
  cl::opt<std::string> ExportFixes{
      "export-fixes",
      cl::desc("Write the fixes as YAML for clang-apply-replacements"),
      cl::value_desc("file"), cl::sub(checkCommand())};
  cl::opt<CheckFormat> Format{
      "format", cl::desc("Output format"), cl::init(CheckFormat::Text),
      cl::values(
          clEnumValN(CheckFormat::Text, "text", "Clang-style diagnostics"),
          clEnumValN(CheckFormat::Sarif, "sarif", "SARIF 2.1.0")),
      cl::sub(checkCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(checkCommand())};
  cl::opt<std::string> Run{
      "run",
      cl::desc("Shell command that runs the program whose kernels the "
               "performance gate times (with --perf-record or "
               "--perf-baseline; needs a GPU)"),
      cl::value_desc("cmd"), cl::sub(checkCommand())};
  cl::opt<std::string> PerfRecord{
      "perf-record",
      cl::desc("Time the kernels of the sources in runs of --run and write "
               "their timings to this baseline file (atomically)"),
      cl::value_desc("file"), cl::sub(checkCommand())};
  cl::opt<std::string> PerfBaseline{
      "perf-baseline",
      cl::desc("Time the kernels of the sources in runs of --run and report "
               "each one slower than in this baseline beyond "
               "--perf-tolerance and the noise (autoprof-perf-regression)"),
      cl::value_desc("file"), cl::sub(checkCommand())};
  cl::opt<unsigned> PerfRuns{
      "perf-runs",
      cl::desc("Timed runs of the program, seeds 1..N (at least 3; "
               "default: 5)"),
      cl::value_desc("N"), cl::init(5), cl::sub(checkCommand())};
  cl::opt<double> PerfTolerance{
      "perf-tolerance",
      cl::desc("Slowdown allowed on top of the noise, as a fraction "
               "(default: 0.05)"),
      cl::value_desc("fraction"), cl::init(0.05), cl::sub(checkCommand())};
  cl::opt<unsigned> Timeout{
      "timeout",
      cl::desc("Seconds one run of the program may take (default: 300; 0: "
               "no limit)"),
      cl::value_desc("S"), cl::init(300), cl::sub(checkCommand())};
  cl::opt<std::string> DeviceLock{
      "device-lock",
      cl::desc("Take turns with other processes holding this lock file for "
               "the timed runs"),
      cl::value_desc("file"), cl::sub(checkCommand())};
  cl::opt<bool> UseColor{
      "use-color",
      cl::desc("Colour the diagnostics (default: when they go to a "
               "terminal); --use-color=false never does"),
      cl::sub(checkCommand())};
  cl::opt<bool> ListChecks{
      "list-checks",
      cl::desc("List the enabled checks (for the first source, else the "
               "current directory: .clang-autoprof and --checks) and exit; "
               "--checks='*' lists them all"),
      cl::sub(checkCommand())};
  cl::opt<bool> Verbose{
      "verbose",
      cl::desc("Say what the performance gate times, and print every "
               "kernel's comparison on stderr"),
      cl::sub(checkCommand())};
};

CheckOptions &checkOptions() {
  static CheckOptions O;
  return O;
}

// Register the options before the command line is parsed.
[[maybe_unused]] const CheckOptions &Registered = checkOptions();

/// The check run's options that --list-checks needs: the globs.
CheckRunOptions globOptions() {
  CheckOptions &O = checkOptions();
  CheckRunOptions R;
  if (O.Checks.getNumOccurrences())
    R.Checks = O.Checks;
  if (O.WarningsAsErrors.getNumOccurrences())
    R.WarningsAsErrors = O.WarningsAsErrors;
  return R;
}

/// `--list-checks`: the checks enabled for the first source, or for a file
/// in the current directory, one per line as clang-tidy lists them.
int listChecks() {
  SourceOptions &S = sourceOptions();
  std::string Where = S.Sources.empty()
                          ? verify::normalPath(CheckConfigFileName)
                          : S.Sources.front();
  Expected<CheckSelection> Sel = selectChecks(
      globOptions(), Where, S.Sources.empty() ? "the current directory" : "");
  if (!Sel) {
    reportError(toString(Sel.takeError()));
    return 2;
  }
  std::string Text = "Enabled checks:\n";
  for (const Check *C : Sel->Checks)
    Text += "    " + C->name().str() + "\n";
  if (Error E = writeOutput(checkOptions().Output, Text + "\n")) {
    reportError(toString(std::move(E)));
    return 2;
  }
  return 0;
}

/// The base of the SARIF rules' helpUri: AUTOPROF_DOCS_URL when the build
/// set one, else the documentation installed beside the tool
/// (`<prefix>/share/doc/clang-autoprof`, wherever the prefix was moved),
/// else, for a tool run from its build tree, the source's docs/.
std::string docsURL(const char *Argv0) {
  if (StringRef(AUTOPROF_DOCS_URL).size())
    return AUTOPROF_DOCS_URL;
  static int Anchor;
  SmallString<256> Dir(sys::fs::getMainExecutable(Argv0, &Anchor));
  sys::path::remove_filename(Dir); // bin
  sys::path::remove_filename(Dir); // the prefix
  sys::path::append(Dir, "share", "doc", "clang-autoprof");
  if (!sys::fs::is_directory(Dir) &&
      sys::fs::is_directory(AUTOPROF_SOURCE_DOCS_DIR))
    Dir = AUTOPROF_SOURCE_DOCS_DIR;
  sys::path::remove_dots(Dir, /*remove_dot_dot=*/true);
  return "file://" + std::string(Dir);
}

/// Whether the performance gate runs: --perf-record or --perf-baseline.
bool perfGate() {
  CheckOptions &O = checkOptions();
  return !O.PerfRecord.empty() || !O.PerfBaseline.empty();
}

std::string plural(unsigned N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// The gate's settings from the options; --perf-record written as the
/// gate asks.
PerfGateOptions gateOptions(const std::string &Inject) {
  CheckOptions &O = checkOptions();
  PerfGateOptions G;
  G.RunCommand = O.Run;
  G.InjectLibrary = Inject;
  G.Runs = O.PerfRuns;
  G.Timeout = O.Timeout;
  G.DeviceLock = O.DeviceLock;
  G.Tolerance = O.PerfTolerance;
  G.Verbose = O.Verbose;
  if (!O.PerfRecord.empty())
    G.Record = [&O](const PerfBaseline &Current) -> Error {
      if (Error E = writeOutput(O.PerfRecord, writePerfBaselineJSON(Current)))
        return E;
      errs() << "clang-autoprof: perf gate: recorded "
             << plural(Current.Kernels.size(), "kernel", "kernels") << " in '"
             << O.PerfRecord << "' (" << O.PerfRuns << " runs)\n";
      return Error::success();
    };
  G.Warn = [](const std::string &W) { reportWarning(W); };
  return G;
}

/// Fails when an option of the performance gate is given without the gate
/// (--perf-record or --perf-baseline), or the gate's options do not go
/// together for the sources \p Inputs.
Error checkPerfOptions(const std::vector<std::string> &Inputs) {
  CheckOptions &O = checkOptions();
  if (perfGate())
    return checkGateOptions(gateOptions(""), O.PerfRecord, O.PerfBaseline,
                            Inputs);
  const cl::Option *GateOptions[] = {&O.Run, &O.PerfRuns, &O.PerfTolerance,
                                     &O.Timeout, &O.DeviceLock};
  for (const cl::Option *Opt : GateOptions)
    if (Opt->getNumOccurrences())
      return createStringError("--" + Opt->ArgStr +
                               " is an option of the performance gate, which "
                               "runs with --perf-record or --perf-baseline");
  return Error::success();
}

/// What `check` runs over, read from its options before anything runs.
struct CheckInputs {
  std::vector<std::string> Sources;
  std::optional<PerfBaseline> Baseline;
  /// The injection library, when the performance gate runs.
  std::string Inject;
};

/// Checks the options and fills \p In; the exit status when `check` ends
/// here (--list-checks, or a bad option after reporting it), else nullopt.
std::optional<int> readInputs(const char *Argv0, CheckInputs &In) {
  CheckOptions &O = checkOptions();
  // Options first: bad globs are errors even without a configuration file
  // or a source.
  if (O.Checks.getNumOccurrences())
    if (Error E = parseCheckGlobs(O.Checks, "--checks").takeError()) {
      reportError(toString(std::move(E)));
      return 2;
    }
  if (O.WarningsAsErrors.getNumOccurrences())
    if (Error E = parseCheckGlobs(O.WarningsAsErrors, "--warnings-as-errors")
                      .takeError()) {
      reportError(toString(std::move(E)));
      return 2;
    }
  if (O.ListChecks)
    return listChecks();
  std::optional<std::vector<std::string>> Found =
      sourcesToRun(/*FromDatabase=*/true);
  if (!Found)
    return 2;
  In.Sources = std::move(*Found);

  if (O.Output != "-" && sys::fs::exists(O.Output))
    for (const std::string &Src : In.Sources)
      if (sys::fs::exists(Src) && sys::fs::equivalent(O.Output, Src)) {
        reportError("-o '" + O.Output +
                    "' names a source, which the report would replace");
        return 2;
      }

  if (Error E = checkPerfOptions(In.Sources)) {
    reportError(toString(std::move(E)));
    return 2;
  }
  // The baseline and the injection library before anything runs.
  if (!O.PerfBaseline.empty()) {
    Expected<PerfBaseline> B = readPerfBaselineFile(O.PerfBaseline);
    if (!B) {
      reportError(toString(B.takeError()));
      return 2;
    }
    In.Baseline = std::move(*B);
  }
  if (perfGate()) {
    In.Inject = injectionLibrary(Argv0);
    if (!sys::fs::exists(In.Inject)) {
      reportError("cannot find the injection library '" + In.Inject +
                  "'; set AUTOPROF_INJECT_LIBRARY");
      return 2;
    }
  }
  return std::nullopt;
}

/// The report of \p Findings: SARIF or text, with each file named as the
/// command line named it.
std::string renderFindings(const CheckEngine &Engine,
                           const std::vector<Finding> &Findings,
                           const std::vector<std::string> &Inputs,
                           const char *Argv0) {
  CheckOptions &O = checkOptions();
  std::map<std::string, std::string> Shown;
  for (const std::string &In : Inputs)
    Shown.emplace(verify::normalPath(In), In);
  auto Text = [&](StringRef File) { return Engine.fileText(File); };
  if (O.Format == CheckFormat::Sarif)
    return formatFindingsSarif(Findings, CheckRegistry::all(), Text,
                               AUTOPROF_VERSION, docsURL(Argv0));
  bool Color = O.UseColor.getNumOccurrences()
                   ? O.UseColor
                   : O.Output == "-" && outs().has_colors();
  return formatFindingsText(
      Findings, Text,
      [&](StringRef File) {
        auto It = Shown.find(File.str());
        return It == Shown.end() ? File.str() : It->second;
      },
      Color);
}

} // namespace

int autoprof::tool::runCheck(const char *Argv0) {
  CheckOptions &O = checkOptions();
  CheckInputs In;
  if (std::optional<int> Exit = readInputs(Argv0, In))
    return *Exit;
  const std::vector<std::string> &Inputs = In.Sources;

  CheckRunOptions Run = globOptions();
  Run.Sources = sourceSettings(ArgsAfterDashDash);
  Run.Sources.Jobs = jobs();
  Run.Inputs = Inputs;
  if (!kernelFilter(Run.Filter))
    return 2;
  Run.KernelGiven = !sourceOptions().Kernel.empty();
  Run.Verbose = O.Verbose;
  if (perfGate())
    Run.Gate = gateOptions(In.Inject);
  Run.Baseline = std::move(In.Baseline);
  ProcessRunner Runner;
  Expected<CheckRunResult> R =
      autoprof::runCheck(Run, Runner, toolMessages(), errs());
  if (!R) {
    reportError(toString(R.takeError()));
    return 2;
  }
  if (R->Interrupted)
    return 130;
  bool ToolError = R->ToolError;
  const std::vector<Finding> &Findings = R->Findings;
  std::string Report = renderFindings(*R->Engine, Findings, Inputs, Argv0);
  if (!Report.empty() || O.Output != "-")
    if (Error E = writeOutput(O.Output, Report)) {
      reportError(toString(std::move(E)));
      return 2;
    }

  MergedFixes Fixes = mergeFixes(Findings);
  if (!O.ExportFixes.empty()) {
    std::string Main = Inputs.empty() ? "" : verify::normalPath(Inputs.front());
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    if (Error E = writeOutput(
            O.ExportFixes,
            exportFindingsYAML(Main, Findings, Fixes.Applied, Cwd))) {
      reportError(toString(std::move(E)));
      return 2;
    }
  }

  if (O.Fix && !Fixes.Edits.empty() &&
      !applyFixes(*R->Engine, Fixes, toolMessages(), errs()))
    ToolError = true;
  if (ToolError)
    return 2;
  for (const Finding &F : Findings)
    if (F.Level == Severity::Error)
      return 1;
  return 0;
}
