//===- CacheFlush.h - Flushing the L2 cache before a launch -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `--cache-control=all`: before a profiled launch, the L2 cache of the
/// launch's device is emptied of the program's data, so that the kernel's
/// memory metrics do not depend on what ran before it (ncu's meaning).
///
/// The driver has no call that flushes the L2 cache, so a kernel (loaded
/// from PTX) reads a buffer twice the cache's size on the launch's stream.
/// Reading leaves no dirty line of the buffer behind: the lines it leaves
/// are clean, and the profiled kernel evicts them without writing DRAM,
/// while the program's own dirty lines are written back during the flush,
/// not during the profiled launch. L1 holds no data across launches.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_CACHEFLUSH_H
#define AUTOPROF_INJECT_CACHEFLUSH_H

#include <cuda.h>

#include <string>

namespace autoprof {
namespace inject {

/// Flushes the L2 cache of one context's device.
class CacheFlusher {
public:
  /// Prepares the flush on \p Ctx, the current context, of device \p Dev:
  /// the PTX kernel and the buffer. Returns false with a message.
  bool prepare(CUcontext Ctx, CUdevice Dev, std::string &Error);
  /// Runs the flush on \p Stream and waits for it; nothing on a stream that
  /// is being captured into a graph. The launch goes through the driver's
  /// callbacks: the caller ignores them meanwhile.
  bool flush(CUstream Stream, std::string &Error);

private:
  CUmodule Module = nullptr;
  CUfunction Kernel = nullptr;
  CUdeviceptr Buffer = 0;
  unsigned long long Words = 0;
  unsigned Blocks = 0;
};

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_CACHEFLUSH_H
