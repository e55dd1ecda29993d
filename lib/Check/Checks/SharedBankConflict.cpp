//===- SharedBankConflict.cpp - autoprof-shared-bank-conflict -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "SharedBankConflict.h"

#include "autoprof/Rewrite/KernelEdits.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <set>

using namespace clang;
using namespace autoprof;

llvm::StringRef SharedBankConflictCheck::summary() const {
  return "column-wise access to a 2-D __shared__ array whose rows are a "
         "multiple of 32 4-byte elements";
}

llvm::StringRef SharedBankConflictCheck::help() const {
  return "Threads of a warp reading a column of a __shared__ array whose "
         "rows are a multiple of 32 words hit the same bank, and the "
         "accesses are serialised. Pad the inner dimension by one element "
         "(tile[32][33]), as the fix does, or swap the indices so that "
         "consecutive threads read consecutive words.";
}

void SharedBankConflictCheck::check(const KernelContext &K,
                                    FindingSink &Out) const {
  ASTContext &Ctx = K.Ctx;
  std::set<const VarDecl *> Fixed;
  for (const KernelFacts::RowAccess &R : K.Facts.BankConflicts) {
    const VarDecl *V = R.Array;
    const auto *Outer = Ctx.getAsConstantArrayType(V->getType());
    if (!Outer)
      continue;
    const auto *Inner = Ctx.getAsConstantArrayType(Outer->getElementType());
    if (!Inner || Inner->getElementType()->isArrayType() ||
        Inner->getElementType()->isDependentType() ||
        Ctx.getTypeSizeInChars(Inner->getElementType()).getQuantity() != 4)
      continue;
    uint64_t M = Inner->getSize().getZExtValue();
    if (M == 0 || M % 32 != 0)
      continue;
    tooling::Replacements Fix;
    // One fix per array, on its first finding; arrays declared elsewhere
    // (a device function) are not padded from here.
    if (Fixed.insert(V).second) {
      llvm::Expected<bool> Padded = padSharedTile(Ctx, K.Kernel, *V, Fix);
      if (!Padded)
        llvm::consumeError(Padded.takeError());
    }
    Out.report(*this, R.Loc,
               "__shared__ array '" + V->getName() + "' (" +
                   V->getType().getAsString(Ctx.getPrintingPolicy()) +
                   ") is indexed column-wise: the threads of a warp hit one "
                   "bank; pad its rows to " +
                   std::to_string(M + 1) + " elements",
               std::move(Fix));
  }
}
