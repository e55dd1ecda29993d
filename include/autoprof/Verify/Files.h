//===- Files.h - Temporary folders and atomic writes ------------*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The two file operations every run shares: a temporary folder that goes
/// with everything in it, and a file replaced whole or not at all.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_VERIFY_FILES_H
#define AUTOPROF_VERIFY_FILES_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace autoprof {
namespace verify {

/// A temporary folder, removed with everything in it when this goes.
class ScopedDir {
public:
  ScopedDir() = default;
  ScopedDir(const ScopedDir &) = delete;
  ScopedDir &operator=(const ScopedDir &) = delete;
  ~ScopedDir();

  /// Creates a folder named after \p Prefix in the system's temporary
  /// folder; fails with one line.
  llvm::Error create(llvm::StringRef Prefix);
  llvm::StringRef path() const { return Path; }

private:
  llvm::SmallString<128> Path;
};

/// Writes \p Text to \p Path through a temporary file renamed over it, so
/// that the file is replaced whole or left as it was; fails with "cannot
/// write '<path>': <why>".
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Text);

} // namespace verify
} // namespace autoprof

#endif // AUTOPROF_VERIFY_FILES_H
