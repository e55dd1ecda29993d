//===- UncoalescedAccess.cpp - autoprof-uncoalesced-access ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccess.h"

using namespace autoprof;

llvm::StringRef UncoalescedAccessCheck::summary() const {
  return "strided or uncoalesced global memory access in a loop";
}

void UncoalescedAccessCheck::check(const KernelContext &K,
                                   FindingSink &Out) const {
  for (const MemoryAccess &A : K.Facts.Accesses) {
    if (A.Where != MemoryAccess::Space::Global || !A.InLoop ||
        A.Class != AccessClass::Strided)
      continue;
    std::string How = "an unknown stride apart";
    if (A.Offset && A.Offset->Stride)
      How = std::to_string(*A.Offset->Stride) + " elements apart";
    Out.report(*this, A.Loc,
               llvm::Twine("uncoalesced global ") +
                   (A.Store && !A.Load ? "store" : "load") +
                   " in a loop: consecutive threads access elements " + How);
  }
}
