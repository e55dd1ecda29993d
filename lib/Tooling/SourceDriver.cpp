//===- SourceDriver.cpp - Running engines over sources --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Tooling/Compilations.h"
#include "autoprof/Tooling/CudaCommand.h"
#include "autoprof/Tooling/ParallelRun.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"

#include <chrono>
#include <mutex>

using namespace llvm;
using namespace autoprof;

namespace {

/// The inputs that can run: each that does not exist, is a directory, holds
/// a NUL byte or has no command is reported, and its index left out.
std::vector<size_t> runnableInputs(ArrayRef<std::string> Inputs,
                                   const Compilations &DB,
                                   const SourceMessages &Messages,
                                   int &Status) {
  std::vector<size_t> Runnable;
  auto Refuse = [&](const std::string &Why) {
    Messages.Error(Why);
    Status = 1;
  };
  for (size_t I = 0; I < Inputs.size(); ++I) {
    const std::string &Src = Inputs[I];
    if (!sys::fs::exists(Src)) {
      Refuse("no such file: '" + Src + "'");
      continue;
    }
    if (sys::fs::is_directory(Src)) {
      Refuse("'" + Src + "' is a directory, not a source file");
      continue;
    }
    // A binary file would come back as pages of Clang's diagnostics.
    if (auto Buf = MemoryBuffer::getFile(Src, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false)) {
      size_t Nul = (*Buf)->getBuffer().find('\0');
      if (Nul != StringRef::npos) {
        Refuse("'" + Src + "' is not a source file: it holds a NUL byte " +
               "at offset " + std::to_string(Nul));
        continue;
      }
    }
    if (Error E = DB.checkHasCommand(Src)) {
      Refuse(toString(std::move(E)));
      continue;
    }
    Runnable.push_back(I);
  }
  return Runnable;
}

/// Keeps "[done/total] file" on the last line of a terminal.
class Progress {
public:
  Progress(raw_ostream &OS, size_t Total, bool Shown)
      : OS(OS), Total(Total), Shown(Shown) {}
  /// Erases the line, for other output to take its place.
  void clear() {
    if (Shown && Drawn)
      OS << "\r\x1b[K";
    Drawn = false;
  }
  void show(size_t Done, StringRef File) {
    if (!Shown)
      return;
    clear();
    OS << "[" << Done << "/" << Total << "] " << File;
    OS.flush();
    Drawn = true;
  }

private:
  raw_ostream &OS;
  size_t Total;
  bool Shown;
  bool Drawn = false;
};

} // namespace

int autoprof::runSources(
    const SourceSettings &S, ArrayRef<std::string> Inputs,
    const std::function<clang::tooling::FrontendActionFactory &(size_t)>
        &FactoryFor,
    const std::function<void(size_t)> &Done, const SourceMessages &Messages,
    SourceRunSummary *Summary, raw_ostream &Log) {
  int Status = 0;
  std::mutex OutputLock;
  CompilationOptions CO;
  CO.SearchBuildDirs = S.SearchBuildDirs;
  CO.InferMissing = S.SearchBuildDirs;
  CO.BuildPath = S.BuildPath;
  CO.FixedArgs = S.FixedArgs;
  CO.ExtraArgs = S.ExtraArgs;
  CO.ExtraArgsBefore = S.ExtraArgsBefore;
  Expected<Compilations> DB =
      Compilations::load(CO, Inputs.empty() ? "" : Inputs.front());
  if (!DB) {
    Messages.Error(toString(DB.takeError()));
    return 2;
  }
  std::vector<size_t> Runnable = runnableInputs(Inputs, *DB, Messages, Status);
  std::vector<std::string> Files;
  for (size_t I : Runnable)
    Files.push_back(Inputs[I]);

  // Each file in runSafely(): a file that crashes Clang (a stack overflow
  // on deeply nested code) is one error, and the other files still run.
  // One adjuster for the run: a dropped flag is reported once, not once
  // per file.
  CudaSettings Cuda;
  Cuda.CudaPath = S.CudaPath.empty() ? defaultCudaPath() : S.CudaPath;
  if (!S.GpuArch.empty())
    Cuda.GpuArch = S.GpuArch;
  Progress Bar(Log, Files.size(), S.Jobs > 1 && Log.is_displayed());
  FileRunOptions FO;
  FO.Jobs = std::max(1u, S.Jobs);
  // Whole per file, so that -j changes nothing but the time.
  FO.BufferDiagnostics = S.Parallel;
  FO.Colors = Log.has_colors();
  FO.Adjusters.push_back(
      getCudaArgumentsAdjuster(Cuda, [&](const std::string &Flag) {
        // From any worker: Done() prints under the same lock.
        std::lock_guard<std::mutex> G(OutputLock);
        Bar.clear();
        Messages.Warning("ignoring compiler flag '" + Flag +
                         "' that Clang does not know");
      }));
  FO.VirtualFiles = S.Files;
  FO.Diagnostics = S.Diagnostics;
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
        Log << Run.Diagnostics;
        if (Run.Crashed)
          Messages.Error("Clang crashed while parsing '" + Files[I] + "'");
        if (Run.Crashed || Run.Status != 0) {
          Status = 1;
          ++Failed;
        }
        DoneUpTo(Runnable[I] + 1);
        Bar.show(I + 1, Files[I]);
      });
  DoneUpTo(Inputs.size());
  Bar.clear();
  if (Summary) {
    Summary->Inputs = Inputs.size();
    Summary->Ran = Files.size();
    Summary->Failed = Failed;
    Summary->Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count();
  }
  return Status;
}

void autoprof::writeRunSummary(raw_ostream &Log, const SourceRunSummary &Sum,
                               unsigned Jobs) {
  if (Jobs <= 1)
    return;
  Log << "clang-autoprof: ran " << Sum.Ran;
  if (Sum.Ran != Sum.Inputs)
    Log << " of " << Sum.Inputs;
  Log << (Sum.Inputs == 1 ? " file" : " files") << " in "
      << format("%.1f", Sum.Seconds) << " s with " << Jobs << " jobs";
  if (Sum.Failed)
    Log << "; " << Sum.Failed << " failed";
  Log << "\n";
}

int autoprof::runSource(const SourceSettings &S, const std::string &Input,
                        clang::tooling::FrontendActionFactory &Factory,
                        const SourceMessages &Messages, raw_ostream &Log) {
  SourceSettings One = S;
  One.Jobs = 1;
  One.Parallel = false;
  return runSources(
      One, {Input},
      [&](size_t) -> clang::tooling::FrontendActionFactory & {
        return Factory;
      },
      [](size_t) {}, Messages, nullptr, Log);
}

Expected<std::vector<std::string>>
autoprof::databaseSources(StringRef BuildPath) {
  CompilationOptions CO;
  CO.BuildPath = BuildPath.str();
  Expected<Compilations> DB = Compilations::load(CO, "");
  if (!DB)
    return DB.takeError();
  std::vector<std::string> Files = DB->cudaSources();
  if (Files.empty())
    return createStringError("the compilation database '" + DB->origin() +
                             "' lists no CUDA file");
  return Files;
}

Expected<std::vector<std::string>>
autoprof::sourcesToRun(std::vector<std::string> Given, StringRef BuildPath) {
  if (!Given.empty())
    return std::move(Given);
  if (BuildPath.empty())
    return createStringError("no source given: name the sources, or give "
                             "-p <build-dir> to run over every CUDA file "
                             "of its compilation database");
  return databaseSources(BuildPath);
}
