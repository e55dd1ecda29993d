//===- IndexInductionVariables.h - Walking pointers as indices --*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// `index-induction-variables`: a loop that walks a pointer or an offset by
/// a fixed step each iteration (`acc += *p; p += ld;`) computes, at each
/// iteration, the variable's first value plus the iteration's multiple of
/// the step. The rewrite writes that value where the loop reads the
/// variable and drops the step, so that the kernel model sees the loop's
/// accesses as indices of the loop variable and the other transformations
/// (split-serial-loop, warp-per-row), which change the order of the
/// iterations, can apply. It is enabling (Transformation::enabling()): it
/// is never verified by itself.
///
///   const float *p = A + col;
///   for (unsigned r = rows; r > 0; --r) {
///     acc += *p;
///     p += ld;
///   }
///
/// becomes
///
///   const float *p = A + col;
///   for (unsigned r = rows; r > 0; --r) {
///     acc += *(p + (long long)(rows - r) * ld);
///   }
///
/// A variable is indexed when:
///  - the loop is a counted `for` or `while` (KernelModel) stepping by a
///    constant, and its body is a block that ends with the steps (`p += e`,
///    `p -= e`, `p = p + e`, `++p`, `p--`) of one or more local pointers or
///    integers other than its variable, each stepped once (in a `while`,
///    before the step of its variable, the body's last statement);
///  - each step `e` reads no memory, changes nothing, and names nothing the
///    loop changes; the loop's first value names nothing the loop changes;
///    the body declares none of the names either uses;
///  - the loop only reads the variable before the steps, and has no
///    `continue` of its own;
///  - nothing reads the variable after the loop: every other reference to it
///    comes before the loop, and every loop around it also holds the
///    variable's declaration (so each of its iterations starts the walk
///    again).
/// A pointer's offset is computed in `long long`, an integer's in its own
/// type, and the iteration is `k - first` (divided by the step), or
/// `first - k` for a loop counting down. One loop is indexed at a time (a
/// step of one loop may name another's walk); the engine prepares the
/// edited kernel again for the next.
///
/// Trigger: none (enabling).
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_REWRITE_TRANSFORMATIONS_INDEXINDUCTIONVARIABLES_H
#define AUTOPROF_REWRITE_TRANSFORMATIONS_INDEXINDUCTIONVARIABLES_H

#include "autoprof/Rewrite/Transformation.h"

namespace autoprof {

class IndexInductionVariables : public EnablingTransformation {
public:
  llvm::StringRef name() const override;
  llvm::StringRef description() const override;
  llvm::Error apply(const KernelModel &M, FileEdits &Out) const override;
  std::string explain(const KernelModel &M) const override;
};

} // namespace autoprof

#endif // AUTOPROF_REWRITE_TRANSFORMATIONS_INDEXINDUCTIONVARIABLES_H
