//===- LaunchCallbacks.cpp - CUPTI set-up shared by the agent's modes -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "LaunchCallbacks.h"

#include <algorithm>
#include <cstdlib>

using namespace autoprof;
using namespace autoprof::inject;

CUptiResult
autoprof::inject::enableLaunchCallbacks(CUpti_SubscriberHandle Subscriber) {
  for (CUpti_CallbackId Id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
    if (CUptiResult R =
            cuptiEnableCallback(1, Subscriber, CUPTI_CB_DOMAIN_DRIVER_API, Id))
      return R;
  return CUPTI_SUCCESS;
}

void CUPTIAPI autoprof::inject::allocateActivityBuffer(uint8_t **Buffer,
                                                       size_t *Size,
                                                       size_t *MaxRecords) {
  *Size = 1 << 20;
  *Buffer = static_cast<uint8_t *>(std::aligned_alloc(8, *Size));
  *MaxRecords = 0;
}

void autoprof::inject::addLine(std::vector<std::string> &Lines,
                               const std::string &Message) {
  if (std::find(Lines.begin(), Lines.end(), Message) == Lines.end())
    Lines.push_back(Message);
}
