//===- Verifier.cpp - Build, run and judge rewritten kernels --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/Verifier.h"

#include "autoprof/Profile/Profile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Signals.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <random>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

CommandRunner::~CommandRunner() = default;

Expected<DeviceLock> DeviceLock::acquire(StringRef Path) {
  DeviceLock L;
  if (Path.empty())
    return std::move(L);
  std::error_code EC;
  L.File = std::make_unique<raw_fd_ostream>(Path, EC, sys::fs::OF_Append);
  if (EC)
    return createStringError("cannot open the device lock '%s': %s",
                             Path.str().c_str(), EC.message().c_str());
  Expected<sys::fs::FileLocker> Locked = L.File->lock();
  if (!Locked)
    return createStringError("cannot lock '%s': %s", Path.str().c_str(),
                             toString(Locked.takeError()).c_str());
  L.Lock.emplace(std::move(*Locked));
  return std::move(L);
}

DeviceLock::~DeviceLock() {
  if (Lock)
    consumeError(errorCodeToError(Lock->unlock()));
}

Expected<ChildResult> ProcessRunner::run(const ChildOptions &O) {
  auto Start = std::chrono::steady_clock::now();
  Expected<DeviceLock> Lock = DeviceLock::acquire(O.DeviceLock);
  if (!Lock)
    return Lock.takeError();
  double Waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  Expected<ChildResult> R = runChild(O);
  if (R)
    R->LockWaitSeconds = Waited;
  return R;
}

std::string autoprof::verify::normalPath(StringRef Path) {
  SmallString<256> P(Path);
  sys::fs::make_absolute(P);
  sys::path::remove_dots(P, /*remove_dot_dot=*/true);
  return std::string(P);
}

std::string autoprof::verify::shownPath(StringRef Path) {
  std::string Abs = normalPath(Path);
  SmallString<256> Cwd;
  if (sys::fs::current_path(Cwd))
    return Abs;
  StringRef Rest(Abs);
  if (Rest.consume_front(Cwd) && Rest.consume_front("/") && !Rest.empty())
    return Rest.str();
  return Abs;
}

namespace {

/// The most files one candidate changes.
constexpr size_t MaxSwapped = 64;

/// Each file and its copy while a candidate is in place, for the interrupt
/// handler: fixed storage, written before the file is, and a rename are
/// safe there.
struct SwappedFile {
  std::string File, Backup;
};
SwappedFile Swapped[MaxSwapped];
volatile size_t NumSwapped = 0;

void putBackOnInterrupt() {
  for (size_t I = NumSwapped; I > 0; --I)
    std::rename(Swapped[I - 1].Backup.c_str(), Swapped[I - 1].File.c_str());
}

/// Puts every swapped file back; the first that cannot be is an error.
Error putBack() {
  std::string Failed;
  for (size_t I = NumSwapped; I > 0; --I) {
    const SwappedFile &S = Swapped[I - 1];
    if (std::rename(S.Backup.c_str(), S.File.c_str()) != 0 && Failed.empty())
      Failed = "cannot put the original '" + S.File + "' back from '" +
               S.Backup + "'";
  }
  NumSwapped = 0;
  if (!Failed.empty())
    return createStringError(Failed);
  return Error::success();
}

/// The copy of \p File an interrupted run leaves beside it.
std::string backupPath(StringRef File) {
  SmallString<256> P(sys::path::parent_path(File));
  sys::path::append(P,
                    "." + sys::path::filename(File).str() + ".autoprof-orig");
  return std::string(P);
}

std::string measureConfig(StringRef Output, StringRef SnapshotDir,
                          ArrayRef<KernelSignature> Kernels,
                          std::optional<uint64_t> PoisonSeed) {
  rapidjson::StringBuffer B;
  rapidjson::Writer<rapidjson::StringBuffer> W(B);
  W.StartObject();
  W.Key("version");
  W.Int(1);
  W.Key("output");
  W.String(Output.data(), Output.size());
  if (!SnapshotDir.empty()) {
    W.Key("snapshot_dir");
    W.String(SnapshotDir.data(), SnapshotDir.size());
    W.Key("snapshot_launch");
    W.Uint(PoisonSeed ? 1 : 0);
  }
  W.Key("kernels");
  W.StartObject();
  for (const KernelSignature &K : Kernels) {
    W.Key(K.MangledName.c_str());
    W.StartArray();
    for (const auto &[Index, P] : K.Pointers)
      W.Uint(Index);
    W.EndArray();
  }
  W.EndObject();
  if (PoisonSeed) {
    W.Key("poison");
    W.StartObject();
    W.Key("launch");
    W.Uint(1);
    W.Key("seed");
    W.Uint64(*PoisonSeed);
    W.Key("kinds");
    W.StartObject();
    for (const KernelSignature &K : Kernels) {
      W.Key(K.MangledName.c_str());
      W.StartArray();
      for (const auto &[Index, P] : K.Pointers) {
        StringRef Kind = elementKindName(P.Kind);
        W.String(Kind.data(), Kind.size());
      }
      W.EndArray();
    }
    W.EndObject();
    W.EndObject();
  }
  W.EndObject();
  return std::string(B.GetString(), B.GetSize());
}

} // namespace

