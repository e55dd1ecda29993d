//===- RunSafely.h - Recovering from crashes in Clang ----------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Runs one translation unit's work on a thread of its own with Clang's
/// stack size, inside LLVM's crash-recovery context, with the recovery
/// handlers running on an alternate signal stack: a stack overflow in
/// Clang's parser on deeply nested code (or any other crash) ends that
/// work, not the process.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_RUNSAFELY_H
#define AUTOPROF_TOOLING_RUNSAFELY_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace autoprof {

/// Runs \p Work as described above; returns false when it crashed. What
/// \p Work allocated before the crash is not freed.
bool runSafely(llvm::function_ref<void()> Work);

} // namespace autoprof

#endif // AUTOPROF_TOOLING_RUNSAFELY_H
