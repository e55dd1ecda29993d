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
/// file); every other allocation the program holds is hashed before and
/// after, to tell whether the launch wrote outside its arguments.
///
/// With a poison launch configured, the launch before it is watched the
/// same way, and just before the poison launch the bytes that the watched
/// launch changed are overwritten with pseudo-random values of their
/// element kind: a later launch that answers from what an earlier one left
/// behind answers wrong.
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
#include <optional>
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

/// An allocation no argument of the launch points into, hashed before it.
struct OutsideBuffer {
  CUdeviceptr Base = 0;
  size_t Bytes = 0;
  uint64_t Hash = 0;
};

struct PendingSnapshot {
  std::string Kernel;
  unsigned Launch = 0;
  std::vector<PendingBuffer> Buffers;
  std::vector<OutsideBuffer> Outside;
  /// Whether the buffers are saved (the snapshot launch), and whether the
  /// bytes the launch changes are remembered for a later poison launch.
  bool Save = false;
  bool Watch = false;
  uint64_t PoisonedBytes = 0;
};

/// The bytes a watched launch changed in one allocation.
struct WatchedBuffer {
  CUdeviceptr Base = 0;
  size_t Bytes = 0;
  /// The first of the kernel's parameters that point into it.
  unsigned Param = 0;
  std::vector<bool> Changed;
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
  /// The program's device allocations: base -> bytes.
  std::map<CUdeviceptr, size_t> Allocations;
  /// What the watched launch of each kernel changed, by mangled name.
  std::map<std::string, std::vector<WatchedBuffer>> Watched;
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

/// A 64-bit hash of \p Data (eight bytes at a time).
uint64_t hashBytes(const std::vector<char> &Data) {
  uint64_t H = 0x9e3779b97f4a7c15ull ^ Data.size();
  size_t I = 0;
  for (; I + 8 <= Data.size(); I += 8) {
    uint64_t W;
    std::memcpy(&W, Data.data() + I, 8);
    H = (H ^ W) * 0x100000001b3ull;
    H ^= H >> 29;
  }
  for (; I < Data.size(); ++I)
    H = (H ^ uint64_t(static_cast<unsigned char>(Data[I]))) * 0x100000001b3ull;
  return H;
}

/// The hash of allocation \p Base, or nullopt when it cannot be read.
std::optional<uint64_t> hashAllocation(CUdeviceptr Base, size_t Bytes,
                                       std::vector<char> &Scratch) {
  Scratch.resize(Bytes);
  if (cuMemcpyDtoH(Scratch.data(), Base, Bytes) != CUDA_SUCCESS)
    return std::nullopt;
  return hashBytes(Scratch);
}

/// splitmix64: the poison of one element, from its position alone, so that
/// the original's and the candidate's runs poison alike.
uint64_t mix(uint64_t X) {
  X += 0x9e3779b97f4a7c15ull;
  X = (X ^ (X >> 30)) * 0xbf58476d1ce4e5b9ull;
  X = (X ^ (X >> 27)) * 0x94d049bb133111ebull;
  return X ^ (X >> 31);
}

/// The size of one element of \p Kind ("f32", "i64", ...); 1 for bytes.
size_t elementSize(const std::string &Kind) {
  if (Kind == "f64" || Kind == "i64" || Kind == "u64")
    return 8;
  if (Kind == "f32" || Kind == "i32" || Kind == "u32")
    return 4;
  if (Kind == "f16" || Kind == "bf16" || Kind == "i16" || Kind == "u16")
    return 2;
  return 1;
}

/// Writes a poison value of \p Kind drawn from \p R into \p Out: a finite
/// number in [-1, 1) for floating point (no NaN to make every comparison
/// pass), a small non-negative integer for integers (no index far out of
/// range), any byte otherwise.
void poisonElement(const std::string &Kind, uint64_t R, char *Out) {
  double Unit = double(R >> 11) / double(1ull << 53) * 2.0 - 1.0;
  if (Kind == "f32") {
    float F = float(Unit);
    std::memcpy(Out, &F, 4);
  } else if (Kind == "f64") {
    std::memcpy(Out, &Unit, 8);
  } else if (Kind == "bf16") {
    float F = float(Unit);
    uint32_t Bits;
    std::memcpy(&Bits, &F, 4);
    uint16_t Half = uint16_t(Bits >> 16);
    std::memcpy(Out, &Half, 2);
  } else if (Kind == "f16") {
    // Sign, an exponent for [2^-5, 1) and any mantissa.
    uint16_t Half =
        uint16_t(((R >> 63) << 15) | ((10 + (R >> 8) % 5) << 10) | (R & 0x3ff));
    std::memcpy(Out, &Half, 2);
  } else if (Kind == "bytes") {
    *Out = char(R);
  } else {
    size_t N = elementSize(Kind);
    uint64_t V = R % 1024;
    if (N == 1)
      V = R % 128;
    std::memcpy(Out, &V, N);
  }
}

/// Overwrites the bytes that the watched launch of \p Kernel changed with
/// poison, before its poison launch; returns how many bytes it overwrote.
uint64_t poison(Measurer &M, const std::string &Kernel) {
  auto It = M.Watched.find(Kernel);
  if (It == M.Watched.end())
    return 0;
  const std::vector<std::string> *Kinds = nullptr;
  auto KI = M.Config.PoisonKinds.find(Kernel);
  if (KI != M.Config.PoisonKinds.end())
    Kinds = &KI->second;
  const std::vector<unsigned> &Params = M.Config.Kernels[Kernel];
  uint64_t Total = 0;
  std::vector<char> Data;
  for (const WatchedBuffer &W : It->second) {
    CUdeviceptr Base = 0;
    size_t Bytes = 0;
    // The allocation must still be the one watched.
    if (cuMemGetAddressRange(&Base, &Bytes, W.Base) != CUDA_SUCCESS ||
        Base != W.Base || Bytes != W.Bytes)
      continue;
    std::string Kind = "bytes";
    for (size_t I = 0; Kinds && I < Params.size() && I < Kinds->size(); ++I)
      if (Params[I] == W.Param)
        Kind = (*Kinds)[I];
    size_t Size = elementSize(Kind);
    Data.resize(W.Bytes);
    if (cuMemcpyDtoH(Data.data(), W.Base, W.Bytes) != CUDA_SUCCESS)
      continue;
    uint64_t Count = 0;
    for (size_t E = 0; E + Size <= W.Bytes; E += Size) {
      bool Changed = false;
      for (size_t B = E; B < E + Size; ++B)
        Changed = Changed || W.Changed[B];
      if (!Changed)
        continue;
      poisonElement(Kind,
                    mix(M.Config.PoisonSeed ^ (uint64_t(W.Param) << 56) ^ E),
                    Data.data() + E);
      Count += Size;
    }
    if (Count && cuMemcpyHtoD(W.Base, Data.data(), W.Bytes) == CUDA_SUCCESS)
      Total += Count;
  }
  return Total;
}

/// Copies the allocations that the pointer arguments \p Params of a launch
/// point into, before the launch.
std::unique_ptr<PendingSnapshot>
copyBefore(Measurer &M, const std::string &Kernel, unsigned Launch, void **Args,
           const std::vector<unsigned> &Params, bool Save, bool Watch) {
  auto P = std::make_unique<PendingSnapshot>();
  P->Kernel = Kernel;
  P->Launch = Launch;
  P->Save = Save;
  P->Watch = Watch;
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
  if (!Save)
    return P;
  // Every other allocation, to tell whether the launch writes outside its
  // arguments.
  std::vector<char> Scratch;
  for (const auto &[Base, Bytes] : M.Allocations) {
    bool Argument = false;
    for (const PendingBuffer &B : P->Buffers)
      Argument = Argument || B.Base == Base;
    if (Argument)
      continue;
    if (std::optional<uint64_t> H = hashAllocation(Base, Bytes, Scratch))
      P->Outside.push_back({Base, Bytes, *H});
  }
  return P;
}

/// Copies the pending allocations after the launch, and saves them or
/// remembers what the launch changed.
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
  std::vector<WatchedBuffer> Watched;
  std::vector<char> After;
  for (PendingBuffer &B : P.Buffers) {
    After.resize(B.Bytes);
    if (cuMemcpyDtoH(After.data(), B.Base, B.Bytes) != CUDA_SUCCESS)
      continue;
    if (P.Watch) {
      WatchedBuffer W;
      W.Base = B.Base;
      W.Bytes = B.Bytes;
      W.Param = B.Params.front();
      W.Changed.resize(B.Bytes);
      bool Any = false;
      for (size_t I = 0; I < B.Bytes; ++I)
        if (After[I] != B.Before[I])
          W.Changed[I] = Any = true;
      if (Any)
        Watched.push_back(std::move(W));
    }
    if (!P.Save)
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
  std::vector<uint64_t> OutsideChanged;
  std::vector<char> Scratch;
  for (const OutsideBuffer &B : P.Outside) {
    std::optional<uint64_t> H = hashAllocation(B.Base, B.Bytes, Scratch);
    if (H && *H != B.Hash)
      OutsideChanged.push_back(B.Bytes);
  }
  std::lock_guard<std::mutex> G(M.Lock);
  if (P.Watch)
    M.Watched[P.Kernel] = std::move(Watched);
  auto It = M.Index.find(P.Kernel);
  if (It == M.Index.end() || !P.Save)
    return;
  KernelMeasurement &K = M.Out.Kernels[It->second];
  K.SnapshotLaunch = P.Launch;
  K.Snapshots = std::move(Saved);
  K.PoisonedBytes = P.PoisonedBytes;
  K.OutsideWatched = P.Outside.size();
  K.OutsideChanged = std::move(OutsideChanged);
}

/// Keeps the program's allocations up to date from the allocation and free
/// callbacks.
void trackAllocation(Measurer &M, CUpti_CallbackId Id,
                     const CUpti_CallbackData &Cb) {
  const void *Params = Cb.functionParams;
  if (Cb.callbackSite == CUPTI_API_ENTER) {
    CUdeviceptr Ptr = 0;
    switch (Id) {
    case CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2:
      Ptr = static_cast<const cuMemFree_v2_params *>(Params)->dptr;
      break;
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync:
    case CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz:
      Ptr = static_cast<const cuMemFreeAsync_params *>(Params)->dptr;
      break;
    default:
      return;
    }
    std::lock_guard<std::mutex> G(M.Lock);
    M.Allocations.erase(Ptr);
    return;
  }
  auto *Status = static_cast<const CUresult *>(Cb.functionReturnValue);
  if (!Status || *Status != CUDA_SUCCESS)
    return;
  CUdeviceptr *Ptr = nullptr;
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2:
    Ptr = static_cast<const cuMemAlloc_v2_params *>(Params)->dptr;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2:
    Ptr = static_cast<const cuMemAllocPitch_v2_params *>(Params)->dptr;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged:
    Ptr = static_cast<const cuMemAllocManaged_params *>(Params)->dptr;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync:
  case CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz:
    Ptr = static_cast<const cuMemAllocAsync_params *>(Params)->dptr;
    break;
  default:
    return;
  }
  CUdeviceptr Base = 0;
  size_t Bytes = 0;
  if (!Ptr || cuMemGetAddressRange(&Base, &Bytes, *Ptr) != CUDA_SUCCESS)
    return;
  std::lock_guard<std::mutex> G(M.Lock);
  M.Allocations[Base] = Bytes;
}

