#pragma once
// The tiled exclusive operations of sets and maps are one template now: slab_table_tile.cuh
// (map_insert_or_assign_exclusive_tiled / map_erase_tiled keep working). This forwarding header
// goes once its includers have switched.
#include <warpgraph/containers/slab_hash/slab_table_tile.cuh>
