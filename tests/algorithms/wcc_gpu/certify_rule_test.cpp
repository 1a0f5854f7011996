// The decision rule of the GPU deletion certificates (algorithms/wcc/gpu/wcc_certify.cuh), modelled
// on the host: per removed edge the same cases in the same order (isolated endpoint with its
// smallest partner, a connection certificate, a piece from either side that must not hold the
// label and that no other removed edge touches), the flagged components recomputed, the rest
// keeping their labels but for isolated vertices and pieces. The certificate is any sound one: a
// coin decides whether a true connection is certified, so the rule is checked for every subset
// of certificates the GPU walks may find. The second tier (wcc_search.cuh) as well: the undecided
// edges it may search listed, searched only when few, a met pair or an eligible side decided.
// Thousands of small random graphs and batches, each compared with labels computed from scratch.
// CPU only (the rule's exactness, not the kernels).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace {

using Adj = std::vector<std::set<int>>;
constexpr int kNone = -1;

/// Component labels (smallest id of each component).
std::vector<int> labels_of(const Adj& g) {
  const int n = static_cast<int>(g.size());
  std::vector<int> label(n, kNone);
  for (int s = 0; s < n; ++s) {
    if (label[s] != kNone) continue;
    std::queue<int> q;
    q.push(s);
    label[s] = s;
    while (!q.empty()) {
      const int x = q.front();
      q.pop();
      for (int w : g[x])
        if (label[w] == kNone) {
          label[w] = s;
          q.push(w);
        }
    }
  }
  return label;
}

/// BFS from p of at most cap vertices: 1 reached q, 2 exhausted (set in `piece`), 0 overflow.
int search(const Adj& g, int p, int q, std::size_t cap, std::vector<int>& piece) {
  piece = {p};
  std::set<int> seen{p};
  for (std::size_t head = 0; head < piece.size(); ++head)
    for (int w : g[piece[head]]) {
      if (w == q) return 1;
      if (seen.insert(w).second) {
        if (piece.size() == cap) return 0;
        piece.push_back(w);
      }
    }
  return 2;
}

struct Outcome {
  std::size_t decided = 0, undecided = 0, searched = 0;
};

/// The second tier (wcc_search.cuh): limit = most listed edges searched (0: off), reach = the
/// largest side a search may exhaust.
struct SecondTier {
  std::size_t limit = 0, reach = 0;
};

