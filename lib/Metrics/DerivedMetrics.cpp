//===- DerivedMetrics.cpp - Evaluating the catalog's formulas -------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Metrics/DerivedMetrics.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

using namespace autoprof;

namespace {

/// Recursive descent over the formula; the first error wins.
class FormulaParser {
public:
  FormulaParser(llvm::StringRef Text, const MetricLookup &Lookup)
      : Text(Text), Lookup(Lookup) {}

  llvm::Expected<double> parse() {
    double V = expr();
    skipSpace();
    if (Error.empty() && Pos != Text.size())
      fail("unexpected '" + Text.substr(Pos, 12).str() + "'");
    if (!Error.empty())
      return llvm::createStringError(Error);
    return V;
  }

private:
  void fail(const std::string &Msg) {
    if (Error.empty())
      Error = Msg;
  }
  void skipSpace() {
    while (Pos < Text.size() && llvm::isSpace(Text[Pos]))
      ++Pos;
  }
  bool consume(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }
  double expr() {
    double V = term();
    while (Error.empty()) {
      if (consume('+'))
        V += term();
      else if (consume('-'))
        V -= term();
      else
        break;
    }
    return V;
  }
  double term() {
    double V = factor();
    while (Error.empty()) {
      if (consume('*')) {
        V *= factor();
      } else if (consume('/')) {
        double D = factor();
        if (D == 0) {
          fail("division by zero");
          return 0;
        }
        V /= D;
      } else {
        break;
      }
    }
    return V;
  }
  double factor() {
    skipSpace();
    if (Pos >= Text.size()) {
      fail("unexpected end of formula");
      return 0;
    }
    if (consume('-'))
      return -factor();
    if (consume('(')) {
      double V = expr();
      if (!consume(')'))
        fail("expected ')'");
      return V;
    }
    char C = Text[Pos];
    if (llvm::isDigit(C) || C == '.') {
      size_t End = Pos;
      while (End < Text.size() &&
             (llvm::isAlnum(Text[End]) || Text[End] == '.' ||
              ((Text[End] == '-' || Text[End] == '+') && End > Pos &&
               (Text[End - 1] == 'e' || Text[End - 1] == 'E'))))
        ++End;
      double V = 0;
      if (Text.substr(Pos, End - Pos).getAsDouble(V)) {
        fail("bad number '" + Text.substr(Pos, End - Pos).str() + "'");
        return 0;
      }
      Pos = End;
      return V;
    }
    if (llvm::isAlpha(C) || C == '_') {
      size_t End = Pos;
      while (End < Text.size() &&
             (llvm::isAlnum(Text[End]) || Text[End] == '_' || Text[End] == '.'))
        ++End;
      llvm::StringRef Name = Text.substr(Pos, End - Pos);
      Pos = End;
      if (Name == "max" || Name == "min") {
        if (!consume('(')) {
          fail("expected '(' after " + Name.str());
          return 0;
        }
        double A = expr();
        if (!consume(',')) {
          fail("expected ',' in " + Name.str());
          return 0;
        }
        double B = expr();
        if (!consume(')'))
          fail("expected ')'");
        return Name == "max" ? std::max(A, B) : std::min(A, B);
      }
      std::optional<double> V = Lookup(Name);
      if (!V) {
        fail("needs '" + Name.str() + "', which was not collected");
        return 0;
      }
      return *V;
    }
    fail("unexpected '" + Text.substr(Pos, 12).str() + "'");
    return 0;
  }

  llvm::StringRef Text;
  const MetricLookup &Lookup;
  size_t Pos = 0;
  std::string Error;
};

} // namespace

llvm::Expected<double> autoprof::evaluateFormula(llvm::StringRef Formula,
                                                 const MetricLookup &Lookup) {
  return FormulaParser(Formula, Lookup).parse();
}
