//===- Compilations.h - Compile commands for the analysed sources -*- C++ -*-=//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Finds the compile command of each source the way LLVM's tools do: the
/// arguments after `--`, else the compilation database in `-p <build-dir>`,
/// else one found next to the first source, else default flags.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_TOOLING_COMPILATIONS_H
#define AUTOPROF_TOOLING_COMPILATIONS_H

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace autoprof {

/// Where the compile commands come from and how they are completed.
struct CompilationOptions {
  /// `-p`: a build directory holding compile_commands.json; empty when not
  /// given.
  std::string BuildPath;
  /// The arguments after `--`, when `--` was given.
  std::optional<std::vector<std::string>> FixedArgs;
  /// `--extra-arg` and `--extra-arg-before`.
  std::vector<std::string> ExtraArgs, ExtraArgsBefore;
  /// Without `-p` or `--`, look for the database in the first source's
  /// directory and each parent, and in a `build/` directory of each, taking
  /// the nearest (instead of the directory and its parents only).
  bool SearchBuildDirs = false;
  /// Give a source that a database (`-p` or found) does not list, such as a
  /// header, the command of the listed file nearest to it by path.
  bool InferMissing = false;
};

/// The compile commands of the analysed sources.
class Compilations {
public:
  /// Loads the database that \p Opts selects. Fails with a one-line message
  /// when `-p` names a directory without a usable database or the database
  /// is malformed.
  static llvm::Expected<Compilations> load(const CompilationOptions &Opts,
                                           llvm::StringRef FirstSource);

  /// The database to give ClangTool (it never lacks a command: sources that
  /// an auto-detected database does not list get default flags).
  clang::tooling::CompilationDatabase &database() { return *Database; }

  /// Fails when an explicit `-p` database has no command for \p Source.
  llvm::Error checkHasCommand(llvm::StringRef Source) const;

  /// Describes where the commands come from, for messages.
  const std::string &origin() const { return Origin; }

  /// The CUDA sources the explicit `-p` database lists (a `.cu` file, or a
  /// command with `-x cuda`), absolute, sorted and each once, as
  /// run-clang-tidy takes every file of a database; empty without `-p`.
  std::vector<std::string> cudaSources() const;

private:
  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  clang::tooling::CompilationDatabase *Explicit = nullptr;
  std::string Origin;
};

} // namespace autoprof

#endif // AUTOPROF_TOOLING_COMPILATIONS_H