namespace {

bool isWordEdge(char C) {
  return std::isspace(static_cast<unsigned char>(C)) || C == '\'' || C == '"' ||
         C == '=' || C == ';' || C == '&' || C == '|' || C == '(' || C == ')' ||
         C == '<' || C == '>';
}

/// Replaces every whole-word occurrence of \p From in \p Cmd by \p To;
/// returns how many.
unsigned replaceWord(std::string &Cmd, StringRef From, StringRef To) {
  unsigned N = 0;
  if (From.empty())
    return 0;
  for (size_t At = Cmd.find(From.str()); At != std::string::npos;
       At = Cmd.find(From.str(), At)) {
    size_t End = At + From.size();
    bool Whole = (At == 0 || isWordEdge(Cmd[At - 1])) &&
                 (End == Cmd.size() || isWordEdge(Cmd[End]));
    if (!Whole) {
      At = End;
      continue;
    }
    Cmd.replace(At, From.size(), To.str());
    At += To.size();
    ++N;
  }
  return N;
}

bool hasExplicitOutput(StringRef Cmd) {
  SmallVector<StringRef> Words;
  Cmd.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (StringRef W : Words) {
    W = W.trim("'\"");
    if (W.starts_with("-o") || W.starts_with("--output-file"))
      return true;
  }
  return false;
}

/// The copy of \p File beside it that a candidate is built from: a hidden
/// name with the same extension, so that the compiler treats it alike and
/// its quoted includes resolve from the same folder.
std::string siblingPath(StringRef File, StringRef Tag) {
  SmallString<256> P(sys::path::parent_path(File));
  sys::path::append(P, "." + sys::path::stem(File) + ".autoprof-" + Tag +
                           sys::path::extension(File));
  return std::string(P);
}

/// Removes the copies of \p File (siblingPath) that a killed run left.
void removeStaleCopies(StringRef File) {
  std::string Prefix = ("." + sys::path::stem(File) + ".autoprof-").str();
  StringRef Ext = sys::path::extension(File);
  std::error_code EC;
  std::vector<std::string> Stale;
  for (sys::fs::directory_iterator It(sys::path::parent_path(File), EC), End;
       It != End && !EC; It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (Name.starts_with(Prefix) && Name.ends_with(Ext) &&
        Name.size() > Prefix.size() + Ext.size())
      Stale.push_back(It->path());
  }
  for (const std::string &P : Stale)
    sys::fs::remove(P);
}

} // namespace

std::optional<std::string> autoprof::verify::substituteSources(
    StringRef BuildCommand, const std::map<std::string, std::string> &Siblings,
    const std::map<std::string, std::vector<std::string>> &Named) {
  if (!hasExplicitOutput(BuildCommand))
    return std::nullopt;
  std::string Cmd = BuildCommand.str();
  for (const auto &[File, Copy] : Siblings) {
    unsigned N = replaceWord(Cmd, File, Copy);
    auto It = Named.find(File);
    if (It != Named.end())
      for (const std::string &Spelling : It->second)
        if (Spelling != File)
          N += replaceWord(Cmd, Spelling, Copy);
    if (!N)
      return std::nullopt;
  }
  return Cmd;
}

