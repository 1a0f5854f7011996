#pragma once
// Benchmark harness shared by every benchmark in tools/bench: repeated measurement after
// warm-up, median, harmonic-mean rates (as the papers report them), and JSON records that
// tools/bench/plot.py draws beside the papers' figures.
//
//   wg::bench::Series s = wg::bench::measure({.warmup = 2, .repetitions = 9}, [&] { ...; return seconds; });
//   double rate = items / s.median();
//   report.add({{"bench", "slab_set_insert"}, {"n", n}, {"rate", rate}, {"paper", 10.0e9}});
//   report.write(path);  // JSON array of records
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wg::bench {

struct MeasureOptions {
  int warmup = 2;       ///< untimed runs first (lazy kernel loading, caches, allocators)
  int repetitions = 9;  ///< timed runs; the median is reported
};

/// Timings of one configuration, in seconds.
struct Series {
  std::vector<double> seconds;
  double median() const {
    if (seconds.empty()) return 0;
    std::vector<double> s = seconds;
    std::sort(s.begin(), s.end());
    std::size_t n = s.size();
    return n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  }
  double min() const { return seconds.empty() ? 0 : *std::min_element(seconds.begin(), seconds.end()); }
  double max() const { return seconds.empty() ? 0 : *std::max_element(seconds.begin(), seconds.end()); }
};

/// Runs `run` warmup + repetitions times. `run` returns the seconds of the timed region (so it
/// can exclude set-up, e.g. with CUDA events); use wall_seconds() to time a whole call.
inline Series measure(const MeasureOptions& o, const std::function<double()>& run) {
  for (int i = 0; i < o.warmup; ++i) run();
  Series s;
  for (int i = 0; i < o.repetitions; ++i) s.seconds.push_back(run());
  return s;
}

/// Wall-clock seconds of fn() (host work only; synchronise the device inside fn for GPU work).
inline double wall_seconds(const std::function<void()>& fn) {
  auto t0 = std::chrono::steady_clock::now();
  fn();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Harmonic mean: the right average of rates over equal amounts of work.
inline double harmonic_mean(const std::vector<double>& rates) {
  if (rates.empty()) return 0;
  double inv = 0;
  for (double r : rates) {
    if (r <= 0) return 0;
    inv += 1.0 / r;
  }
  return static_cast<double>(rates.size()) / inv;
}

/// A list of JSON records (one per measured configuration), written as a JSON array.
class Report {
 public:
  void add(nlohmann::json record) { records_.push_back(std::move(record)); }
  const nlohmann::json& records() const { return records_; }
  void write(const std::string& path) const {
    std::ofstream f(path);
    if (!f) throw std::runtime_error(path + ": cannot open for writing");
    f << records_.dump(2) << "\n";
  }

 private:
  nlohmann::json records_ = nlohmann::json::array();
};

/// "ours beside the paper's" as one table line on stdout.
inline void print_row(const std::string& label, double ours, double paper, const char* unit) {
  if (paper > 0)
    std::printf("%-48s %10.3f %-8s paper %10.3f  (x%.2f)\n", label.c_str(), ours, unit, paper,
                ours / paper);
  else
    std::printf("%-48s %10.3f %-8s\n", label.c_str(), ours, unit);
}

}  // namespace wg::bench
