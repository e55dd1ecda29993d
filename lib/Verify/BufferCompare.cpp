//===- BufferCompare.cpp - Comparing saved kernel outputs -----------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/BufferCompare.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstring>

using namespace llvm;
using namespace autoprof;
using namespace autoprof::verify;

ElementKind autoprof::verify::elementKindOf(StringRef PointerType) {
  // The pointee: everything before the last '*', without qualifiers.
  StringRef T = PointerType;
  size_t Star = T.rfind('*');
  if (Star != StringRef::npos)
    T = T.take_front(Star);
  SmallVector<StringRef> Words;
  T.split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::string Base;
  for (StringRef W : Words) {
    W = W.trim();
    if (W == "const" || W == "volatile" || W == "__restrict__" ||
        W == "__restrict" || W == "restrict" || W == "struct" || W.empty())
      continue;
    if (StringRef(W).starts_with("std::"))
      W = W.drop_front(5);
    Base += (Base.empty() ? "" : " ") + W.str();
  }
  // Vector types count their components.
  StringRef B = Base;
  if (B.size() > 1 && std::isdigit(static_cast<unsigned char>(B.back())) &&
      (B.starts_with("float") || B.starts_with("double") ||
       B.starts_with("int") || B.starts_with("uint") || B.starts_with("half") ||
       B.starts_with("short") || B.starts_with("ushort") ||
       B.starts_with("char") || B.starts_with("uchar") ||
       B.starts_with("long") || B.starts_with("ulong") ||
       B.starts_with("__half")) &&
      !B.ends_with("_t"))
    B = B.drop_back();
  return StringSwitch<ElementKind>(B)
      .Cases({"float", "float1"}, ElementKind::F32)
      .Cases({"double", "double1"}, ElementKind::F64)
      .Cases({"__half", "half", "__half2", "half2"}, ElementKind::F16)
      .Cases({"__nv_bfloat16", "__nv_bfloat162"}, ElementKind::BF16)
      .Cases({"char", "signed char", "int8_t", "schar"}, ElementKind::I8)
      .Cases({"unsigned char", "uint8_t", "uchar", "bool"}, ElementKind::U8)
      .Cases({"short", "int16_t", "short int"}, ElementKind::I16)
      .Cases({"unsigned short", "uint16_t", "ushort"}, ElementKind::U16)
      .Cases({"int", "int32_t", "signed", "signed int"}, ElementKind::I32)
      .Cases({"unsigned", "unsigned int", "uint32_t", "uint"}, ElementKind::U32)
      .Cases({"long", "long long", "int64_t", "long int", "ptrdiff_t"},
             ElementKind::I64)
      .Cases({"long long int", "longlong"}, ElementKind::I64)
      .Cases({"unsigned long", "unsigned long long", "uint64_t", "size_t"},
             ElementKind::U64)
      .Cases({"ulong", "ulonglong", "unsigned long int"}, ElementKind::U64)
      .Default(ElementKind::Bytes);
}

unsigned autoprof::verify::elementSize(ElementKind K) {
  switch (K) {
  case ElementKind::F16:
  case ElementKind::BF16:
  case ElementKind::I16:
  case ElementKind::U16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
  case ElementKind::U32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
  case ElementKind::U64:
    return 8;
  case ElementKind::I8:
  case ElementKind::U8:
  case ElementKind::Bytes:
    return 1;
  }
  return 1;
}

StringRef autoprof::verify::elementKindName(ElementKind K) {
  switch (K) {
  case ElementKind::F16:
    return "f16";
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I8:
    return "i8";
  case ElementKind::U8:
    return "u8";
  case ElementKind::I16:
    return "i16";
  case ElementKind::U16:
    return "u16";
  case ElementKind::I32:
    return "i32";
  case ElementKind::U32:
    return "u32";
  case ElementKind::I64:
    return "i64";
  case ElementKind::U64:
    return "u64";
  case ElementKind::Bytes:
    return "bytes";
  }
  return "bytes";
}