std::string autoprof::verify::tellingLine(StringRef File) {
  auto Buf = MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!Buf)
    return "";
  SmallVector<StringRef> Lines;
  (*Buf)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Pick;
  for (StringRef L : Lines)
    if (L.contains("error")) {
      Pick = L.trim().str();
      break;
    }
  if (Pick.empty() && !Lines.empty())
    Pick = Lines.back().trim().str();
  if (Pick.size() > 200)
    Pick = Pick.substr(0, 197) + "...";
  return Pick;
}

std::string autoprof::verify::measuredRunLog(StringRef WorkDir, StringRef Tag,
                                             size_t Index) {
  SmallString<256> Log(WorkDir);
  sys::path::append(Log, (Tag + "-" + Twine(Index + 1) + ".log").str());
  return std::string(Log);
}

Verifier::Verifier(CommandRunner &Runner, VerifierOptions O,
                   std::vector<KernelSignature> Kernels)
    : Runner(Runner), O(std::move(O)), Kernels(std::move(Kernels)) {}

Verifier::~Verifier() { consumeError(putBack()); }

const std::string &Verifier::originalText() const {
  return Originals.at(SourcePath);
}

StringRef Verifier::originalText(StringRef File) const {
  auto It = Originals.find(normalPath(File));
  return It == Originals.end() ? StringRef() : StringRef(It->second);
}

Error Verifier::prepare() {
  SourcePath = normalPath(O.Source);
  std::vector<std::string> Files = {O.Source};
  Files.insert(Files.end(), O.Headers.begin(), O.Headers.end());
  if (Files.size() > MaxSwapped)
    return createStringError("a candidate may change at most %zu files",
                             MaxSwapped);
  for (const std::string &F : Files) {
    std::string Backup = backupPath(F);
    if (sys::fs::exists(Backup))
      return createStringError(
          "'%s' exists: an earlier optimize of '%s' was interrupted; keep the "
          "right text of the two and remove the copy",
          Backup.c_str(), F.c_str());
    auto Buf = MemoryBuffer::getFile(F, /*IsText=*/true);
    if (!Buf)
      return createStringError("cannot read '%s': %s", F.c_str(),
                               Buf.getError().message().c_str());
    Originals[normalPath(F)] = (*Buf)->getBuffer().str();
    removeStaleCopies(normalPath(F));
  }
  return Error::success();
}

Error Verifier::build(const SourceTexts &Texts, StringRef Tag,
                      std::optional<std::string> &Failure) {
  // Every file is known before any is changed.
  for (const auto &[File, Text] : Texts)
    if (!Originals.count(normalPath(File)))
      return createStringError("'%s' is not the source or one of its headers",
                               File.c_str());
  // Built from copies beside the files when the build command names each
  // changed file: the user's files are never written.
  std::map<std::string, std::string> Siblings;
  std::map<std::string, std::vector<std::string>> Named;
  for (const auto &[File, Text] : Texts) {
    std::string Path = normalPath(File);
    if (Text == Originals[Path])
      continue;
    Siblings[Path] = siblingPath(Path, Tag);
    Named[Path].push_back(File);
    if (Path == SourcePath)
      Named[Path].push_back(O.Source);
  }
  std::string Command = O.BuildCommand;
  std::vector<std::string> Written;
  auto RemoveSiblings = [&] {
    for (const std::string &F : Written) {
      sys::fs::remove(F);
      sys::DontRemoveFileOnSignal(F);
    }
  };
  std::optional<std::string> Substituted =
      Siblings.empty() || !O.BuildFromCopies
          ? std::nullopt
          : substituteSources(O.BuildCommand, Siblings, Named);
  if (Substituted) {
    for (const auto &[File, Text] : Texts) {
      auto It = Siblings.find(normalPath(File));
      if (It == Siblings.end())
        continue;
      Written.push_back(It->second);
      sys::RemoveFileOnSignal(It->second);
      if (!writeFileAtomically(It->second, Text)) {
        RemoveSiblings();
        return createStringError("cannot write '%s'", It->second.c_str());
      }
    }
    Command = *Substituted;
  } else if (!Siblings.empty() && !SwapNoted) {
    SwapNoted = true;
    if (O.OnSwap)
      O.OnSwap("the build command does not name every changed file and an "
               "output (-o), so each candidate is built in place of the file, "
               "which is put back after its build (a copy waits beside it, "
               "'.<name>.autoprof-orig')");
  }
  for (const auto &[File, Text] : Texts) {
    std::string Path = normalPath(File);
    if (Text == Originals[Path] || Substituted)
      continue;
    std::string Backup = backupPath(Path);
    if (std::error_code EC = sys::fs::copy_file(Path, Backup)) {
      consumeError(putBack());
      return createStringError("cannot copy '%s' to '%s': %s", Path.c_str(),
                               Backup.c_str(), EC.message().c_str());
    }
    Swapped[NumSwapped] = {Path, Backup};
    NumSwapped = NumSwapped + 1;
    sys::SetInterruptFunction(putBackOnInterrupt);
    if (!writeFileAtomically(Path, Text)) {
      consumeError(putBack());
      return createStringError("cannot write '%s'", Path.c_str());
    }
  }
  SmallString<256> Log(O.WorkDir);
  sys::path::append(Log, ("build-" + Tag).str() + ".log");
  ChildOptions C;
  C.Argv = {"/bin/sh", "-c", Command};
  C.Timeout = O.BuildTimeout;
  C.OutputFile = std::string(Log);
  C.NewProcessGroup = true;
  C.Phase = "build";
  Expected<ChildResult> R = Runner.run(C);
  RemoveSiblings();
  if (Error E = putBack()) {
    if (!R)
      consumeError(R.takeError());
    return E;
  }
  if (!R)
    return R.takeError();
  if (R->Interrupted)
    return createStringError("interrupted");
  if (std::optional<std::string> F = runFailure(*R)) {
    std::string Why = tellingLine(Log);
    Failure = "the build failed (" + *F + ")" + (Why.empty() ? "" : ": " + Why);
  }
  return Error::success();
}

