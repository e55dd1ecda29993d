//===- ProfilerHost.cpp - CUPTI Profiler Host API without a GPU -----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/ProfilerHost.h"

#include "autoprof/Metrics/DeviceChipCache.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_result.h>
#include <cupti_target.h>

#include <cstdlib>
#include <cstring>

using namespace autoprof;

struct ProfilerHost::Api {
  decltype(&cuptiProfilerHostInitialize) Initialize = nullptr;
  decltype(&cuptiProfilerHostDeinitialize) Deinitialize = nullptr;
  decltype(&cuptiProfilerHostGetSupportedChips) GetSupportedChips = nullptr;
  decltype(&cuptiProfilerHostConfigAddMetrics) ConfigAddMetrics = nullptr;
  decltype(&cuptiProfilerHostGetConfigImageSize) GetConfigImageSize = nullptr;
  decltype(&cuptiProfilerHostGetConfigImage) GetConfigImage = nullptr;
  decltype(&cuptiProfilerHostGetNumOfPasses) GetNumOfPasses = nullptr;
  decltype(&cuptiGetResultString) GetResultString = nullptr;
  decltype(&cuptiProfilerInitialize) ProfilerInitialize = nullptr;
  decltype(&cuptiDeviceGetChipName) DeviceGetChipName = nullptr;
};

ProfilerHost::~ProfilerHost() = default;

