//===- UncoalescedAccess.cpp - autoprof-uncoalesced-access ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "UncoalescedAccess.h"

#include "autoprof/KernelModel/KernelModel.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceManager.h"

using namespace autoprof;

namespace {

/// The stride in threadIdx.x of the access at \p Loc as the kernel model
/// sees it, when it is a value of the kernel's parameters and constants
/// that is not a constant (`cols`), as text.
std::optional<std::string> symbolicStride(const KernelContext &K,
                                          clang::SourceLocation Loc) {
  const clang::SourceManager &SM = K.Ctx.getSourceManager();
  for (const ModelAccess &MA : K.Model.accesses()) {
    if (!MA.Index || SM.getFileLoc(MA.E->getBeginLoc()) != Loc)
      continue;
    std::optional<Polynomial> C = MA.Index->coefficient(Symbol::threadIdx(0));
    if (!C || C->isZero() || C->constantValue() ||
        C->dependsOn(
            [](const Symbol &S) { return !S.isParameter() && !S.isBuiltin(); }))
      return std::nullopt;
    return C->str();
  }
  return std::nullopt;
}

} // namespace

llvm::StringRef UncoalescedAccessCheck::summary() const {
  return "strided or uncoalesced global memory access in a loop";
}

llvm::StringRef UncoalescedAccessCheck::help() const {
  return "Consecutive threads of a warp access elements that are far apart, "
         "so each warp access takes up to 32 memory transactions instead of "
         "one to four. Give a row to a warp or a block and let its threads "
         "stride over the columns, store the data transposed, or stage a "
         "tile through shared memory and read it from there.";
}

void UncoalescedAccessCheck::check(const KernelContext &K,
                                   FindingSink &Out) const {
  for (const MemoryAccess &A : K.Facts.Accesses) {
    if (A.Where != MemoryAccess::Space::Global || !A.InLoop ||
        A.Class != AccessClass::Strided)
      continue;
    std::string How = "an unknown stride apart";
    if (A.Stride)
      How = std::to_string(*A.Stride) + " elements apart";
    else if (std::optional<std::string> S = symbolicStride(K, A.Loc))
      How = "`" + *S + "` elements apart";
    Out.report(*this, A.Loc,
               llvm::Twine("uncoalesced global ") +
                   (A.Store && !A.Load ? "store" : "load") +
                   " in a loop: consecutive threads access elements " + How);
  }
}
