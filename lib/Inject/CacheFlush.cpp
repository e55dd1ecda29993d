//===- CacheFlush.cpp - Flushing the L2 cache before a launch -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "CacheFlush.h"

using namespace autoprof::inject;

namespace {

/// Each thread reads 32-bit words of the buffer in steps of the grid's
/// size, through L2 only (ld.global.cg), and stores their xor in the
/// buffer's first word when it equals a value the buffer is never filled
/// with on purpose: the loads cannot be dropped.
const char FlushPTX[] = R"(
.version 7.0
.target sm_70
.address_size 64

.visible .entry autoprof_flush_l2(.param .u64 buf, .param .u64 words)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;

  ld.param.u64 %rd1, [buf];
  ld.param.u64 %rd2, [words];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd4, %r1, %r2;
  cvt.u64.u32 %rd5, %r3;
  add.u64 %rd6, %rd4, %rd5;
  mul.wide.u32 %rd7, %r4, %r2;
  mov.u32 %r5, 0;
$Lloop:
  setp.ge.u64 %p1, %rd6, %rd2;
  @%p1 bra.uni $Ldone;
  shl.b64 %rd8, %rd6, 2;
  add.u64 %rd9, %rd1, %rd8;
  ld.global.cg.u32 %r6, [%rd9];
  xor.b32 %r5, %r5, %r6;
  add.u64 %rd6, %rd6, %rd7;
  bra.uni $Lloop;
$Ldone:
  setp.ne.u32 %p2, %r5, 1540483477;
  @%p2 bra.uni $Lend;
  st.global.u32 [%rd1], %r5;
$Lend:
  ret;
}
)";

std::string describe(const char *What, CUresult R) {
  const char *Name = nullptr;
  cuGetErrorName(R, &Name);
  return std::string("cannot flush the L2 cache: ") + What + ": " +
         (Name ? Name : "unknown error");
}

} // namespace

bool CacheFlusher::prepare(CUcontext, CUdevice Dev, std::string &Error) {
  int L2 = 0, SMs = 0;
  if (CUresult R =
          cuDeviceGetAttribute(&L2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, Dev)) {
    Error = describe("cuDeviceGetAttribute", R);
    return false;
  }
  cuDeviceGetAttribute(&SMs, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev);
  if (CUresult R = cuModuleLoadData(&Module, FlushPTX)) {
    Error = describe("cuModuleLoadData", R);
    return false;
  }
  if (CUresult R = cuModuleGetFunction(&Kernel, Module, "autoprof_flush_l2")) {
    Error = describe("cuModuleGetFunction", R);
    return false;
  }
  // Twice the cache: what the replacement policy keeps of the program's
  // lines after one cache's worth of reads is gone after the second.
  size_t Bytes = 2 * size_t(L2 > 0 ? L2 : 1 << 20);
  if (CUresult R = cuMemAlloc(&Buffer, Bytes)) {
    Error = describe("cuMemAlloc", R) + " (use --cache-control=none)";
    return false;
  }
  Words = Bytes / 4;
  Blocks = unsigned(SMs > 0 ? SMs : 1) * 8;
  return true;
}

bool CacheFlusher::flush(CUstream Stream, std::string &Error) {
  // A launch being captured into a graph does not run now, and a kernel of
  // ours would join the graph: no flush.
  CUstreamCaptureStatus Capture = CU_STREAM_CAPTURE_STATUS_NONE;
  if (cuStreamIsCapturing(Stream, &Capture) == CUDA_SUCCESS &&
      Capture != CU_STREAM_CAPTURE_STATUS_NONE)
    return true;
  void *Args[] = {&Buffer, &Words};
  if (CUresult R = cuLaunchKernel(Kernel, Blocks, 1, 1, 256, 1, 1, 0, Stream,
                                  Args, nullptr)) {
    Error = describe("cuLaunchKernel", R);
    return false;
  }
  if (CUresult R = cuStreamSynchronize(Stream)) {
    Error = describe("cuStreamSynchronize", R);
    return false;
  }
  return true;
}
