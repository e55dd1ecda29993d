//===- LaunchAttributes.cpp - Launch metrics from the driver --------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchAttributes.h"

#include <algorithm>
#include <cmath>

using namespace autoprof::inject;

bool autoprof::inject::isLaunchMetric(const std::string &Metric) {
  return Metric.rfind("launch__", 0) == 0 ||
         Metric == "sm__maximum_warps_per_active_cycle_pct";
}

namespace {

int deviceAttribute(CUdevice D, CUdevice_attribute A) {
  int V = 0;
  cuDeviceGetAttribute(&V, A, D);
  return V;
}

int functionAttribute(CUfunction F, CUfunction_attribute A) {
  int V = 0;
  cuFuncGetAttribute(&V, A, F);
  return V;
}

/// The runtime launches through library kernels (CUkernel), which the
/// driver's launch functions accept in place of a CUfunction; attributes and
/// occupancy need the function of the current context.
CUfunction resolveFunction(CUfunction F) {
  int V = 0;
  if (cuFuncGetAttribute(&V, CU_FUNC_ATTRIBUTE_NUM_REGS, F) == CUDA_SUCCESS)
    return F;
  CUfunction G = nullptr;
  if (cuKernelGetFunction(&G, reinterpret_cast<CUkernel>(F)) == CUDA_SUCCESS)
    return G;
  return F;
}

unsigned roundUp(unsigned X, unsigned To) {
  return To ? (X + To - 1) / To * To : X;
}

} // namespace

std::map<std::string, double>
autoprof::inject::launchMetrics(const LaunchConfig &L, CUdevice Device) {
  std::map<std::string, double> M;
  double Blocks = double(L.Grid[0]) * L.Grid[1] * L.Grid[2];
  unsigned Threads = L.Block[0] * L.Block[1] * L.Block[2];
  M["launch__grid_size"] = Blocks;
  M["launch__block_size"] = Threads;
  M["launch__shared_mem_per_block_dynamic"] = L.DynamicSharedMem;
  if (!L.Function)
    return M;
  CUfunction Fn = resolveFunction(L.Function);

  int Regs = functionAttribute(Fn, CU_FUNC_ATTRIBUTE_NUM_REGS);
  int Static = functionAttribute(Fn, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
  // Nsight Compute reports at least 16 registers per thread (measured on
  // the H200: 10, 12 and 14 read 16; 18 and 20 read as they are).
  M["launch__registers_per_thread"] = std::max(Regs, 16);
  M["launch__shared_mem_per_block_static"] = Static;

  int WarpSize = deviceAttribute(Device, CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  int MaxThreadsSM = deviceAttribute(
      Device, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
  int MaxBlocksSM = deviceAttribute(
      Device, CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
  int RegsSM = deviceAttribute(
      Device, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
  int SharedSM = deviceAttribute(
      Device, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
  int Reserved = deviceAttribute(
      Device, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
  int SMs = deviceAttribute(Device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  if (WarpSize <= 0 || Threads == 0)
    return M;
  unsigned WarpsPerBlock = (Threads + WarpSize - 1) / WarpSize;
  unsigned MaxWarpsSM = MaxThreadsSM / WarpSize;

  // Limits as the CUDA occupancy calculator computes them: registers are
  // allocated per warp in units of 256, shared memory per block in units of
  // 128 bytes plus the per-block reservation.
  M["launch__occupancy_limit_blocks"] = MaxBlocksSM;
  M["launch__occupancy_limit_warps"] = MaxWarpsSM / WarpsPerBlock;
  if (Regs > 0) {
    unsigned RegsPerWarp = roundUp(unsigned(Regs) * WarpSize, 256);
    unsigned WarpsByRegs = RegsSM / RegsPerWarp;
    M["launch__occupancy_limit_registers"] = WarpsByRegs / WarpsPerBlock;
  } else {
    M["launch__occupancy_limit_registers"] = MaxBlocksSM;
  }
  unsigned SharedPerBlock = roundUp(Static + L.DynamicSharedMem, 128);
  if (SharedPerBlock > 0)
    M["launch__occupancy_limit_shared_mem"] =
        unsigned(SharedSM) / (SharedPerBlock + Reserved);
  else
    M["launch__occupancy_limit_shared_mem"] = MaxBlocksSM;

  int Active = 0;
  if (cuOccupancyMaxActiveBlocksPerMultiprocessor(
          &Active, Fn, int(Threads), L.DynamicSharedMem) != CUDA_SUCCESS)
    return M;
  M["sm__maximum_warps_per_active_cycle_pct"] =
      100.0 * std::min<double>(double(Active) * WarpsPerBlock, MaxWarpsSM) /
      MaxWarpsSM;
  if (Active > 0 && SMs > 0)
    M["launch__waves_per_multiprocessor"] = Blocks / (double(Active) * SMs);
  return M;
}
