//===- CommandLine.h - Parsing a tool's command line ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// LLVM's command-line parser prints its complaints on several lines, some
/// on stderr whatever stream it is given. A tool of this project reports
/// each error on one line: these parse with everything the parser prints
/// kept, and make one line of it.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_COMMANDLINE_H
#define AUTOPROF_TOOLING_COMMANDLINE_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace autoprof {

/// Parses the command line (llvm::cl::ParseCommandLineOptions) with what the
/// parser prints, on its stream and on stderr, kept in \p Errors; false when
/// the command line is invalid.
bool parseCommandLine(int Argc, const char *const *Argv,
                      llvm::StringRef Overview, std::string &Errors);

/// The parser's complaint \p Raw ("<tool>: Unknown command line argument
/// '--formt'.  Try: '<path> --help'" and "<tool>: Did you mean
/// '--format'?") as one line without the tool's name: "unknown command line
/// argument '--formt' (did you mean '--format'?); try '<tool> --help'".
/// After an unknown subcommand, the complaints about its arguments are
/// left out.
std::string oneLineOptionError(llvm::StringRef Raw, llvm::StringRef Tool);

} // namespace autoprof

#endif // AUTOPROF_TOOLING_COMMANDLINE_H
