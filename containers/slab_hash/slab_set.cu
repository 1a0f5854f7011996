// The set variant of SlabTable (SlabSet), instantiated once (the map is in slab_map.cu, so that
// the two compile in parallel).
#include <warpgraph/containers/slab_hash/detail/slab_table.inl>

namespace wg::slab {
template class SlabTable<void>;
}  // namespace wg::slab
