#pragma once
// Umbrella header of the slab hash: allocator, memory primitives, device refs, host tables
// (SlabTable<V>: SlabSet / SlabMap).
#include <warpgraph/containers/slab_hash/slab_allocator.cuh>
#include <warpgraph/containers/slab_hash/slab_layout.cuh>
#include <warpgraph/containers/slab_hash/slab_memory.cuh>
#include <warpgraph/containers/slab_hash/slab_table.cuh>
#include <warpgraph/containers/slab_hash/slab_table_ref.cuh>
