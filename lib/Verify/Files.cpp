//===- Files.cpp - Temporary folders and atomic writes --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/Files.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace autoprof::verify;

ScopedDir::~ScopedDir() {
  if (!Path.empty())
    sys::fs::remove_directories(Path);
}

Error ScopedDir::create(StringRef Prefix) {
  if (std::error_code EC = sys::fs::createUniqueDirectory(Prefix, Path))
    return createStringError("cannot create a temporary directory: " +
                             EC.message());
  return Error::success();
}

Error autoprof::verify::writeFileAtomically(StringRef Path, StringRef Text) {
  if (Error E = writeToOutput(Path, [&](raw_ostream &OS) {
        OS << Text;
        return Error::success();
      }))
    return createStringError("cannot write '%s': %s", Path.str().c_str(),
                             toString(std::move(E)).c_str());
  return Error::success();
}
