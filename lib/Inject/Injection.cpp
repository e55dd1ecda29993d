//===- Injection.cpp - The profiling agent inside the user's program ------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Loaded by the CUDA driver through CUDA_INJECTION64_PATH, which calls
/// InitializeInjection(). The agent subscribes to the driver's kernel-launch
/// callbacks; for each launch that the configuration selects it configures
/// the range profiler on API entry (kernel replay: CUPTI replays the launch
/// as many times as the metric set needs) and evaluates the counters on API
/// exit. In tree mode the first selected launch of a kernel collects the
/// tree's stage-1 samples (and the leaf's metrics when the route needs no
/// sample); the kernel is then routed, and its next launch collects the
/// leaf's metrics. The profile is rewritten after every profiled launch, so
/// a program that crashes leaves the records collected so far.
///
//===----------------------------------------------------------------------===//

#include "AgentConfig.h"
#include "CacheFlush.h"
#include "LaunchAttributes.h"
#include "LaunchCallbacks.h"
#include "LaunchPlanner.h"
#include "Measure.h"
#include "RangeProfiler.h"

#include "autoprof/Profile/Profile.h"
#include "autoprof/Tree/Routing.h"

#include <cuda.h>
#include <cupti.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>

using namespace autoprof;
using namespace autoprof::inject;

