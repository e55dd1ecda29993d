//===- FilesTest.cpp - Temporary folders and atomic writes ----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/Files.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

using namespace llvm;
using namespace autoprof::verify;

namespace {

TEST(FilesTest, AScopedFolderGoesWithWhatItHolds) {
  std::string Where;
  {
    ScopedDir D;
    ASSERT_FALSE(static_cast<bool>(D.create("files-test")));
    Where = D.path().str();
    ASSERT_FALSE(static_cast<bool>(
        writeFileAtomically(Where + "/inner.txt", "kept until the end\n")));
    EXPECT_TRUE(sys::fs::exists(Where + "/inner.txt"));
  }
  EXPECT_FALSE(sys::fs::exists(Where));
}

TEST(FilesTest, AFileIsReplacedWholeOrNotAtAll) {
  ScopedDir D;
  ASSERT_FALSE(static_cast<bool>(D.create("files-test")));
  std::string File = (D.path() + "/out.txt").str();
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(File, "first\n")));
  ASSERT_FALSE(static_cast<bool>(writeFileAtomically(File, "second\n")));
  auto Buf = MemoryBuffer::getFile(File);
  ASSERT_TRUE(static_cast<bool>(Buf));
  EXPECT_EQ((*Buf)->getBuffer(), "second\n");
  // A folder that does not exist: one line, and nothing written.
  std::string Missing = (D.path() + "/no/such/dir/out.txt").str();
  std::string Why = toString(writeFileAtomically(Missing, "x"));
  EXPECT_EQ(Why.rfind("cannot write '" + Missing + "': ", 0), 0u) << Why;
  EXPECT_EQ(Why.find('\n'), std::string::npos);
  EXPECT_FALSE(sys::fs::exists(Missing));
}

} // namespace
