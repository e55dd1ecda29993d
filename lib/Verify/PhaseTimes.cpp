//===- PhaseTimes.cpp - Where the time of a verification goes -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/PhaseTimes.h"

using namespace llvm;
using namespace autoprof::verify;

Expected<ChildResult> TimingRunner::run(const ChildOptions &O) {
  Expected<ChildResult> R = Inner.run(O);
  if (!R)
    return R;
  PhaseTime &T = Times[O.Phase.empty() ? "other" : O.Phase];
  ++T.Count;
  T.Seconds += R->WallSeconds;
  T.LockWaitSeconds += R->LockWaitSeconds;
  return R;
}
