//===- corpus.cuh - Shared harness for the kernel corpus --------*- CUDA -*-===//
//
// Part of clang-autoprof.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Host-side harness shared by every corpus program: error checking, the
/// seeded input generator, launch timing with CUDA events and the one-line
/// summary that tools parse.
///
/// Summary line (stdout, exactly one per program):
///   corpus: <program> PASS|FAIL max_err=<e> tol=<t> <kernel>_us=<median> ...
/// where each `<kernel>_us` is the median over the timed launches of that
/// kernel, in microseconds. Errors go to stderr; the exit status is 0 on PASS,
/// 1 on a mismatch and 2 on a CUDA error.
///
//===----------------------------------------------------------------------===//

#ifndef AUTOPROF_CORPUS_CUH
#define AUTOPROF_CORPUS_CUH

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <cuda_runtime.h>

/// Checks a CUDA runtime call; prints file:line and the error, exits with 2.
#define CORPUS_CHECK(Call)                                                     \
  do {                                                                         \
    cudaError_t CorpusErr = (Call);                                            \
    if (CorpusErr != cudaSuccess) {                                            \
      std::fprintf(stderr, "%s:%d: CUDA error: %s: %s\n", __FILE__, __LINE__, \
                   #Call, cudaGetErrorString(CorpusErr));                      \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

namespace corpus {

/// The seed of every input: AUTOPROF_SEED when set, else a fixed default.
inline uint64_t seed() {
  if (const char *S = std::getenv("AUTOPROF_SEED")) {
    char *End = nullptr;
    unsigned long long V = std::strtoull(S, &End, 10);
    if (End != S && *End == '\0')
      return V;
    std::fprintf(stderr, "corpus: AUTOPROF_SEED is not an integer: '%s'\n", S);
    std::exit(2);
  }
  return 20261202ULL;
}

/// Number of timed launches after the warm-up: AUTOPROF_REPS or 10 (min 5).
inline int reps() {
  if (const char *S = std::getenv("AUTOPROF_REPS")) {
    int V = std::atoi(S);
    return V < 5 ? 5 : V;
  }
  return 10;
}

/// A small deterministic generator (SplitMix64).
class Rng {
public:
  explicit Rng(uint64_t Seed) : State(Seed) {}
  uint64_t next() {
    uint64_t Z = (State += 0x9E3779B97F4A7C15ULL);
    Z = (Z ^ (Z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94D049BB133111EBULL;
    return Z ^ (Z >> 31);
  }
  /// Uniform float in [Lo, Hi).
  float uniform(float Lo = -1.0f, float Hi = 1.0f) {
    return Lo + (Hi - Lo) * (float)((next() >> 40) * (1.0 / 16777216.0));
  }
  /// Uniform integer in [0, N).
  uint32_t below(uint32_t N) { return (uint32_t)(next() % N); }
  void fill(std::vector<float> &V, float Lo = -1.0f, float Hi = 1.0f) {
    for (float &X : V)
      X = uniform(Lo, Hi);
  }

private:
  uint64_t State;
};

/// Device buffer of T that frees itself.
template <typename T> class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t N) : Count(N) {
    CORPUS_CHECK(cudaMalloc(&Ptr, N * sizeof(T)));
  }
  ~DeviceBuffer() { cudaFree(Ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  T *get() const { return Ptr; }
  size_t size() const { return Count; }
  void upload(const std::vector<T> &H) {
    CORPUS_CHECK(cudaMemcpy(Ptr, H.data(), Count * sizeof(T),
                            cudaMemcpyHostToDevice));
  }
  void download(std::vector<T> &H) const {
    H.resize(Count);
    CORPUS_CHECK(cudaMemcpy(H.data(), Ptr, Count * sizeof(T),
                            cudaMemcpyDeviceToHost));
  }
  void zero() { CORPUS_CHECK(cudaMemset(Ptr, 0, Count * sizeof(T))); }

private:
  T *Ptr = nullptr;
  size_t Count;
};

/// Collects per-kernel launch times and prints the summary line.
class Harness {
public:
  explicit Harness(const char *Program) : Program(Program) {}

  /// Runs \p Launch once to warm up, then reps() times, each timed with CUDA
  /// events; checks the launch error and synchronises after every launch.
  /// \p Launch must launch exactly the kernel named \p Kernel. \p Reset, when
  /// given, runs untimed before each launch (for kernels that accumulate).
  template <typename LaunchFn, typename ResetFn>
  void time(const char *Kernel, LaunchFn Launch, ResetFn Reset) {
    cudaEvent_t Start, Stop;
    CORPUS_CHECK(cudaEventCreate(&Start));
    CORPUS_CHECK(cudaEventCreate(&Stop));
    std::vector<float> Ms;
    int N = reps();
    for (int I = 0; I <= N; ++I) {
      Reset();
      CORPUS_CHECK(cudaEventRecord(Start));
      Launch();
      CORPUS_CHECK(cudaGetLastError());
      CORPUS_CHECK(cudaEventRecord(Stop));
      CORPUS_CHECK(cudaEventSynchronize(Stop));
      float T = 0;
      CORPUS_CHECK(cudaEventElapsedTime(&T, Start, Stop));
      if (I > 0) // The first launch is the warm-up.
        Ms.push_back(T);
    }
    CORPUS_CHECK(cudaEventDestroy(Start));
    CORPUS_CHECK(cudaEventDestroy(Stop));
    std::sort(Ms.begin(), Ms.end());
    float Median = Ms.size() % 2 ? Ms[Ms.size() / 2]
                                 : 0.5f * (Ms[Ms.size() / 2 - 1] +
                                           Ms[Ms.size() / 2]);
    Times.emplace_back(Kernel, Median * 1000.0);
  }
  template <typename LaunchFn> void time(const char *Kernel, LaunchFn Launch) {
    time(Kernel, Launch, [] {});
  }

  /// Records the error of one compared value: |Got - Want| / max(1, |Want|).
  void compare(double Got, double Want) {
    double E = std::fabs(Got - Want) / std::max(1.0, std::fabs(Want));
    if (!(E <= MaxErr)) // Also catches NaN.
      MaxErr = std::isnan(E) ? INFINITY : E;
  }

  /// Prints the summary line and returns the exit status.
  int finish(double Tol) {
    bool Ok = MaxErr <= Tol;
    std::printf("corpus: %s %s max_err=%.3g tol=%.3g", Program,
                Ok ? "PASS" : "FAIL", MaxErr, Tol);
    for (auto &[K, Us] : Times)
      std::printf(" %s_us=%.2f", K.c_str(), Us);
    std::printf("\n");
    return Ok ? 0 : 1;
  }

private:
  const char *Program;
  double MaxErr = 0;
  std::vector<std::pair<std::string, double>> Times;
};

} // namespace corpus

#endif // AUTOPROF_CORPUS_CUH
