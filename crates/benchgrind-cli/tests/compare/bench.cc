// A small Google Benchmark program for the `benchgrind compare` tests.
//
// Built twice: as is (the "old" build) and with -DSLOWER (the "new" build), which does about 25%
// more work in BM_Accumulate, fails BM_Fragile and swaps BM_OnlyOld for BM_OnlyNew. The command
// lines are in fixtures/README.md; the integration tests build it the same way.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

static void BM_Accumulate(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  std::vector<double> values(n, 1.5);
  for (auto _ : state) {
    double sum = std::accumulate(values.begin(), values.end(), 0.0);
#ifdef SLOWER
    sum += std::accumulate(values.begin(), values.begin() + n / 4, 0.0);
#endif
    benchmark::DoNotOptimize(sum);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(n * sizeof(double)));
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
  state.counters["elements"] = static_cast<double>(n);
}
BENCHMARK(BM_Accumulate)->Arg(1024)->Arg(8192);

static void BM_StringCopy(benchmark::State& state) {
  const std::string source(static_cast<std::size_t>(state.range(0)), 'x');
  for (auto _ : state) {
    std::string copy(source);
    benchmark::DoNotOptimize(copy.data());
  }
}
BENCHMARK(BM_StringCopy)->Arg(64);

// Counters that Google Benchmark writes as NaN and Infinity in its JSON.
static void BM_OddCounters(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(state.iterations());
  }
  state.counters["undefined"] = std::numeric_limits<double>::quiet_NaN();
  state.counters["unbounded"] = std::numeric_limits<double>::infinity();
}
BENCHMARK(BM_OddCounters);

static void BM_Fragile(benchmark::State& state) {
#ifdef SLOWER
  state.SkipWithError("resource unavailable in this build");
#endif
  for (auto _ : state) {
    benchmark::DoNotOptimize(state.iterations());
  }
}
BENCHMARK(BM_Fragile);

#ifdef SLOWER
static void BM_OnlyNew(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(state.iterations());
  }
}
BENCHMARK(BM_OnlyNew);
#else
static void BM_OnlyOld(benchmark::State& state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(state.iterations());
  }
}
BENCHMARK(BM_OnlyOld);
#endif

BENCHMARK_MAIN();
