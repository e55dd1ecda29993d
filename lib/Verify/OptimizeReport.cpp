//===- OptimizeReport.cpp - The report `optimize` writes ------------------===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//

#include "autoprof/Verify/OptimizeReport.h"

#include "autoprof/JSON/BoundedParse.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <cmath>

using namespace autoprof;
using namespace autoprof::verify;

namespace {

using Writer = rapidjson::PrettyWriter<rapidjson::StringBuffer>;

void number(Writer &W, const char *Key, std::optional<double> V) {
  W.Key(Key);
  if (V && std::isfinite(*V))
    W.Double(*V);
  else
    W.Null();
}

void timing(Writer &W, const char *Key, const std::optional<Timing> &T) {
  W.Key(Key);
  if (!T) {
    W.Null();
    return;
  }
  W.StartObject();
  number(W, "median_ns", T->MedianNs);
  number(W, "min_ns", T->MinNs);
  number(W, "max_ns", T->MaxNs);
  W.Key("runs");
  W.Uint(T->Runs);
  W.EndObject();
}

void attempt(Writer &W, const AttemptReport &A) {
  W.StartObject();
  W.Key("transformation");
  W.String(A.Transformation.c_str());
  W.Key("trigger");
  if (A.Trigger.empty())
    W.Null();
  else
    W.String(A.Trigger.c_str());
  W.Key("verdict");
  W.String(verdictName(A.Result.V).data());
  W.Key("accepted");
  W.Bool(A.Result.accepted());
  W.Key("reason");
  W.String(A.Result.Reason.c_str());
  number(W, "speedup", A.Result.Speedup);
  W.Key("speedup_range");
  if (A.Result.SpeedupLow && A.Result.SpeedupHigh) {
    W.StartArray();
    W.Double(*A.Result.SpeedupLow);
    W.Double(*A.Result.SpeedupHigh);
    W.EndArray();
  } else {
    W.Null();
  }
  timing(W, "original", A.Result.Original);
  timing(W, "candidate", A.Result.Candidate);
  // The program's other kernels, when it launches any.
  W.Key("other_kernels");
  if (A.Result.OtherOriginalNs && A.Result.OtherCandidateNs) {
    W.StartObject();
    W.Key("original_median_us");
    W.Double(*A.Result.OtherOriginalNs / 1e3);
    W.Key("candidate_median_us");
    W.Double(*A.Result.OtherCandidateNs / 1e3);
    W.EndObject();
  } else {
    W.Null();
  }
  W.EndObject();
}

} // namespace

std::string autoprof::verify::writeOptimizeReportJSON(const OptimizeReport &R) {
  rapidjson::StringBuffer B;
  Writer W(B);
  W.SetIndent(' ', 2);
  W.StartObject();
  W.Key("version");
  W.Int(OptimizeReportVersion);
  W.Key("source");
  W.String(R.Source.c_str());
  W.Key("tree");
  W.String(R.Tree.c_str());
  W.Key("rewriter");
  W.String(R.Rewriter.c_str());
  W.Key("seeds");
  W.StartArray();
  for (uint64_t S : R.Seeds)
    W.Uint64(S);
  W.EndArray();
  W.Key("kernels");
  W.StartArray();
  for (const KernelReport &K : R.Kernels) {
    W.StartObject();
    W.Key("kernel");
    W.String(K.Name.c_str());
    W.Key("mangled_name");
    W.String(K.MangledName.c_str());
    W.Key("leaf");
    W.String(K.Leaf.c_str());
    W.Key("route");
    W.StartArray();
    for (const std::string &S : K.Route)
      W.String(S.c_str());
    W.EndArray();
    W.Key("metrics");
    W.StartObject();
    for (const auto &[Name, V] : K.Metrics)
      number(W, Name.c_str(), V);
    W.EndObject();
    W.Key("attempts");
    W.StartArray();
    for (const AttemptReport &A : K.Attempts)
      attempt(W, A);
    W.EndArray();
    W.Key("kept");
    if (K.Kept.empty())
      W.Null();
    else
      W.String(K.Kept.c_str());
    number(W, "speedup", K.Speedup);
    W.EndObject();
  }
  W.EndArray();
  W.Key("combined");
  if (R.Combined)
    attempt(W, *R.Combined);
  else
    W.Null();
  W.Key("outcome");
  W.String(R.Outcome.c_str());
  W.Key("inputs_vary");
  if (R.InputsVary)
    W.Bool(*R.InputsVary);
  else
    W.Null();
  W.Key("later_launch_unchecked");
  if (R.LaterLaunchUnchecked.empty())
    W.Null();
  else
    W.String(R.LaterLaunchUnchecked.c_str());
  number(W, "seconds", R.Seconds);
  W.Key("timings");
  W.StartObject();
  for (const auto &[Phase, T] : R.Timings) {
    W.Key(Phase.c_str());
    W.StartObject();
    W.Key("count");
    W.Uint(T.Count);
    number(W, "seconds", T.Seconds);
    number(W, "lock_wait_seconds", T.LockWaitSeconds);
    W.EndObject();
  }
  W.EndObject();
  W.EndObject();
  return std::string(B.GetString(), B.GetSize()) + "\n";
}

