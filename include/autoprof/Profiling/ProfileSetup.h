//===- ProfileSetup.h - What a profile request is filled from ---*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The parts of a ProfileRequest that `profile` and `optimize` read from
/// their inputs: a fixed metric list, a tree by name or path, a plan (its
/// tree and kernels, written by `plan --format=json`), the kernels of a
/// feature report, and the device check with the CUPTI host.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_PROFILING_PROFILESETUP_H
#define AUTOPROF_PROFILING_PROFILESETUP_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Metrics/ProfilerHost.h"
#include "autoprof/Profiling/ProfileProgram.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace autoprof {
namespace profiling {

/// The metrics of a comma-separated list, each once, in order; blanks and
/// empty names left out.
std::vector<std::string> parseMetricList(llvm::StringRef List);

/// Sets \p R's tree: \p NameOrPath (DefaultTreeName when empty) found
/// among \p ModelsDir's trees or as a file, and checked.
llvm::Error useTree(llvm::StringRef NameOrPath, llvm::StringRef ModelsDir,
                    ProfileRequest &R);

/// Sets \p R's tree and kernels from the plan file \p Path: its tree's file
/// where it still is, else the tree's name among \p ModelsDir's.
llvm::Error usePlan(llvm::StringRef Path, llvm::StringRef ModelsDir,
                    ProfileRequest &R);

/// Appends the kernels of \p Report that can launch (instantiations, not
/// primary templates), with their static features, to \p Out.
void addReportKernels(const FeatureReport &Report,
                      std::vector<StaticKernel> &Out);

/// Checks \p R against the GPUs \p Host sees (checkDevice()).
llvm::Error checkDeviceWith(ProfilerHost &Host, const ProfileRequest &R,
                            const MetricClasses &Classes);

} // namespace profiling
} // namespace autoprof

#endif // AUTOPROF_PROFILING_PROFILESETUP_H