namespace {

/// A selected launch between API entry and exit.
struct InFlight {
  PlannedLaunch P;
  LaunchConfig Launch;
  CUdevice Device = 0;
  RangeProfiler *Profiler = nullptr;
  std::vector<std::string> RangeSet;
  uint32_t Correlation = 0;
};

struct Agent {
  std::mutex Lock;
  /// Held from the entry to the exit of a profiled launch: one range
  /// profiler session at a time.
  std::mutex Profiling;
  AgentConfig Config;
  Profile Out;
  std::map<CUcontext, std::unique_ptr<RangeProfiler>> Profilers;
  std::map<CUcontext, std::string> FailedContexts;
  /// --cache-control=all: each context's flush; null where it cannot be
  /// prepared (said once, in a warning).
  std::map<CUcontext, std::unique_ptr<CacheFlusher>> Flushers;
  std::unique_ptr<LaunchPlanner> Planner;
  std::map<uint32_t, double> Durations;
  /// Records without a duration yet: (index, correlation id).
  std::vector<std::pair<size_t, uint32_t>> Unmatched;
  bool Stopped = false;
  CUpti_SubscriberHandle Subscriber = nullptr;
};

Agent *TheAgent = nullptr;
/// AUTOPROF_INJECT_TRACE=1 prints each step of the agent to stderr.
bool Trace = false;

#define AUTOPROF_TRACE(...)                                                    \
  do {                                                                         \
    if (Trace) {                                                               \
      std::fprintf(stderr, "clang-autoprof-inject: " __VA_ARGS__);             \
      std::fputc('\n', stderr);                                                \
    }                                                                          \
  } while (0)
thread_local std::unique_ptr<InFlight> Current;
/// Set while the agent launches a kernel of its own (the cache flush):
/// its callbacks are not the program's.
thread_local bool InAgentLaunch = false;

void writeProfile(Agent &A) {
  if (!writeFileAtomically(A.Config.Output, writeProfileJSON(A.Out)))
    std::fprintf(stderr, "clang-autoprof: error: cannot write '%s'\n",
                 A.Config.Output.c_str());
}

void addError(Agent &A, const std::string &Message) {
  addLine(A.Out.Errors, Message);
}

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t *Buffer, size_t,
                              size_t Valid) {
  CUpti_Activity *Rec = nullptr;
  if (TheAgent) {
    std::lock_guard<std::mutex> G(TheAgent->Lock);
    while (cuptiActivityGetNextRecord(Buffer, Valid, &Rec) == CUPTI_SUCCESS) {
      if (Rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
          Rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
        continue;
      auto *K = reinterpret_cast<CUpti_ActivityKernel10 *>(Rec);
      // Launches under the range profiler report no timestamps.
      if (K->start == 0 || K->end <= K->start)
        continue;
      double D = double(K->end - K->start);
      AUTOPROF_TRACE("activity: correlation %u, %llu..%llu", K->correlationId,
                     (unsigned long long)K->start, (unsigned long long)K->end);
      uint32_t Correlation = K->correlationId;
      auto [It, New] = TheAgent->Durations.emplace(Correlation, D);
      // Replayed launches report once per pass: the shortest is the run
      // least disturbed by the profiler.
      if (!New)
        It->second = std::min(It->second, D);
    }
  }
  std::free(Buffer);
}

RangeProfiler *profilerFor(Agent &A, CUcontext Ctx, CUdevice Dev) {
  auto It = A.Profilers.find(Ctx);
  if (It != A.Profilers.end())
    return It->second.get();
  if (A.FailedContexts.count(Ctx))
    return nullptr;
  // The counters of a GPU serve one range profiler at a time (a second one
  // gets CUPTI_ERROR_HARDWARE_BUSY): the one of another context goes first.
  for (auto &[Other, Profiler] : A.Profilers)
    Profiler->disable();
  A.Profilers.clear();
  auto P = std::make_unique<RangeProfiler>();
  std::string Error;
  if (!P->enable(Ctx, int(Dev), Error)) {
    A.FailedContexts[Ctx] = Error;
    addError(A, Error);
    // Counters that cannot be read on one context cannot be read on any.
    if (Error.find("INSUFFICIENT_PRIVILEGES") != std::string::npos)
      A.Stopped = true;
    writeProfile(A);
    return nullptr;
  }
  if (A.Out.Chip.empty())
    A.Out.Chip = P->chip();
  RangeProfiler *Raw = P.get();
  A.Profilers[Ctx] = std::move(P);
  return Raw;
}

/// Flushes the L2 cache before a profiled launch on \p L's stream, when the
/// configuration asks; a flush that cannot be made is a warning, and the
/// launch is profiled as the program left the cache. Called with
/// A.Profiling held and A.Lock free: the flush's own launch and waiting
/// happen outside the agent's lock.
void flushCaches(Agent &A, CUcontext Ctx, const LaunchConfig &L) {
  CacheFlusher *F = nullptr;
  bool New = false;
  {
    std::lock_guard<std::mutex> G(A.Lock);
    auto [It, Inserted] = A.Flushers.try_emplace(Ctx);
    if (Inserted)
      It->second = std::make_unique<CacheFlusher>();
    F = It->second.get();
    New = Inserted;
  }
  if (!F)
    return;
  std::string Error;
  CUdevice Dev = 0;
  cuCtxGetDevice(&Dev);
  InAgentLaunch = true;
  bool Ok = (!New || F->prepare(Ctx, Dev, Error)) && F->flush(L.Stream, Error);
  InAgentLaunch = false;
  if (Ok)
    return;
  std::lock_guard<std::mutex> G(A.Lock);
  addLine(A.Out.Warnings, Error);
  // A flush that could not be prepared is not tried again.
  if (New)
    A.Flushers[Ctx].reset();
}

void onLaunchEnter(Agent &A, const CUpti_CallbackData *Cb,
                   const LaunchConfig &L) {
  if (!Cb->symbolName)
    return;
  std::unique_ptr<InFlight> F;
  {
    std::lock_guard<std::mutex> G(A.Lock);
    if (A.Stopped)
      return;
    if (std::optional<PlannedLaunch> P = A.Planner->plan(Cb->symbolName)) {
      F = std::make_unique<InFlight>();
      F->P = std::move(*P);
    }
  }
  if (!F)
    return;
  AUTOPROF_TRACE("launch %u of %s: %s, %zu metrics", F->P.Record.Launch,
                 F->P.Record.Kernel.c_str(), F->P.Record.Stage.c_str(),
                 F->P.Collect.size());
  A.Profiling.lock();
  if (A.Config.FlushCaches &&
      std::any_of(F->P.Collect.begin(), F->P.Collect.end(),
                  [&](const std::string &M) {
                    return A.Config.RangeMetrics.count(M) != 0;
                  }))
    flushCaches(A, Cb->context, L);
  std::lock_guard<std::mutex> G(A.Lock);
  F->Launch = L;
  F->P.Record.Grid = L.Grid;
  F->P.Record.Block = L.Block;
  F->P.Record.DynamicSharedMem = L.DynamicSharedMem;
  F->Correlation = Cb->correlationId;
  cuCtxGetDevice(&F->Device);
  F->P.Record.Device = int(F->Device);
  for (const std::string &M : F->P.Collect)
    if (A.Config.RangeMetrics.count(M))
      F->RangeSet.push_back(M);
  if (!F->RangeSet.empty()) {
    // Under the range profiler the activity record has no timestamps: the
    // duration comes from the profiler.
    const std::string Duration = "gpu__time_duration.sum";
    if (std::find(F->RangeSet.begin(), F->RangeSet.end(), Duration) ==
        F->RangeSet.end())
      F->RangeSet.push_back(Duration);
    F->Profiler = profilerFor(A, Cb->context, F->Device);
    AUTOPROF_TRACE("begin: %zu range-profiler metrics", F->RangeSet.size());
    std::string Error;
    if (F->Profiler && !F->Profiler->begin(F->RangeSet, Error)) {
      addError(A, "kernel " + F->P.Record.Kernel + ": " + Error);
      F->Profiler = nullptr;
    }
    if (!F->Profiler) {
      A.Profiling.unlock();
      return;
    }
  }
  Current = std::move(F);
}

void onLaunchExit(Agent &A) {
  std::unique_ptr<InFlight> F = std::move(Current);
  if (!F)
    return;
  std::map<std::string, double> Values;
  std::string Error;
  bool Ok = !F->Profiler || F->Profiler->end(Values, Error);
  AUTOPROF_TRACE("end: %s", Ok ? "ok" : Error.c_str());
  if (F->Profiler)
    F->P.Record.Passes = F->Profiler->passes();
  // Activity records of the launch arrive once its buffers are flushed.
  cuptiActivityFlushAll(0);
  A.Profiling.unlock();

  std::lock_guard<std::mutex> G(A.Lock);
  if (!Ok) {
    addError(A, "kernel " + F->P.Record.Kernel + ": " + Error);
    writeProfile(A);
    return;
  }
  std::map<std::string, double> Launch = launchMetrics(F->Launch, F->Device);
  for (const std::string &M : F->P.Collect) {
    if (isLaunchMetric(M)) {
      auto It = Launch.find(M);
      if (It != Launch.end())
        Values[M] = It->second;
    }
  }
  for (const std::string &M : F->P.Collect) {
    auto It = Values.find(M);
    if (It != Values.end())
      F->P.Record.set(M, It->second, "");
  }
  // The range profiler replays the launch and its activity record has no
  // timestamps; the profiled duration is then the range profiler's own.
  auto D = A.Durations.find(F->Correlation);
  if (D != A.Durations.end())
    F->P.Record.DurationNs = D->second;
  else if (auto T = Values.find("gpu__time_duration.sum"); T != Values.end())
    F->P.Record.DurationNs = T->second;
  else
    A.Unmatched.push_back({A.Out.Records.size(), F->Correlation});

  A.Planner->completed(F->P, Values);
  AUTOPROF_TRACE("record %zu written, leaf '%s'", A.Out.Records.size(),
                 F->P.Record.Leaf.c_str());
  A.Out.Records.push_back(std::move(F->P.Record));
  writeProfile(A);
}

void CUPTIAPI onCallback(void *, CUpti_CallbackDomain Domain,
                         CUpti_CallbackId Id, const void *Data) {
  Agent *A = TheAgent;
  if (!A)
    return;
  if (Domain == CUPTI_CB_DOMAIN_RESOURCE) {
    if (Id == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      auto *R = static_cast<const CUpti_ResourceData *>(Data);
      std::lock_guard<std::mutex> G(A->Lock);
      auto It = A->Profilers.find(R->context);
      if (It != A->Profilers.end()) {
        It->second->disable();
        A->Profilers.erase(It);
      }
      A->Flushers.erase(R->context);
    }
    return;
  }
  if (Domain != CUPTI_CB_DOMAIN_DRIVER_API || InAgentLaunch)
    return;
  auto *Cb = static_cast<const CUpti_CallbackData *>(Data);
  if (Cb->callbackSite == CUPTI_API_EXIT) {
    onLaunchExit(*A);
    return;
  }
  LaunchConfig L;
  switch (Id) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
    auto *P = static_cast<const cuLaunchKernel_params *>(Cb->functionParams);
    L = {P->f,
         {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ},
         P->sharedMemBytes,
         P->hStream};
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
    auto *P = static_cast<const cuLaunchCooperativeKernel_params *>(
        Cb->functionParams);
    L = {P->f,
         {P->gridDimX, P->gridDimY, P->gridDimZ},
         {P->blockDimX, P->blockDimY, P->blockDimZ},
         P->sharedMemBytes,
         P->hStream};
    break;
  }
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    auto *P = static_cast<const cuLaunchKernelEx_params *>(Cb->functionParams);
    const CUlaunchConfig *C = P->config;
    L = {P->f,
         {C->gridDimX, C->gridDimY, C->gridDimZ},
         {C->blockDimX, C->blockDimY, C->blockDimZ},
         C->sharedMemBytes,
         C->hStream};
    break;
  }
  default:
    return;
  }
  onLaunchEnter(*A, Cb, L);
}

