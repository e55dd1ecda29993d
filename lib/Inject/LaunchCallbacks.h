//===- LaunchCallbacks.h - CUPTI set-up of both agent modes --*- C++ -*-===//
//-*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What both modes of the injection library (profiling and measuring) ask
/// of CUPTI: the driver's kernel-launch callbacks and activity buffers.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_INJECT_LAUNCHCALLBACKS_H
#define AUTOPROF_INJECT_LAUNCHCALLBACKS_H

#include <cupti.h>

#include <string>
#include <vector>

namespace autoprof {
namespace inject {

/// Enables, on \p Subscriber, the driver callbacks of every kind of kernel
/// launch (cuLaunchKernel, cuLaunchCooperativeKernel, cuLaunchKernelEx and
/// their per-thread-stream forms).
CUptiResult enableLaunchCallbacks(CUpti_SubscriberHandle Subscriber);

/// CUPTI's request for an activity buffer: 1 MiB, freed by the completion
/// callback with std::free.
void CUPTIAPI allocateActivityBuffer(uint8_t **Buffer, size_t *Size,
                                     size_t *MaxRecords);

/// Appends \p Message to \p Lines unless it is there already.
void addLine(std::vector<std::string> &Lines, const std::string &Message);

} // namespace inject
} // namespace autoprof

#endif // AUTOPROF_INJECT_LAUNCHCALLBACKS_H
