// R-MAT and Erdos-Renyi generators on counter-based random numbers: entry i is a function of
// (seed, i) only, so the output is the same on every platform and for any thread count.
#include <warpgraph/datasets/generators.hpp>

#include <cmath>
#include <string>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/random.hpp>

namespace wg::datasets {
namespace {

/// A bijection on [0, 2^bits) keyed by `key`: odd multiplications, xor-shifts and additions,
/// all modulo 2^bits (each step is invertible).
struct IdScrambler {
  unsigned bits;
  std::uint64_t mask, k1, k2, m1, m2;
  IdScrambler(unsigned b, std::uint64_t key)
      : bits(b),
        mask(b >= 64 ? ~0ull : (1ull << b) - 1),
        k1(detail::mix64(key ^ 0x1234567ull)),
        k2(detail::mix64(key ^ 0x89abcdefull)),
        m1(detail::mix64(key ^ 0x5555ull) | 1),
        m2(detail::mix64(key ^ 0xaaaaull) | 1) {}
  std::uint64_t operator()(std::uint64_t x) const {
    if (bits == 0) return 0;
    const unsigned shift = bits / 2 + 1;
    x = (x * m1 + k1) & mask;
    x ^= x >> shift;
    x = (x * m2 + k2) & mask;
    x ^= x >> shift;
    x = (x * m1 + k2) & mask;
    return x;
  }
};

std::uint32_t threshold(double p) {
  // Probabilities as 16-bit fixed-point thresholds: compared with integers, so the quadrant
  // choice does not depend on floating-point details of the platform.
  double t = std::ldexp(p, 16);
  if (t <= 0) return 0;
  if (t >= 65536.0) return 65536;
  return static_cast<std::uint32_t>(std::llround(t));
}

}  // namespace

EdgeList generate_rmat(const RmatParams& p) {
  if (p.scale > 31)
    throw InvalidArgument("generate_rmat: scale " + std::to_string(p.scale) +
                          " exceeds 31 (ids must be below wg::kVertexIdLimit = 2^31)");
  if (!(p.a >= 0 && p.b >= 0 && p.c >= 0 && p.a + p.b + p.c <= 1.0 + 1e-12))
    throw InvalidArgument("generate_rmat: need a, b, c >= 0 and a + b + c <= 1");
  if (!(p.edge_factor >= 0) || !std::isfinite(p.edge_factor))
    throw InvalidArgument("generate_rmat: edge_factor must be a finite number >= 0");
  const std::uint64_t n = 1ull << p.scale;
  const double m_real = p.edge_factor * static_cast<double>(n);
  if (m_real > 1e11) throw InvalidArgument("generate_rmat: too many edges requested");
  const std::uint64_t m = static_cast<std::uint64_t>(std::llround(m_real));
  // Four levels per 64-bit draw, 16 bits each: thresholds are exact to 2^-16.
  const std::uint32_t ta = threshold(p.a), tab = threshold(p.a + p.b),
                      tabc = threshold(p.a + p.b + p.c);
  const IdScrambler scramble(p.scale,
                             (p.scramble_seed ? p.scramble_seed : p.seed) ^ 0x5c4a3b2d1e0f9876ull);
  const unsigned scale = p.scale;
  const bool scramble_ids = p.scramble_ids;
  const std::uint64_t seed = p.seed;

  EdgeList out;
  out.num_vertices = n;
  out.symmetric = p.symmetric;
  out.src.resize(m);
  out.dst.resize(m);
  vertex_t* const src = out.src.data();
  vertex_t* const dst = out.dst.data();
  detail::parallel_for(m, [=](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      detail::SplitMix64 rng = detail::stream_for(seed, i);
      std::uint64_t u = 0, v = 0;
      for (unsigned level = 0; level < scale; level += 4) {
        std::uint64_t r = rng.next();
        const unsigned levels = scale - level < 4 ? scale - level : 4;
        for (unsigned k = 0; k < levels; ++k, r >>= 16) {
          const std::uint32_t x = static_cast<std::uint32_t>(r & 0xffff);
          // Quadrant 0..3 = a, b, c, d: its high bit is the row bit, its low bit the column bit.
          const unsigned q = (x >= ta) + (x >= tab) + (x >= tabc);
          u = (u << 1) | (q >> 1);
          v = (v << 1) | (q & 1);
        }
      }
      if (scramble_ids) {
        u = scramble(u);
        v = scramble(v);
      }
      src[i] = static_cast<vertex_t>(u);
      dst[i] = static_cast<vertex_t>(v);
    }
  });
  return out;
}

EdgeList generate_erdos_renyi(const ErdosRenyiParams& p) {
  if (p.num_vertices == 0 && p.num_edges > 0)
    throw InvalidArgument("generate_erdos_renyi: num_edges > 0 needs num_vertices > 0");
  if (p.num_vertices > kVertexIdLimit)
    throw InvalidArgument(
        "generate_erdos_renyi: num_vertices exceeds wg::kVertexIdLimit (2^31 vertex ids)");
  if (p.num_edges > 100'000'000'000ull)
    throw InvalidArgument("generate_erdos_renyi: too many edges requested");
  EdgeList out;
  out.num_vertices = p.num_vertices;
  out.symmetric = p.symmetric;
  out.src.resize(p.num_edges);
  out.dst.resize(p.num_edges);
  detail::parallel_for(p.num_edges, [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t i = begin; i < end; ++i) {
      detail::SplitMix64 rng = detail::stream_for(p.seed ^ 0xe7037ed1a0b428dbull, i);
      out.src[i] = static_cast<vertex_t>(rng.below(p.num_vertices));
      out.dst[i] = static_cast<vertex_t>(rng.below(p.num_vertices));
    }
  });
  return out;
}

}  // namespace wg::datasets
