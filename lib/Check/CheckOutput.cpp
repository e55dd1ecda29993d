//===- CheckOutput.cpp - Findings as text and SARIF -----------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Check/CheckOutput.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <map>
#include <set>

using namespace autoprof;

std::pair<unsigned, unsigned> autoprof::lineAndColumn(llvm::StringRef Text,
                                                      unsigned Offset) {
  Offset = std::min<size_t>(Offset, Text.size());
  llvm::StringRef Before = Text.take_front(Offset);
  unsigned Line = 1 + Before.count('\n');
  size_t LastNL = Before.rfind('\n');
  unsigned Column =
      LastNL == llvm::StringRef::npos ? Offset + 1 : Offset - LastNL;
  return {Line, Column};
}

std::string autoprof::formatFindingsText(
    llvm::ArrayRef<Finding> Findings, const FileTextLookup &Text,
    const std::function<std::string(llvm::StringRef)> &Shown, bool Color) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  clang::DiagnosticOptions Opts;
  Opts.ShowColors = Color;
  OS.enable_colors(Color);
  clang::TextDiagnosticPrinter Printer(OS, Opts);
  clang::DiagnosticsEngine Diags(clang::DiagnosticIDs::create(), Opts, &Printer,
                                 /*ShouldOwnClient=*/false);
  clang::FileManager Files{clang::FileSystemOptions()};
  clang::SourceManager SM(Diags, Files);
  Diags.setSourceManager(&SM);
  clang::LangOptions Lang;
  Printer.BeginSourceFile(Lang, /*PP=*/nullptr);
  // Each file once, as a buffer named by the path to print.
  std::map<std::string, clang::FileID> IDs;
  auto FileOf = [&](llvm::StringRef Path) -> std::optional<clang::FileID> {
    auto It = IDs.find(Path.str());
    if (It != IDs.end())
      return It->second;
    llvm::StringRef T = Text(Path);
    if (T.empty())
      return std::nullopt;
    clang::FileID ID =
        SM.createFileID(llvm::MemoryBuffer::getMemBufferCopy(T, Shown(Path)));
    IDs.emplace(Path.str(), ID);
    return ID;
  };
  const unsigned WarningID =
      Diags.getCustomDiagID(clang::DiagnosticsEngine::Warning, "%0");
  const unsigned ErrorID =
      Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0");
  for (const Finding &F : Findings) {
    std::string Message = F.Message + " [" + F.Check +
                          (F.Promoted ? ",-warnings-as-errors" : "") + "]";
    std::optional<clang::FileID> ID = FileOf(F.File);
    size_t Size = ID ? SM.getBufferData(*ID).size() : 0;
    if (!ID || F.Offset > Size) {
      // No text to show: the location line alone.
      OS << Shown(F.File) << ":" << F.Line << ":" << F.Column << ": "
         << severityName(F.Level) << ": " << Message << "\n";
      continue;
    }
    clang::SourceLocation Start = SM.getLocForStartOfFile(*ID);
    clang::DiagnosticBuilder B =
        Diags.Report(Start.getLocWithOffset(F.Offset),
                     F.Level == Severity::Error ? ErrorID : WarningID);
    B << Message;
    // Fix-its on the finding's line, under its caret; a fix elsewhere (a
    // declaration to pad) would pull the lines between into the snippet.
    unsigned Line = SM.getLineNumber(*ID, F.Offset);
    for (const clang::tooling::Replacement &R : F.Fix) {
      unsigned End = R.getOffset() + R.getLength();
      if (R.getFilePath() != F.File || End > Size ||
          SM.getLineNumber(*ID, R.getOffset()) != Line ||
          SM.getLineNumber(*ID, End) != Line)
        continue;
      clang::SourceLocation RB = Start.getLocWithOffset(R.getOffset());
      B << clang::FixItHint::CreateReplacement(
          clang::CharSourceRange::getCharRange(
              RB, RB.getLocWithOffset(R.getLength())),
          R.getReplacementText());
    }
  }
  Printer.EndSourceFile();
  OS.flush();
  return Out;
}

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void key(Writer &W, const char *K) { W.Key(K); }

void string(Writer &W, llvm::StringRef S) {
  W.String(S.data(), static_cast<rapidjson::SizeType>(S.size()));
}

std::string fileURI(llvm::StringRef Path) {
  std::string URI = "file://";
  for (char C : Path) {
    if (llvm::isAlnum(C) || llvm::StringRef("/-_.~").contains(C))
      URI += C;
    else
      URI += "%" + llvm::utohexstr(static_cast<unsigned char>(C), false, 2);
  }
  return URI;
}

