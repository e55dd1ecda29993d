//===- EngineModel.h - The Clang side of an optimize session ----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The source model of an optimize session (optimize::SourceModel): the
/// rewrite engine's proposals for a kernel, again on the text of a kept
/// candidate when rewrites are composed, and a quiet parse of each candidate
/// that finds its kernels' mangled names and what its kernel reaches. Every
/// candidate is remembered as edits of the original files.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_OPTIMIZETOOLING_ENGINEMODEL_H
#define AUTOPROF_OPTIMIZETOOLING_ENGINEMODEL_H

#include "autoprof/Optimize/Session.h"
#include "autoprof/Rewrite/KernelReach.h"
#include "autoprof/Rewrite/RewriteEngine.h"
#include "autoprof/Tooling/SourceDriver.h"
#include "autoprof/Verify/Verifier.h"

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace autoprof {

class EngineModel : public optimize::SourceModel {
public:
  /// The original text of a file by absolute path.
  using OriginalText = std::function<llvm::StringRef(llvm::StringRef File)>;

  /// \p Engine has run over \p Source; candidates are parsed as \p Parse
  /// says (its Files and Diagnostics are replaced for each parse), the
  /// driver's messages going to \p Messages. \p Messages.Warning also
  /// receives one line for a proposal that cannot be applied.
  EngineModel(const RewriteEngine &Engine, std::string Source,
              SourceSettings Parse, OriginalText Original,
              SourceMessages Messages);

  std::vector<optimize::Candidate>
  proposals(const optimize::SessionKernel &K,
            const optimize::Candidate *Base) override;
  optimize::CandidateCheck inspect(const optimize::SessionKernel &K,
                                   const optimize::Candidate &C) override;
  std::optional<optimize::Candidate>
  combine(llvm::ArrayRef<const optimize::Candidate *> Kept) override;

  /// A candidate whose edits are \p E.
  llvm::Expected<optimize::Candidate> candidate(std::string Name, FileEdits E);
  /// A candidate whose edits \p E give \p Texts.
  optimize::Candidate candidate(std::string Name, FileEdits E,
                                verify::SourceTexts Texts);
  /// The edits of the candidate with id \p Id.
  const FileEdits &edits(unsigned Id) const { return Edits[Id]; }
  /// The texts of the files \p E changes.
  llvm::Expected<verify::SourceTexts> textsOf(const FileEdits &E) const;

private:
  /// What one quiet parse with the files of \p Texts rewritten tells.
  struct View {
    std::vector<verify::KernelSignature> Renamed;
    std::optional<KernelReach> Reach;
  };
  View parse(const verify::SourceTexts &Texts,
             llvm::ArrayRef<verify::KernelSignature> Ks,
             const std::string &Name) const;
  /// Runs \p Engine's action over the source with \p Texts in place of the
  /// files on disk; false when the parse fails.
  bool runOver(RewriteEngine &Engine, const verify::SourceTexts &Texts) const;
  unsigned remember(FileEdits E);
  void add(std::vector<optimize::Candidate> &Out,
           const optimize::SessionKernel &K, const Proposal &P, FileEdits E,
           const optimize::Candidate *Base);

  const RewriteEngine &Engine;
  std::string Source;
  SourceSettings Parse;
  OriginalText Original;
  SourceMessages Messages;
  std::vector<FileEdits> Edits;
  std::map<std::string, std::optional<KernelReach>> Reach;
};

/// The hidden-state judgement of a candidate whose kernel reaches \p After
/// where the original's reaches \p Before, or nullopt when it reaches
/// nothing more (or either is unknown).
std::optional<verify::Judgement>
hiddenState(const std::optional<KernelReach> &Before,
            const std::optional<KernelReach> &After);

} // namespace autoprof

#endif // AUTOPROF_OPTIMIZETOOLING_ENGINEMODEL_H