namespace {

template <typename T> T zeroed(size_t Size) {
  T P;
  std::memset(&P, 0, sizeof(P));
  P.structSize = Size;
  return P;
}

/// One host object for a chip, released on destruction.
class HostObject {
public:
  HostObject(const ProfilerHost::Api &A, const std::string &Chip) : A(A) {
    auto P = zeroed<CUpti_Profiler_Host_Initialize_Params>(
        CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
    P.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
    P.pChipName = Chip.c_str();
    Status = A.Initialize(&P);
    Object = P.pHostObject;
  }
  ~HostObject() {
    if (Status != CUPTI_SUCCESS || !Object)
      return;
    auto P = zeroed<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    P.pHostObject = Object;
    A.Deinitialize(&P);
  }
  /// Adds \p Metrics and returns the pass count, or the failing status.
  CUptiResult passes(const std::vector<std::string> &Metrics, size_t &Out) {
    if (Status != CUPTI_SUCCESS)
      return Status;
    std::vector<const char *> Names;
    for (const std::string &M : Metrics)
      Names.push_back(M.c_str());
    auto Add = zeroed<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
    Add.pHostObject = Object;
    Add.ppMetricNames = Names.data();
    Add.numMetrics = Names.size();
    if (CUptiResult R = A.ConfigAddMetrics(&Add))
      return R;
    auto Size = zeroed<CUpti_Profiler_Host_GetConfigImageSize_Params>(
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
    Size.pHostObject = Object;
    if (CUptiResult R = A.GetConfigImageSize(&Size))
      return R;
    std::vector<uint8_t> Image(Size.configImageSize);
    auto Get = zeroed<CUpti_Profiler_Host_GetConfigImage_Params>(
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
    Get.pHostObject = Object;
    Get.configImageSize = Image.size();
    Get.pConfigImage = Image.data();
    if (CUptiResult R = A.GetConfigImage(&Get))
      return R;
    auto Num = zeroed<CUpti_Profiler_Host_GetNumOfPasses_Params>(
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
    Num.configImageSize = Image.size();
    Num.pConfigImage = Image.data();
    if (CUptiResult R = A.GetNumOfPasses(&Num))
      return R;
    Out = Num.numOfPasses;
    return CUPTI_SUCCESS;
  }
  CUptiResult Status;

private:
  const ProfilerHost::Api &A;
  CUpti_Profiler_Host_Object *Object = nullptr;
};

std::string resultString(const ProfilerHost::Api &A, CUptiResult R) {
  const char *S = nullptr;
  if (A.GetResultString && A.GetResultString(R, &S) == CUPTI_SUCCESS && S)
    return S;
  return "CUPTI error " + std::to_string(static_cast<int>(R));
}

/// Loads libnvperf_host, which CUPTI opens by name for its metric tables,
/// so that a missing one is reported as such rather than as a CUPTI error.
/// AUTOPROF_NVPERF_HOST_LIBRARY names it exactly; otherwise the directory of
/// \p CuptiPath is tried before the system's search path. Once loaded, CUPTI's
/// own dlopen of "libnvperf_host.so" finds this copy by its soname.
llvm::Error loadNvperfHost(const std::string &CuptiPath) {
  std::string Err;
  if (const char *Exact = std::getenv("AUTOPROF_NVPERF_HOST_LIBRARY")) {
    if (llvm::sys::DynamicLibrary::getPermanentLibrary(Exact, &Err).isValid())
      return llvm::Error::success();
    return llvm::createStringError("cannot load CUPTI's metric library from "
                                   "AUTOPROF_NVPERF_HOST_LIBRARY='%s': %s",
                                   Exact, Err.c_str());
  }
  std::vector<std::string> Candidates;
  llvm::StringRef Dir = llvm::sys::path::parent_path(CuptiPath);
  if (!Dir.empty()) {
    llvm::SmallString<256> P(Dir);
    llvm::sys::path::append(P, "libnvperf_host.so");
    if (llvm::sys::fs::exists(P))
      Candidates.push_back(std::string(P));
  }
  Candidates.push_back("libnvperf_host.so");
  for (const std::string &C : Candidates)
    if (llvm::sys::DynamicLibrary::getPermanentLibrary(C.c_str(), &Err)
            .isValid())
      return llvm::Error::success();
  return llvm::createStringError(
      "cannot load libnvperf_host.so, CUPTI's metric library, from beside "
      "'%s' or the library path: %s; install the CUDA toolkit's CUPTI "
      "libraries or set AUTOPROF_NVPERF_HOST_LIBRARY",
      CuptiPath.c_str(), Err.c_str());
}

} // namespace

llvm::Expected<std::unique_ptr<ProfilerHost>>
ProfilerHost::load(const std::string &CudaPath) {
  std::vector<std::string> Candidates;
  // AUTOPROF_CUPTI_LIBRARY names the library exactly, with no fallback.
  if (const char *Exact = std::getenv("AUTOPROF_CUPTI_LIBRARY")) {
    std::string Err;
    llvm::sys::DynamicLibrary Lib =
        llvm::sys::DynamicLibrary::getPermanentLibrary(Exact, &Err);
    if (!Lib.isValid())
      return llvm::createStringError(
          "cannot load CUPTI from AUTOPROF_CUPTI_LIBRARY='%s': %s", Exact,
          Err.c_str());
    Candidates.push_back(Exact);
  } else {
    for (const char *Sub : {"lib64", "lib", "extras/CUPTI/lib64"}) {
      llvm::SmallString<256> P(CudaPath);
      llvm::sys::path::append(P, Sub, "libcupti.so");
      if (llvm::sys::fs::exists(P))
        Candidates.push_back(std::string(P));
    }
    Candidates.push_back("libcupti.so"); // The system's search path.
  }
  std::string Err, Tried;
  for (const std::string &C : Candidates) {
    llvm::sys::DynamicLibrary Lib =
        llvm::sys::DynamicLibrary::getPermanentLibrary(C.c_str(), &Err);
    if (!Lib.isValid()) {
      Tried += (Tried.empty() ? "" : "; ") + Err;
      continue;
    }
    auto Host = std::unique_ptr<ProfilerHost>(new ProfilerHost());
    Host->Fns = std::make_unique<Api>();
    Api &A = *Host->Fns;
    bool Ok = true;
    auto Bind = [&](auto &Fn, const char *Name) {
      Fn = reinterpret_cast<std::remove_reference_t<decltype(Fn)>>(
          Lib.getAddressOfSymbol(Name));
      Ok &= Fn != nullptr;
    };
    Bind(A.Initialize, "cuptiProfilerHostInitialize");
    Bind(A.Deinitialize, "cuptiProfilerHostDeinitialize");
    Bind(A.GetSupportedChips, "cuptiProfilerHostGetSupportedChips");
    Bind(A.ConfigAddMetrics, "cuptiProfilerHostConfigAddMetrics");
    Bind(A.GetConfigImageSize, "cuptiProfilerHostGetConfigImageSize");
    Bind(A.GetConfigImage, "cuptiProfilerHostGetConfigImage");
    Bind(A.GetNumOfPasses, "cuptiProfilerHostGetNumOfPasses");
    Bind(A.GetResultString, "cuptiGetResultString");
    Bind(A.ProfilerInitialize, "cuptiProfilerInitialize");
    Bind(A.DeviceGetChipName, "cuptiDeviceGetChipName");
    if (!Ok)
      return llvm::createStringError(
          "'%s' lacks the CUPTI Profiler Host API (CUDA 13 is needed)",
          C.c_str());
    if (llvm::Error E = loadNvperfHost(C))
      return std::move(E);
    return std::move(Host);
  }
  return llvm::createStringError(
      "cannot load CUPTI: libcupti.so is not in '%s' (lib64, lib, "
      "extras/CUPTI/lib64) nor on the library path: %s; set --cuda-path or "
      "CUDA_PATH",
      CudaPath.c_str(), Tried.c_str());
}

llvm::Expected<std::vector<std::string>> ProfilerHost::supportedChips() {
  auto P = zeroed<CUpti_Profiler_Host_GetSupportedChips_Params>(
      CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE);
  if (CUptiResult R = Fns->GetSupportedChips(&P))
    return llvm::createStringError("cannot list CUPTI's chips: %s",
                                   resultString(*Fns, R).c_str());
  std::vector<std::string> Chips;
  for (size_t I = 0; I < P.numChips; ++I)
    Chips.push_back(P.ppChipNames[I]);
  return Chips;
}

llvm::Error ProfilerHost::checkChip(const std::string &Chip) {
  llvm::Expected<std::vector<std::string>> Chips = supportedChips();
  if (!Chips)
    return Chips.takeError();
  if (llvm::is_contained(*Chips, Chip))
    return llvm::Error::success();
  return llvm::createStringError("unknown chip '%s'; CUPTI supports: %s",
                                 Chip.c_str(),
                                 llvm::join(*Chips, ", ").c_str());
}

llvm::Expected<unsigned>
ProfilerHost::passCount(const std::string &Chip,
                        const std::vector<std::string> &Metrics) {
  if (Metrics.empty())
    return 0;
  HostObject H(*Fns, Chip);
  size_t N = 0;
  if (CUptiResult R = H.passes(Metrics, N))
    return llvm::createStringError("CUPTI rejected the metric set on %s: %s",
                                   Chip.c_str(), resultString(*Fns, R).c_str());
  return static_cast<unsigned>(N);
}

bool ProfilerHost::isValid(const std::string &Chip, const std::string &Metric) {
  HostObject H(*Fns, Chip);
  size_t N = 0;
  return H.passes({Metric}, N) == CUPTI_SUCCESS;
}

llvm::Expected<std::vector<std::string>> ProfilerHost::deviceChips() {
  std::optional<std::string> Key = deviceKey();
  std::string Cache = deviceChipCachePath();
  if (Key)
    if (auto Chips = cachedDeviceChips(Cache, *Key))
      return *Chips;
  llvm::Expected<std::vector<std::string>> Chips = probeDeviceChips();
  if (Chips && Key)
    storeDeviceChips(Cache, *Key, *Chips);
  return Chips;
}

llvm::Expected<std::vector<std::string>> ProfilerHost::probeDeviceChips() {
  // The driver is probed first, so that a machine without one gets its own
  // message rather than CUPTI's.
  std::string Err;
  llvm::sys::DynamicLibrary Cuda =
      llvm::sys::DynamicLibrary::getPermanentLibrary("libcuda.so.1", &Err);
  if (!Cuda.isValid())
    return llvm::createStringError(
        "no CUDA driver: cannot load libcuda.so.1 (%s); profiling needs an "
        "NVIDIA GPU and its driver",
        Err.c_str());
  using InitFn = int (*)(unsigned);
  using CountFn = int (*)(int *);
  using ErrFn = int (*)(int, const char **);
  auto Init = reinterpret_cast<InitFn>(Cuda.getAddressOfSymbol("cuInit"));
  auto Count =
      reinterpret_cast<CountFn>(Cuda.getAddressOfSymbol("cuDeviceGetCount"));
  auto ErrorString =
      reinterpret_cast<ErrFn>(Cuda.getAddressOfSymbol("cuGetErrorString"));
  if (!Init || !Count)
    return llvm::createStringError("libcuda.so.1 lacks cuInit");
  if (int R = Init(0)) {
    const char *S = nullptr;
    if (ErrorString)
      ErrorString(R, &S);
    return llvm::createStringError("the CUDA driver cannot start: %s",
                                   S ? S : std::to_string(R).c_str());
  }
  int N = 0;
  Count(&N);
  if (N == 0)
    return llvm::createStringError("no CUDA device is visible");
  auto IP = zeroed<CUpti_Profiler_Initialize_Params>(
      CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (CUptiResult R = Fns->ProfilerInitialize(&IP))
    return llvm::createStringError("cannot initialise the CUPTI profiler: %s",
                                   resultString(*Fns, R).c_str());
  std::vector<std::string> Chips;
  for (int I = 0; I < N; ++I) {
    auto P = zeroed<CUpti_Device_GetChipName_Params>(
        CUpti_Device_GetChipName_Params_STRUCT_SIZE);
    P.deviceIndex = I;
    if (CUptiResult R = Fns->DeviceGetChipName(&P))
      return llvm::createStringError("cannot read the chip of device %d: %s", I,
                                     resultString(*Fns, R).c_str());
    Chips.push_back(P.pChipName);
  }
  return Chips;
}
