//===- BoundedParse.cpp - JSON parsing with limits ------------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// A first pass with RapidJSON's SAX reader, iterative, checks the limits
/// and the keys and finds syntax errors; a second builds the document, also
/// iteratively. Neither recurses, whatever the nesting.
///
//===----------------------------------------------------------------------===//

#include "autoprof/JSON/BoundedParse.h"

#include "rapidjson/encodedstream.h"
#include "rapidjson/error/en.h"
#include "rapidjson/memorystream.h"
#include "rapidjson/reader.h"

#include <unordered_set>
#include <vector>

using namespace autoprof;
using namespace autoprof::json;

namespace {

/// Iterative (no recursion on nesting) and strict UTF-8. Not
/// kParseFullPrecisionFlag: its slow path passes zero to __builtin_clz on
/// inputs such as `0e00100` (undefined behaviour); numbers may read one
/// unit in the last place off what was written.
constexpr unsigned ParseFlags =
    rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag;

/// The length of the UTF-8 sequence starting at \p S (at most \p N bytes)
/// and its code point, or 0 when it is not valid UTF-8.
size_t decodeUTF8(const unsigned char *S, size_t N, uint32_t &CP) {
  unsigned char C = S[0];
  size_t Len = C < 0x80         ? 1
               : (C >> 5) == 6  ? 2
               : (C >> 4) == 14 ? 3
               : (C >> 3) == 30 ? 4
                                : 0;
  if (!Len || Len > N)
    return 0;
  CP = Len == 1 ? C : C & (0x7f >> Len);
  for (size_t I = 1; I < Len; ++I) {
    if ((S[I] & 0xc0) != 0x80)
      return 0;
    CP = CP << 6 | (S[I] & 0x3f);
  }
  // Overlong forms, surrogates and values past Unicode.
  static const uint32_t Least[] = {0, 0, 0x80, 0x800, 0x10000};
  if (CP < Least[Len] || (CP >= 0xd800 && CP <= 0xdfff) || CP > 0x10ffff)
    return 0;
  return Len;
}

/// Whether \p Len bytes at \p S are UTF-8 with no NUL and no surrogate
/// (which an escape such as `\udead` decodes to).
bool cleanUTF8(const char *S, size_t Len) {
  const auto *U = reinterpret_cast<const unsigned char *>(S);
  for (size_t I = 0; I < Len;) {
    uint32_t CP = 0;
    size_t N = decodeUTF8(U + I, Len - I, CP);
    if (!N || CP == 0)
      return false;
    I += N;
  }
  return true;
}

/// Checks nesting, keys and strings while the reader goes through the
/// text.
class LimitChecker
    : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, LimitChecker> {
public:
  LimitChecker(const ParseLimits &L, std::string &Error) : L(L), Error(Error) {}

  bool Default() {
    done();
    return true;
  }
  bool StartObject() { return open(true); }
  bool StartArray() { return open(false); }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool EndArray(rapidjson::SizeType) { return close(); }
  bool String(const char *Str, rapidjson::SizeType Len, bool) {
    if (!clean(Str, Len))
      return false;
    done();
    return true;
  }
  bool Key(const char *Str, rapidjson::SizeType Len, bool) {
    if (!clean(Str, Len))
      return false;
    Frame &F = Stack.back();
    F.Key.assign(Str, Len);
    if (!F.Keys.insert(F.Key).second) {
      // The path of the object, then the key.
      F.Key.clear();
      Error = path() + ": duplicate key '" +
              printableText(std::string(Str, Len), 60) + "'";
      return false;
    }
    return true;
  }

private:
  struct Frame {
    bool Object = false;
    size_t Index = 0;
    std::string Key;
    std::unordered_set<std::string> Keys;
  };

  /// A string once its escapes are decoded: the formats hold text.
  bool clean(const char *Str, rapidjson::SizeType Len) {
    if (cleanUTF8(Str, Len))
      return true;
    Error = path() + ": a string holds a NUL character or an escaped "
                     "surrogate that is not part of a pair";
    return false;
  }
  bool open(bool Object) {
    if (Stack.size() >= L.MaxDepth) {
      Error = path() + ": nested deeper than " + std::to_string(L.MaxDepth) +
              " levels";
      return false;
    }
    Stack.emplace_back();
    Stack.back().Object = Object;
    return true;
  }
  bool close() {
    Stack.pop_back();
    done();
    return true;
  }
  /// A value of the innermost array or object is complete.
  void done() {
    if (!Stack.empty() && !Stack.back().Object)
      ++Stack.back().Index;
  }
  std::string path() const {
    std::string P = "$";
    for (const Frame &F : Stack) {
      if (!F.Object)
        P += "[" + std::to_string(F.Index) + "]";
      else if (!F.Key.empty())
        P += "." + printableText(F.Key, 60);
    }
    return P;
  }

  const ParseLimits &L;
  std::string &Error;
  std::vector<Frame> Stack;
};

std::string position(const char *Text, size_t Size, size_t Offset) {
  unsigned Line = 1, Col = 1;
  for (size_t I = 0; I < Offset && I < Size; ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
  }
  return std::to_string(Line) + ":" + std::to_string(Col);
}

} // namespace