/// Applies the rule for the removal of `dels` (present edges, u < v) from g; returns the labels.
std::vector<int> rule_labels(const Adj& before, const Adj& after,
                             const std::vector<std::pair<int, int>>& dels, std::mt19937_64& rng,
                             std::size_t cap, Outcome& out, SecondTier second = {}) {
  const int n = static_cast<int>(before.size());
  std::vector<int> label = labels_of(before);
  const std::vector<int> truth_after = labels_of(after);  // only for the coin's sound choices
  std::vector<int> rep(n, kNone), ecount(n, 0);
  for (auto [u, v] : dels) {
    rep[u] = rep[u] == kNone ? v : std::min(rep[u], v);
    rep[v] = rep[v] == kNone ? u : std::min(rep[v], u);
    ++ecount[u];
    ++ecount[v];
  }
  auto certify = [&](int p, int q) {
    return truth_after[p] == truth_after[q] && std::bernoulli_distribution(0.8)(rng);
  };
  auto iso = [&](int x) { return after[x].empty(); };
  std::vector<char> flag(n, 0);
  std::vector<int> claim(dels.size(), kNone);
  std::vector<std::vector<int>> pieces(dels.size());
  struct Listed {
    std::size_t edge;
    int p, q;
    bool pair;
  };
  std::vector<Listed> listed;  // undecided edges the second tier may search
  for (std::size_t i = 0; i < dels.size(); ++i) {
    const auto [u, v] = dels[i];
    const int l = label[u];
    bool undecided = true;
    Listed item{i, kNone, kNone, false};
    if (iso(u) && iso(v)) {
      if (ecount[u] == 1 && ecount[v] == 1) {
        undecided = false;
        claim[i] = v;
      }
    } else if (iso(u) || iso(v)) {
      const int x = iso(u) ? u : v, y = iso(u) ? v : u, r = rep[x];
      if (x == l) {
      } else if (r == y) {
        undecided = false;
        claim[i] = x;
      } else if (iso(r)) {
      } else {
        undecided = !certify(y, r);
        if (undecided) item = {i, y, r, true};
      }
    } else if (certify(u, v)) {
      undecided = false;
    } else {
      std::vector<int> s;
      auto eligible = [&](int p) {
        if (ecount[p] != 1) return false;
        for (int w : s)
          if (w != p && ecount[w] != 0) return false;
        return std::find(s.begin(), s.end(), l) == s.end();
      };
      int found = search(after, u, v, cap, s);
      if (found == 2 && !eligible(u)) found = 0;
      if (found == 0) {
        found = search(after, v, u, cap, s);
        if (found == 2 && !eligible(v)) found = 0;
      }
      if (found != 0) undecided = false;
      if (found == 2) pieces[i] = s;
      if (found == 0) item = {i, u, v, false};
    }
    if (undecided && second.limit > 0 && item.p != kNone)
      listed.push_back(item);
    else if (undecided)
      flag[l] = 1;
    ++(undecided ? out.undecided : out.decided);
  }
  // The second tier: a sound connection (the coin: the budget may run out first), else a side
  // within reach that is eligible as in the first tier (never for an isolated vertex's pair).
  for (const Listed& it : listed) {
    const int l = label[dels[it.edge].first];
    bool decided = false;
    if (listed.size() <= second.limit) {
      if (certify(it.p, it.q)) {
        decided = true;
      } else if (!it.pair && truth_after[it.p] != truth_after[it.q]) {
        for (const int x : {it.p, it.q}) {
          std::vector<int> side;
          for (int w = 0; w < n; ++w)
            if (truth_after[w] == truth_after[x]) side.push_back(w);
          bool ok = side.size() <= second.reach && ecount[x] == 1;
          for (int w : side) ok = ok && (w == x || ecount[w] == 0) && w != l;
          if (ok) {
            pieces[it.edge] = side;
            decided = true;
            break;
          }
        }
      }
    }
    if (decided) {
      --out.undecided;
      ++out.decided;
      ++out.searched;
    } else {
      flag[l] = 1;
    }
  }
  // Apply to the unflagged components, then recompute the flagged ones from scratch.
  const std::vector<int> old = label;
  for (std::size_t i = 0; i < dels.size(); ++i) {
    if (flag[old[dels[i].first]]) continue;
    if (claim[i] != kNone) label[claim[i]] = claim[i];
    if (!pieces[i].empty()) {
      const int root = *std::min_element(pieces[i].begin(), pieces[i].end());
      for (int w : pieces[i]) label[w] = root;
    }
  }
  for (int x = 0; x < n; ++x)
    if (flag[old[x]]) label[x] = truth_after[x];
  return label;
}

TEST(CertifyRule, EqualsRecomputationOnRandomGraphs) {
  std::mt19937_64 rng(2024);
  Outcome total;
  for (int trial = 0; trial < 20000; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 30);
    const double p = std::uniform_real_distribution<double>(0.02, 0.4)(rng);
    Adj g(n);
    std::vector<std::pair<int, int>> edges;
    for (int u = 0; u < n; ++u)
      for (int v = u + 1; v < n; ++v)
        if (std::bernoulli_distribution(p)(rng)) {
          g[u].insert(v);
          g[v].insert(u);
          edges.emplace_back(u, v);
        }
    if (edges.empty()) continue;
    std::shuffle(edges.begin(), edges.end(), rng);
    const std::size_t b = 1 + rng() % std::min<std::size_t>(edges.size(), 6);
    std::vector<std::pair<int, int>> dels(edges.begin(), edges.begin() + b);
    Adj after = g;
    for (auto [u, v] : dels) {
      after[u].erase(v);
      after[v].erase(u);
    }
    const std::size_t cap = 1 + rng() % 8;  // small, so that searches also overflow
    // Half the trials with the second tier, of a random edge limit and reach.
    const SecondTier second = trial % 2 ? SecondTier{1 + rng() % 4, 1 + rng() % 16} : SecondTier{};
    const auto got = rule_labels(g, after, dels, rng, cap, total, second);
    ASSERT_EQ(got, labels_of(after)) << "trial " << trial;
  }
  // Both outcomes occur often enough for the comparison to mean something.
  EXPECT_GT(total.decided, 10000u);
  EXPECT_GT(total.undecided, 1000u);
  EXPECT_GT(total.searched, 500u);
}

}  // namespace
