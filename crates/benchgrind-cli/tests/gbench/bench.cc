// A Google Benchmark program for the `benchgrind gbench` tests (tests/gbench.rs).
//
// Built three times with Debian's libbenchmark-dev: as is (the "old" build), with -DSLOWER (the
// "new" build: BM_Sum sums half of its values once more in every iteration) and with -DWITH_CRASH
// (BM_Crash, registered between the others, dereferences null in its loop).
#include <benchmark/benchmark.h>

#include <map>
#include <numeric>
#include <string>
#include <vector>

// Set-up before the loop and the loop itself; only the loop is counted.
static void BM_Sum(benchmark::State& state) {
  std::vector<long> values(static_cast<std::size_t>(state.range(0)));
  std::iota(values.begin(), values.end(), 1L);
  for (auto _ : state) {
    long sum = std::accumulate(values.begin(), values.end(), 0L);
#ifdef SLOWER
    sum += std::accumulate(values.begin(), values.begin() + values.size() / 2, 0L);
#endif
    benchmark::DoNotOptimize(sum);
  }
}
BENCHMARK(BM_Sum)->Arg(256)->Arg(4096);

// A set-up of millions of instructions and a loop of a few: the counts must be the loop's.
static void BM_HeavySetup(benchmark::State& state) {
  std::vector<long> values(200000);
  std::iota(values.begin(), values.end(), 3L);
  long total = std::accumulate(values.begin(), values.end(), 0L);
  for (auto _ : state) {
    benchmark::DoNotOptimize(total);
  }
}
BENCHMARK(BM_HeavySetup);

#ifdef WITH_CRASH
static void BM_Crash(benchmark::State& state) {
  for (auto _ : state) {
    volatile int* volatile nowhere = nullptr;
    *nowhere = 1;
  }
}
BENCHMARK(BM_Crash);
#endif

// Template names (`<>`) and the older loop style.
template <class Key>
static void BM_MapInsert(benchmark::State& state) {
  while (state.KeepRunning()) {
    std::map<Key, int> map;
    for (int i = 0; i < 32; ++i) map[static_cast<Key>(i * 7 % 32)] = i;
    benchmark::DoNotOptimize(map.size());
  }
}
BENCHMARK_TEMPLATE(BM_MapInsert, int);
BENCHMARK_TEMPLATE(BM_MapInsert, long);

// A name full of regex metacharacters, selected alone all the same.
static void BM_Concat(benchmark::State& state) {
  const std::string part(24, 'x');
  for (auto _ : state) {
    std::string joined = part + part;
    benchmark::DoNotOptimize(joined.data());
  }
}
BENCHMARK(BM_Concat)->Name("BM_Concat(a+b)[1].*");

BENCHMARK_MAIN();
