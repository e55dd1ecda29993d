//===- Measure.cpp - The agent's measuring mode ---------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Each kernel launch is counted on API entry and its correlation id
/// remembered; the activity records, which arrive later, give its duration.
/// Kernels that are not configured are marked as other kernels: the
/// verifier compares their total time too. For the configured launch of each
/// kernel, the agent waits for the device to be idle before and after the
/// launch and copies every allocation its pointer arguments point into, once
/// before (to tell whether the launch changed it) and once after (saved to a
/// file).
///
//===----------------------------------------------------------------------===//

#include "Measure.h"
#include "LaunchCallbacks.h"
#include "MeasureConfig.h"

#include "autoprof/Profile/Measurement.h"
#include "autoprof/Profile/Profile.h"

#include <cuda.h>
#include <cupti.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>

using namespace autoprof;
using namespace autoprof::inject;

namespace {

/// One allocation of the snapshot launch, copied before the launch.
struct PendingBuffer {
  CUdeviceptr Base = 0;
  size_t Bytes = 0;
  std::vector<unsigned> Params;
  std::vector<char> Before;
};

struct PendingSnapshot {
  std::string Kernel;
  unsigned Launch = 0;
  std::vector<PendingBuffer> Buffers;
};

struct Measurer {
  std::mutex Lock;
  MeasureConfig Config;
  Measurement Out;
  /// Index in Out.Kernels by mangled name.
  std::map<std::string, size_t> Index;
  /// Correlation id -> (kernel index, launch number).
  std::map<uint32_t, std::pair<size_t, unsigned>> Launches;
  /// (kernel index, launch number) -> duration.
  std::map<std::pair<size_t, unsigned>, double> Durations;
  CUpti_SubscriberHandle Subscriber = nullptr;
};

Measurer *TheMeasurer = nullptr;
thread_local std::unique_ptr<PendingSnapshot> Pending;

void addError(Measurer &M, const std::string &Message) {
  addLine(M.Out.Errors, Message);
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t,
                              size_t Valid) {
  if (Measurer *M = TheMeasurer) {
    std::lock_guard<std::mutex> G(M->Lock);
    CUpti_Activity *Rec = nullptr;
    while (cuptiActivityGetNextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
      if (Rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)
        continue;
      auto *K = reinterpret_cast<CUpti_ActivityKernel10 *>(Rec);
      auto It = M->Launches.find(K->correlationId);
      if (It == M->Launches.end() || K->end <= K->start)
        continue;
      M->Durations[It->second] = double(K->end - K->start);
    }
  }
  std::free(Buffer);
}

/// The arguments of a launch callback.
void **kernelParams(CUpti_CallbackId Id, const void *Params) {
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    return static_cast<const cuLaunchKernel_params *>(Params)->kernelParams;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
    return static_cast<const cuLaunchCooperativeKernel_params *>(Params)
        ->kernelParams;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    return static_cast<const cuLaunchKernelEx_params *>(Params)->kernelParams;
  default:
    return nullptr;
  }
}

std::string describe(CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return Name ? Name : "CUDA error " + std::to_string(int(R));
}

