//===- CheckRegistry.cpp - The static checks and their selection ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckRegistry.h"

#include "Checks/AtomicSameAddress.h"
#include "Checks/DivergentSyncthreads.h"
#include "Checks/DoublePrecision.h"
#include "Checks/MissingBoundsCheck.h"
#include "Checks/MissingRestrict.h"
#include "Checks/NonconstDivmod.h"
#include "Checks/PerfRegression.h"
#include "Checks/SharedBankConflict.h"
#include "Checks/UncoalescedAccess.h"

using namespace autoprof;

const std::vector<const Check *> &CheckRegistry::all() {
  static const AtomicSameAddressCheck AtomicSameAddress;
  static const DivergentSyncthreadsCheck DivergentSyncthreads;
  static const DoublePrecisionCheck DoublePrecision;
  static const MissingBoundsCheckCheck MissingBoundsCheck;
  static const MissingRestrictCheck MissingRestrict;
  static const NonconstDivmodCheck NonconstDivmod;
  static const PerfRegressionCheck PerfRegression;
  static const SharedBankConflictCheck SharedBankConflict;
  static const UncoalescedAccessCheck UncoalescedAccess;
  static const std::vector<const Check *> All = {
      &AtomicSameAddress,  &DivergentSyncthreads, &DoublePrecision,
      &MissingBoundsCheck, &MissingRestrict,      &NonconstDivmod,
      &PerfRegression,     &SharedBankConflict,   &UncoalescedAccess};
  return All;
}

const Check *CheckRegistry::find(llvm::StringRef Name) {
  for (const Check *C : all())
    if (C->name() == Name)
      return C;
  return nullptr;
}

std::vector<std::string> CheckRegistry::names() {
  std::vector<std::string> Names;
  for (const Check *C : all())
    Names.push_back(C->name().str());
  return Names;
}

llvm::Expected<GlobList> GlobList::parse(llvm::StringRef Text) {
  GlobList L;
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Text.split(Parts, ',');
  for (llvm::StringRef P : Parts) {
    P = P.trim(" \t\r\n");
    if (P.empty())
      continue;
    Glob G;
    if (P.consume_front("-")) {
      G.Positive = false;
      P = P.trim(" \t\r\n");
    }
    if (P.empty())
      return llvm::createStringError("empty glob after '-' in '%s'",
                                     Text.str().c_str());
    G.Text = P.str();
    std::string Re = "^";
    for (char C : P) {
      if (C == '*')
        Re += ".*";
      else
        Re += llvm::Regex::escape(std::string(1, C));
    }
    Re += "$";
    G.Pattern = std::make_shared<llvm::Regex>(Re);
    L.Globs.push_back(std::move(G));
  }
  return L;
}

bool GlobList::contains(llvm::StringRef Name) const {
  for (auto It = Globs.rbegin(); It != Globs.rend(); ++It)
    if (It->Pattern->match(Name))
      return It->Positive;
  return false;
}

std::vector<std::string>
GlobList::unmatched(llvm::ArrayRef<std::string> Names) const {
  std::vector<std::string> Result;
  for (const Glob &G : Globs) {
    bool Any = false;
    for (const std::string &N : Names)
      Any |= G.Pattern->match(N);
    if (!Any)
      Result.push_back(G.Text);
  }
  return Result;
}
