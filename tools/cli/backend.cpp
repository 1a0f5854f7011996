// Backend registry of the CLI: which adapters this build has and which one "auto" means here.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <warpgraph/containers/core/error.hpp>

#include "backend.hpp"
#include "cli.hpp"
#include "graph_backend.hpp"

namespace wg::cli {

std::uint64_t batch_id_range(const EdgeList& batch) {
  std::uint64_t bound = batch.num_vertices;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    bound = std::max<std::uint64_t>(bound, std::max(batch.src[i], batch.dst[i]) + 1ull);
  }
  return bound;
}

// Adapters that are not part of this build (their graph library is missing).
#ifndef WG_CLI_HAVE_CPU
std::unique_ptr<GraphBackend> make_cpu_backend(unsigned) {
  throw Error("the cpu backend is not part of this build");
}
#endif
#ifndef WG_CLI_HAVE_GPU
std::unique_ptr<GraphBackend> make_gpu_backend(const std::string&) {
  throw Error("the gpu backend is not part of this build (configured without CUDA?)");
}
std::vector<std::string> gpu_adjacencies() {
  return {};
}
bool gpu_backend_usable() {
  return false;
}
datasets::EdgeChunkFn gpu_graph_upload_sink() {
  return {};
}
#endif

std::vector<std::string> available_backends() {
  std::vector<std::string> names{"reference"};
#ifdef WG_CLI_HAVE_CPU
  names.push_back("cpu");
#endif
#ifdef WG_CLI_HAVE_GPU
  names.push_back("gpu");
#endif
  return names;
}

std::vector<std::string> usable_backends() {
  std::vector<std::string> names = available_backends();
  if (!gpu_backend_usable()) std::erase(names, std::string("gpu"));
  return names;
}

BatchOutcome GraphBackend::insert_vertices(std::span<const vertex_t>) {
  throw Error("the " + name() + " backend cannot apply vertex batches");
}
BatchOutcome GraphBackend::erase_vertices(std::span<const vertex_t>) {
  throw Error("the " + name() + " backend cannot apply vertex batches");
}

void GraphBackend::track(const std::vector<AlgorithmSpec>& specs) {
  for (const AlgorithmSpec& spec : specs) {
    if (spec.kind != AlgorithmKind::tc) {
      throw UsageError(std::string("--algo ") + algorithm_name(spec.kind) + ": the " + name() +
                       " backend keeps only the triangle count");
    }
  }
}

bool is_backend_name(const std::string& name) {
  return name == "reference" || name == "cpu" || name == "gpu" || name == "auto";
}

std::string default_backend() {
  const std::vector<std::string> names = usable_backends();
  for (const char* preferred : {"gpu", "cpu"}) {
    if (std::find(names.begin(), names.end(), preferred) != names.end()) return preferred;
  }
  return "reference";
}

bool resolves_to_gpu(const std::string& name) {
  return (name == "gpu" || name == "auto") && gpu_backend_usable();
}

std::string auto_stream_backend(const AutoBackendRule& rule, std::uint64_t vertices,
                                std::uint64_t entries, std::uint64_t batch_size) {
  const std::string preferred = default_backend();
  if (preferred != "cpu") return preferred;  // gpu when usable; reference when cpu is not built
  const double degree =
      vertices ? 2.0 * static_cast<double>(entries) / static_cast<double>(vertices) : 0;
  if (batch_size < rule.cpu_min_batch || degree < rule.cpu_min_degree) return "reference";
  return "cpu";
}

std::unique_ptr<GraphBackend> make_backend(const std::string& requested, unsigned cpu_threads,
                                           const std::string& adjacency) {
  const std::string name = requested == "auto" ? default_backend() : requested;
  if (adjacency != "slab" && name != "gpu")
    throw Error("adjacency '" + adjacency + "' is the gpu backend's (the " + name +
                " backend has its own)");
  const std::vector<std::string> usable = usable_backends();
  const std::string choices =
      "(usable here: " + fmt::format("{}", fmt::join(usable, ", ")) + ", auto)";
  if (!is_backend_name(name)) throw Error("unknown backend '" + requested + "' " + choices);
  const std::vector<std::string> compiled = available_backends();
  if (std::find(compiled.begin(), compiled.end(), name) == compiled.end()) {
    throw Error("backend '" + name + "' is not part of this build " + choices);
  }
  if (name == "gpu" && !gpu_backend_usable()) {
    throw Error("backend 'gpu': no usable CUDA device found " + choices);
  }
  if (name == "gpu") return make_gpu_backend(adjacency);
  if (name == "cpu") return make_cpu_backend(cpu_threads);
  return make_reference_backend();
}

}  // namespace wg::cli
