// The map variant of SlabTable (SlabMap), instantiated once (the set is in slab_set.cu).
#include <warpgraph/containers/slab_hash/detail/slab_table.inl>

namespace wg::slab {
template class SlabTable<std::uint32_t>;
}  // namespace wg::slab
