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
#include "autoprof/Check/ExportFixes.h"
#include "autoprof/Check/FixMerge.h"
#include "autoprof/Check/PerfGate.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Verify/PerfBaseline.h"
#include "autoprof/Verify/Verifier.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <map>
#include <set>

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

std::string absolute(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

/// The checks and promoted warnings for \p Source with the command line's.
Expected<CheckSelection> selectionFor(StringRef Source, StringRef Name = "") {
  CheckOptions &O = checkOptions();
  std::string Checks = O.Checks, Promoted = O.WarningsAsErrors;
  return checkSelectionFor(
      Source, O.Checks.getNumOccurrences() ? &Checks : nullptr,
      O.WarningsAsErrors.getNumOccurrences() ? &Promoted : nullptr, Name);
}

/// `--list-checks`: the checks enabled for the first source, or for a file
/// in the current directory, one per line as clang-tidy lists them.
int listChecks() {
  SourceOptions &S = sourceOptions();
  std::string Where =
      S.Sources.empty() ? absolute(CheckConfigFileName) : S.Sources.front();
  Expected<CheckSelection> Sel =
      selectionFor(Where, S.Sources.empty() ? "the current directory" : "");
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

/// The problem with the options of the performance gate, if any.
std::optional<std::string>
perfOptionsProblem(const std::vector<std::string> &Inputs) {
  CheckOptions &O = checkOptions();
  if (!perfGate()) {
    const cl::Option *GateOptions[] = {&O.Run, &O.PerfRuns, &O.PerfTolerance,
                                       &O.Timeout, &O.DeviceLock};
    for (const cl::Option *Opt : GateOptions)
      if (Opt->getNumOccurrences())
        return "--" + Opt->ArgStr.str() +
               " is an option of the performance gate, which runs with "
               "--perf-record or --perf-baseline";
    return std::nullopt;
  }
  if (O.Run.empty())
    return std::string("the performance gate needs the program: give --run "
                       "\"<cmd>\" with --perf-record or --perf-baseline");
  if (O.PerfRuns < 3)
    return std::string("--perf-runs must be at least 3: the noise is "
                       "estimated over runs with different seeds");
  if (!std::isfinite(O.PerfTolerance) || O.PerfTolerance < 0)
    return std::string("--perf-tolerance must be a non-negative fraction "
                       "(0.05 allows 5%)");
  if (!O.PerfRecord.empty() && !O.PerfBaseline.empty() &&
      absolute(O.PerfRecord) == absolute(O.PerfBaseline))
    return "--perf-record '" + O.PerfRecord +
           "' would replace the baseline it is compared with";
  if (!O.PerfRecord.empty() && sys::fs::exists(O.PerfRecord))
    for (const std::string &In : Inputs)
      if (sys::fs::exists(In) && sys::fs::equivalent(O.PerfRecord, In))
        return "--perf-record '" + O.PerfRecord +
               "' names a source, which the baseline would replace";
  return std::nullopt;
}

/// Reads the baseline of --perf-baseline.
Expected<PerfBaseline> loadBaseline(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read the baseline '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  return parsePerfBaselineJSON((*Buf)->getBuffer(), Path);
}

std::string plural(unsigned N, StringRef One, StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// The performance gate over the kernels \p Engine checked: times them in
/// runs of --run, writes --perf-record and compares with \p Baseline,
/// adding the findings of autoprof-perf-regression to \p Findings.
/// \p Selection gives the checks of a translation unit by its main file.
/// Returns 0, 2 after reporting a tool error, or 130 when interrupted.
int runPerfGate(
    const CheckEngine &Engine,
    const std::function<const CheckSelection &(StringRef)> &Selection,
    const std::optional<PerfBaseline> &Baseline, const std::string &Inject,
    std::vector<Finding> &Findings) {
  CheckOptions &O = checkOptions();
  const Check *Perf = CheckRegistry::find(PerfRegressionCheckName);

  // What launches of each kernel, where it is declared and which
  // translation unit's selection applies to it.
  std::vector<GateKernel> Kernels;
  std::set<std::string> Seen;
  bool AnyLaunchable = false;
  for (const CheckedKernel &K : Engine.checkedKernels()) {
    const CheckSelection &Sel = Selection(K.MainFile);
    bool Compare = Baseline && llvm::is_contained(Sel.Checks, Perf);
    AnyLaunchable |= !K.Launchable.empty();
    if (K.Launchable.empty() && O.Verbose)
      errs() << "clang-autoprof: perf gate: kernel template '"
             << K.QualifiedName << "' is instantiated nowhere; not timed\n";
    if (!Compare && O.PerfRecord.empty())
      continue;
    for (const KernelRecord &R : K.Launchable) {
      if (Seen.insert(R.MangledName).second)
        Kernels.push_back(
            {signatureOf(R), K.Where, false, &Sel.WarningsAsErrors});
      // A kernel of several units is compared when one of them asks.
      if (Compare)
        for (GateKernel &G : Kernels)
          if (G.Signature.MangledName == R.MangledName)
            G.Compare = true;
    }
  }
  if (Kernels.empty()) {
    if (AnyLaunchable) {
      errs() << "clang-autoprof: perf gate: " << PerfRegressionCheckName
             << " is enabled for no source; nothing is timed\n";
      return 0;
    }
    reportError(
        Twine("the performance gate has no kernel to time: the "
              "sources define none") +
        (sourceOptions().Kernel.empty() ? "" : " that --kernel selects"));
    return 2;
  }

  TempDir Work;
  if (std::error_code EC =
          sys::fs::createUniqueDirectory("clang-autoprof-check", Work.Path)) {
    reportError("cannot create a temporary directory: " + EC.message());
    return 2;
  }
  PerfGateOptions G;
  G.RunCommand = O.Run;
  G.InjectLibrary = Inject;
  G.Runs = O.PerfRuns;
  G.Timeout = O.Timeout;
  G.DeviceLock = O.DeviceLock;
  G.WorkDir = std::string(Work.Path);
  G.Tolerance = O.PerfTolerance;
  G.Verbose = O.Verbose;
  if (!O.PerfRecord.empty())
    G.Record = [&](const PerfBaseline &Current) -> Error {
      if (Error E = writeOutput(O.PerfRecord, writePerfBaselineJSON(Current)))
        return E;
      errs() << "clang-autoprof: perf gate: recorded "
             << plural(Current.Kernels.size(), "kernel", "kernels") << " in '"
             << O.PerfRecord << "' (" << O.PerfRuns << " runs)\n";
      return Error::success();
    };
  G.Warn = [](const std::string &W) { reportWarning(W); };
  ProcessRunner Runner;
  Expected<PerfGateRun> Run = timeAndGate(Kernels, Baseline, G, Runner, errs());
  if (!Run) {
    std::string Msg = toString(Run.takeError());
    reportError(Msg);
    return Msg == "interrupted" ? 130 : 2;
  }
  llvm::append_range(Findings, std::move(Run->Findings));
  return 0;
}

/// `--fix`: writes \p Fixes into the sources \p Engine read, each only
/// when it is unchanged since; returns false after reporting a failure.
bool applyFixes(const CheckEngine &Engine, const MergedFixes &Fixes) {
  if (!Engine.filesWithErrors().empty()) {
    reportError("no fix is applied: a translation unit does not compile");
    return false;
  }
  bool Ok = true;
  for (const auto &[File, Edits] : Fixes.Edits) {
    auto Buf = MemoryBuffer::getFile(File);
    if (!Buf) {
      reportError("cannot read '" + File + "': " + Buf.getError().message());
      Ok = false;
      continue;
    }
    if ((*Buf)->getBuffer() != Engine.fileText(File) &&
        !Engine.fileText(File).empty()) {
      reportError("'" + File + "' changed while it was checked; not fixed");
      Ok = false;
      continue;
    }
    Expected<std::string> New = applyEdits((*Buf)->getBuffer(), Edits);
    if (!New) {
      reportError("cannot apply the fixes to '" + File +
                  "': " + toString(New.takeError()));
      Ok = false;
      continue;
    }
    if (Error E = writeOutput(File, *New)) {
      reportError(toString(std::move(E)));
      Ok = false;
    }
  }
  errs() << "clang-autoprof: applied " << Fixes.Merged << " of "
         << Fixes.Suggested << " suggested fixes\n";
  return Ok;
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

  if (std::optional<std::string> Problem = perfOptionsProblem(In.Sources)) {
    reportError(*Problem);
    return 2;
  }
  // The baseline and the injection library before anything runs.
  if (!O.PerfBaseline.empty()) {
    Expected<PerfBaseline> B = loadBaseline(O.PerfBaseline);
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
    Shown.emplace(absolute(In), In);
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

  std::map<std::string, CheckSelection> Selections;
  for (const std::string &Src : Inputs) {
    if (!sys::fs::exists(Src))
      continue; // runOnSources reports it
    Expected<CheckSelection> Sel = selectionFor(Src);
    if (!Sel) {
      reportError(toString(Sel.takeError()));
      return 2;
    }
    Selections[absolute(Src)] = std::move(*Sel);
  }
  CheckSelection Default;
  Default.Checks = CheckRegistry::all();
  if (!Selections.empty())
    Default = Selections.begin()->second;

  KernelFilter Filter;
  if (!kernelFilter(Filter))
    return 2;
  auto Selection = [&](StringRef MainFile) -> const CheckSelection & {
    auto It = Selections.find(MainFile.str());
    return It == Selections.end() ? Default : It->second;
  };
  // One engine per input, merged in input order into the first.
  CheckEngine Engine(Selection, Filter);
  Engine.collectKernels(perfGate());
  std::vector<std::unique_ptr<CheckEngine>> Engines;
  std::vector<std::unique_ptr<clang::tooling::FrontendActionFactory>> Factories;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    Engines.push_back(std::make_unique<CheckEngine>(Selection, Filter));
    Engines.back()->collectKernels(perfGate());
    Factories.push_back(Engines.back()->newActionFactory());
  }
  int Status = runOnSourcesInParallel(
      jobs(), Inputs, ArgsAfterDashDash, /*SearchBuildDirs=*/true,
      [&](size_t I) -> clang::tooling::FrontendActionFactory & {
        return *Factories[I];
      },
      [&](size_t I) {
        Engine.merge(std::move(*Engines[I]));
        Factories[I].reset();
        Engines[I].reset();
      });
  bool ToolError = Status != 0;
  for (const std::string &F : Engine.filesWithErrors())
    reportError("'" + F + "' does not compile; it was not checked");
  std::vector<Finding> Findings = Engine.findings();

  // The performance gate, over the kernels of the sources that compiled.
  if (perfGate()) {
    if (ToolError) {
      reportError("the performance gate did not run: a source was not "
                  "checked");
    } else {
      int Gate =
          runPerfGate(Engine, Selection, In.Baseline, In.Inject, Findings);
      if (Gate == 130)
        return 130;
      ToolError = Gate != 0;
      sortFindings(Findings);
    }
  }

  std::string Report = renderFindings(Engine, Findings, Inputs, Argv0);
  if (!Report.empty() || O.Output != "-")
    if (Error E = writeOutput(O.Output, Report)) {
      reportError(toString(std::move(E)));
      return 2;
    }

  MergedFixes Fixes = mergeFixes(Findings);
  if (!O.ExportFixes.empty()) {
    std::string Main = Inputs.empty() ? "" : absolute(Inputs.front());
    SmallString<256> Cwd;
    sys::fs::current_path(Cwd);
    if (Error E = writeOutput(
            O.ExportFixes,
            exportFindingsYAML(Main, Findings, Fixes.Applied, Cwd))) {
      reportError(toString(std::move(E)));
      return 2;
    }
  }

  if (O.Fix && !Fixes.Edits.empty() && !applyFixes(Engine, Fixes))
    ToolError = true;
  if (ToolError)
    return 2;
  for (const Finding &F : Findings)
    if (F.Level == Severity::Error)
      return 1;
  return 0;
}
