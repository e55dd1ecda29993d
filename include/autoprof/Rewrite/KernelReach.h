//===- KernelReach.h - What a kernel reaches outside itself -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// What a kernel definition can reach besides its parameters and locals:
/// variables of namespace or class scope (`__device__`, `__managed__`,
/// `__constant__`), and whether it may write them; function-scope `static`
/// variables; calls whose code is not visible (declared only, through a
/// pointer), inline assembly and kernel launches. Calls to functions defined
/// in the translation unit are followed, so a helper that writes a global is
/// seen. A candidate kernel (a model's reply) must reach nothing that the
/// original does not: no state kept across launches, no memory written
/// outside its pointer arguments (docs/llm.md, the reply contract).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_KERNELREACH_H
#define AUTOPROF_REWRITE_KERNELREACH_H

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace autoprof {

/// What one kernel definition reaches.
struct KernelReach {
  /// Variables outside the kernel (and the functions it calls), by
  /// qualified name: whether the kernel may write one (false: only read).
  std::map<std::string, bool> Globals;
  /// The subset of Globals whose type is const: read-only tables.
  std::set<std::string> ConstGlobals;
  /// What else it does that the source does not show: "calls `f`, whose
  /// definition is not visible", "calls a function through a pointer",
  /// "has inline assembly", "launches the kernel `k`".
  std::set<std::string> Opaque;
  /// Non-const `static` variables it declares (state kept across launches).
  std::vector<std::string> StaticLocals;
  /// Declarations other than the kernel in its range, as "kind `name`".
  std::vector<std::string> OtherDecls;
};

/// What the kernel defined in \p File (an absolute path) from byte \p Begin
/// to \p End of the translation unit in \p Ctx reaches; nullopt when no
/// kernel definition starts in that range.
std::optional<KernelReach> kernelReach(clang::ASTContext &Ctx,
                                       llvm::StringRef File, unsigned Begin,
                                       unsigned End);

/// What the kernel named \p QualifiedName reaches: its definition in the
/// translation unit (a template's pattern); nullopt when there is none.
/// OtherDecls stays empty.
std::optional<KernelReach> kernelReachByName(clang::ASTContext &Ctx,
                                             llvm::StringRef QualifiedName);

/// Why \p After, a candidate's kernel, reaches more than \p Before, the
/// original: it declares anything besides the kernel, declares a non-const
/// `static` variable, refers to a non-const variable outside it that the
/// original does not, may write one that the original only reads, or does
/// an opaque thing the original does not. Nullopt when it does not. The
/// reason speaks of \p Who ("the reply's kernel").
std::optional<std::string>
reachProblem(const KernelReach &Before, const KernelReach &After,
             llvm::StringRef Who = "the reply's kernel");

} // namespace autoprof

#endif // AUTOPROF_REWRITE_KERNELREACH_H
