#pragma once
// The four TESTs of a graph scenario: undirected and directed, set and map adjacency.
#include <gtest/gtest.h>

/// TESTs suite.name{Undirected,Directed}{Set,Map} calling fn<set>(false, args..., seed),
/// fn<set>(true, args..., seed + 1), fn<map>(false, args..., seed + 2) and
/// fn<map>(true, args..., seed + 3); set and map are fn's template arguments for the two
/// adjacencies (an adjacency type, or false / true for a graph templated on Weighted).
#define WG_FOUR_WAY_TESTS(suite, set, map, name, fn, seed, ...) \
  TEST(suite, name##UndirectedSet) {                            \
    fn<set>(false __VA_OPT__(, ) __VA_ARGS__, (seed));          \
  }                                                             \
  TEST(suite, name##DirectedSet) {                              \
    fn<set>(true __VA_OPT__(, ) __VA_ARGS__, (seed) + 1);       \
  }                                                             \
  TEST(suite, name##UndirectedMap) {                            \
    fn<map>(false __VA_OPT__(, ) __VA_ARGS__, (seed) + 2);      \
  }                                                             \
  TEST(suite, name##DirectedMap) {                              \
    fn<map>(true __VA_OPT__(, ) __VA_ARGS__, (seed) + 3);       \
  }
