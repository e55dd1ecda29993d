//===- Verifier.h - Build, run and judge rewritten kernels ------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Verifies candidates of one source file and the headers it includes: each
/// candidate's texts replace the files only while the user's build command
/// runs (a copy of each original beside it, put back by a rename, also on
/// SIGINT and SIGTERM),
/// then the user's run command runs once per seed with the injection
/// library measuring the kernels, and the runs are judged against those of
/// the original, measured the same way first.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_VERIFIER_H
#define AUTOPROF_VERIFY_VERIFIER_H

#include "autoprof/Verify/ChildProcess.h"
#include "autoprof/Verify/Judge.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {
namespace verify {

/// Starts the build and the program; tests substitute a fake.
class CommandRunner {
public:
  virtual ~CommandRunner();
  /// Runs \p O; fails only when it cannot be started.
  virtual llvm::Expected<ChildResult> run(const ChildOptions &O) = 0;
};

/// Holds an exclusive lock on a file while it lives: the runs that time or
/// profile kernels of several processes sharing one GPU take turns, while
/// their builds overlap.
class DeviceLock {
public:
  /// Waits for the lock on \p Path (created when missing); with an empty
  /// path, locks nothing.
  static llvm::Expected<DeviceLock> acquire(llvm::StringRef Path);
  DeviceLock(DeviceLock &&) = default;
  ~DeviceLock();

private:
  DeviceLock() = default;
  std::unique_ptr<llvm::raw_fd_ostream> File;
  std::optional<llvm::sys::fs::FileLocker> Lock;
};

/// Runs commands as child processes (runChild), each holding the device
/// lock its options name while it runs.
class ProcessRunner : public CommandRunner {
public:
  llvm::Expected<ChildResult> run(const ChildOptions &O) override;
};

/// \p Path absolute, without `.` or `..`: how the verifier keys files.
std::string normalPath(llvm::StringRef Path);

/// \p Path as a user reads it: relative to the working directory when it
/// lies under it, else absolute (normalPath()).
std::string shownPath(llvm::StringRef Path);

/// The texts of a candidate, by file path; a file absent keeps its text.
using SourceTexts = std::map<std::string, std::string>;

struct VerifierOptions {
  /// The source file the candidates replace.
  std::string Source;
  /// Other files a candidate may change: headers the source includes.
  std::vector<std::string> Headers;
  /// Shell commands: the build (writes the program) and the run.
  std::string BuildCommand;
  std::string RunCommand;
  /// libautoprof-inject.so.
  std::string InjectLibrary;
  /// One measured run per seed, passed as AUTOPROF_SEED; the first run
  /// also saves the kernels' buffers.
  std::vector<uint64_t> Seeds = {1, 2, 3};
  /// Seconds; 0 waits for ever.
  unsigned RunTimeout = 0;
  unsigned BuildTimeout = 0;
  /// A folder for measurements, saved buffers and logs.
  std::string WorkDir;
  /// A lock file every measured run holds (DeviceLock); empty for none.
  std::string DeviceLockFile;
  /// Called once, with one line, the first time a candidate has to be
  /// built by putting it in place of the user's file (the build command
  /// does not name every changed file with an explicit output); else the
  /// candidate is built from a copy beside the file and the file is never
  /// written.
  std::function<void(const std::string &)> OnSwap;
  /// The seed of the poison written before a later launch (the same for
  /// the original and every candidate); 0 draws one at random.
  uint64_t PoisonSeed = 0;
  /// Whether a candidate may be built from copies beside its files; false
  /// when a kernel's name would follow its file's (internal linkage, which
  /// nvcc names after the file), so that every candidate is swapped in.
  bool BuildFromCopies = true;
};

/// \p BuildCommand with every changed file of \p Siblings (absolute path to
/// the path of its copy beside it) replaced by its copy, where the command
/// names it as a whole word (its absolute path, or a spelling in \p Named,
/// keyed the same); nullopt when it does not name every changed file, or
/// has no explicit output (`-o`), so that an output named after the source
/// would change. Exposed for tests.
std::optional<std::string>
substituteSources(llvm::StringRef BuildCommand,
                  const std::map<std::string, std::string> &Siblings,
                  const std::map<std::string, std::vector<std::string>> &Named);

/// How measureRuns runs a program.
struct MeasureOptions {
  /// A shell command that runs the program.
  std::string RunCommand;
  /// libautoprof-inject.so.
  std::string InjectLibrary;
  /// One measured run per seed, passed as AUTOPROF_SEED.
  std::vector<uint64_t> Seeds = {1, 2, 3};
  /// Seconds; 0 waits for ever.
  unsigned RunTimeout = 0;
  /// A folder for the configurations, measurements and logs.
  std::string WorkDir;
  /// A lock file every run holds (DeviceLock); empty for none.
  std::string DeviceLockFile;
};

/// Runs the program once per seed with the injection library measuring
/// \p Kernels, writing `<Tag>-<N>.config.json`, `.json` and `.log` into the
/// work folder.
///
/// With \p SaveBuffers, the first run also saves the kernels' buffers into
/// `<Tag>-buffers`, and with \p SaveEveryRun the other runs too, into
/// `<Tag>-buffers-<N>`. Stops after the first run that fails (its outcome
/// is the last one returned); fails only when a command cannot be started,
/// the tool is interrupted, or a measurement is malformed.
llvm::Expected<std::vector<RunOutcome>>
measureRuns(CommandRunner &Runner, const MeasureOptions &O,
            llvm::ArrayRef<KernelSignature> Kernels, llvm::StringRef Tag,
            bool SaveBuffers, bool SaveEveryRun = false);

/// Runs the program once more, with the first seed, saving the second
/// launch of each of \p Kernels after the bytes the first launch changed in
/// its buffers were overwritten with poison drawn from \p PoisonSeed (the
/// same for the original and each candidate): `<Tag>-poisoned.json` and
/// `.log`, buffers in `<Tag>-buffers-poisoned`.
llvm::Expected<RunOutcome>
measurePoisonedRun(CommandRunner &Runner, const MeasureOptions &O,
                   llvm::ArrayRef<KernelSignature> Kernels, llvm::StringRef Tag,
                   uint64_t PoisonSeed);

/// Whether the buffers that the saved launch of \p Runs (one run per seed,
/// each with its saved buffers) only reads differ between seeds: true when
/// one does, false when every one is the same with every seed, nullopt when
/// there is nothing to compare (one run, or no buffer left unchanged).
std::optional<bool> inputsVary(llvm::ArrayRef<RunOutcome> Runs);

/// The output log of run \p Index (from 0) of measureRuns' \p Tag in
/// \p WorkDir.
std::string measuredRunLog(llvm::StringRef WorkDir, llvm::StringRef Tag,
                           size_t Index);

/// The line of a command's output log \p File that says best why it
/// failed: the first that says "error", else the last; trimmed to 200
/// characters, empty when the log is empty or unreadable.
std::string tellingLine(llvm::StringRef File);

/// A candidate's verdict, and what building it said when it failed.
class Verifier {
public:
  Verifier(CommandRunner &Runner, VerifierOptions O,
           std::vector<KernelSignature> Kernels);
  ~Verifier();