std::string autoprof::verify::renderOptimizeReportText(const OptimizeReport &R,
                                                       bool SourceUnchanged) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  bool Model = R.Rewriter == "llm";
  for (const KernelReport &K : R.Kernels) {
    OS << "kernel " << K.Name;
    if (!K.Leaf.empty())
      OS << ": leaf " << K.Leaf;
    OS << "\n";
    if (K.Attempts.empty())
      OS << "  no rewrite triggered\n";
    for (const AttemptReport &A : K.Attempts) {
      OS << "  " << A.Transformation << ": " << verdictName(A.Result.V) << ": "
         << A.Result.Reason << "\n    " << (Model ? "rewriter: " : "trigger: ")
         << (A.Trigger.empty() ? "none (--try-all)" : A.Trigger) << "\n";
      if (A.Result.OtherOriginalNs && A.Result.OtherCandidateNs)
        OS << "    other kernels: "
           << llvm::format("%.1f us against %.1f us",
                           *A.Result.OtherCandidateNs / 1e3,
                           *A.Result.OtherOriginalNs / 1e3)
           << " (median total per run)\n";
    }
    if (!K.Kept.empty())
      OS << "  kept: " << K.Kept << " (" << llvm::format("%.2fx", *K.Speedup)
         << ")\n";
  }
  if (R.Combined)
    OS << "together: " << R.Combined->Transformation << ": "
       << verdictName(R.Combined->Result.V) << ": " << R.Combined->Result.Reason
       << "\n";
  if (R.InputsVary && !*R.InputsVary)
    OS << "note: the inputs the saved launch only reads are the same with "
          "every AUTOPROF_SEED: verification rests on one input\n";
  if (!R.LaterLaunchUnchecked.empty())
    OS << "note: no later launch was checked from poisoned outputs: "
       << R.LaterLaunchUnchecked << "\n";
  OS << "outcome: " << R.Outcome;
  if (R.Outcome == "verified" && SourceUnchanged)
    OS << " (the source is unchanged; --in-place writes it)";
  OS << "\n";
  return Text;
}

namespace {

using Value = rapidjson::Value;

/// Reads the fields of a report; the first error wins.
class ReportReader {
public:
  std::string Error;

  bool fail(const std::string &Path, const std::string &Msg) {
    if (Error.empty())
      Error = Path + ": " + Msg;
    return false;
  }
  bool string(const Value &O, const char *Key, const std::string &Path,
              std::string &Out, bool Nullable = false) {
    auto It = O.FindMember(Key);
    if (It == O.MemberEnd())
      return fail(Path, std::string("missing '") + Key + "'");
    if (Nullable && It->value.IsNull())
      return true;
    if (!It->value.IsString())
      return fail(Path + "." + Key, "expected a string");
    Out.assign(It->value.GetString(), It->value.GetStringLength());
    return true;
  }
  bool number(const Value &O, const char *Key, const std::string &Path,
              std::optional<double> &Out) {
    auto It = O.FindMember(Key);
    if (It == O.MemberEnd() || It->value.IsNull())
      return true;
    if (!It->value.IsNumber())
      return fail(Path + "." + Key, "expected a number or null");
    Out = It->value.GetDouble();
    return true;
  }
  bool array(const Value &O, const char *Key, const std::string &Path,
             const Value *&Out) {
    auto It = O.FindMember(Key);
    if (It == O.MemberEnd() || !It->value.IsArray())
      return fail(Path, std::string("expected an array '") + Key + "'");
    Out = &It->value;
    return true;
  }

