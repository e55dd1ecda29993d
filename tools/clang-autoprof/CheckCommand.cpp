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
#include "autoprof/Rewrite/RewriteEngine.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

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

/// Parses \p Text (from \p Origin) into a glob list that must select at
/// least one known check per glob.
Expected<GlobList> parseGlobs(StringRef Text, StringRef Origin) {
  Expected<GlobList> L = GlobList::parse(Text);
  if (!L)
    return createStringError("invalid %s: %s", Origin.str().c_str(),
                             toString(L.takeError()).c_str());
  std::vector<std::string> Unmatched = L->unmatched(CheckRegistry::names());
  if (!Unmatched.empty())
    return createStringError("no check matches '%s' in %s; checks: %s",
                             Unmatched.front().c_str(), Origin.str().c_str(),
                             join(CheckRegistry::names(), ", ").c_str());
  return L;
}

/// The checks and promoted warnings for \p Source: the default, then the
/// configuration file's keys, then the command line's.
Expected<CheckSelection> selectionFor(StringRef Source) {
  CheckOptions &O = checkOptions();
  Expected<CheckConfig> Config = findCheckConfig(Source);
  if (!Config)
    return Config.takeError();
  std::string Checks = "autoprof-*";
  std::string Promoted;
  if (Config->Checks) {
    if (Error E =
            parseGlobs(*Config->Checks, "Checks of '" + Config->Path + "'")
                .takeError())
      return std::move(E);
    Checks += "," + *Config->Checks;
  }
  if (Config->WarningsAsErrors) {
    if (Error E = parseGlobs(*Config->WarningsAsErrors,
                             "WarningsAsErrors of '" + Config->Path + "'")
                      .takeError())
      return std::move(E);
    Promoted = *Config->WarningsAsErrors;
  }
  if (O.Checks.getNumOccurrences())
    Checks += "," + O.Checks;
  if (O.WarningsAsErrors.getNumOccurrences())
    Promoted += "," + O.WarningsAsErrors;
  CheckSelection S;
  GlobList Enabled = cantFail(GlobList::parse(Checks));
  for (const Check *C : CheckRegistry::all())
    if (Enabled.contains(C->name()))
      S.Checks.push_back(C);
  if (S.Checks.empty())
    return createStringError("no check is enabled for '%s'",
                             Source.str().c_str());
  S.WarningsAsErrors = cantFail(GlobList::parse(Promoted));
  return S;
}

} // namespace

