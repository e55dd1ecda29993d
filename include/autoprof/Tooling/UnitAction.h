//===- UnitAction.h - The frontend action of every engine -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The one frontend action the engines (features, rewrites, checks) run over
/// their translation units: it parses a unit and hands the engine's callback
/// the AST, the main file's absolute path and where errors were reported
/// while parsing it. An engine is a callback, not an action, a consumer and
/// a factory of its own.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_UNITACTION_H
#define AUTOPROF_TOOLING_UNITACTION_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/ArrayRef.h"

#include <functional>
#include <memory>
#include <string>

namespace clang {
class ASTContext;
namespace tooling {
class FrontendActionFactory;
} // namespace tooling
} // namespace clang

namespace autoprof {

/// One parsed translation unit.
struct ParsedUnit {
  clang::ASTContext &Ctx;
  /// The main file, as an absolute path.
  std::string MainFile;
  /// The file locations of the errors reported while parsing it, in order.
  llvm::ArrayRef<clang::SourceLocation> Errors;

  /// Whether an error was reported.
  bool hasErrors() const;
};

/// What an engine does with each parsed unit.
using UnitCallback = std::function<void(const ParsedUnit &)>;

/// A factory of actions that parse each translation unit and call \p OnUnit
/// with it once the whole unit is parsed. Every diagnostic still reaches
/// the diagnostics client the run installed.
std::unique_ptr<clang::tooling::FrontendActionFactory>
newUnitActionFactory(UnitCallback OnUnit);

} // namespace autoprof

#endif // AUTOPROF_TOOLING_UNITACTION_H
