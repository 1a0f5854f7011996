#pragma once
// Streams of edge updates: batches of insertions and batches of deletions applied in order.
// Made from a graph (the thesis' workloads, section 5.5) or read from a file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <warpgraph/datasets/read_graph.hpp>
#include <warpgraph/graph/edge_list.hpp>

namespace wg::datasets {

/// One batch: all edge insertions, all edge deletions, or (from update files) all vertex
/// insertions or all vertex deletions. Batches may hold duplicates, self-loops, insertions of
/// edges already present and deletions of absent edges: consumers must cope.
struct UpdateBatch {
  /// insert_vertices: the vertices join the graph (isolated if new; the id range grows to hold
  /// them). erase_vertices: every edge at each vertex is deleted and the vertex leaves the graph.
  /// Vertex batches have empty `edges` (so a consumer that knows only edge batches and treats
  /// every non-insert as a deletion deletes nothing).
  enum class Kind { insert, erase, insert_vertices, erase_vertices };
  Kind kind = Kind::insert;
  EdgeList edges;  ///< num_vertices and symmetric as the stream's graph; weights: see the file
  std::vector<vertex_t> vertices;  ///< the vertices of a vertex batch, in file order
};

/// How update files are read (parse_update_text, read_update_file, update_file_reader.hpp).
struct UpdateReadOptions {
  /// Bytes per segment: large enough that a segment's hand-off is cheap beside its parse, small
  /// enough that the first batch is ready early.
  std::size_t segment_bytes = std::size_t{8} << 20;
  /// Parsing threads (0: the hardware threads, at most 16).
  unsigned threads = 0;
  /// Weight rules, as ReadOptions' for graph files: a weight the storage cannot hold exactly,
  /// or a negative one when non_negative_weights, is a ParseError at its line; within an
  /// insertion batch the entries of one edge all get its smallest weight.
  WeightStorage weight_storage = WeightStorage::f64;
  bool non_negative_weights = false;
  bool min_weight_duplicates = true;
  NoticeFn on_wait;  ///< told when reading a file waits on a stream (ReadOptions::on_wait)
};

struct UpdateStream {
  EdgeList initial;                  ///< bulk-built before the first batch (may be empty)
  std::vector<UpdateBatch> batches;  ///< applied in order
};

/// Cuts a graph into an initial part and update batches.
///  - initial_fraction of the (shuffled) entries form `initial`; the rest arrive as insertion
///    batches of batch_size entries;
///  - after each insertion batch, with probability delete_probability, a deletion batch of
///    batch_size entries follows, drawn from edges inserted so far;
///  - duplicate_fraction of each batch's entries are repeats (of entries of the same batch or of
///    earlier batches); absent_fraction of each deletion batch are edges not in the graph;
///  - a weighted graph's initial part and insertion entries carry their edge's weight (its
///    smallest, where the graph lists the edge more than once); deletions carry none.
/// Deterministic for a given seed. Every edge deleted by a deletion batch is re-inserted by a
/// later insertion batch, so after the last batch the graph is again the simple graph of
/// `graph` (the demo then ends on the published triangle count). The stream ends with an
/// insertion batch.
struct StreamParams {
  double initial_fraction = 0.5;
  std::uint64_t batch_size = 1 << 12;
  double delete_probability = 0.5;
  double duplicate_fraction = 0.05;
  double absent_fraction = 0.05;
  std::uint64_t seed = 1;
};
UpdateStream make_update_stream(const EdgeList& graph, const StreamParams& params);

/// Reads a stream file. Format (documented in the README, "Update files"):
///   # comment
///   + u v        insert edge {u, v}   (or u->v when the stream is directed)
///   + u v w      insert it with weight w (insertions carry a weight on every line or on none)
///   - u v        delete edge
///   +v u         insert vertex u;   -v u   delete vertex u and its edges
///   =            batch boundary (a change of operation also starts a new batch)
/// Ids are 0-based. The first batch of insertions before any '=' line is NOT treated as an
/// initial graph: all batches are updates (the caller may bulk-build from a separate file).
/// Every batch's EdgeList has num_vertices = (largest id in the file) + 1. A UTF-8 BOM is
/// skipped. Errors: wg::ParseError "FILE:LINE: problem" (unknown operation, malformed ids, ids
/// beyond the id limit, text after the fields, weights as UpdateReadOptions says, a NUL byte,
/// lone-CR line ends, a file without updates); the file may be gzip-compressed.
UpdateStream read_update_file(const std::string& path, bool symmetric = true,
                              const UpdateReadOptions& options = {});
/// Same, from text in memory; `name` is used in error messages.
UpdateStream parse_update_text(std::string_view text, bool symmetric = true,
                               const std::string& name = "<memory>",
                               const UpdateReadOptions& options = {});

/// SNAP temporal edge list "u v t" (t an integer timestamp), sorted or not: entries are
/// ordered by t and cut into insertion batches of `window` time units each.
/// t is a signed 64-bit integer; batch k holds the entries with t in
/// [t_min + k*window, t_min + (k+1)*window) (empty windows produce no batch). window == 0 throws
/// wg::InvalidArgument; lines without exactly three numbers throw wg::ParseError. '#' and '%'
/// start comments.
UpdateStream read_temporal_snap(const std::string& path, std::uint64_t window,
                                bool symmetric = true);
UpdateStream parse_temporal_snap(std::string_view text, std::uint64_t window, bool symmetric = true,
                                 const std::string& name = "<memory>");

}  // namespace wg::datasets