int autoprof::tool::runCheck() {
  CheckOptions &O = checkOptions();
  SourceOptions &S = sourceOptions();
  std::vector<std::string> Inputs(S.Sources.begin(), S.Sources.end());

  // Options first: bad globs are errors even without a configuration file.
  if (O.Checks.getNumOccurrences())
    if (Error E = parseGlobs(O.Checks, "--checks").takeError()) {
      reportError(toString(std::move(E)));
      return 2;
    }
  if (O.WarningsAsErrors.getNumOccurrences())
    if (Error E = parseGlobs(O.WarningsAsErrors, "--warnings-as-errors")
                      .takeError()) {
      reportError(toString(std::move(E)));
      return 2;
    }
  if (O.Output != "-" && sys::fs::exists(O.Output))
    for (const std::string &In : Inputs)
      if (sys::fs::exists(In) && sys::fs::equivalent(O.Output, In)) {
        reportError("-o '" + O.Output +
                    "' names a source, which the report would replace");
        return 2;
      }

  std::map<std::string, CheckSelection> Selections;
  for (const std::string &In : Inputs) {
    if (!sys::fs::exists(In))
      continue; // runOnSources reports it
    Expected<CheckSelection> Sel = selectionFor(In);
    if (!Sel) {
      reportError(toString(Sel.takeError()));
      return 2;
    }
    Selections[absolute(In)] = std::move(*Sel);
  }
  CheckSelection Default;
  if (Selections.empty())
    Default.Checks = CheckRegistry::all();
  else
    Default = Selections.begin()->second;

  KernelFilter Filter;
  if (!kernelFilter(Filter))
    return 2;
  CheckEngine Engine(
      [&](StringRef MainFile) -> const CheckSelection & {
        auto It = Selections.find(MainFile.str());
        return It == Selections.end() ? Default : It->second;
      },
      Filter);
  auto Factory = Engine.newActionFactory();
  int Status = runOnSources(*Factory, Inputs, ArgsAfterDashDash,
                            /*SearchBuildDirs=*/true);
  bool ToolError = Status != 0;
  for (const std::string &F : Engine.filesWithErrors())
    reportError("'" + F + "' does not compile; it was not checked");

  std::map<std::string, std::string> Shown;
  for (const std::string &In : Inputs)
    Shown.emplace(absolute(In), In);
  std::vector<Finding> Findings = Engine.findings();
  auto Text = [&](StringRef File) { return Engine.fileText(File); };
  std::string Report;
  if (O.Format == CheckFormat::Sarif) {
    Report = formatFindingsSarif(Findings, CheckRegistry::all(), Text,
                                 AUTOPROF_VERSION, AUTOPROF_DOCS_URL);
  } else {
    Report = formatFindingsText(Findings, Text, [&](StringRef File) {
      auto It = Shown.find(File.str());
      return It == Shown.end() ? File.str() : It->second;
    });
  }
  if (!Report.empty() || O.Output != "-")
    if (Error E = writeOutput(O.Output, Report)) {
      reportError(toString(std::move(E)));
      return 2;
    }

  // The fixes, merged per file in the order of the findings; a fix that
  // overlaps one already taken is left out.
  std::map<std::string, clang::tooling::Replacements> Fixes;
  clang::tooling::Replacements All;
  unsigned Suggested = 0, Merged = 0;
  for (const Finding &F : Findings) {
    if (F.Fix.empty())
      continue;
    ++Suggested;
    clang::tooling::Replacements Trial = All;
    bool Conflict = false;
    for (const clang::tooling::Replacement &R : F.Fix) {
      for (const clang::tooling::Replacement &Old : All)
        if (Old == R) {
          Conflict = true; // already there
          break;
        }
      if (Conflict)
        break;
      if (Error E = Trial.add(R)) {
        consumeError(std::move(E));
        Conflict = true;
      }
    }
    if (Conflict)
      continue;
    ++Merged;
    All = std::move(Trial);
  }
  for (const clang::tooling::Replacement &R : All)
    cantFail(Fixes[R.getFilePath().str()].add(R));

  if (!O.ExportFixes.empty()) {
    std::string Main = Inputs.empty() ? "" : absolute(Inputs.front());
    if (Error E = writeOutput(O.ExportFixes, exportFixesYAML(Main, All))) {
      reportError(toString(std::move(E)));
      return 2;
    }
  }

  if (O.Fix && !Fixes.empty()) {
    if (!Engine.filesWithErrors().empty()) {
      reportError("no fix is applied: a translation unit does not compile");
      ToolError = true;
    } else {
      for (auto &[File, Edits] : Fixes) {
        auto Buf = MemoryBuffer::getFile(File);
        if (!Buf) {
          reportError("cannot read '" + File +
                      "': " + Buf.getError().message());
          ToolError = true;
          continue;
        }
        if ((*Buf)->getBuffer() != Engine.fileText(File) &&
            !Engine.fileText(File).empty()) {
          reportError("'" + File + "' changed while it was checked; not fixed");
          ToolError = true;
          continue;
        }
        Expected<std::string> New = applyEdits((*Buf)->getBuffer(), Edits);
        if (!New) {
          reportError("cannot apply the fixes to '" + File +
                      "': " + toString(New.takeError()));
          ToolError = true;
          continue;
        }
        if (Error E = writeOutput(File, *New)) {
          reportError(toString(std::move(E)));
          ToolError = true;
        }
      }
      errs() << "clang-autoprof: applied " << Merged << " of " << Suggested
             << " suggested fixes\n";
    }
  }

  if (ToolError)
    return 2;
  for (const Finding &F : Findings)
    if (F.Level == Severity::Error)
      return 1;
  return 0;
}