void region(Writer &W, llvm::StringRef Text, unsigned Offset, unsigned Length) {
  W.StartObject();
  auto [L, C] = lineAndColumn(Text, Offset);
  auto [EL, EC] = lineAndColumn(Text, Offset + Length);
  key(W, "startLine");
  W.Uint(L);
  key(W, "startColumn");
  W.Uint(C);
  key(W, "endLine");
  W.Uint(EL);
  key(W, "endColumn");
  W.Uint(EC);
  key(W, "charOffset");
  W.Uint(Offset);
  key(W, "charLength");
  W.Uint(Length);
  W.EndObject();
}

} // namespace

std::string autoprof::formatFindingsSarif(llvm::ArrayRef<Finding> Findings,
                                          llvm::ArrayRef<const Check *> Rules,
                                          const FileTextLookup &Text,
                                          llvm::StringRef ToolVersion,
                                          llvm::StringRef DocsURL) {
  rapidjson::StringBuffer Buf;
  Writer W(Buf);
  W.SetIndent(' ', 2);
  W.StartObject();
  key(W, "$schema");
  W.String("https://json.schemastore.org/sarif-2.1.0.json");
  key(W, "version");
  W.String("2.1.0");
  key(W, "runs");
  W.StartArray();
  W.StartObject();
  key(W, "tool");
  W.StartObject();
  key(W, "driver");
  W.StartObject();
  key(W, "name");
  W.String("clang-autoprof");
  key(W, "version");
  string(W, ToolVersion);
  key(W, "informationUri");
  string(W, DocsURL.str() + "/check.md");
  key(W, "rules");
  W.StartArray();
  std::map<std::string, unsigned> RuleIndex;
  for (const Check *C : Rules) {
    RuleIndex[C->name().str()] = RuleIndex.size();
    W.StartObject();
    key(W, "id");
    string(W, C->name());
    key(W, "shortDescription");
    W.StartObject();
    key(W, "text");
    string(W, C->summary());
    W.EndObject();
    if (!C->help().empty()) {
      key(W, "help");
      W.StartObject();
      key(W, "text");
      string(W, C->help());
      W.EndObject();
    }
    key(W, "helpUri");
    string(W, DocsURL.str() + "/checks/" + C->name().str() + ".md");
    key(W, "defaultConfiguration");
    W.StartObject();
    key(W, "level");
    W.String(severityName(C->severity()));
    W.EndObject();
    W.EndObject();
  }
  W.EndArray();
  W.EndObject();
  W.EndObject();

  key(W, "results");
  W.StartArray();
  for (const Finding &F : Findings) {
    llvm::StringRef T = Text(F.File);
    W.StartObject();
    key(W, "ruleId");
    string(W, F.Check);
    auto It = RuleIndex.find(F.Check);
    if (It != RuleIndex.end()) {
      key(W, "ruleIndex");
      W.Uint(It->second);
    }
    key(W, "level");
    W.String(severityName(F.Level));
    key(W, "message");
    W.StartObject();
    key(W, "text");
    string(W, F.Message);
    W.EndObject();
    key(W, "locations");
    W.StartArray();
    W.StartObject();
    key(W, "physicalLocation");
    W.StartObject();
    key(W, "artifactLocation");
    W.StartObject();
    key(W, "uri");
    string(W, fileURI(F.File));
    W.EndObject();
    key(W, "region");
    W.StartObject();
    key(W, "startLine");
    W.Uint(F.Line);
    key(W, "startColumn");
    W.Uint(F.Column);
    W.EndObject();
    W.EndObject();
    W.EndObject();
    W.EndArray();
    if (!F.Fix.empty()) {
      // One fix; its replacements grouped by file.
      std::map<std::string, std::vector<const clang::tooling::Replacement *>>
          ByFile;
      for (const clang::tooling::Replacement &R : F.Fix)
        ByFile[R.getFilePath().str()].push_back(&R);
      key(W, "fixes");
      W.StartArray();
      W.StartObject();
      key(W, "description");
      W.StartObject();
      key(W, "text");
      string(W, "fix " + F.Check);
      W.EndObject();
      key(W, "artifactChanges");
      W.StartArray();
      for (auto &[File, Rs] : ByFile) {
        llvm::StringRef FT = File == F.File ? T : Text(File);
        W.StartObject();
        key(W, "artifactLocation");
        W.StartObject();
        key(W, "uri");
        string(W, fileURI(File));
        W.EndObject();
        key(W, "replacements");
        W.StartArray();
        for (const clang::tooling::Replacement *R : Rs) {
          W.StartObject();
          key(W, "deletedRegion");
          region(W, FT, R->getOffset(), R->getLength());
          key(W, "insertedContent");
          W.StartObject();
          key(W, "text");
          string(W, R->getReplacementText());
          W.EndObject();
          W.EndObject();
        }
        W.EndArray();
        W.EndObject();
      }
      W.EndArray();
      W.EndObject();
      W.EndArray();
    }
    W.EndObject();
  }
  W.EndArray();
  W.EndObject();
  W.EndArray();
  W.EndObject();
  return std::string(Buf.GetString(), Buf.GetSize()) + "\n";
}
