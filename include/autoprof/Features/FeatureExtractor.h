//===- FeatureExtractor.h - Static features of CUDA kernels -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Extracts the static features of every `__global__` kernel of a CUDA
/// translation unit, and its launch sites, from Clang's AST.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_FEATURES_FEATUREEXTRACTOR_H
#define AUTOPROF_FEATURES_FEATUREEXTRACTOR_H

#include "autoprof/Features/IndexForm.h"
#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Tooling/SourceDriver.h"

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class VarDecl;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

class KernelModel;

/// Decides whether a kernel is reported, given its name and qualified name;
/// an empty filter reports every kernel.
using KernelFilter =
    std::function<bool(const std::string &Name, const std::string &Qualified)>;

/// The filter of a `--kernel` pattern: the kernels whose name or qualified
/// name contains a match of \p Pattern, an ECMAScript regular expression
/// (the syntax the injection library compiles it with); every kernel for an
/// empty pattern. Fails with one line when \p Pattern is invalid.
llvm::Expected<KernelFilter> kernelNameFilter(const std::string &Pattern);

/// One memory access of a kernel (or of a device function it calls), as the
/// classifier saw it.
struct MemoryAccess {
  enum class Space { Global, Shared, Local, Constant };
  Space Where = Space::Global;
  bool Load = false;
  bool Store = false;
  bool InLoop = false;
  bool Vector = false;
  /// An atomic read-modify-write (recorded only in KernelFacts::Atomics).
  bool Atomic = false;
  /// From the kernel model's element index where it knows it (an access of
  /// the kernel's own body), else from the IndexForm of the offset; unset
  /// when neither could be traced.
  std::optional<AccessClass> Class;
  /// The distance in elements between the accesses of neighbouring threads
  /// of a warp, when Class is known and it is a constant.
  std::optional<int64_t> Stride;
  /// The element offset from the pointer's origin; unset when the pointer
  /// could not be traced.
  std::optional<IndexForm> Offset;
  unsigned Line = 0;
  unsigned Column = 0;
  /// Where the access is, in the file (not a macro expansion).
  clang::SourceLocation Loc;
};

/// What the analysis of one kernel saw, with source locations, for the
/// static checks: facts of the kernel's body and of the device functions it
/// calls (analysed with the forms of their arguments at each call).
struct KernelFacts {
  /// Every load and store, as MemoryAccess.
  std::vector<MemoryAccess> Accesses;
  /// The target of every atomic call (Atomic set, Load and Store set).
  std::vector<MemoryAccess> Atomics;
  /// The conditions of `if`, `switch`, `?:` and loops whose value may differ
  /// between the threads of a block.
  std::vector<const clang::Expr *> ThreadDependentConditions;
  /// One row subscript `a[i]` of a multi-dimensional `__shared__` array
  /// whose row index varies with threadIdx.x and whose rows are a multiple
  /// of 128 bytes long: the threads of a warp hit one bank.
  struct RowAccess {
    const clang::VarDecl *Array = nullptr;
    clang::SourceLocation Loc;
  };
  std::vector<RowAccess> BankConflicts;
};

/// Analyses the kernel \p Kernel (a function with a body) and returns its
/// record; \p Accesses, when given, receives every memory access found.
/// The global accesses of the kernel's own body are classified from the
/// kernel model \p Model of \p Kernel (built here when not given) where it
/// knows their index, and from their IndexForm elsewhere (accesses in the
/// device functions it calls, indices it does not see through).
KernelRecord analyzeKernel(const clang::FunctionDecl &Kernel,
                           clang::ASTContext &Ctx,
                           std::vector<MemoryAccess> *Accesses = nullptr,
                           const KernelModel *Model = nullptr);

/// Analyses \p Kernel like analyzeKernel and fills \p Facts.
KernelRecord analyzeKernel(const clang::FunctionDecl &Kernel,
                           clang::ASTContext &Ctx, KernelFacts &Facts,
                           const KernelModel *Model = nullptr);

/// Appends to \p Report the kernels accepted by \p Filter and every launch
/// site of the translation unit in \p Ctx, skipping those already present
/// (a header seen by several translation units). Kernels that contain one of
/// \p Errors (locations of compile errors) are skipped with a warning.
void extractFeatures(clang::ASTContext &Ctx, const KernelFilter &Filter,
                     FeatureReport &Report,
                     llvm::ArrayRef<clang::SourceLocation> Errors = {});

/// Appends to \p Into what \p From holds that \p Into does not, as if the
/// translation units of \p From had been extracted into \p Into after its
/// own: a parallel run merges its per-file reports in input order and gets
/// the serial run's report.
void mergeFeatureReport(FeatureReport &Into, FeatureReport &&From);

/// An action factory that runs extractFeatures on each translation unit.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newFeatureActionFactory(FeatureReport &Report, KernelFilter Filter);

/// The features of the kernels of \p Inputs that \p Filter accepts, into
/// \p Report: each input by its own action under \p S, the reports merged
/// in input order (the serial run's report whatever S.Jobs is). Returns
/// runSources()' status: 0, 1 (some inputs failed; the rest is in the
/// report) or 2 (nothing ran).
int extractSourceFeatures(const SourceSettings &S,
                          llvm::ArrayRef<std::string> Inputs,
                          const KernelFilter &Filter, FeatureReport &Report,
                          const SourceMessages &Messages,
                          SourceRunSummary *Summary = nullptr,
                          llvm::raw_ostream &Log = llvm::errs());

} // namespace autoprof

#endif // AUTOPROF_FEATURES_FEATUREEXTRACTOR_H
