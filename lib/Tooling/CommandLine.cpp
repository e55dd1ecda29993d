//===- CommandLine.cpp - Parsing a tool's command line --------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Tooling/CommandLine.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

using namespace llvm;

std::string autoprof::oneLineOptionError(StringRef Raw, StringRef Tool) {
  SmallVector<StringRef> Lines;
  Raw.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::string Prefix = (Tool + ": ").str();
  std::string Out;
  for (StringRef L : Lines) {
    L = L.trim();
    // Each line starts with the program's name.
    L.consume_front(Prefix);
    std::string Text = L.str();
    // "  Try: '<path to the tool> --help'" names the tool by its path.
    size_t Try = Text.find("  Try: '");
    if (Try != std::string::npos)
      Text = Text.substr(0, Try);
    while (!Text.empty() && (Text.back() == '!' || Text.back() == '.'))
      Text.pop_back();
    if (Text.empty())
      continue;
    Text[0] = toLower(Text[0]);
    if (StringRef(Text).starts_with("did you mean") && !Out.empty())
      Out += " (" + Text + ")";
    else if (!StringRef(Out).starts_with("unknown subcommand"))
      // After an unknown subcommand, its arguments are unknown too.
      Out += (Out.empty() ? "" : "; ") + Text;
  }
  if (Out.empty())
    Out = "invalid command line";
  return Out + "; try '" + Tool.str() + " --help'";
}

bool autoprof::parseCommandLine(int Argc, const char *const *Argv,
                                StringRef Overview, std::string &Errors) {
  raw_string_ostream Stream(Errors);
  // Some complaints go to stderr whatever the stream: stderr is sent to a
  // file while the parser runs.
  int Saved = -1, FD = -1;
  SmallString<128> Path;
  if (!sys::fs::createTemporaryFile("autoprof-options", "txt", FD, Path)) {
    errs().flush();
    Saved = dup(2);
    if (Saved < 0 || dup2(FD, 2) < 0) {
      if (Saved >= 0)
        close(Saved);
      Saved = -1;
    }
  }
  bool Ok = cl::ParseCommandLineOptions(Argc, Argv, Overview, &Stream);
  if (Saved >= 0) {
    errs().flush();
    dup2(Saved, 2);
    close(Saved);
  }
  if (FD >= 0) {
    close(FD);
    if (auto Buf = MemoryBuffer::getFile(Path))
      Errors += "\n" + (*Buf)->getBuffer().str();
    sys::fs::remove(Path);
  }
  return Ok;
}