namespace {

/// Runs the program once with seed \p Seed, the injection library
/// measuring \p Kernels: `<Base>.config.json`, `.json` and `.log` in the
/// work folder, buffers saved into \p SnapDir when it is not empty, and
/// poisoned before the second launch with \p PoisonSeed when it is set.
Expected<RunOutcome> measureOne(CommandRunner &Runner, const MeasureOptions &O,
                                ArrayRef<KernelSignature> Kernels,
                                StringRef Base, StringRef SnapDir,
                                uint64_t Seed,
                                std::optional<uint64_t> PoisonSeed) {
  SmallString<256> Cfg(O.WorkDir), Out(O.WorkDir);
  sys::path::append(Cfg, Base + ".config.json");
  sys::path::append(Out, Base + ".json");
  SmallString<256> Log(O.WorkDir);
  sys::path::append(Log, Base + ".log");
  if (!SnapDir.empty())
    if (std::error_code EC = sys::fs::create_directories(SnapDir))
      return createStringError("cannot create '%s': %s", SnapDir.str().c_str(),
                               EC.message().c_str());
  if (!writeFileAtomically(std::string(Cfg),
                           measureConfig(Out, SnapDir, Kernels, PoisonSeed)))
    return createStringError("cannot write '%s'", Cfg.c_str());
  sys::fs::remove(Out);
  ChildOptions C;
  C.Argv = {"/bin/sh", "-c", O.RunCommand};
  C.Env["CUDA_INJECTION64_PATH"] = O.InjectLibrary;
  C.Env["AUTOPROF_MEASURE_CONFIG"] = std::string(Cfg);
  C.Env["AUTOPROF_SEED"] = std::to_string(Seed);
  C.Timeout = O.RunTimeout;
  C.OutputFile = std::string(Log);
  C.NewProcessGroup = true;
  C.Phase = PoisonSeed ? "poisoned-run" : "run";
  C.DeviceLock = O.DeviceLockFile;
  Expected<ChildResult> R = Runner.run(C);
  if (!R)
    return R.takeError();
  if (R->Interrupted)
    return createStringError("interrupted");
  RunOutcome Run;
  Run.Seed = Seed;
  Run.Child = *R;
  // The shell reports a command killed by signal N as status 128 + N.
  if (!Run.Child.Signal && Run.Child.Status > 128 &&
      Run.Child.Status <= 128 + 64)
    Run.Child.Signal = Run.Child.Status - 128;
  if (auto Buf = MemoryBuffer::getFile(Out, /*IsText=*/true)) {
    Measurement M;
    std::string Err;
    if (!parseMeasurementJSON((*Buf)->getBuffer().str(), M, Err))
      return createStringError("the injection library wrote a bad "
                               "measurement '%s': %s",
                               Out.c_str(), Err.c_str());
    Run.Measured = std::move(M);
  }
  return Run;
}

} // namespace

