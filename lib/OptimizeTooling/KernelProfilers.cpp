//===- KernelProfilers.cpp - How optimize profiles the original -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/OptimizeTooling/KernelProfilers.h"

#include "autoprof/Metrics/MetricCatalog.h"
#include "autoprof/Profile/Profile.h"
#include "autoprof/Profiling/ProfileSetup.h"
#include "autoprof/Verify/Files.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

namespace {

/// Copies the profile \p From to \p To, when given.
Error keepProfile(StringRef To, StringRef From) {
  if (To.empty())
    return Error::success();
  auto Buf = MemoryBuffer::getFile(From, /*IsText=*/true);
  if (!Buf)
    return createStringError("cannot read the profile");
  return writeFileAtomically(To, (*Buf)->getBuffer());
}

class TreeProfiler : public optimize::KernelProfiler {
public:
  TreeProfiler(TreeProfilerOptions O, CommandRunner &Runner, StringRef Dir)
      : O(std::move(O)), Runner(Runner), Dir(Dir) {}
  std::string describe() const override {
    return "profiling with tree '" + O.Tree + "'";
  }
  Expected<optimize::ProfiledKernels> profile(uint64_t Seed) override {
    SmallString<256> Out(Dir);
    sys::path::append(Out, "profile.json");
    if (Error E = profileInto(Out, Seed))
      return std::move(E);
    Expected<optimize::ProfiledKernels> P = optimize::readProfiledKernels(Out);
    if (!P)
      return P.takeError();
    if (Error E = keepProfile(O.KeepProfile, Out))
      return std::move(E);
    return P;
  }

private:
  Error failed(const Twine &Why) const {
    return createStringError("profiling with tree '" + O.Tree +
                             "' failed: " + Why);
  }

  /// The request: the tree, the source's kernels, the device checked.
  Error fillRequest(profiling::ProfileRequest &R, const MetricCatalog &Catalog,
                    std::optional<profiling::MetricClasses> &Classes) const {
    if (Error E = profiling::useTree(O.Tree,
                                     sys::path::parent_path(O.CatalogPath), R))
      return E;
    Expected<profiling::MetricClasses> C =
        profiling::classifyMetrics(R, Catalog);
    if (!C)
      return C.takeError();
    Classes = std::move(*C);
    FeatureReport Report;
    if (extractSourceFeatures(O.Parse, {O.Source}, O.Filter, Report,
                              O.Messages) != 0)
      return failed("the sources could not be read");
    profiling::addReportKernels(Report, R.Kernels);
    if (O.CheckDevice)
      if (Error E = O.CheckDevice(R, *Classes))
        return failed(toString(std::move(E)));
    R.InjectionLibrary = O.InjectLibrary;
    if (!sys::fs::exists(R.InjectionLibrary))
      return failed("cannot find the injection library '" + R.InjectionLibrary +
                    "'; set AUTOPROF_INJECT_LIBRARY");
    return Error::success();
  }

  /// Profiles the program into the profile file \p Out.
  Error profileInto(StringRef Out, uint64_t Seed) const {
    Expected<MetricCatalog> Catalog = MetricCatalog::load(O.CatalogPath);
    if (!Catalog)
      return Catalog.takeError();
    profiling::ProfileRequest R;
    std::optional<profiling::MetricClasses> Classes;
    if (Error E = fillRequest(R, *Catalog, Classes))
      return E;
    R.Program = {"/bin/sh", "-c", O.Run};
    R.Env["AUTOPROF_SEED"] = std::to_string(Seed);
    R.KernelRegex = O.KernelRegex;
    R.Timeout = O.Timeout;
    SmallString<256> Log(Dir);
    sys::path::append(Log, "profile.log");
    R.OutputFile = std::string(Log);
    R.NewProcessGroup = true;
    R.DeviceLock = O.DeviceLock;
    Expected<profiling::ProfileRun> Run =
        profiling::profileProgram(R, *Catalog, *Classes, Runner, nulls());
    if (!Run)
      return failed(toString(Run.takeError()));
    const ChildResult &First = Run->First;
    if (First.Interrupted)
      return createStringError("interrupted");
    if (First.TimedOut)
      return failed(
          "the program ran past --timeout=" + std::to_string(O.Timeout) + " s");
    if (First.Status != 0)
      return failed("the program exited with status " +
                    std::to_string(First.Status));
    if (!Run->P.Errors.empty())
      return failed(Run->P.Errors.front());
    return writeFileAtomically(Out, writeProfileJSON(Run->P));
  }

  TreeProfilerOptions O;
  CommandRunner &Runner;
  std::string Dir;
};

class GivenProfiler : public optimize::KernelProfiler {
public:
  GivenProfiler(std::string File, optimize::ProfiledKernels P,
                std::string KeepProfile)
      : File(std::move(File)), P(std::move(P)),
        KeepProfile(std::move(KeepProfile)) {}
  std::string describe() const override {
    return "using the profile '" + File + "'";
  }
  Expected<optimize::ProfiledKernels> profile(uint64_t) override {
    if (Error E = keepProfile(KeepProfile, File))
      return std::move(E);
    return P;
  }

private:
  std::string File;
  optimize::ProfiledKernels P;
  std::string KeepProfile;
};

} // namespace

std::unique_ptr<optimize::KernelProfiler>
autoprof::newTreeProfiler(TreeProfilerOptions O, CommandRunner &Runner,
                          StringRef Dir) {
  return std::make_unique<TreeProfiler>(std::move(O), Runner, Dir);
}

std::unique_ptr<optimize::KernelProfiler>
autoprof::newGivenProfiler(std::string File, optimize::ProfiledKernels P,
                           std::string KeepProfile) {
  return std::make_unique<GivenProfiler>(std::move(File), std::move(P),
                                         std::move(KeepProfile));
}
