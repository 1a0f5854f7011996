#pragma once
// What `stream --backend auto` runs on when results besides the triangle count are kept.
#include <cstdint>
#include <string>
#include <vector>

#include "backend.hpp"

namespace wg::cli {

/// True when backend `name` (usable here) can keep every result of `algorithms`
/// (GraphBackend::track accepts them). Makes the backend to ask it.
bool backend_keeps(const std::string& name, const std::vector<AlgorithmSpec>& algorithms);

/// `stream --backend auto` without a usable GPU: auto_stream_backend's pick by graph and batch
/// size, unless that backend cannot keep every result of `algorithms` (the reference keeps the
/// triangle count only): then the first usable backend that can (cpu), else the pick (whose
/// track() then says why not). O(1) backends made.
std::string auto_stream_backend_for(const AutoBackendRule& rule, std::uint64_t vertices,
                                    std::uint64_t entries, std::uint64_t batch_size,
                                    const std::vector<AlgorithmSpec>& algorithms);

}  // namespace wg::cli
