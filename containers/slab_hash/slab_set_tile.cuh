#pragma once
// The tiled exclusive operations of sets and maps are one template now: slab_table_tile.cuh
// (set_insert_exclusive_tiled / set_erase_tiled keep working). This forwarding header goes once its
// includers have switched.
#include <warpgraph/containers/slab_hash/slab_table_tile.cuh>