Expected<std::vector<RunOutcome>>
autoprof::verify::measureRuns(CommandRunner &Runner, const MeasureOptions &O,
                              ArrayRef<KernelSignature> Kernels, StringRef Tag,
                              bool SaveBuffers, bool SaveEveryRun) {
  std::vector<RunOutcome> Runs;
  for (size_t I = 0; I < O.Seeds.size(); ++I) {
    SmallString<256> Snap;
    if ((I == 0 && SaveBuffers) || (I > 0 && SaveEveryRun)) {
      Snap = O.WorkDir;
      sys::path::append(Snap, I == 0
                                  ? (Tag + "-buffers").str()
                                  : (Tag + "-buffers-" + Twine(I + 1)).str());
    }
    Expected<RunOutcome> Run =
        measureOne(Runner, O, Kernels, (Tag + "-" + Twine(I + 1)).str(), Snap,
                   O.Seeds[I], std::nullopt);
    if (!Run)
      return Run.takeError();
    bool Failed = runFailure(Run->Child).has_value();
    Runs.push_back(std::move(*Run));
    // A failed run says enough; the rest would fail the same way.
    if (Failed)
      break;
  }
  return Runs;
}

Expected<RunOutcome> autoprof::verify::measurePoisonedRun(
    CommandRunner &Runner, const MeasureOptions &O,
    ArrayRef<KernelSignature> Kernels, StringRef Tag, uint64_t PoisonSeed) {
  SmallString<256> Snap(O.WorkDir);
  sys::path::append(Snap, Tag + "-buffers-poisoned");
  return measureOne(Runner, O, Kernels, (Tag + "-poisoned").str(), Snap,
                    O.Seeds.empty() ? 1 : O.Seeds.front(), PoisonSeed);
}

MeasureOptions Verifier::measureOptions() const {
  MeasureOptions M;
  M.RunCommand = O.RunCommand;
  M.InjectLibrary = O.InjectLibrary;
  M.Seeds = O.Seeds;
  M.RunTimeout = O.RunTimeout;
  M.WorkDir = O.WorkDir;
  M.DeviceLockFile = O.DeviceLockFile;
  return M;
}

std::vector<KernelSignature>
Verifier::candidateKernels(ArrayRef<KernelSignature> Renamed) const {
  // The kernels whose candidate has another mangled name are measured
  // under it.
  std::vector<KernelSignature> Ks = Kernels;
  for (KernelSignature &K : Ks)
    for (const KernelSignature &R : Renamed)
      if (R.MangledName == K.MangledName && !R.CandidateMangledName.empty())
        K.MangledName = R.CandidateMangledName;
  return Ks;
}

Expected<std::vector<RunOutcome>>
Verifier::measure(StringRef Tag, ArrayRef<KernelSignature> Renamed,
                  bool SaveEveryRun) {
  return measureRuns(Runner, measureOptions(), candidateKernels(Renamed), Tag,
                     /*SaveBuffers=*/true, SaveEveryRun);
}