namespace {

float halfToFloat(uint16_t H) {
  uint32_t Sign = uint32_t(H & 0x8000) << 16;
  uint32_t Exp = (H >> 10) & 0x1f;
  uint32_t Mant = H & 0x3ff;
  uint32_t Bits;
  if (Exp == 0x1f) {
    Bits = Sign | 0x7f800000 | (Mant << 13);
  } else if (Exp != 0) {
    Bits = Sign | ((Exp + 112) << 23) | (Mant << 13);
  } else if (Mant == 0) {
    Bits = Sign;
  } else {
    // Subnormal: normalise.
    int E = -1;
    do {
      ++E;
      Mant <<= 1;
    } while (!(Mant & 0x400));
    Bits = Sign | (uint32_t(112 - E) << 23) | ((Mant & 0x3ff) << 13);
  }
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

/// Element \p I of \p Data as a double.
double load(ElementKind K, const char *Data, uint64_t I) {
  const char *P = Data + I * elementSize(K);
  auto As = [&](auto Zero) {
    decltype(Zero) V;
    std::memcpy(&V, P, sizeof(V));
    return V;
  };
  switch (K) {
  case ElementKind::F16:
    return halfToFloat(As(uint16_t()));
  case ElementKind::BF16: {
    uint32_t Bits = uint32_t(As(uint16_t())) << 16;
    float F;
    std::memcpy(&F, &Bits, 4);
    return F;
  }
  case ElementKind::F32:
    return As(float());
  case ElementKind::F64:
    return As(double());
  case ElementKind::I8:
    return As(int8_t());
  case ElementKind::U8:
    return As(uint8_t());
  case ElementKind::I16:
    return As(int16_t());
  case ElementKind::U16:
    return As(uint16_t());
  case ElementKind::I32:
    return As(int32_t());
  case ElementKind::U32:
    return As(uint32_t());
  case ElementKind::I64:
    return double(As(int64_t()));
  case ElementKind::U64:
    return double(As(uint64_t()));
  case ElementKind::Bytes:
    return As(uint8_t());
  }
  return 0;
}

bool isFloat(ElementKind K) {
  return K == ElementKind::F16 || K == ElementKind::BF16 ||
         K == ElementKind::F32 || K == ElementKind::F64;
}

} // namespace

BufferDifference autoprof::verify::compareBuffers(ElementKind K,
                                                  StringRef Expected,
                                                  StringRef Actual, double RTol,
                                                  double ATol) {
  BufferDifference D;
  if (Expected.size() != Actual.size()) {
    D.SizeDiffers = true;
    return D;
  }
  unsigned Size = elementSize(K);
  uint64_t N = Expected.size() / Size;
  D.Elements = N;
  auto Note = [&](uint64_t I, double E, double A) {
    if (D.Mismatches++ == 0) {
      D.FirstIndex = I;
      D.Expected = E;
      D.Actual = A;
    }
  };
  bool Float = isFloat(K);
  for (uint64_t I = 0; I < N; ++I) {
    const char *E = Expected.data() + I * Size;
    const char *A = Actual.data() + I * Size;
    if (std::memcmp(E, A, Size) == 0)
      continue;
    double X = load(K, Expected.data(), I), Y = load(K, Actual.data(), I);
    if (!Float) {
      Note(I, X, Y);
      continue;
    }
    if (std::isnan(X) && std::isnan(Y))
      continue;
    if (std::isinf(X) || std::isinf(Y)) {
      if (X != Y)
        Note(I, X, Y);
      continue;
    }
    if (!(std::fabs(X - Y) <= ATol + RTol * std::fabs(X)))
      Note(I, X, Y);
  }
  // A tail shorter than one element.
  for (uint64_t I = N * Size; I < Expected.size(); ++I)
    if (Expected[I] != Actual[I])
      Note(N, uint8_t(Expected[I]), uint8_t(Actual[I]));
  return D;
}

std::optional<double>
autoprof::verify::largestDifference(ElementKind K, StringRef A, StringRef B) {
  if (A.size() != B.size())
    return std::nullopt;
  if (A == B)
    return 0.0;
  if (!isFloat(K) || A.size() % elementSize(K) != 0)
    return std::nullopt;
  unsigned Size = elementSize(K);
  double Largest = 0;
  for (uint64_t I = 0, N = A.size() / Size; I < N; ++I) {
    if (std::memcmp(A.data() + I * Size, B.data() + I * Size, Size) == 0)
      continue;
    double X = load(K, A.data(), I), Y = load(K, B.data(), I);
    if (std::isnan(X) && std::isnan(Y))
      continue;
    if (!std::isfinite(X) || !std::isfinite(Y))
      return std::nullopt;
    Largest = std::max(Largest, std::fabs(X - Y));
  }
  return Largest;
}

double autoprof::verify::largestMagnitude(ElementKind K, StringRef A) {
  if (!isFloat(K))
    return 0;
  double Largest = 0;
  for (uint64_t I = 0, N = A.size() / elementSize(K); I < N; ++I) {
    double X = load(K, A.data(), I);
    if (std::isfinite(X))
      Largest = std::max(Largest, std::fabs(X));
  }
  return Largest;
}

bool autoprof::verify::isFloatingPoint(ElementKind K) { return isFloat(K); }
