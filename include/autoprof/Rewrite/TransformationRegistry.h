//===- TransformationRegistry.h - The built-in transformations --*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The static list of built-in transformations, looked up by name.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONREGISTRY_H
#define AUTOPROF_REWRITE_TRANSFORMATIONREGISTRY_H

#include "autoprof/Rewrite/Transformation.h"

#include "llvm/ADT/StringRef.h"

#include <vector>

namespace autoprof {

class TransformationRegistry {
public:
  /// Every built-in transformation, in the order a kernel's triggered
  /// rewrites are proposed and tried: the one expected to matter most first.
  static const std::vector<const Transformation *> &all();
  /// The transformation called \p Name, or null.
  static const Transformation *find(llvm::StringRef Name);
  /// The names of all(), joined by ", ".
  static std::string names();
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONREGISTRY_H
