//===- IndependentThreads.cpp - Kernels whose threads never meet ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "IndependentThreads.h"

using namespace autoprof;

bool autoprof::hasIndependentThreads(const KernelRecord &K) {
  auto Zero = [&](const char *F) { return K.Features.get(F).value_or(0) == 0; };
  return K.Template != TemplateKind::Primary && Zero("shared_arrays") &&
         Zero("syncthreads") && Zero("warp_shuffles") && Zero("warp_votes") &&
         Zero("uses_cooperative_groups");
}