  /// Refuses to start when a copy of the source or of a header from an
  /// interrupted run is still beside it, and reads the original texts.
  llvm::Error prepare();

  /// Builds the original and measures it. Fails, saying why, when it does
  /// not build or its runs fail: there is then nothing to compare with.
  /// Kernels that never launched are absent from originalRuns().
  llvm::Error measureOriginal();

  /// Builds \p Texts in place of the files they name (the source or its
  /// headers), puts the originals back, runs the program and judges each
  /// kernel of \p Ks (one judgement each, in order), under its candidate's
  /// mangled name when it has one. Fails only when a file is not one the
  /// verifier may change, an original cannot be put back or a command
  /// cannot be started.
  llvm::Expected<std::vector<Judgement>>
  verify(const SourceTexts &Texts, llvm::ArrayRef<KernelSignature> Ks,
         const JudgeOptions &J);
  /// verify() with \p Text in place of the source.
  llvm::Expected<std::vector<Judgement>>
  verify(llvm::StringRef Text, llvm::ArrayRef<KernelSignature> Ks,
         const JudgeOptions &J);

  /// Builds \p Texts (the original or the verified result) in place of the
  /// files they name, leaving the build as the user will find it; the files
  /// themselves keep their original texts.
  llvm::Error rebuild(const SourceTexts &Texts);
  llvm::Error rebuild(llvm::StringRef Text);