/// Copies the allocations that the pointer arguments \p Params of a launch
/// point into, before the launch.
std::unique_ptr<PendingSnapshot>
copyBefore(Measurer &M, const std::string &Kernel, unsigned Launch, void **Args,
           const std::vector<unsigned> &Params) {
  auto P = std::make_unique<PendingSnapshot>();
  P->Kernel = Kernel;
  P->Launch = Launch;
  if (!Args) {
    addError(M, "kernel " + Kernel +
                    ": launched with packed arguments; its buffers are not "
                    "saved");
    return P;
  }
  if (CUresult R = cuCtxSynchronize()) {
    addError(M, "kernel " + Kernel + ": the device failed before the launch " +
                    "was saved: " + describe(R));
    return P;
  }
  for (unsigned Param : Params) {
    CUdeviceptr Ptr = 0;
    std::memcpy(&Ptr, Args[Param], sizeof(Ptr));
    if (!Ptr)
      continue;
    CUdeviceptr Base = 0;
    size_t Bytes = 0;
    if (cuMemGetAddressRange(&Base, &Bytes, Ptr) != CUDA_SUCCESS) {
      addError(M, "kernel " + Kernel + ": argument " + std::to_string(Param) +
                      " does not point into device memory; it is not saved");
      continue;
    }
    bool Seen = false;
    for (PendingBuffer &B : P->Buffers)
      if (B.Base == Base) {
        B.Params.push_back(Param);
        Seen = true;
      }
    if (Seen)
      continue;
    PendingBuffer B;
    B.Base = Base;
    B.Bytes = Bytes;
    B.Params.push_back(Param);
    B.Before.resize(Bytes);
    if (CUresult R = cuMemcpyDtoH(B.Before.data(), Base, Bytes)) {
      addError(M, "kernel " + Kernel + ": cannot read argument " +
                      std::to_string(Param) + ": " + describe(R));
      continue;
    }
    P->Buffers.push_back(std::move(B));
  }
  return P;
}

/// Copies the pending allocations after the launch and saves them.
void saveAfter(Measurer &M, PendingSnapshot &P) {
  if (P.Buffers.empty())
    return;
  if (CUresult R = cuCtxSynchronize()) {
    std::lock_guard<std::mutex> G(M.Lock);
    addError(M, "kernel " + P.Kernel + ": launch " + std::to_string(P.Launch) +
                    " failed: " + describe(R));
    return;
  }
  std::vector<BufferSnapshot> Saved;
  std::vector<char> After;
  for (PendingBuffer &B : P.Buffers) {
    After.resize(B.Bytes);
    if (cuMemcpyDtoH(After.data(), B.Base, B.Bytes) != CUDA_SUCCESS)
      continue;
    BufferSnapshot S;
    S.Params = B.Params;
    S.Bytes = B.Bytes;
    for (size_t I = 0; I < B.Bytes; ++I)
      S.ChangedBytes += After[I] != B.Before[I];
    S.File = M.Config.SnapshotDir + "/" + P.Kernel + "." +
             std::to_string(B.Params.front()) + ".bin";
    std::ofstream F(S.File, std::ios::binary);
    F.write(After.data(), std::streamsize(B.Bytes));
    if (!F) {
      std::lock_guard<std::mutex> G(M.Lock);
      addError(M, "cannot write '" + S.File + "'");
      continue;
    }
    Saved.push_back(std::move(S));
  }
  std::lock_guard<std::mutex> G(M.Lock);
  auto It = M.Index.find(P.Kernel);
  if (It == M.Index.end())
    return;
  KernelMeasurement &K = M.Out.Kernels[It->second];
  K.SnapshotLaunch = P.Launch;
  K.Snapshots = std::move(Saved);
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain,
                         CUpti_CallbackId Id, const void *Data) {
  Measurer *M = TheMeasurer;
  if (!M || Domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return;
  auto *Cb = static_cast<const CUpti_CallbackData *>(Data);
  if (Cb->callbackSite == CUPTI_API_EXIT) {
    if (std::unique_ptr<PendingSnapshot> P = std::move(Pending))
      saveAfter(*M, *P);
    return;
  }
  if (!Cb->symbolName)
    return;
  std::string Kernel = Cb->symbolName;
  const std::vector<unsigned> *Params = nullptr;
  unsigned Launch = 0;
  {
    std::lock_guard<std::mutex> G(M->Lock);
    // Every kernel is counted and timed; only the selected ones are saved.
    auto It = M->Config.Kernels.find(Kernel);
    auto [Idx, New] = M->Index.emplace(Kernel, M->Out.Kernels.size());
    if (New) {
      M->Out.Kernels.emplace_back();
      M->Out.Kernels.back().MangledName = Kernel;
      M->Out.Kernels.back().Other = It == M->Config.Kernels.end();
    }
    KernelMeasurement &K = M->Out.Kernels[Idx->second];
    Launch = K.Launches++;
    M->Launches[Cb->correlationId] = {Idx->second, Launch};
    if (It != M->Config.Kernels.end())
      Params = &It->second;
  }
  if (Params && !M->Config.SnapshotDir.empty() &&
      Launch == M->Config.SnapshotLaunch && !Params->empty()) {
    void **Args = kernelParams(Id, Cb->functionParams);
    std::unique_ptr<PendingSnapshot> P;
    {
      std::lock_guard<std::mutex> G(M->Lock);
      P = copyBefore(*M, Kernel, Launch, Args, *Params);
    }
    Pending = std::move(P);
  }
}

void deviceLimits(Measurement &Out) {
  CUdevice Dev = 0;
  if (cuCtxGetDevice(&Dev) != CUDA_SUCCESS)
    return;
  int ClockKHz = 0, BusBits = 0, L2 = 0;
  if (cuDeviceGetAttribute(&ClockKHz, CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE,
                           Dev) == CUDA_SUCCESS &&
      cuDeviceGetAttribute(&BusBits,
                           CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH,
                           Dev) == CUDA_SUCCESS)
    // Double data rate: two transfers per clock.
    Out.DramBytesPerSecond = 2.0 * ClockKHz * 1e3 * (BusBits / 8.0);
  if (cuDeviceGetAttribute(&L2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, Dev) ==
      CUDA_SUCCESS)
    Out.L2Bytes = L2;
}

void finishMeasuring() {
  Measurer *M = TheMeasurer;
  if (!M)
    return;
  cuptiActivityFlushAll(1);
  std::lock_guard<std::mutex> G(M->Lock);
  deviceLimits(M->Out);
  for (KernelMeasurement &K : M->Out.Kernels)
    K.DurationsNs.clear();
  for (const auto &[Key, D] : M->Durations)
    M->Out.Kernels[Key.first].DurationsNs.push_back(D);
  if (!writeFileAtomically(M->Config.Output, writeMeasurementJSON(M->Out)))
    std::fprintf(stderr, "clang-autoprof: error: cannot write '%s'\n",
                 M->Config.Output.c_str());
}

} // namespace

