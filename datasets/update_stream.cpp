// Update streams: generated from a graph (thesis section 5.5 workloads) or read from files.
#include <warpgraph/datasets/update_stream.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <functional>
#include <numeric>
#include <unordered_map>
#include <vector>

#include <warpgraph/containers/core/error.hpp>
#include <warpgraph/datasets/detail/random.hpp>
#include <warpgraph/datasets/limits.hpp>
#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/datasets/update_file_reader.hpp>

namespace wg::datasets {
namespace {

std::uint64_t key_of(std::uint64_t u, std::uint64_t v, bool symmetric) {
  if (symmetric && u > v) std::swap(u, v);
  return (u << 32) | v;
}

/// Linear-probing map from edge key to a position, with backward-shift deletion.
/// The key UINT64_MAX (self-loop of vertex 2^32-1) never occurs: self-loops are not stored.
class KeyIndex {
 public:
  explicit KeyIndex(std::size_t expected) {
    std::size_t cap = 16;
    while (cap < expected * 2 + 2) cap <<= 1;
    keys_.assign(cap, kEmpty);
    vals_.resize(cap);
  }
  bool contains(std::uint64_t k) const { return keys_[find_slot(k)] == k; }
  std::uint64_t get(std::uint64_t k) const { return vals_[find_slot(k)]; }
  void set(std::uint64_t k, std::uint64_t v) {
    std::size_t s = find_slot(k);
    if (keys_[s] != k) {
      if ((size_ + 1) * 2 > keys_.size()) {
        grow();
        s = find_slot(k);
      }
      keys_[s] = k;
      ++size_;
    }
    vals_[s] = v;
  }
  void erase(std::uint64_t k) {
    std::size_t s = find_slot(k);
    if (keys_[s] != k) return;
    const std::size_t mask = keys_.size() - 1;
    std::size_t hole = s, i = s;
    while (true) {
      i = (i + 1) & mask;
      if (keys_[i] == kEmpty) break;
      std::size_t home = hash(keys_[i]) & mask;
      // Move keys_[i] into the hole unless its home lies cyclically in (hole, i].
      bool stays = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
      if (!stays) {
        keys_[hole] = keys_[i];
        vals_[hole] = vals_[i];
        hole = i;
      }
    }
    keys_[hole] = kEmpty;
    --size_;
  }

 private:
  static constexpr std::uint64_t kEmpty = UINT64_MAX;
  static std::size_t hash(std::uint64_t k) { return static_cast<std::size_t>(detail::mix64(k)); }
  std::size_t find_slot(std::uint64_t k) const {
    const std::size_t mask = keys_.size() - 1;
    std::size_t s = hash(k) & mask;
    while (keys_[s] != kEmpty && keys_[s] != k) s = (s + 1) & mask;
    return s;
  }
  void grow() {
    std::vector<std::uint64_t> k;
    std::vector<std::uint64_t> v;
    k.swap(keys_);
    v.swap(vals_);
    keys_.assign(k.size() * 2, kEmpty);
    vals_.resize(keys_.size());
    size_ = 0;
    for (std::size_t i = 0; i < k.size(); ++i)
      if (k[i] != kEmpty) set(k[i], v[i]);
  }
  std::vector<std::uint64_t> keys_, vals_;
  std::size_t size_ = 0;
};

/// The edges present in the model graph: O(1) insert, erase, membership and uniform sampling.
class EdgeSet {
 public:
  explicit EdgeSet(std::size_t expected) : index_(expected) { list_.reserve(expected); }
  bool contains(std::uint64_t k) const { return index_.contains(k); }
  void insert(std::uint64_t k) {
    if (index_.contains(k)) return;
    index_.set(k, list_.size());
    list_.push_back(k);
  }
  void erase(std::uint64_t k) {
    if (!index_.contains(k)) return;
    std::uint64_t pos = index_.get(k);
    std::uint64_t last = list_.back();
    list_[pos] = last;
    index_.set(last, pos);
    list_.pop_back();
    index_.erase(k);
  }
  std::size_t size() const { return list_.size(); }
  std::uint64_t at(std::size_t i) const { return list_[i]; }

