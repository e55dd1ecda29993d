//===- FeaturesCommand.cpp - clang-autoprof features ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Tooling/RunSafely.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::tool;

namespace {

enum class OutputFormat { Text, JSON };

struct FeaturesOptions {
  cl::opt<OutputFormat> Format{
      "format", cl::desc("Output format"), cl::init(OutputFormat::Text),
      cl::values(
          clEnumValN(OutputFormat::Text, "text", "readable text"),
          clEnumValN(OutputFormat::JSON, "json", "JSON (docs/features.md)")),
      cl::sub(featuresCommand())};
  cl::opt<std::string> Output{"o", cl::desc("Output file (default: stdout)"),
                              cl::value_desc("file"), cl::init("-"),
                              cl::sub(featuresCommand())};
};

FeaturesOptions &featuresOptions() {
  static FeaturesOptions O;
  return O;
}

// Register the options before the command line is parsed.
[[maybe_unused]] const FeaturesOptions &Registered = featuresOptions();

} // namespace

std::optional<std::regex>
autoprof::tool::compileKernelRegex(const std::string &Pattern) {
  try {
    return std::regex(Pattern, std::regex::ECMAScript | std::regex::optimize);
  } catch (const std::regex_error &E) {
    reportError("invalid --kernel regular expression '" + Pattern +
                "': " + E.what());
    return std::nullopt;
  }
}

bool autoprof::tool::kernelFilter(KernelFilter &Filter) {
  SourceOptions &S = sourceOptions();
  std::shared_ptr<std::regex> Pattern;
  if (S.Kernel.getNumOccurrences()) {
    std::optional<std::regex> R = compileKernelRegex(S.Kernel);
    if (!R)
      return false;
    Pattern = std::make_shared<std::regex>(std::move(*R));
  }
  Filter = [Pattern](const std::string &Name, const std::string &Qualified) {
    return !Pattern || std::regex_search(Name, *Pattern) ||
           std::regex_search(Qualified, *Pattern);
  };
  return true;
}

int autoprof::tool::runOnSources(
    clang::tooling::FrontendActionFactory &Factory,
    const std::vector<std::string> &Inputs,
    const std::optional<std::vector<std::string>> &FixedArgs,
    bool SearchBuildDirs, const SourceOverrides *Overrides) {
  SourceOptions &S = sourceOptions();
  int Status = 0;
  CompilationOptions CO;
  CO.SearchBuildDirs = SearchBuildDirs;
  CO.InferMissing = SearchBuildDirs;
  CO.BuildPath = S.BuildPath;
  CO.FixedArgs = FixedArgs;
  CO.ExtraArgs.assign(S.ExtraArgs.begin(), S.ExtraArgs.end());
  CO.ExtraArgsBefore.assign(S.ExtraArgsBefore.begin(), S.ExtraArgsBefore.end());
  Expected<Compilations> DB = Compilations::load(CO, Inputs.front());
  if (!DB) {
    reportError(toString(DB.takeError()));
    return 2;
  }

  std::vector<std::string> Sources;
  for (const std::string &Src : Inputs) {
    if (!sys::fs::exists(Src)) {
      reportError("no such file: '" + Src + "'");
      Status = 1;
      continue;
    }
    if (sys::fs::is_directory(Src)) {
      reportError("'" + Src + "' is a directory, not a source file");
      Status = 1;
      continue;
    }
    // A binary file would come back as pages of Clang's diagnostics.
    if (auto Buf = MemoryBuffer::getFile(Src, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false)) {
      size_t Nul = (*Buf)->getBuffer().find('\0');
      if (Nul != StringRef::npos) {
        reportError("'" + Src + "' is not a source file: it holds a NUL byte " +
                    "at offset " + std::to_string(Nul));
        Status = 1;
        continue;
      }
    }
    if (Error E = DB->checkHasCommand(Src)) {
      reportError(toString(std::move(E)));
      Status = 1;
      continue;
    }
    Sources.push_back(Src);
  }

  // Each file in runSafely(): a file that crashes Clang (a stack overflow
  // on deeply nested code) is one error, and the other files still run.
  // One adjuster for the run: a dropped flag is reported once, not once
  // per file.
  CudaSettings Cuda;
  Cuda.CudaPath = S.CudaPath.empty() ? defaultCudaPath() : S.CudaPath;
  Cuda.GpuArch = S.GpuArch;
  clang::tooling::ArgumentsAdjuster Adjust =
      getCudaArgumentsAdjuster(Cuda, [](const std::string &Flag) {
        reportWarning("ignoring compiler flag '" + Flag +
                      "' that Clang does not know");
      });
  for (const std::string &Src : Sources) {
    clang::tooling::ClangTool Tool(DB->database(), {Src});
    Tool.appendArgumentsAdjuster(Adjust);
    if (Overrides) {
      for (const auto &[Path, Text] : Overrides->Files)
        Tool.mapVirtualFile(Path, Text);
      if (Overrides->Diagnostics) {
        Tool.setDiagnosticConsumer(Overrides->Diagnostics);
        // The caller reports the failure: no "Error while processing".
        Tool.setPrintErrorMessage(false);
        // Nor a count of the errors on stderr.
        Tool.appendArgumentsAdjuster(clang::tooling::getInsertArgumentAdjuster(
            "-fno-caret-diagnostics",
            clang::tooling::ArgumentInsertPosition::END));
      }
    }
    int RC = 1;
    if (!runSafely([&] { RC = Tool.run(&Factory); })) {
      reportError("Clang crashed while parsing '" + Src + "'");
      Status = 1;
    } else if (RC != 0) {
      Status = 1;
    }
  }
  return Status;
}

