//===- MissingRestrict.cpp - autoprof-missing-restrict --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "MissingRestrict.h"

#include "autoprof/Rewrite/KernelEdits.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

using namespace clang;
using namespace autoprof;

llvm::StringRef MissingRestrictCheck::summary() const {
  return "read-only pointer parameter without 'const __restrict__'";
}

llvm::StringRef MissingRestrictCheck::help() const {
  return "A pointer the kernel only reads through, declared const T "
         "*__restrict__, lets the compiler keep its loads in registers "
         "across stores and use the read-only data path. Apply the fix only "
         "when no launch passes memory that another pointer argument of the "
         "kernel also reaches: __restrict__ is a promise the compiler does "
         "not check.";
}

void MissingRestrictCheck::check(const KernelContext &K,
                                 FindingSink &Out) const {
  for (const ParmVarDecl *P : readOnlyPointerParams(K.Ctx, K.Kernel)) {
    tooling::Replacements Fix;
    if (llvm::Error E = addConstRestrict(K.Ctx, *P, Fix)) {
      llvm::consumeError(std::move(E));
      Fix = tooling::Replacements();
    }
    QualType Pointee = P->getType()->getPointeeType();
    Pointee.addConst();
    std::string Wanted =
        Pointee.getAsString(K.Ctx.getPrintingPolicy()) + " *__restrict__";
    Out.report(*this, P->getLocation(),
               "pointer parameter '" + P->getName() +
                   "' is only read through; declare it '" + Wanted + "'",
               std::move(Fix));
  }
}
