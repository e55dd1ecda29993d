//===- CudaCommand.h - Compile commands for Clang's CUDA front end -*- C++ -*-//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Turns a compile command, as found in compile_commands.json or after `--`,
/// into one that Clang parses as CUDA device code: nvcc's own flags are
/// translated to Clang's or dropped, and the CUDA flags that are missing are
/// added.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_CUDACOMMAND_H
#define AUTOPROF_TOOLING_CUDACOMMAND_H

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <string>
#include <vector>

namespace autoprof {

/// Settings that apply when the compile command does not give its own.
struct CudaSettings {
  /// The CUDA installation (`--cuda-path`).
  std::string CudaPath;
  /// The GPU architecture when the command names none (`sm_90`).
  std::string GpuArch = "sm_90";
};

/// The result of adjusting one command.
struct AdjustedCommand {
  std::vector<std::string> Args;
  /// Arguments that were dropped because neither nvcc's translation table
  /// nor Clang's driver knows them.
  std::vector<std::string> Dropped;
};

/// Rewrites \p Args (argv[0] first, as in a compilation database) for
/// Clang's CUDA device-side front end.
///
/// Translated: `-arch`/`--gpu-architecture`/`-gencode`/`--generate-code`
/// (the first GPU architecture becomes `--cuda-gpu-arch`), `-rdc=true` and
/// `-dc` (`-fgpu-rdc`), `--use_fast_math` (`-ffast-math
/// -fgpu-approx-transcendentals`), `-Xcompiler`/`--compiler-options` (their
/// comma-separated host flags), `--default-stream`, nvcc's long forms of
/// `-I`, `-D`, `-U`, `-include`, `-isystem`, `-std`, and `-x cu`. Dropped:
/// nvcc's flags for PTX, linking, diagnostics and code generation.
/// Added when absent: `-x cuda`, `--cuda-path`, `--cuda-gpu-arch`,
/// `--cuda-device-only`, `-fgpu-defer-diag` (host code that the device
/// compilation never emits is not held to device rules),
/// `-Wno-unknown-cuda-version`. An nvcc executable in
/// argv[0] is replaced by `clang++`.
AdjustedCommand adjustCudaCommand(const std::vector<std::string> &Args,
                                  const CudaSettings &Settings);

/// An adjuster for ClangTool that applies adjustCudaCommand. Dropped
/// arguments are reported once each through \p Warn.
clang::tooling::ArgumentsAdjuster
getCudaArgumentsAdjuster(CudaSettings Settings,
                         std::function<void(const std::string &)> Warn);

/// The CUDA installation to use when none is given: $CUDA_PATH, $CUDA_HOME,
/// the toolkit found at build time, then /usr/local/cuda.
std::string defaultCudaPath();

} // namespace autoprof

#endif // AUTOPROF_TOOLING_CUDACOMMAND_H
