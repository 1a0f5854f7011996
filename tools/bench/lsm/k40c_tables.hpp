#pragma once
// The GPU LSM paper's K40c figures (Ashkiani et al., IPDPS'18, Tables II-IV), M/s, by log2 b,
// printed and recorded beside lsm_bench's own. The paper has no B-tree; its hash table is CUDPP's
// cuckoo hashing (bulk build 361.7 M/s at load factor 0.8, lookups 498.9 none / 758.0 all).
#include <map>
#include <utility>

namespace lsm_bench {

// The paper's K40c figures (M/s), by log2 b.
struct Row3 {
  double min, max, mean, sa;
};
inline const std::map<int, std::pair<Row3, Row3>> kTable2 =
    {  // LSM {min,max,mean}, SA {min,max,mean}
        {27, {{727.8, 727.8, 727.8, 0}, {727.8, 727.8, 727.8, 0}}},
        {26, {{585.3, 727.7, 648.8, 0}, {583.1, 727.7, 647.4, 0}}},
        {25, {{421.1, 727.1, 585.5, 0}, {472.2, 726.8, 561.2, 0}}},
        {24, {{270.3, 727.1, 537.9, 0}, {346.0, 727.0, 459.2, 0}}},
        {23, {{155.5, 726.3, 485.2, 0}, {224.0, 723.2, 334.0, 0}}},
        {22, {{84.3, 714.8, 441.2, 0}, {132.6, 709.9, 219.2, 0}}},
        {21, {{44.0, 694.0, 398.1, 0}, {74.2, 691.2, 131.2, 0}}},
        {20, {{22.4, 664.2, 354.1, 0}, {39.8, 658.7, 73.8, 0}}},
        {19, {{11.3, 558.2, 289.4, 0}, {20.5, 555.9, 39.4, 0}}},
        {18, {{5.6, 432.0, 220.7, 0}, {10.5, 422.1, 20.3, 0}}},
        {17, {{2.8, 326.8, 159.9, 0}, {2.6, 319.1, 10.3, 0}}},
        {16, {{1.4, 194.3, 98.0, 0}, {1.3, 184.8, 5.2, 0}}},
        {15, {{0.7, 101.4, 58.4, 0}, {0.6, 95.9, 2.6, 0}}}};
inline const std::map<int, std::pair<Row3, Row3>> kTable3 = {  // none {min,max,mean,SA}, all {...}
    {24, {{116.8, 116.8, 116.8, 106.8}, {106.8, 106.8, 106.8, 116.7}}},
    {23, {{116.8, 133.1, 124.4, 112.4}, {106.8, 118.6, 112.4, 124.3}}},
    {22, {{61.6, 183.1, 105.9, 113.9}, {74.7, 142.2, 104.7, 128.9}}},
    {21, {{41.4, 237.4, 84.0, 118.4}, {51.7, 194.7, 91.1, 132.9}}},
    {20, {{30.7, 291.3, 68.4, 120.3}, {39.3, 251.1, 77.6, 135.0}}},
    {19, {{25.2, 331.7, 57.7, 123.4}, {32.0, 299.2, 67.5, 138.7}}},
    {18, {{22.0, 361.5, 51.1, 125.4}, {27.2, 332.0, 60.7, 141.2}}},
    {17, {{19.5, 376.7, 47.4, 126.8}, {24.3, 347.3, 56.7, 143.0}}},
    {16, {{18.1, 386.1, 45.5, 127.6}, {22.7, 365.7, 54.9, 144.1}}}};
inline const std::map<int, std::pair<Row3, Row3>> kTable4Count = {  // L=8 {min,max,mean,SA}, L=1024
    {20, {{27.0, 103.7, 48.0, 73.5}, {2.58, 4.17, 3.01, 4.10}}},
    {19, {{22.4, 94.1, 39.8, 68.6}, {2.51, 4.13, 2.86, 4.09}}},
    {18, {{19.0, 82.9, 35.1, 63.0}, {2.44, 4.10, 2.79, 4.08}}},
    {17, {{16.2, 67.6, 27.4, 56.1}, {2.36, 4.06, 2.63, 4.04}}},
    {16, {{15.1, 44.7, 23.9, 47.3}, {2.32, 3.99, 2.57, 3.99}}}};
inline const std::map<int, std::pair<Row3, Row3>> kTable4Range = {
    {20, {{23.2, 72.1, 38.4, 42.2}, {1.27, 1.80, 1.43, 1.81}}},
    {19, {{19.4, 63.2, 31.9, 38.2}, {1.25, 1.81, 1.37, 1.81}}},
    {18, {{14.6, 50.5, 24.9, 33.8}, {1.23, 1.81, 1.35, 1.81}}},
    {17, {{12.9, 36.3, 19.8, 29.1}, {1.20, 1.81, 1.28, 1.81}}},
    {16, {{11.0, 23.0, 15.1, 25.0}, {1.18, 1.76, 1.27, 1.80}}}};

template <class M>
inline Row3 paper(const M& table, int log2b, bool second) {
  auto it = table.find(log2b);
  if (it == table.end()) return {0, 0, 0, 0};
  return second ? it->second.second : it->second.first;
}

/// CUDPP cuckoo hashing on the K40c: bulk build and lookups (none / all present).
inline constexpr double kCuckooBuild = 361.7, kCuckooNone = 498.9, kCuckooAll = 758.0;
/// Bulk build of the LSM and the sorted array (one radix sort) on the K40c.
inline constexpr double kSortBuild = 728.0;

}  // namespace lsm_bench
