#pragma once
// Test parameters shared by the BS-tree suites: each test runs on both variants (plain and
// FOR-compressed) and every SIMD path, skipping paths this CPU lacks.
#include <gtest/gtest.h>

#include <string>

#include <warpgraph/containers/bstree/bstree.hpp>

namespace wg::bstree::test {

struct Param {
  bool compressed;
  SimdPath simd;
  bool single_writer = false;  ///< SingleWriterPolicy instead of the concurrent DefaultPolicy
};

inline std::string param_name(const testing::TestParamInfo<Param>& info) {
  return std::string(info.param.compressed ? "compressed_" : "plain_") +
         to_string(info.param.simd) + (info.param.single_writer ? "_single_writer" : "");
}

class VariantTest : public testing::TestWithParam<Param> {
 protected:
  void SetUp() override {
    if (!simd_path_supported(GetParam().simd))
      GTEST_SKIP() << "CPU lacks " << to_string(GetParam().simd);
  }
  Options options() const {
    Options o;
    o.simd = GetParam().simd;
    o.max_leaves = 1u << 20;
    return o;
  }
};

/// Runs `body` with a tree of the parameter's variant.
template <class Value, class Body>
void with_tree(const Param& p, const Options& o, Body&& body) {
  if (p.single_writer) {
    if (p.compressed) {
      CompressedBSTree<Value, SingleWriterPolicy> t(o);
      body(t);
    } else {
      BSTree<Value, SingleWriterPolicy> t(o);
      body(t);
    }
  } else if (p.compressed) {
    CompressedBSTree<Value> t(o);
    body(t);
  } else {
    BSTree<Value> t(o);
    body(t);
  }
}

}  // namespace wg::bstree::test
