//===- AtomicSameAddress.cpp - autoprof-atomic-same-address ---------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "AtomicSameAddress.h"

using namespace autoprof;

llvm::StringRef AtomicSameAddressCheck::summary() const {
  return "atomic to one global address, the same for every thread, inside "
         "a loop";
}

llvm::StringRef AtomicSameAddressCheck::help() const {
  return "Every thread of the grid updates the same address, so the updates "
         "are serialised in the memory system. Combine the values inside a "
         "warp first (__shfl_down_sync) or a block (a __shared__ "
         "accumulator), and issue one atomic per warp or block; for a "
         "histogram, keep a private copy per block in shared memory and "
         "merge it at the end.";
}

void AtomicSameAddressCheck::check(const KernelContext &K,
                                   FindingSink &Out) const {
  for (const MemoryAccess &A : K.Facts.Atomics) {
    if (!A.InLoop || A.Where != MemoryAccess::Space::Global || !A.Offset ||
        A.Offset->ThreadDependent || A.Offset->Indirect)
      continue;
    Out.report(*this, A.Loc,
               "atomic in a loop on a global address that does not depend on "
               "the thread: every thread serialises on it; accumulate in a "
               "register or shared memory and issue one atomic per block");
  }
}
