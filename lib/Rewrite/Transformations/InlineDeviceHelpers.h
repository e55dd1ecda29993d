//===- InlineDeviceHelpers.h - Inlining opaque helpers ----------*- C++ -*-===//
//-*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `inline-device-helpers`: writes the body of each `__device__` helper
/// whose body the kernel model does not read (one with a loop, several
/// statements, or writes) into the kernel at its calls, so that the other
/// transformations see its loops and accesses as the kernel's own. It is
/// enabling (Transformation::enabling()): it is never verified by itself;
/// the engine proposes each other transformation on the inlined kernel.
///
/// `float d = row_dot(A + i * n, x, n);` becomes
///
///   const float *row_dot_row = A + i * n;
///   float row_dot_s = 0.0f;
///   for (int row_dot_k = 0; row_dot_k < n; ++row_dot_k)
///     row_dot_s += row_dot_row[row_dot_k] * x[row_dot_k];
///   float d = row_dot_s;
///
/// The helper's statements go before the statement of the call, in its
/// block, with every parameter and local renamed under a prefix that no
/// word of the kernel or the helper starts with. A parameter becomes a
/// local initialized with its argument, unless the argument is a variable
/// of the kernel or a literal of the parameter's type that the helper
/// only reads: that is then written in its place. The value the helper
/// returns takes the call's place, converted to its return type.
///
/// A call is inlined when:
///  - the helper is a `__device__` function defined in user code, in the
///    kernel's namespace, not a template, a member, variadic or recursive,
///    with no `static` or `__shared__` local, label, lambda or default
///    argument used, and with at most one `return`, its last statement;
///  - the names its body takes from outside (functions, globals) mean at
///    the kernel what they mean at the helper: the kernel declares none of
///    them and declares no local type, and every declaration of a function
///    it calls precedes the helper;
///  - the call is evaluated whenever its statement is (not under `?:`,
///    `&&`, `||` or `,`), in a statement of a block or of a control
///    statement's body (an expression, or the declaration of one
///    variable), and not inside another helper's arguments; a helper that
///    writes memory must be the whole statement or the whole right side of
///    an assignment or declaration;
///  - no renamed name or argument is written through a macro.
/// Every call of such a helper in the kernel must be inlined, or none is.
///
/// Trigger: none (enabling).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_INLINEDEVICEHELPERS_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_INLINEDEVICEHELPERS_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class InlineDeviceHelpers : public EnablingTransformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  std::string explain(const KernelModel &M) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_INLINEDEVICEHELPERS_H
