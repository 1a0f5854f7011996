#pragma once
// Moved: the slab memory primitives are public in <warpgraph/containers/slab_hash/slab_memory.cuh>
// (namespace wg::slab, with wg::slab::detail aliases). This forwarding header goes once its last
// includer outside the module has switched.
#include <warpgraph/containers/slab_hash/slab_memory.cuh>
