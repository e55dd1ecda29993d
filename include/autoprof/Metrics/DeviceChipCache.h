//===- DeviceChipCache.h - Remembering the chips of this machine -*- C++ -*-//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finding the chip of each GPU needs the CUDA driver started, which costs
/// a fraction of a second on every `profile` run. The chips of a machine
/// change only with its GPUs or its driver, so they are remembered in a
/// small file keyed by the driver version and the GPUs' UUIDs, which the
/// driver lists under /proc without being started.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_METRICS_DEVICECHIPCACHE_H
#define AUTOPROF_METRICS_DEVICECHIPCACHE_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// The key of this machine's GPUs: the driver's version line and every
/// GPU's UUID (sorted), read from \p ProcDir. Nullopt when they cannot be
/// read, when no GPU is listed, or when CUDA_VISIBLE_DEVICES is set (the
/// visible devices are then a subset, in an order /proc does not tell).
std::optional<std::string>
deviceKey(llvm::StringRef ProcDir = "/proc/driver/nvidia");

/// The file the chips are remembered in:
/// $XDG_CACHE_HOME/clang-autoprof/device-chips.json, else
/// $HOME/.cache/...; empty when neither is set.
std::string deviceChipCachePath();

/// The chips remembered under \p Key in \p File, or nullopt.
std::optional<std::vector<std::string>> cachedDeviceChips(llvm::StringRef File,
                                                          llvm::StringRef Key);

/// Remembers \p Chips under \p Key in \p File (replaced atomically). A
/// failure to write is ignored: the cache only saves time.
void storeDeviceChips(llvm::StringRef File, llvm::StringRef Key,
                      const std::vector<std::string> &Chips);

} // namespace autoprof

#endif // AUTOPROF_METRICS_DEVICECHIPCACHE_H