 private:
  KeyIndex index_;
  std::vector<std::uint64_t> list_;
};

template <class T>
void shuffle(std::vector<T>& v, detail::SplitMix64& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

/// Appends edge keys to an EdgeList; undirected edges get a random orientation. With `weights`
/// (a weighted graph's edges), each entry carries its edge's weight.
void emit(EdgeList& out, const std::vector<std::uint64_t>& keys, bool symmetric,
          detail::SplitMix64& rng,
          const std::unordered_map<std::uint64_t, double>* weights = nullptr) {
  out.reserve(keys.size());
  for (std::uint64_t k : keys) {
    vertex_t u = static_cast<vertex_t>(k >> 32), v = static_cast<vertex_t>(k & 0xffffffffu);
    if (symmetric && (rng.next() & 1)) std::swap(u, v);
    out.src.push_back(u);
    out.dst.push_back(v);
    if (weights) out.weight.push_back(weights->at(k));
  }
}

void check_fraction(double f, const char* what) {
  if (!(f >= 0 && f <= 1))
    throw InvalidArgument(std::string("make_update_stream: ") + what + " must be in [0, 1]");
}

}  // namespace

UpdateStream make_update_stream(const EdgeList& graph, const StreamParams& params) {
  check_fraction(params.initial_fraction, "initial_fraction");
  check_fraction(params.delete_probability, "delete_probability");
  check_fraction(params.duplicate_fraction, "duplicate_fraction");
  check_fraction(params.absent_fraction, "absent_fraction");
  if (params.batch_size == 0) throw InvalidArgument("make_update_stream: batch_size must be > 0");
  if (params.duplicate_fraction + params.absent_fraction >= 1)
    throw InvalidArgument("make_update_stream: duplicate_fraction + absent_fraction must be < 1");
  if (graph.src.size() != graph.dst.size())
    throw InvalidArgument("make_update_stream: src and dst sizes differ");
  const bool sym = graph.symmetric;

  // The simple graph: self-loops dropped, duplicates (and for undirected graphs reversed
  // duplicates) merged.
  std::vector<std::uint64_t> edges;
  edges.reserve(graph.size());
  std::uint64_t num_vertices = graph.num_vertices;
  for (std::size_t i = 0; i < graph.size(); ++i) {
    num_vertices = std::max<std::uint64_t>(num_vertices,
                                           std::uint64_t{std::max(graph.src[i], graph.dst[i])} + 1);
    if (graph.src[i] != graph.dst[i]) edges.push_back(key_of(graph.src[i], graph.dst[i], sym));
  }
  // A weighted graph's stream keeps its weights: an edge given several times weighs its smallest,
  // as the readers merge duplicates; inserted entries carry it, erasures need none.
  std::unordered_map<std::uint64_t, double> weight_of;
  if (graph.weighted()) {
    weight_of.reserve(edges.size());
    for (std::size_t i = 0; i < graph.size(); ++i) {
      if (graph.src[i] == graph.dst[i]) continue;
      const auto [at, fresh] =
          weight_of.try_emplace(key_of(graph.src[i], graph.dst[i], sym), graph.weight[i]);
      if (!fresh) at->second = std::min(at->second, graph.weight[i]);
    }
  }
  const std::unordered_map<std::uint64_t, double>* weights =
      graph.weighted() ? &weight_of : nullptr;
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  detail::SplitMix64 rng{detail::mix64(params.seed ^ 0x0123456789abcdefull)};
  shuffle(edges, rng);

  UpdateStream out;
  auto empty_list = [&] {
    EdgeList e;
    e.num_vertices = num_vertices;
    e.symmetric = sym;
    return e;
  };
  out.initial = empty_list();
  const std::size_t m = edges.size();
  std::size_t n_init =
      static_cast<std::size_t>(std::floor(static_cast<double>(m) * params.initial_fraction));
  n_init = std::min(n_init, m);
  EdgeSet present(m);
  std::vector<std::uint64_t> keys(edges.begin(),
                                  edges.begin() + static_cast<std::ptrdiff_t>(n_init));
  emit(out.initial, keys, sym, rng, weights);
  for (std::uint64_t k : keys) present.insert(k);

  // Pending insertions, first-time edges first; deleted edges return at the back, so the
  // first-time edges run out after about (m - n_init) / batch_size insertion batches and
  // deletions stop then: the stream is finite and ends with an insertion batch.
  std::deque<std::uint64_t> pending(edges.begin() + static_cast<std::ptrdiff_t>(n_init),
                                    edges.end());
  std::uint64_t first_time = pending.size();
  std::vector<std::uint64_t>().swap(edges);

  const std::uint64_t bs = params.batch_size;
  const std::uint64_t ins_dup = std::min<std::uint64_t>(
      bs - 1, static_cast<std::uint64_t>(
                  std::llround(static_cast<double>(bs) * params.duplicate_fraction)));
  const std::uint64_t ins_new = bs - ins_dup;
  const std::uint64_t del_abs =
      static_cast<std::uint64_t>(std::llround(static_cast<double>(bs) * params.absent_fraction));
  const std::uint64_t del_dup =
      static_cast<std::uint64_t>(std::llround(static_cast<double>(bs) * params.duplicate_fraction));
  const std::uint64_t del_real = bs > del_abs + del_dup ? bs - del_abs - del_dup : 1;

  while (!pending.empty()) {
    // ---- insertion batch: new (or returning) edges plus repeats
    std::vector<std::uint64_t> batch;
    const std::uint64_t take = std::min<std::uint64_t>(ins_new, pending.size());
    // Room for what the batch will hold (take + dups <= 2 x take), not for batch_size: a batch
    // size beyond the graph's must not allocate what it names.
    batch.reserve(take + std::min(ins_dup, take));
    for (std::uint64_t i = 0; i < take; ++i) {
      batch.push_back(pending.front());
      pending.pop_front();
      if (first_time) --first_time;  // first-time edges are all ahead of returning ones
    }
    const std::uint64_t dups = take == ins_new ? ins_dup : (take * ins_dup + ins_new / 2) / ins_new;
    for (std::uint64_t i = 0; i < dups; ++i) {
      // Half repeat an entry of this batch, half an edge already in the graph.
      if ((i & 1) == 0 || present.size() == 0)
        batch.push_back(batch[rng.below(take)]);
      else
        batch.push_back(present.at(rng.below(present.size())));
    }
    for (std::uint64_t i = 0; i < take; ++i) present.insert(batch[i]);
    shuffle(batch, rng);
    UpdateBatch ins{.kind = UpdateBatch::Kind::insert, .edges = empty_list(), .vertices = {}};
    emit(ins.edges, batch, sym, rng, weights);
    out.batches.push_back(std::move(ins));

    // ---- maybe a deletion batch: present edges (which return later), repeats, absent edges
    if (first_time == 0 || present.size() == 0 || rng.unit() >= params.delete_probability) continue;
    batch.clear();
    const std::uint64_t real = std::min<std::uint64_t>(del_real, present.size());
    for (std::uint64_t i = 0; i < real; ++i) {
      std::uint64_t k = present.at(rng.below(present.size()));
      present.erase(k);
      pending.push_back(k);
      batch.push_back(k);
    }
    for (std::uint64_t i = 0; i < del_dup && real > 0; ++i) batch.push_back(batch[rng.below(real)]);
    if (num_vertices >= 2) {
      for (std::uint64_t i = 0; i < del_abs; ++i) {
        for (int attempt = 0; attempt < 32; ++attempt) {
          std::uint64_t u = rng.below(num_vertices), v = rng.below(num_vertices);
          if (u == v) continue;
          std::uint64_t k = key_of(u, v, sym);
          if (present.contains(k)) continue;
          batch.push_back(k);
          break;
        }
      }
    }
    shuffle(batch, rng);
    UpdateBatch del{.kind = UpdateBatch::Kind::erase, .edges = empty_list(), .vertices = {}};
    emit(del.edges, batch, sym, rng);
    out.batches.push_back(std::move(del));
  }
  return out;
}

// ---- update files: one parser, update_file_reader.cpp's ------------------------------------

namespace {

void set_vertices(UpdateStream& s, std::uint64_t n) {
  s.initial.num_vertices = n;
  for (auto& b : s.batches) b.edges.num_vertices = n;
}

/// The batches of one of for_each_update_batch's readers, with every num_vertices the file's.
template <class Read>
UpdateStream collect(bool symmetric, const Read& read) {
  UpdateStream s;
  s.initial.symmetric = symmetric;
  const UpdateReadSummary sum = read([&](UpdateBatch&& b) { s.batches.push_back(std::move(b)); });
  set_vertices(s, sum.num_vertices);
  return s;
}

}  // namespace

UpdateStream parse_update_text(std::string_view text, bool symmetric, const std::string& name,
                               const UpdateReadOptions& options) {
  return collect(symmetric, [&](const std::function<void(UpdateBatch &&)>& f) {
    return for_each_update_batch(text, symmetric, name, f, options);
  });
}

UpdateStream read_update_file(const std::string& path, bool symmetric,
                              const UpdateReadOptions& options) {
  return collect(symmetric, [&](const std::function<void(UpdateBatch &&)>& f) {
    return for_each_update_batch_in_file(path, symmetric, f, options);
  });
}

UpdateStream parse_temporal_snap(std::string_view text, std::uint64_t window, bool symmetric,
                                 const std::string& name) {
  return parse_temporal_snap_parallel(text, window, symmetric, name);
}

UpdateStream read_temporal_snap(const std::string& path, std::uint64_t window, bool symmetric) {
  return parse_temporal_snap(read_file(path), window, symmetric, path);
}

}  // namespace wg::datasets
