//===- TransformationRegistry.cpp - The built-in transformations ----------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Rewrite/TransformationRegistry.h"

#include "Transformations/BlockShape.h"
#include "Transformations/FastMathIntrinsics.h"
#include "Transformations/IndexInductionVariables.h"
#include "Transformations/InlineDeviceHelpers.h"
#include "Transformations/LaunchBlockSize.h"
#include "Transformations/LaunchBounds.h"
#include "Transformations/PadSharedArrays.h"
#include "Transformations/PrivatizeAtomicsSmem.h"
#include "Transformations/RegisterAccumulate.h"
#include "Transformations/RestrictReadonlyParams.h"
#include "Transformations/SplitSerialLoop.h"
#include "Transformations/TileMatmulSmem.h"
#include "Transformations/TileTransposeSmem.h"
#include "Transformations/UnrollConstantLoops.h"
#include "Transformations/VectorizeFloat4.h"
#include "Transformations/WarpAggregateAtomics.h"
#include "Transformations/WarpPerRow.h"
#include "Transformations/WarpShuffleReduce.h"

using namespace autoprof;

const std::vector<const Transformation *> &TransformationRegistry::all() {
  static const RestrictReadonlyParams Restrict;
  static const UnrollConstantLoops Unroll;
  static const PadSharedArrays Pad;
  static const FastMathIntrinsics FastMath;
  static const LaunchBoundsTransformation Bounds;
  static const LaunchBlockSize BlockSize;
  static const VectorizeFloat4 Float4;
  static const TileTransposeSmem Transpose;
  static const WarpShuffleReduce ShuffleReduce;
  static const TileMatmulSmem Matmul;
  static const WarpPerRow RowWarps;
  static const PrivatizeAtomicsSmem Privatize;
  static const WarpAggregateAtomics Aggregate;
  static const RegisterAccumulate Accumulate;
  static const SplitSerialLoop Split;
  static const BlockShape Shape;
  static const InlineDeviceHelpers Inline;
  static const IndexInductionVariables Walks;
  // The order in which a kernel's triggered rewrites are tried: changes of
  // the algorithm's memory access first (tiling through shared memory, warp
  // reductions, wider accesses, padding), then changes of the instructions
  // (intrinsics, unrolling), of the launch, and of qualifiers last. The
  // enabling ones, never tried by themselves, come after them.
  static const std::vector<const Transformation *> All = {
      &Matmul,    &Transpose,     &RowWarps, &Split,      &Aggregate,
      &Privatize, &ShuffleReduce, &Float4,   &Accumulate, &Pad,
      &FastMath,  &Unroll,        &Shape,    &BlockSize,  &Bounds,
      &Restrict,  &Inline,        &Walks};
  return All;
}

const Transformation *TransformationRegistry::find(llvm::StringRef Name) {
  for (const Transformation *T : all())
    if (T->name() == Name)
      return T;
  return nullptr;
}

std::string TransformationRegistry::names() {
  std::string S;
  for (const Transformation *T : all())
    S += (S.empty() ? "" : ", ") + T->name().str();
  return S;
}