std::optional<std::vector<std::string>>
autoprof::tool::sourcesToRun(bool FromDatabase) {
  SourceOptions &S = sourceOptions();
  if (!S.Sources.empty())
    return std::vector<std::string>(S.Sources.begin(), S.Sources.end());
  if (!FromDatabase || S.BuildPath.empty()) {
    reportError(FromDatabase ? "no source given: name the sources, or give "
                               "-p <build-dir> to run over every CUDA file "
                               "of its compilation database"
                             : "no source given");
    return std::nullopt;
  }
  CompilationOptions CO;
  CO.BuildPath = S.BuildPath;
  Expected<Compilations> DB = Compilations::load(CO, "");
  if (!DB) {
    reportError(toString(DB.takeError()));
    return std::nullopt;
  }
  std::vector<std::string> Files = DB->cudaSources();
  if (Files.empty()) {
    reportError("the compilation database '" + DB->origin() +
                "' lists no CUDA file");
    return std::nullopt;
  }
  return Files;
}

int autoprof::tool::extractSources(
    FeatureReport &Report, const std::vector<std::string> *SourceList,
    const std::optional<std::vector<std::string>> *FixedArgs) {
  std::vector<std::string> Given;
  if (!SourceList) {
    std::optional<std::vector<std::string>> Found =
        sourcesToRun(/*FromDatabase=*/true);
    if (!Found)
      return 2;
    Given = std::move(*Found);
  }
  const std::vector<std::string> &Inputs = SourceList ? *SourceList : Given;
  KernelFilter Filter;
  if (!kernelFilter(Filter))
    return 2;
  auto Factory = newFeatureActionFactory(Report, Filter);
  return runOnSources(*Factory, Inputs,
                      FixedArgs ? *FixedArgs : ArgsAfterDashDash);
}

int autoprof::tool::runFeatures() {
  FeaturesOptions &O = featuresOptions();
  FeatureReport Report;
  int Status = extractSources(Report);
  if (Status == 2)
    return 1;
  // A run that failed and found nothing prints nothing: "no kernels"
  // would not be true.
  if (Status != 0 && Report.Kernels.empty())
    return Status;
  std::string Text = O.Format == OutputFormat::JSON ? writeFeaturesJSON(Report)
                                                    : writeFeaturesText(Report);
  if (Error E = writeOutput(O.Output, Text)) {
    reportError(toString(std::move(E)));
    return 1;
  }
  return Status;
}