  bool attempt(const Value &O, const std::string &Path, AttemptReport &A) {
    if (!O.IsObject())
      return fail(Path, "expected an object");
    std::string V;
    if (!string(O, "transformation", Path, A.Transformation) ||
        !string(O, "trigger", Path, A.Trigger, /*Nullable=*/true) ||
        !string(O, "verdict", Path, V) ||
        !string(O, "reason", Path, A.Result.Reason) ||
        !number(O, "speedup", Path, A.Result.Speedup))
      return false;
    std::optional<Verdict> Named = verdictFromName(V);
    if (!Named)
      return fail(Path + ".verdict", "unknown verdict '" + V + "'");
    A.Result.V = *Named;
    auto R = O.FindMember("speedup_range");
    if (R != O.MemberEnd() && !R->value.IsNull()) {
      if (!R->value.IsArray() || R->value.Size() != 2 ||
          !R->value[0].IsNumber() || !R->value[1].IsNumber())
        return fail(Path + ".speedup_range", "expected [low, high] or null");
      A.Result.SpeedupLow = R->value[0].GetDouble();
      A.Result.SpeedupHigh = R->value[1].GetDouble();
    }
    return true;
  }

  bool kernel(const Value &O, const std::string &Path, KernelReport &K) {
    if (!O.IsObject())
      return fail(Path, "expected an object");
    const Value *Route, *Attempts;
    if (!string(O, "kernel", Path, K.Name) ||
        !string(O, "mangled_name", Path, K.MangledName) ||
        !string(O, "leaf", Path, K.Leaf) || !array(O, "route", Path, Route) ||
        !array(O, "attempts", Path, Attempts) ||
        !string(O, "kept", Path, K.Kept, /*Nullable=*/true) ||
        !number(O, "speedup", Path, K.Speedup))
      return false;
    for (const Value &S : Route->GetArray()) {
      if (!S.IsString())
        return fail(Path + ".route", "expected strings");
      K.Route.push_back(S.GetString());
    }
    auto M = O.FindMember("metrics");
    if (M == O.MemberEnd() || !M->value.IsObject())
      return fail(Path, "expected an object 'metrics'");
    for (const auto &E : M->value.GetObject())
      if (E.value.IsNumber())
        K.Metrics[E.name.GetString()] = E.value.GetDouble();
    for (unsigned I = 0; I < Attempts->Size(); ++I) {
      AttemptReport &A = K.Attempts.emplace_back();
      if (!attempt((*Attempts)[I],
                   Path + ".attempts[" + std::to_string(I) + "]", A))
        return false;
    }
    return true;
  }

  bool report(const Value &D, OptimizeReport &R) {
    if (!D.IsObject())
      return fail("$", "expected an object");
    auto V = D.FindMember("version");
    if (V == D.MemberEnd() || !V->value.IsInt() ||
        V->value.GetInt() != OptimizeReportVersion)
      return fail("$.version", "unsupported version (expected " +
                                   std::to_string(OptimizeReportVersion) + ")");
    const Value *Seeds, *Kernels;
    std::string Later;
    std::optional<double> Seconds;
    if (!string(D, "source", "$", R.Source) ||
        !string(D, "tree", "$", R.Tree) ||
        !string(D, "rewriter", "$", R.Rewriter) ||
        !array(D, "seeds", "$", Seeds) || !array(D, "kernels", "$", Kernels) ||
        !string(D, "outcome", "$", R.Outcome) ||
        !string(D, "later_launch_unchecked", "$", R.LaterLaunchUnchecked,
                /*Nullable=*/true) ||
        !number(D, "seconds", "$", Seconds))
      return false;
    R.Seconds = Seconds.value_or(0);
    for (const Value &S : Seeds->GetArray()) {
      if (!S.IsUint64())
        return fail("$.seeds", "expected non-negative integers");
      R.Seeds.push_back(S.GetUint64());
    }
    for (unsigned I = 0; I < Kernels->Size(); ++I) {
      KernelReport &K = R.Kernels.emplace_back();
      if (!kernel((*Kernels)[I], "$.kernels[" + std::to_string(I) + "]", K))
        return false;
    }
    auto C = D.FindMember("combined");
    if (C != D.MemberEnd() && !C->value.IsNull()) {
      R.Combined.emplace();
      if (!attempt(C->value, "$.combined", *R.Combined))
        return false;
    }
    auto IV = D.FindMember("inputs_vary");
    if (IV != D.MemberEnd() && IV->value.IsBool())
      R.InputsVary = IV->value.GetBool();
    return true;
  }
};

} // namespace

llvm::Expected<OptimizeReport>
autoprof::verify::readOptimizeReportJSON(llvm::StringRef Text) {
  rapidjson::Document D;
  std::string Error;
  if (!json::parseBounded(Text.data(), Text.size(), D, Error))
    return llvm::createStringError(Error);
  OptimizeReport R;
  ReportReader Rd;
  if (!Rd.report(D, R))
    return llvm::createStringError(Rd.Error);
  return R;
}
