//===- TemplateSpecialization.h - A kernel template's verified instances --===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A rewrite of a kernel template that holds for some of its
/// instantiations only (it writes `float4` where the template says `T`, or
/// one instantiation's tile size), written so that only those run it:
/// the body becomes `if constexpr (<their arguments>) { rewritten } else {
/// original }`. Other instantiations, in this translation unit or any
/// other, compile and run the body they had.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TEMPLATESPECIALIZATION_H
#define AUTOPROF_REWRITE_TEMPLATESPECIALIZATION_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <string>
#include <vector>

namespace autoprof {

/// One replacement in a file: offset, length and text.
struct OffsetEdit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

/// The edits of the file that defines the kernel template \p Pattern that
/// make its instantiations \p Specs run its body with \p Edited applied
/// (edits of that file, all inside the body's braces) and every other
/// instantiation run its body as it is: the body becomes `if constexpr
/// (C) { edited } else { original }`, C the disjunction over \p Specs of
/// their arguments (`std::is_same<T, float>::value && BS == 16`), and the
/// file includes <type_traits> first when it does not already. Nullopt,
/// with the reason in \p Why, when the translation unit is older than
/// C++17, an edit lies outside the body, the body is written through a
/// macro, or an argument cannot be written in C (a parameter pack, an
/// unnamed parameter, a type other than a builtin one, a template).
std::optional<std::vector<OffsetEdit>>
specializeBody(clang::ASTContext &Ctx, const clang::FunctionDecl &Pattern,
               llvm::ArrayRef<const clang::FunctionDecl *> Specs,
               llvm::ArrayRef<OffsetEdit> Edited, std::string &Why);

/// Whether the launch \p Call is written in a template (a host function
/// template, a member of a class template): an edit of its text reaches
/// every instantiation of that template, which may launch other
/// instantiations of the kernel.
bool launchedFromTemplate(clang::ASTContext &Ctx,
                          const clang::CUDAKernelCallExpr &Call);

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TEMPLATESPECIALIZATION_H
