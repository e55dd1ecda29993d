//===- KernelSplice.h - A model's kernel over the original -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Puts a rewritten kernel definition (the code block of a model's reply)
/// over the original definition's source range, and checks, on the
/// candidate parsed again by Clang, that the result still defines the same
/// kernel: the same name and the same parameter types in order, and no
/// other kernel. Everything outside the kernel's range stays byte-identical
/// by construction.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_KERNELSPLICE_H
#define AUTOPROF_REWRITE_KERNELSPLICE_H

#include "autoprof/Features/KernelRecord.h"
#include "autoprof/Rewrite/RewriteEngine.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <optional>
#include <string>

namespace autoprof {

/// \p Original with the range of \p KS replaced by \p Code (its trailing
/// white space dropped). Fails when the range is empty or outside the text.
llvm::Expected<std::string> spliceKernel(llvm::StringRef Original,
                                         const KernelSource &KS,
                                         llvm::StringRef Code);

/// The same edit as a replacement of \p File.
clang::tooling::Replacement kernelReplacement(const KernelSource &KS,
                                              llvm::StringRef Code);

/// Why a candidate does not define the kernel it should.
struct CandidateProblem {
  enum class Kind {
    SignatureChanged, ///< The kernel is gone, renamed, or its parameters
                      ///< changed.
    ExtraKernel,      ///< It defines a kernel the original did not.
  };
  Kind K = Kind::SignatureChanged;
  std::string Reason;
};

/// Compares the kernels of the candidate, \p After, with those of the
/// original, \p Before (both as the rewrite engine found them), for a
/// rewrite of \p Kernel. The candidate must define a kernel with the same
/// qualified name and the same parameter types in order (`__restrict__`
/// and a parameter's own `const` may change: neither changes how it is
/// called), and no kernel name more often than the original does. Returns
/// nullopt when it does.
std::optional<CandidateProblem>
checkCandidateKernels(const KernelRecord &Kernel,
                      llvm::ArrayRef<KernelRecord> Before,
                      llvm::ArrayRef<KernelRecord> After);

/// Keeps the first error Clang reports, as "<file>:<line>:<col>: <message>"
/// (the file's name without its directories), and prints nothing. With a
/// quotable file, an error located in another file is kept without its
/// message or place: a reason sent to a model server never quotes another
/// file than the user's source.
class FirstErrorConsumer : public clang::DiagnosticConsumer {
public:
  FirstErrorConsumer() = default;
  /// Quotes only errors in \p QuotableFile (an absolute path).
  explicit FirstErrorConsumer(std::string QuotableFile)
      : Quotable(std::move(QuotableFile)) {}
  void HandleDiagnostic(clang::DiagnosticsEngine::Level Level,
                        const clang::Diagnostic &Info) override;
  /// The first error, or empty when there was none.
  const std::string &firstError() const { return First; }

private:
  std::string Quotable;
  std::string First;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_KERNELSPLICE_H
