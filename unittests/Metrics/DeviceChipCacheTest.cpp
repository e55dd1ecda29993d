//===- DeviceChipCacheTest.cpp - Tests of the remembered device chips -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/DeviceChipCache.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace autoprof;

namespace {

void write(const llvm::Twine &Path, llvm::StringRef Text) {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Path.str(), EC);
  ASSERT_FALSE(EC) << EC.message();
  OS << Text;
}

/// A /proc/driver/nvidia with a version and two GPUs.
std::string fakeProc() {
  llvm::SmallString<128> Dir;
  EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("proc-nvidia", Dir));
  write(Dir + "/version",
        "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04\nGCC\n");
  for (const char *Bus : {"0000:1b:00.0", "0000:0a:00.0"}) {
    llvm::SmallString<128> G(Dir);
    llvm::sys::path::append(G, "gpus", Bus);
    EXPECT_FALSE(llvm::sys::fs::create_directories(G));
    write(G + "/information",
          std::string("Model: \t\t NVIDIA H200\nGPU UUID: \t GPU-") + Bus +
              "\nBus Location: \t " + Bus + "\n");
  }
  return std::string(Dir);
}

TEST(DeviceChipCacheTest, KeysByDriverAndSortedUUIDs) {
  unsetenv("CUDA_VISIBLE_DEVICES");
  std::string Proc = fakeProc();
  std::optional<std::string> Key = deviceKey(Proc);
  ASSERT_TRUE(Key);
  EXPECT_EQ(*Key, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  "
                  "580.159.04\nGPU-0000:0a:00.0\nGPU-0000:1b:00.0\n");
  // A subset of the devices: /proc cannot say which.
  setenv("CUDA_VISIBLE_DEVICES", "1", 1);
  EXPECT_FALSE(deviceKey(Proc));
  unsetenv("CUDA_VISIBLE_DEVICES");
  // No driver.
  EXPECT_FALSE(deviceKey(Proc + "/nothing"));
  llvm::sys::fs::remove_directories(Proc);
}

TEST(DeviceChipCacheTest, RemembersChipsUnderTheirKey) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("chip-cache", Dir));
  std::string File = (Dir + "/sub/device-chips.json").str();
  EXPECT_FALSE(cachedDeviceChips(File, "k1"));
  storeDeviceChips(File, "k1", {"GH100", "GH100"});
  auto Chips = cachedDeviceChips(File, "k1");
  ASSERT_TRUE(Chips);
  EXPECT_EQ(*Chips, (std::vector<std::string>{"GH100", "GH100"}));
  // Another machine's driver or GPUs: a miss.
  EXPECT_FALSE(cachedDeviceChips(File, "k2"));
  // A damaged file: a miss.
  write(File, "{\"key\": \"k1\", \"chips\": [");
  EXPECT_FALSE(cachedDeviceChips(File, "k1"));
  llvm::sys::fs::remove_directories(Dir);
}

TEST(DeviceChipCacheTest, LivesInTheUserCache) {
  const char *Home = std::getenv("HOME");
  std::string Saved = Home ? Home : "";
  setenv("XDG_CACHE_HOME", "/x/cache", 1);
  EXPECT_EQ(deviceChipCachePath(), "/x/cache/clang-autoprof/device-chips.json");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(deviceChipCachePath(),
            "/home/u/.cache/clang-autoprof/device-chips.json");
  if (Home)
    setenv("HOME", Saved.c_str(), 1);
  else
    unsetenv("HOME");
}

} // namespace
