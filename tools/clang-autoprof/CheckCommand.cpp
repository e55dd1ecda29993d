//===- CheckCommand.cpp - clang-autoprof check ----------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Check/CheckCommand.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

enum class CheckFormat { Text, Sarif };

struct CheckOptions {
  /// The options' values, which most options below set.
  CheckCommandOptions V;
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
  cl::opt<bool, true> Fix{
      "fix",
      cl::desc("Apply the fixes to the files, in place, unless "
               "a translation unit does not compile"),
      cl::location(V.Fix), cl::sub(checkCommand())};
  cl::opt<std::string, true> ExportFixes{
      "export-fixes",
      cl::desc("Write the fixes as YAML for clang-apply-replacements"),
      cl::value_desc("file"), cl::location(V.ExportFixes),
      cl::sub(checkCommand())};
  cl::opt<CheckFormat> Format{
      "format", cl::desc("Output format"), cl::init(CheckFormat::Text),
      cl::values(
          clEnumValN(CheckFormat::Text, "text", "Clang-style diagnostics"),
          clEnumValN(CheckFormat::Sarif, "sarif", "SARIF 2.1.0")),
      cl::sub(checkCommand())};
  cl::opt<std::string, true> Output{
      "o", cl::desc("Output file (default: stdout)"), cl::value_desc("file"),
      cl::location(V.Output), cl::sub(checkCommand())};
  cl::opt<std::string, true> Run{
      "run",
      cl::desc("Shell command that runs the program whose kernels the "
               "performance gate times (with --perf-record or "
               "--perf-baseline; needs a GPU)"),
      cl::value_desc("cmd"), cl::location(V.Run), cl::sub(checkCommand())};
  cl::opt<std::string, true> PerfRecord{
      "perf-record",
      cl::desc("Time the kernels of the sources in runs of --run and write "
               "their timings to this baseline file (atomically)"),
      cl::value_desc("file"), cl::location(V.PerfRecord),
      cl::sub(checkCommand())};
  cl::opt<std::string, true> PerfBaseline{
      "perf-baseline",
      cl::desc("Time the kernels of the sources in runs of --run and report "
               "each one slower than in this baseline beyond "
               "--perf-tolerance and the noise (autoprof-perf-regression)"),
      cl::value_desc("file"), cl::location(V.PerfBaseline),
      cl::sub(checkCommand())};
  cl::opt<unsigned, true> PerfRuns{
      "perf-runs",
      cl::desc("Timed runs of the program, seeds 1..N (at least 3; "
               "default: 5)"),
      cl::value_desc("N"), cl::location(V.PerfRuns), cl::sub(checkCommand())};
  cl::opt<double, true> PerfTolerance{
      "perf-tolerance",
      cl::desc("Slowdown allowed on top of the noise, as a fraction "
               "(default: 0.05)"),
      cl::value_desc("fraction"), cl::location(V.PerfTolerance),
      cl::sub(checkCommand())};
  cl::opt<unsigned, true> Timeout{
      "timeout",
      cl::desc("Seconds one run of the program may take (default: 300; 0: "
               "no limit)"),
      cl::value_desc("S"), cl::location(V.Timeout), cl::sub(checkCommand())};
  cl::opt<std::string, true> DeviceLock{
      "device-lock",
      cl::desc("Take turns with other processes holding this lock file for "
               "the timed runs"),
      cl::value_desc("file"), cl::location(V.DeviceLock),
      cl::sub(checkCommand())};
  cl::opt<bool> UseColor{
      "use-color",
      cl::desc("Colour the diagnostics (default: when they go to a "
               "terminal); --use-color=false never does"),
      cl::sub(checkCommand())};
  cl::opt<bool, true> ListChecks{
      "list-checks",
      cl::desc("List the enabled checks (for the first source, else the "
               "current directory: .clang-autoprof and --checks) and exit; "
               "--checks='*' lists them all"),
      cl::location(V.ListChecks), cl::sub(checkCommand())};
  cl::opt<bool, true> Verbose{
      "verbose",
      cl::desc("Say what the performance gate times, and print every "
               "kernel's comparison on stderr"),
      cl::location(V.Verbose), cl::sub(checkCommand())};
};

CheckOptions &checkOptions() {
  static CheckOptions O;
  return O;
}

// Register the options before the command line is parsed.
[[maybe_unused]] const CheckOptions &Registered = checkOptions();

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

} // namespace

int autoprof::tool::runCheck(const char *Argv0) {
  CheckOptions &O = checkOptions();
  CheckCommandOptions &V = O.V;
  SourceOptions &S = sourceOptions();
  V.Sources.assign(S.Sources.begin(), S.Sources.end());
  V.Parse = sourceSettings(ArgsAfterDashDash);
  V.Parse.Jobs = jobs();
  V.KernelRegex = S.Kernel;
  if (O.Checks.getNumOccurrences())
    V.Checks = O.Checks;
  if (O.WarningsAsErrors.getNumOccurrences())
    V.WarningsAsErrors = O.WarningsAsErrors;
  if (O.UseColor.getNumOccurrences())
    V.UseColor = O.UseColor;
  V.Sarif = O.Format == CheckFormat::Sarif;
  const cl::Option *GateOptions[] = {&O.Run, &O.PerfRuns, &O.PerfTolerance,
                                     &O.Timeout, &O.DeviceLock};
  for (const cl::Option *Opt : GateOptions)
    if (Opt->getNumOccurrences())
      V.GateOptionsGiven.push_back(Opt->ArgStr.str());
  if (!V.PerfRecord.empty() || !V.PerfBaseline.empty())
    V.InjectLibrary = injectionLibrary(Argv0);
  V.Version = AUTOPROF_VERSION;
  V.DocsURL = docsURL(Argv0);
  CheckCommandHooks H;
  H.Write = writeOutput;
  H.Messages = toolMessages();
  H.StdoutHasColors = outs().has_colors();
  verify::ProcessRunner Runner;
  return runCheckCommand(V, H, Runner, errs());
}
