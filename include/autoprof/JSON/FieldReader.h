//===- FieldReader.h - Reading fields with their JSON paths -----*- C++ -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Field readers that report the JSON path of the first bad field, shared by
/// the parsers of the profile, the measurement and the plan. Uses neither
/// LLVM nor Clang.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_JSON_FIELDREADER_H
#define AUTOPROF_JSON_FIELDREADER_H

#include "autoprof/JSON/BoundedParse.h"

#include "rapidjson/document.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace autoprof {
namespace json {

using Value = rapidjson::Value;

/// Reads fields with JSON-path errors; the first error wins.
struct Reader {
  std::string &Error;
  bool fail(const std::string &Path, const std::string &Msg) {
    if (Error.empty())
      Error = Path + ": " + Msg;
    return false;
  }
  bool string(const Value &Obj, const char *Key, const std::string &Path,
              std::string &Out, bool Required) {
    auto It = Obj.FindMember(Key);
    if (It == Obj.MemberEnd())
      return Required ? fail(Path, std::string("missing '") + Key + "'") : true;
    if (!It->value.IsString())
      return fail(Path + "." + Key, "expected a string");
    Out = It->value.GetString();
    return true;
  }
  bool uint(const Value &Obj, const char *Key, const std::string &Path,
            unsigned &Out) {
    auto It = Obj.FindMember(Key);
    if (It == Obj.MemberEnd())
      return true;
    if (!It->value.IsUint())
      return fail(Path + "." + Key, "expected a non-negative integer");
    Out = It->value.GetUint();
    return true;
  }
  bool dim(const Value &Obj, const char *Key, const std::string &Path,
           std::array<unsigned, 3> &Out) {
    auto It = Obj.FindMember(Key);
    if (It == Obj.MemberEnd())
      return true;
    const Value &A = It->value;
    if (!A.IsArray() || A.Size() != 3)
      return fail(Path + "." + Key, "expected [x, y, z]");
    for (unsigned I = 0; I < 3; ++I) {
      if (!A[I].IsUint())
        return fail(Path + "." + Key, "expected [x, y, z]");
      Out[I] = A[I].GetUint();
    }
    return true;
  }
  /// A string that, when \p Required, must be there and not be empty.
  bool nonEmptyString(const Value &Obj, const char *Key,
                      const std::string &Path, std::string &Out,
                      bool Required) {
    auto It = Obj.FindMember(Key);
    if (It == Obj.MemberEnd())
      return Required ? fail(Path, std::string("missing '") + Key + "'") : true;
    if (!It->value.IsString() || (Required && !It->value.GetStringLength()))
      return fail(Path + "." + Key, "expected a non-empty string");
    Out = It->value.GetString();
    return true;
  }
  /// An array of strings; with \p NonEmpty, none of them empty.
  bool strings(const Value &Obj, const char *Key, const std::string &Path,
               std::vector<std::string> &Out, bool NonEmpty = false) {
    auto It = Obj.FindMember(Key);
    if (It == Obj.MemberEnd())
      return true;
    if (!It->value.IsArray())
      return fail(Path + "." + Key, "expected an array of strings");
    for (const Value &S : It->value.GetArray()) {
      if (!S.IsString() || (NonEmpty && !S.GetStringLength()))
        return fail(Path + "." + Key, "expected an array of strings");
      Out.push_back(S.GetString());
    }
    return true;
  }
  /// \p V, a number or null (left unset).
  bool numberOrNull(const Value &V, const std::string &Path,
                    std::optional<double> &Out) {
    if (V.IsNull())
      return true;
    if (!V.IsNumber())
      return fail(Path, "expected a number or null");
    Out = V.GetDouble();
    return true;
  }
};

/// Parses \p Text into \p Doc (parseBounded), which must be an object;
/// otherwise sets \p Error to "<line>:<col>: malformed JSON: <why>", a
/// limit parseBounded found, or "$: expected an object", and returns false.
inline bool parseObject(const std::string &Text, rapidjson::Document &Doc,
                        std::string &Error) {
  if (!parseBounded(Text, Doc, Error))
    return false;
  if (!Doc.IsObject()) {
    Error = "$: expected an object";
    return false;
  }
  return true;
}

} // namespace json
} // namespace autoprof

#endif // AUTOPROF_JSON_FIELDREADER_H
