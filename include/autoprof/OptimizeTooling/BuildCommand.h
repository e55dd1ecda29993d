//===- BuildCommand.h - The command that builds a program -------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The shell command that builds a program from its source when optimize is
/// given no --build: the source's command in the compilation database, when
/// that command links a program.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_BUILDCOMMAND_H
#define AUTOPROF_OPTIMIZETOOLING_BUILDCOMMAND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace autoprof {

/// Quotes \p Arg for /bin/sh (as it is when it needs no quotes).
std::string shellQuote(llvm::StringRef Arg);

/// The command of \p Source in the compilation database of \p BuildPath
/// (found from the source when empty), run from its directory: fails with
/// one line when there is no database, no command for the source, or a
/// command that only compiles an object.
llvm::Expected<std::string> databaseBuildCommand(llvm::StringRef Source,
                                                 llvm::StringRef BuildPath);

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_BUILDCOMMAND_H