constexpr CUpti_CallbackId AllocationCallbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocAsync_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync,
    CUPTI_DRIVER_TRACE_CBID_cuMemFreeAsync_ptsz};

bool isAllocationCallback(CUpti_CallbackId Id) {
  for (CUpti_CallbackId A : AllocationCallbacks)
    if (A == Id)
      return true;
  return false;
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain,
                         CUpti_CallbackId Id, const void *Data) {
  Measurer *M = TheMeasurer;
  if (!M || Domain != CUPTI_CB_DOMAIN_DRIVER_API)
    return;
  auto *Cb = static_cast<const CUpti_CallbackData *>(Data);
  if (isAllocationCallback(Id)) {
    trackAllocation(*M, Id, *Cb);
    return;
  }
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
  if (!Params || Params->empty() || M->Config.SnapshotDir.empty())
    return;
  bool Save = Launch == M->Config.SnapshotLaunch;
  bool Watch = M->Config.PoisonLaunch && Launch + 1 == M->Config.PoisonLaunch;
  bool PoisonNow = M->Config.PoisonLaunch && Launch == M->Config.PoisonLaunch;
  if (!Save && !Watch && !PoisonNow)
    return;
  void **Args = kernelParams(Id, Cb->functionParams);
  std::unique_ptr<PendingSnapshot> P;
  {
    std::lock_guard<std::mutex> G(M->Lock);
    uint64_t Poisoned = 0;
    if (PoisonNow && cuCtxSynchronize() == CUDA_SUCCESS)
      Poisoned = poison(*M, Kernel);
    if (!Save && !Watch)
      return;
    P = copyBefore(*M, Kernel, Launch, Args, *Params, Save, Watch);
    P->PoisonedBytes = Poisoned;
  }
  Pending = std::move(P);
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
  for (CUpti_CallbackId Id : AllocationCallbacks)
    if (CUptiResult R = cuptiEnableCallback(1, M->Subscriber,
                                            CUPTI_CB_DOMAIN_DRIVER_API, Id))
      return Fail("cannot enable the allocation callbacks", R);
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
