//===- RangeProfiler.cpp - One kernel launch under the range profiler -----===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "RangeProfiler.h"

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <cmath>
#include <cstring>

using namespace autoprof::inject;

namespace {

template <typename T> T zeroed(size_t Size) {
  T P;
  std::memset(&P, 0, sizeof(P));
  P.structSize = Size;
  return P;
}

bool check(CUptiResult R, const char *What, std::string &Error) {
  if (R == CUPTI_SUCCESS)
    return true;
  Error = std::string(What) + ": " + describeCuptiError(R);
  return false;
}

} // namespace

std::string autoprof::inject::describeCuptiError(CUptiResult R) {
  const char *S = nullptr;
  std::string Text = cuptiGetResultString(R, &S) == CUPTI_SUCCESS && S
                         ? S
                         : "CUPTI error " + std::to_string(int(R));
  if (R == CUPTI_ERROR_HARDWARE_BUSY)
    Text += " (another profiler, such as ncu or a second clang-autoprof, "
            "holds the GPU's performance counters)";
  if (R == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    Text += " (GPU performance counters are restricted to administrators: "
            "run as root, or load the nvidia module with "
            "NVreg_RestrictProfilingToAdminUsers=0; see "
            "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  return Text;
}

RangeProfiler::~RangeProfiler() {
  if (Host) {
    auto P = zeroed<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    P.pHostObject = Host;
    cuptiProfilerHostDeinitialize(&P);
  }
  // The range profiler object goes with its context.
}

void RangeProfiler::disable() {
  if (!Object)
    return;
  auto P = zeroed<CUpti_RangeProfiler_Disable_Params>(
      CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  P.pRangeProfilerObject = Object;
  cuptiRangeProfilerDisable(&P);
  Object = nullptr;
}

bool RangeProfiler::enable(CUcontext Ctx, int Device, std::string &Error) {
  auto Init = zeroed<CUpti_Profiler_Initialize_Params>(
      CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (!check(cuptiProfilerInitialize(&Init), "cuptiProfilerInitialize", Error))
    return false;
  auto Name = zeroed<CUpti_Device_GetChipName_Params>(
      CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  Name.deviceIndex = Device;
  if (!check(cuptiDeviceGetChipName(&Name), "cuptiDeviceGetChipName", Error))
    return false;
  Chip = Name.pChipName;
  this->Ctx = Ctx;

  auto Enable = zeroed<CUpti_RangeProfiler_Enable_Params>(
      CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  Enable.ctx = Ctx;
  if (!check(cuptiRangeProfilerEnable(&Enable),
             "cannot enable the range "
             "profiler",
             Error))
    return false;
  Object = Enable.pRangeProfilerObject;

  auto Avail = zeroed<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  Avail.ctx = Ctx;
  if (!check(cuptiProfilerGetCounterAvailability(&Avail),
             "cannot read counter availability", Error))
    return false;
  Availability.resize(Avail.counterAvailabilityImageSize);
  Avail.pCounterAvailabilityImage = Availability.data();
  if (!check(cuptiProfilerGetCounterAvailability(&Avail),
             "cannot read counter availability", Error))
    return false;
  return true;
}

bool RangeProfiler::configure(const std::vector<std::string> &Ms,
                              std::string &Error) {
  if (Ms == Metrics && !ConfigImage.empty())
    return true;
  // A range profiler object keeps the configuration and the counter data of
  // its first SetConfig; a new metric set gets a new object.
  if (!ConfigImage.empty()) {
    disable();
    auto Enable = zeroed<CUpti_RangeProfiler_Enable_Params>(
        CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
    Enable.ctx = Ctx;
    if (!check(cuptiRangeProfilerEnable(&Enable),
               "cannot enable the range profiler", Error))
      return false;
    Object = Enable.pRangeProfilerObject;
  }
  // A rejected metric spoils a host object, so each set gets a fresh one.
  if (Host) {
    auto D = zeroed<CUpti_Profiler_Host_Deinitialize_Params>(
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    D.pHostObject = Host;
    cuptiProfilerHostDeinitialize(&D);
    Host = nullptr;
  }
  auto HI = zeroed<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  HI.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  HI.pChipName = Chip.c_str();
  HI.pCounterAvailabilityImage = Availability.data();
  if (!check(cuptiProfilerHostInitialize(&HI), "cuptiProfilerHostInitialize",
             Error))
    return false;
  Host = HI.pHostObject;

  std::vector<const char *> Names;
  for (const std::string &M : Ms)
    Names.push_back(M.c_str());
  auto Add = zeroed<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  Add.pHostObject = Host;
  Add.ppMetricNames = Names.data();
  Add.numMetrics = Names.size();
  if (!check(cuptiProfilerHostConfigAddMetrics(&Add),
             "CUPTI rejected the metric set", Error))
    return false;
  auto Size = zeroed<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  Size.pHostObject = Host;
  if (!check(cuptiProfilerHostGetConfigImageSize(&Size),
             "cuptiProfilerHostGetConfigImageSize", Error))
    return false;
  ConfigImage.assign(Size.configImageSize, 0);
  auto Get = zeroed<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  Get.pHostObject = Host;
  Get.configImageSize = ConfigImage.size();
  Get.pConfigImage = ConfigImage.data();
  if (!check(cuptiProfilerHostGetConfigImage(&Get),
             "cuptiProfilerHostGetConfigImage", Error))
    return false;
  auto Num = zeroed<CUpti_Profiler_Host_GetNumOfPasses_Params>(
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE);
  Num.configImageSize = ConfigImage.size();
  Num.pConfigImage = ConfigImage.data();
  if (!check(cuptiProfilerHostGetNumOfPasses(&Num),
             "cuptiProfilerHostGetNumOfPasses", Error))
    return false;
  Passes = Num.numOfPasses;

  auto CDS = zeroed<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  CDS.pRangeProfilerObject = Object;
  CDS.pMetricNames = Names.data();
  CDS.numMetrics = Names.size();
  CDS.maxNumOfRanges = 1;
  CDS.maxNumRangeTreeNodes = 1;
  if (!check(cuptiRangeProfilerGetCounterDataSize(&CDS),
             "cuptiRangeProfilerGetCounterDataSize", Error))
    return false;
  CounterData.assign(CDS.counterDataSize, 0);
  Metrics = Ms;
  return true;
}

bool RangeProfiler::begin(const std::vector<std::string> &Ms,
                          std::string &Error) {
  if (!configure(Ms, Error))
    return false;
  auto CDI = zeroed<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  CDI.pRangeProfilerObject = Object;
  CDI.counterDataSize = CounterData.size();
  CDI.pCounterData = CounterData.data();
  if (!check(cuptiRangeProfilerCounterDataImageInitialize(&CDI),
             "cuptiRangeProfilerCounterDataImageInitialize", Error))
    return false;
  auto SC = zeroed<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  SC.pRangeProfilerObject = Object;
  SC.configSize = ConfigImage.size();
  SC.pConfig = ConfigImage.data();
  SC.counterDataImageSize = CounterData.size();
  SC.pCounterDataImage = CounterData.data();
  SC.range = CUPTI_AutoRange;
  SC.replayMode = CUPTI_KernelReplay;
  SC.maxRangesPerPass = 1;
  SC.numNestingLevels = 1;
  SC.minNestingLevel = 1;
  SC.passIndex = 0;
  SC.targetNestingLevel = 1;
  if (!check(cuptiRangeProfilerSetConfig(&SC), "cuptiRangeProfilerSetConfig",
             Error))
    return false;
  auto Start = zeroed<CUpti_RangeProfiler_Start_Params>(
      CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  Start.pRangeProfilerObject = Object;
  return check(cuptiRangeProfilerStart(&Start), "cuptiRangeProfilerStart",
               Error);
}

bool RangeProfiler::end(std::map<std::string, double> &Values,
                        std::string &Error) {
  auto Stop = zeroed<CUpti_RangeProfiler_Stop_Params>(
      CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  Stop.pRangeProfilerObject = Object;
  if (!check(cuptiRangeProfilerStop(&Stop), "cuptiRangeProfilerStop", Error))
    return false;
  auto Decode = zeroed<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  Decode.pRangeProfilerObject = Object;
  if (!check(cuptiRangeProfilerDecodeData(&Decode),
             "cuptiRangeProfilerDecodeData", Error))
    return false;
  auto Info = zeroed<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  Info.pCounterDataImage = CounterData.data();
  Info.counterDataImageSize = CounterData.size();
  if (!check(cuptiRangeProfilerGetCounterDataInfo(&Info),
             "cuptiRangeProfilerGetCounterDataInfo", Error))
    return false;
  if (Info.numTotalRanges < 1) {
    Error = "the range profiler recorded no range for the launch";
    return false;
  }
  std::vector<const char *> Names;
  for (const std::string &M : Metrics)
    Names.push_back(M.c_str());
  std::vector<double> Out(Names.size(), NAN);
  auto Eval = zeroed<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  Eval.pHostObject = Host;
  Eval.pCounterDataImage = CounterData.data();
  Eval.counterDataImageSize = CounterData.size();
  Eval.rangeIndex = 0;
  Eval.ppMetricNames = Names.data();
  Eval.numMetrics = Names.size();
  Eval.pMetricValues = Out.data();
  if (!check(cuptiProfilerHostEvaluateToGpuValues(&Eval),
             "cuptiProfilerHostEvaluateToGpuValues", Error))
    return false;
  for (size_t I = 0; I < Metrics.size(); ++I)
    Values[Metrics[I]] = Out[I];
  return true;
}