bool autoprof::json::parseBounded(const char *Text, size_t Size,
                                  rapidjson::Document &Doc, std::string &Error,
                                  const ParseLimits &L) {
  if (Size > L.MaxBytes) {
    Error = "larger than " + std::to_string(L.MaxBytes) + " bytes";
    return false;
  }
  std::string Limit;
  {
    LimitChecker Checker(L, Limit);
    rapidjson::MemoryStream MS(Text, Size);
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream>
        In(MS);
    rapidjson::Reader R;
    rapidjson::ParseResult Result = R.Parse<ParseFlags>(In, Checker);
    if (!Limit.empty()) {
      Error = Limit;
      return false;
    }
    if (Result.IsError()) {
      Error = position(Text, Size, Result.Offset()) +
              ": malformed JSON: " + GetParseError_En(Result.Code());
      return false;
    }
  }
  Doc.Parse<ParseFlags>(Text, Size);
  if (Doc.HasParseError()) {
    Error = position(Text, Size, Doc.GetErrorOffset()) +
            ": malformed JSON: " + GetParseError_En(Doc.GetParseError());
    return false;
  }
  return true;
}

std::string autoprof::json::printableText(const std::string &Text,
                                          size_t MaxChars,
                                          bool EscapeBackslash) {
  static const char Hex[] = "0123456789abcdef";
  std::string Out;
  size_t Chars = 0;
  const auto *S = reinterpret_cast<const unsigned char *>(Text.data());
  for (size_t I = 0; I < Text.size();) {
    if (Chars == MaxChars) {
      Out += "...";
      break;
    }
    ++Chars;
    uint32_t CP = 0;
    size_t Len = decodeUTF8(S + I, Text.size() - I, CP);
    if (Len == 0 || CP < 0x20 || CP == 0x7f || (CP >= 0x80 && CP < 0xa0)) {
      unsigned char C = S[I];
      if (Len == 1 && C == '\n')
        Out += "\\n";
      else if (Len == 1 && C == '\t')
        Out += "\\t";
      else if (Len == 1 && C == '\r')
        Out += "\\r";
      else if (Len > 1)
        Out += "\\u00" + std::string(1, Hex[CP >> 4]) + Hex[CP & 15];
      else
        Out += "\\x" + std::string(1, Hex[C >> 4]) + Hex[C & 15];
      I += Len ? Len : 1;
      continue;
    }
    if (CP == '\\' && EscapeBackslash)
      Out += "\\\\";
    else
      Out.append(Text, I, Len);
    I += Len;
  }
  return Out;
}
