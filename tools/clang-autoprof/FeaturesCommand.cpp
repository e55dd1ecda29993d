//===- FeaturesCommand.cpp - clang-autoprof features ----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include "autoprof/Features/FeatureExtractor.h"
#include "autoprof/Tooling/ParallelRun.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Threading.h"

#include <chrono>
#include <mutex>

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

namespace {

/// The inputs that can run: each that does not exist, is a directory, holds
/// a NUL byte or has no command is reported, and its index left out.
std::vector<size_t> runnableInputs(const std::vector<std::string> &Inputs,
                                   const Compilations &DB, int &Status) {
  std::vector<size_t> Runnable;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    const std::string &Src = Inputs[I];
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
    if (Error E = DB.checkHasCommand(Src)) {
      reportError(toString(std::move(E)));
      Status = 1;
      continue;
    }
    Runnable.push_back(I);
  }
  return Runnable;
}

/// Keeps "[done/total] file" on the last line of a terminal.
class Progress {
public:
  Progress(size_t Total, bool Shown) : Total(Total), Shown(Shown) {}
  /// Erases the line, for other output to take its place.
  void clear() {
    if (Shown && Drawn)
      errs() << "\r\x1b[K";
    Drawn = false;
  }
  void show(size_t Done, StringRef File) {
    if (!Shown)
      return;
    clear();
    errs() << "[" << Done << "/" << Total << "] " << File;
    errs().flush();
    Drawn = true;
  }

private:
  size_t Total;
  bool Shown;
  bool Drawn = false;
};

/// runOnSources() and runOnSourcesInParallel() in one.
int runSources(
    unsigned Jobs, bool Parallel, const std::vector<std::string> &Inputs,
    const std::optional<std::vector<std::string>> &FixedArgs,
    bool SearchBuildDirs, const SourceOverrides *Overrides,
    const std::function<clang::tooling::FrontendActionFactory &(size_t)>
        &FactoryFor,
    const std::function<void(size_t)> &Done) {
  SourceOptions &S = sourceOptions();
  int Status = 0;
  std::mutex OutputLock;
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
  std::vector<size_t> Runnable = runnableInputs(Inputs, *DB, Status);
  std::vector<std::string> Files;
  for (size_t I : Runnable)
    Files.push_back(Inputs[I]);

  // Each file in runSafely(): a file that crashes Clang (a stack overflow
  // on deeply nested code) is one error, and the other files still run.
  // One adjuster for the run: a dropped flag is reported once, not once
  // per file.
  CudaSettings Cuda;
  Cuda.CudaPath = S.CudaPath.empty() ? defaultCudaPath() : S.CudaPath;
  Cuda.GpuArch = S.GpuArch;
  Progress Bar(Files.size(), Jobs > 1 && errs().is_displayed());
  FileRunOptions FO;
  FO.Jobs = Jobs;
  // Whole per file, so that -j changes nothing but the time.
  FO.BufferDiagnostics = Parallel;
  FO.Colors = errs().has_colors();
  FO.Adjusters.push_back(
      getCudaArgumentsAdjuster(Cuda, [&](const std::string &Flag) {
        // From any worker: Done() prints under the same lock.
        std::lock_guard<std::mutex> G(OutputLock);
        Bar.clear();
        reportWarning("ignoring compiler flag '" + Flag +
                      "' that Clang does not know");
      }));
  if (Overrides) {
    FO.VirtualFiles = Overrides->Files;
    FO.Diagnostics = Overrides->Diagnostics;
  }
  auto Start = std::chrono::steady_clock::now();
  unsigned Failed = 0;
  size_t NextInput = 0;
  // Inputs that could not run are "done" too, in their place.
  auto DoneUpTo = [&](size_t End) {
    for (; NextInput < End; ++NextInput)
      Done(NextInput);
  };
  runFiles(
      DB->database(), Files, FO,
      [&](size_t I) -> clang::tooling::FrontendActionFactory & {
        return FactoryFor(Runnable[I]);
      },
      [&](size_t I, FileRun &&Run) {
        std::lock_guard<std::mutex> G(OutputLock);
        Bar.clear();
        errs() << Run.Diagnostics;
        if (Run.Crashed)
          reportError("Clang crashed while parsing '" + Files[I] + "'");
        if (Run.Crashed || Run.Status != 0) {
          Status = 1;
          ++Failed;
        }
        DoneUpTo(Runnable[I] + 1);
        Bar.show(I + 1, Files[I]);
      });
  DoneUpTo(Inputs.size());
  Bar.clear();
  if (Jobs > 1) {
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
    errs() << "clang-autoprof: ran " << Files.size();
    if (Files.size() != Inputs.size())
      errs() << " of " << Inputs.size();
    errs() << (Inputs.size() == 1 ? " file" : " files") << " in "
           << format("%.1f", Seconds) << " s with " << Jobs << " jobs";
    if (Failed)
      errs() << "; " << Failed << " failed";
    errs() << "\n";
  }
  return Status;
}

} // namespace

unsigned autoprof::tool::jobs() {
  unsigned J = sourceOptions().Jobs;
  return J ? J
           : std::max(1u, llvm::hardware_concurrency().compute_thread_count());
}

int autoprof::tool::runOnSources(
    clang::tooling::FrontendActionFactory &Factory,
    const std::vector<std::string> &Inputs,
    const std::optional<std::vector<std::string>> &FixedArgs,
    bool SearchBuildDirs, const SourceOverrides *Overrides) {
  return runSources(
      1, /*Parallel=*/false, Inputs, FixedArgs, SearchBuildDirs, Overrides,
      [&](size_t) -> clang::tooling::FrontendActionFactory & {
        return Factory;
      },
      [](size_t) {});
}

int autoprof::tool::runOnSourcesInParallel(
    unsigned Jobs, const std::vector<std::string> &Inputs,
    const std::optional<std::vector<std::string>> &FixedArgs,
    bool SearchBuildDirs,
    const std::function<clang::tooling::FrontendActionFactory &(size_t)>
        &FactoryFor,
    const std::function<void(size_t)> &Done) {
  return runSources(Jobs, /*Parallel=*/true, Inputs, FixedArgs, SearchBuildDirs,
                    nullptr, FactoryFor, Done);
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
  // One report per input, merged in input order: the serial run's report.
  std::vector<FeatureReport> Reports(Inputs.size());
  std::vector<std::unique_ptr<clang::tooling::FrontendActionFactory>> Factories;
  for (FeatureReport &R : Reports)
    Factories.push_back(newFeatureActionFactory(R, Filter));
  return runOnSourcesInParallel(
      jobs(), Inputs, FixedArgs ? *FixedArgs : ArgsAfterDashDash,
      /*SearchBuildDirs=*/false,
      [&](size_t I) -> clang::tooling::FrontendActionFactory & {
        return *Factories[I];
      },
      [&](size_t I) {
        mergeFeatureReport(Report, std::move(Reports[I]));
        Reports[I] = FeatureReport();
      });
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
