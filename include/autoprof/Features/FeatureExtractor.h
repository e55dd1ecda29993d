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

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class FunctionDecl;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

/// Decides whether a kernel is reported, given its name and qualified name.
using KernelFilter =
    std::function<bool(const std::string &Name, const std::string &Qualified)>;

/// One memory access of a kernel (or of a device function it calls), as the
/// classifier saw it.
struct MemoryAccess {
  enum class Space { Global, Shared, Local, Constant };
  Space Where = Space::Global;
  bool Load = false;
  bool Store = false;
  bool InLoop = false;
  bool Vector = false;
  /// Unset when the pointer could not be traced to its origin.
  std::optional<AccessClass> Class;
  unsigned Line = 0;
  unsigned Column = 0;
};

/// Analyses the kernel \p Kernel (a function with a body) and returns its
/// record; \p Accesses, when given, receives every memory access found.
KernelRecord analyzeKernel(const clang::FunctionDecl &Kernel,
                           clang::ASTContext &Ctx,
                           std::vector<MemoryAccess> *Accesses = nullptr);

/// Appends to \p Report the kernels accepted by \p Filter and every launch
/// site of the translation unit in \p Ctx, skipping those already present
/// (a header seen by several translation units). Kernels that contain one of
/// \p Errors (locations of compile errors) are skipped with a warning.
void extractFeatures(clang::ASTContext &Ctx, const KernelFilter &Filter,
                     FeatureReport &Report,
                     llvm::ArrayRef<clang::SourceLocation> Errors = {});

/// An action factory that runs extractFeatures on each translation unit.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newFeatureActionFactory(FeatureReport &Report, KernelFilter Filter);

} // namespace autoprof

#endif // AUTOPROF_FEATURES_FEATUREEXTRACTOR_H