std::optional<bool> autoprof::verify::inputsVary(ArrayRef<RunOutcome> Runs) {
  if (Runs.size() < 2 || !Runs[0].Measured)
    return std::nullopt;
  std::optional<bool> Vary;
  for (const KernelMeasurement &K : Runs[0].Measured->Kernels)
    for (const BufferSnapshot &S : K.Snapshots) {
      if (S.ChangedBytes)
        continue;
      auto First = MemoryBuffer::getFile(S.File, /*IsText=*/false,
                                         /*RequiresNullTerminator=*/false);
      if (!First)
        continue;
      for (const RunOutcome &R : Runs.drop_front()) {
        const KernelMeasurement *Other =
            R.Measured ? R.Measured->find(K.MangledName) : nullptr;
        if (!Other)
          continue;
        for (const BufferSnapshot &T : Other->Snapshots) {
          if (T.Params != S.Params)
            continue;
          auto Second = MemoryBuffer::getFile(T.File, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
          if (!Second)
            continue;
          bool Same = (*First)->getBuffer() == (*Second)->getBuffer();
          Vary = Vary.value_or(false) || !Same;
        }
      }
    }
  return Vary;
}

Error Verifier::measureOriginal() {
  std::optional<std::string> Failure;
  if (Error E = build({}, "original", Failure))
    return E;
  if (Failure)
    return createStringError("the original program does not build: %s",
                             Failure->c_str());
  // Every run saves its buffers: each candidate's run of a seed is
  // compared with the original's of the same seed, and they tell whether
  // the inputs follow the seed.
  Expected<std::vector<RunOutcome>> Runs = measure("original", {}, true);
  if (!Runs)
    return Runs.takeError();
  InputsVary = inputsVary(*Runs);
  for (const RunOutcome &R : *Runs)
    if (std::optional<std::string> F = runFailure(R.Child)) {
      std::string Why =
          tellingLine(measuredRunLog(O.WorkDir, "original", &R - Runs->data()));
      return createStringError(
          "the program fails before any change (seed %llu, %s)%s",
          (unsigned long long)R.Seed, F->c_str(),
          Why.empty() ? "" : (": " + Why).c_str());
    }
  OriginalRuns = std::move(*Runs);
  if (Error E = measureOriginalRepeats())
    return E;
  return measureOriginalPoisoned();
}

namespace {

/// Whether a buffer that \p A saved differs in \p B, a run with the same
/// seed.
bool savedBuffersDiffer(const RunOutcome &A, const RunOutcome &B) {
  if (!A.Measured || !B.Measured)
    return false;
  for (const KernelMeasurement &K : A.Measured->Kernels) {
    const KernelMeasurement *Other = B.Measured->find(K.MangledName);
    if (!Other)
      continue;
    for (const BufferSnapshot &S : K.Snapshots)
      for (const BufferSnapshot &T : Other->Snapshots) {
        if (T.Params != S.Params)
          continue;
        auto First = MemoryBuffer::getFile(S.File, /*IsText=*/false,
                                           /*RequiresNullTerminator=*/false);
        auto Second = MemoryBuffer::getFile(T.File, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
        if (First && Second && (*First)->getBuffer() != (*Second)->getBuffer())
          return true;
      }
  }
  return false;
}

} // namespace

Error Verifier::measureOriginalRepeats() {
  if (O.Seeds.empty())
    return Error::success();
  MeasureOptions M = measureOptions();
  for (size_t I = 0; I < O.Seeds.size(); ++I) {
    M.Seeds = {O.Seeds[I]};
    Expected<std::vector<RunOutcome>> Run = measureRuns(
        Runner, M, Kernels, "original-again" + std::to_string(I + 1),
        /*SaveBuffers=*/true, /*SaveEveryRun=*/false);
    if (!Run)
      return Run.takeError();
    if (Run->empty())
      return Error::success();
    if (std::optional<std::string> F = runFailure(Run->front().Child))
      return createStringError(
          "the program fails when run again with seed %llu (%s): its "
          "runs are not repeatable",
          (unsigned long long)O.Seeds[I], F->c_str());
    bool Differs = I < OriginalRuns.size() &&
                   savedBuffersDiffer(OriginalRuns[I], Run->front());
    OriginalRepeats.push_back(std::move(Run->front()));
    RepeatsDiffer |= Differs;
    // Outputs that repeat with the first seed need no other seed's.
    if (I == 0 && !Differs)
      break;
  }
  return Error::success();
}

Error Verifier::measureOriginalPoisoned() {
  bool Twice = false;
  if (OriginalRuns.front().Measured)
    for (const KernelSignature &K : Kernels)
      if (const KernelMeasurement *M =
              OriginalRuns.front().Measured->find(K.MangledName))
        Twice = Twice || M->Launches > 1;
  // A kernel launched once is timed on the launch that is compared.
  if (!Twice)
    return Error::success();
  if (!O.PoisonSeed) {
    std::random_device RD;
    O.PoisonSeed = (uint64_t(RD()) << 32 | RD()) | 1;
  }
  Expected<RunOutcome> Run = measurePoisonedRun(
      Runner, measureOptions(), Kernels, "original", O.PoisonSeed);
  if (!Run)
    return Run.takeError();
  // Its own check may fail on poisoned outputs; a crash or a hang leaves
  // nothing to compare with.
  if (Run->Child.TimedOut || Run->Child.Signal || !Run->Measured) {
    LaterLaunchUnchecked =
        "the original's run with poisoned outputs before launch 1 failed: " +
        (Run->Child.TimedOut || Run->Child.Signal
             ? *runFailure(Run->Child)
             : std::string("it recorded no measurement"));
    return Error::success();
  }
  OriginalPoisoned = std::move(*Run);
  return Error::success();
}

Expected<std::vector<Judgement>> Verifier::verify(StringRef Text,
                                                  ArrayRef<KernelSignature> Ks,
                                                  const JudgeOptions &J) {
  return verify(SourceTexts{{O.Source, Text.str()}}, Ks, J);
}

Expected<std::vector<Judgement>> Verifier::verify(const SourceTexts &Texts,
                                                  ArrayRef<KernelSignature> Ks,
                                                  const JudgeOptions &J) {
  std::string Tag = "candidate" + std::to_string(++Builds);
  std::optional<std::string> Failure;
  if (Error E = build(Texts, Tag, Failure))
    return std::move(E);
  if (Failure) {
    Judgement Out;
    Out.V = Verdict::BuildFailed;
    Out.Reason = *Failure;
    return std::vector<Judgement>(Ks.size(), Out);
  }
  Expected<std::vector<RunOutcome>> Runs =
      measure(Tag, Ks, /*SaveEveryRun=*/true);
  if (!Runs)
    return Runs.takeError();
  std::string Log = measuredRunLog(O.WorkDir, Tag, Runs->size() - 1);
  // A later launch, from poisoned outputs, when the original has one and
  // every run of the candidate passed.
  std::optional<RunOutcome> Poisoned;
  bool Passed = Runs->size() == O.Seeds.size();
  for (const RunOutcome &R : *Runs)
    Passed = Passed && !runFailure(R.Child);
  if (OriginalPoisoned && Passed) {
    Expected<RunOutcome> P = measurePoisonedRun(
        Runner, measureOptions(), candidateKernels(Ks), Tag, O.PoisonSeed);
    if (!P)
      return P.takeError();
    Poisoned = std::move(*P);
  }
  PoisonedRuns PR;
  if (Poisoned) {
    PR.Original = &*OriginalPoisoned;
    PR.Candidate = &*Poisoned;
  }
  std::vector<Judgement> Out;
  JudgeOptions JR = J;
  for (const KernelSignature &K : Ks)
    if (!K.CandidateMangledName.empty())
      JR.Renamed[K.CandidateMangledName] = K.MangledName;
  for (const KernelSignature &K : Ks) {
    Out.push_back(judge(K, OriginalRuns, *Runs, JR, PR,
                        RepeatsDiffer ? ArrayRef<RunOutcome>(OriginalRepeats)
                                      : ArrayRef<RunOutcome>()));
    Judgement &Last = Out.back();
    if (Last.V == Verdict::CheckFailed || Last.V == Verdict::Crashed) {
      std::string Why = tellingLine(Log);
      if (!Why.empty())
        Last.Reason += ": " + Why;
    }
  }
  // The candidate's buffers are no longer needed.
  for (size_t I = 0; I < Runs->size(); ++I) {
    SmallString<256> Snap(O.WorkDir);
    sys::path::append(Snap, Tag + "-buffers" +
                                (I ? "-" + std::to_string(I + 1) : ""));
    sys::fs::remove_directories(Snap);
  }
  SmallString<256> Snap(O.WorkDir);
  sys::path::append(Snap, Tag + "-buffers-poisoned");
  sys::fs::remove_directories(Snap);
  return Out;
}

Error Verifier::rebuild(StringRef Text) {
  return rebuild(SourceTexts{{O.Source, Text.str()}});
}

Error Verifier::rebuild(const SourceTexts &Texts) {
  std::optional<std::string> Failure;
  if (Error E = build(Texts, "final", Failure))
    return E;
  if (Failure)
    return createStringError("rebuilding after verification: %s",
                             Failure->c_str());
  return Error::success();
}
