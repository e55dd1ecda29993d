//===- ClockControl.cpp - Locking the GPUs' clocks while profiling --------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Profiling/ClockControl.h"

#include "llvm/Support/DynamicLibrary.h"

using namespace llvm;
using namespace autoprof::profiling;

namespace {

// NVML's C interface (nvml.h), as far as the lock uses it.
using nvmlReturn = int;
using nvmlDevice = void *;
constexpr nvmlReturn NvmlSuccess = 0;
/// nvmlClockLimitId_t's NVML_CLOCK_LIMIT_ID_TDP: as both bounds of
/// nvmlDeviceSetGpuLockedClocks, the clock is locked to the TDP (base)
/// frequency.
constexpr unsigned NvmlClockLimitTDP = 0xffffff01u;

struct NVML {
  nvmlReturn (*Init)();
  nvmlReturn (*Shutdown)();
  nvmlReturn (*Count)(unsigned *);
  nvmlReturn (*Handle)(unsigned, nvmlDevice *);
  nvmlReturn (*Lock)(nvmlDevice, unsigned, unsigned);
  nvmlReturn (*Reset)(nvmlDevice);
  const char *(*Describe)(nvmlReturn);

  std::string error(nvmlReturn R) const {
    const char *D = Describe ? Describe(R) : nullptr;
    return D ? D : "NVML error " + std::to_string(R);
  }
};

template <typename F>
bool find(sys::DynamicLibrary &L, const char *Name, F &Out) {
  Out = reinterpret_cast<F>(L.getAddressOfSymbol(Name));
  return Out != nullptr;
}

} // namespace

Expected<ClockAPI> autoprof::profiling::loadNVML() {
  std::string Err;
  auto L = sys::DynamicLibrary::getPermanentLibrary("libnvidia-ml.so.1", &Err);
  if (!L.isValid())
    return createStringError("cannot lock the GPU clocks: NVML "
                             "(libnvidia-ml.so.1) cannot be loaded; use "
                             "--clock-control=none");
  auto N = std::make_shared<NVML>();
  if (!find(L, "nvmlInit_v2", N->Init) ||
      !find(L, "nvmlShutdown", N->Shutdown) ||
      !find(L, "nvmlDeviceGetCount_v2", N->Count) ||
      !find(L, "nvmlDeviceGetHandleByIndex_v2", N->Handle) ||
      !find(L, "nvmlDeviceSetGpuLockedClocks", N->Lock) ||
      !find(L, "nvmlDeviceResetGpuLockedClocks", N->Reset))
    return createStringError("cannot lock the GPU clocks: this NVML has no "
                             "clock locking; use --clock-control=none");
  find(L, "nvmlErrorString", N->Describe);
  if (nvmlReturn R = N->Init())
    return createStringError("cannot lock the GPU clocks: NVML: " +
                             N->error(R) + "; use --clock-control=none");
  ClockAPI A;
  A.DeviceCount = [N](unsigned &Count) {
    nvmlReturn R = N->Count(&Count);
    return R == NvmlSuccess ? std::string() : N->error(R);
  };
  auto OnDevice = [N](unsigned I, auto Call) -> std::string {
    nvmlDevice D = nullptr;
    if (nvmlReturn R = N->Handle(I, &D))
      return N->error(R);
    nvmlReturn R = Call(D);
    return R == NvmlSuccess ? std::string() : N->error(R);
  };
  A.LockToBase = [N, OnDevice](unsigned I) {
    return OnDevice(I, [&](nvmlDevice D) {
      return N->Lock(D, NvmlClockLimitTDP, NvmlClockLimitTDP);
    });
  };
  A.Unlock = [N, OnDevice](unsigned I) {
    return OnDevice(I, [&](nvmlDevice D) { return N->Reset(D); });
  };
  A.Shutdown = [N] { N->Shutdown(); };
  return A;
}

Expected<std::unique_ptr<ClockLock>>
autoprof::profiling::ClockLock::lockToBase(ClockAPI API) {
  std::unique_ptr<ClockLock> L(new ClockLock(std::move(API)));
  unsigned Count = 0;
  if (std::string E = L->API.DeviceCount(Count); !E.empty())
    return createStringError("cannot lock the GPU clocks: NVML: " + E +
                             "; use --clock-control=none");
  for (unsigned I = 0; I < Count; ++I) {
    if (std::string E = L->API.LockToBase(I); !E.empty())
      // Destroying L unlocks the GPUs locked so far.
      return createStringError("cannot lock the clock of GPU " +
                               std::to_string(I) + " to base: NVML: " + E +
                               " (locking clocks needs root); use "
                               "--clock-control=none");
    L->Locked.push_back(I);
  }
  return std::move(L);
}

autoprof::profiling::ClockLock::~ClockLock() {
  for (unsigned I : Locked)
    API.Unlock(I);
  if (API.Shutdown)
    API.Shutdown();
}