void finish() {
  Agent *A = TheAgent;
  if (!A)
    return;
  cuptiActivityFlushAll(1);
  std::lock_guard<std::mutex> G(A->Lock);
  // Durations that arrived after their record was written.
  for (auto [Index, Correlation] : A->Unmatched) {
    auto D = A->Durations.find(Correlation);
    if (D != A->Durations.end())
      A->Out.Records[Index].DurationNs = D->second;
  }
  writeProfile(*A);
}

} // namespace

extern "C" __attribute__((visibility("default"))) int
InitializeInjection(void) {
  if (TheAgent)
    return 1;
  if (const char *Measure = std::getenv("AUTOPROF_MEASURE_CONFIG")) {
    startMeasuring(Measure);
    return 1;
  }
  const char *ConfigPath = std::getenv("AUTOPROF_PROFILE_CONFIG");
  if (!ConfigPath)
    return 1; // Loaded without the tool: do nothing.
  const char *T = std::getenv("AUTOPROF_INJECT_TRACE");
  Trace = T && *T && std::string(T) != "0";
  auto A = std::make_unique<Agent>();
  std::string Error;
  if (!loadAgentConfig(ConfigPath, A->Config, Error)) {
    std::fprintf(stderr, "clang-autoprof: error: %s\n", Error.c_str());
    return 1;
  }
  if (A->Config.Tree)
    A->Out.Tree = A->Config.Tree->Name;
  auto Fail = [&](const char *What, CUptiResult R) {
    addError(*A, std::string(What) + ": " + describeCuptiError(R));
    writeProfile(*A);
    return 1;
  };
  if (CUptiResult R = cuptiSubscribe(&A->Subscriber, onCallback, nullptr))
    return Fail("cannot subscribe to CUPTI callbacks", R);
  if (CUptiResult R = enableLaunchCallbacks(A->Subscriber))
    return Fail("cannot enable the launch callbacks", R);
  cuptiEnableCallback(1, A->Subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                      CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  if (CUptiResult R = cuptiActivityRegisterCallbacks(allocateActivityBuffer,
                                                     bufferCompleted))
    return Fail("cannot register CUPTI activity buffers", R);
  if (CUptiResult R =
          cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL))
    return Fail("cannot enable kernel activity records", R);
  A->Planner = std::make_unique<LaunchPlanner>(A->Config);
  TheAgent = A.release();
  writeProfile(*TheAgent);
  std::atexit(finish);
  return 1;
}