  /// The original text of the source.
  const std::string &originalText() const;
  /// The original text of the source or of one of its headers; empty for
  /// another file.
  llvm::StringRef originalText(llvm::StringRef File) const;
  const std::vector<RunOutcome> &originalRuns() const { return OriginalRuns; }
  /// The original's second runs with some of its seeds
  /// (measureOriginalRepeats()).
  const std::vector<RunOutcome> &originalRepeats() const {
    return OriginalRepeats;
  }
  /// The options it was made with.
  const VerifierOptions &options() const { return O; }
  /// Whether the original's saved inputs differ between seeds (inputsVary
  /// over its runs, each of which saved its buffers); false means the
  /// verification rests on one input.
  std::optional<bool> originalInputsVary() const { return InputsVary; }
  /// Why a later launch of the kernels is not checked from poisoned
  /// outputs although one launched twice (the original's poisoned run
  /// crashed or hung); empty when it is, or when every kernel launched once
  /// (its timed launch is the compared one).
  const std::string &laterLaunchUnchecked() const {
    return LaterLaunchUnchecked;
  }

private:
  /// Builds \p Texts: from copies beside their files when the build command
  /// names them (substituteSources), else swapped into their files and
  /// swapped back after the build. Sets \p Failure when the build failed.
  llvm::Error build(const SourceTexts &Texts, llvm::StringRef Tag,
                    std::optional<std::string> &Failure);
  /// Runs the program built as \p Tag with every seed; a kernel of
  /// \p Renamed with a CandidateMangledName is measured under that name.
  llvm::Expected<std::vector<RunOutcome>>
  measure(llvm::StringRef Tag, llvm::ArrayRef<KernelSignature> Renamed = {},
          bool SaveEveryRun = false);
  /// After the original's runs: its run with poisoned outputs before the
  /// second launch, when a kernel launched twice.
  llvm::Error measureOriginalPoisoned();
  /// After the original's runs: a second run with the first seed and, when
  /// a saved buffer differs between the two, with every other seed, so that
  /// judge() knows how far the original's order-dependent outputs vary.
  llvm::Error measureOriginalRepeats();
  MeasureOptions measureOptions() const;
  /// The kernels, each under its candidate's mangled name in \p Renamed.
  std::vector<KernelSignature>
  candidateKernels(llvm::ArrayRef<KernelSignature> Renamed) const;

  CommandRunner &Runner;
  VerifierOptions O;
  std::vector<KernelSignature> Kernels;
  /// The original texts, by absolute path; the source's first.
  SourceTexts Originals;
  std::string SourcePath;
  std::vector<RunOutcome> OriginalRuns;
  unsigned Builds = 0;
  /// Whether OnSwap was called.
  bool SwapNoted = false;
  std::optional<bool> InputsVary;
  /// The original's poisoned run, when a kernel launched twice and it did
  /// not crash or hang.
  std::optional<RunOutcome> OriginalPoisoned;
  std::vector<RunOutcome> OriginalRepeats;
  /// Whether a saved buffer of the original differs between its first run
  /// and its repeat; judge() reads the repeats only then.
  bool RepeatsDiffer = false;
  std::string LaterLaunchUnchecked;
};

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_VERIFIER_H
