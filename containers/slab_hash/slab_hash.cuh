#pragma once
// Umbrella header of the slab hash: allocator, device refs, host SlabSet / SlabMap.
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_map.cuh>
#include <warpgraph/containers/slab_hash/slab_set.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>