bool autoprof::inject::startMeasuring(const char *ConfigPath) {
  std::ifstream In(ConfigPath, std::ios::binary);
  std::stringstream SS;
  SS << In.rdbuf();
  auto M = std::make_unique<Measurer>();
  std::string Error;
  if (!In) {
    std::fprintf(stderr,
                 "clang-autoprof: error: cannot read the measurement "
                 "configuration '%s'\n",
                 ConfigPath);
    return false;
  }
  if (!parseMeasureConfig(SS.str(), ConfigPath, M->Config, Error)) {
    std::fprintf(stderr, "clang-autoprof: error: %s\n", Error.c_str());
    return false;
  }
  auto Fail = [&](const char *What, CUptiResult R) {
    const char *Msg = nullptr;
    cuptiGetResultString(R, &Msg);
    std::fprintf(stderr, "clang-autoprof: error: %s: %s\n", What,
                 Msg ? Msg : "unknown CUPTI error");
    return false;
  };
  if (CUptiResult R = cuptiSubscribe(&M->Subscriber, onCallback, nullptr))
    return Fail("cannot subscribe to CUPTI callbacks", R);
  if (CUptiResult R = enableLaunchCallbacks(M->Subscriber))
    return Fail("cannot enable the launch callbacks", R);
  if (CUptiResult R = cuptiActivityRegisterCallbacks(allocateActivityBuffer,
                                                     bufferCompleted))
    return Fail("cannot register CUPTI activity buffers", R);
  if (CUptiResult R =
          cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL))
    return Fail("cannot enable kernel activity records", R);
  TheMeasurer = M.release();
  std::atexit(finishMeasuring);
  return true;
}
