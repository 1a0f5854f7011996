// Placeholder while the engine is being written: every operation throws.
#include <stdexcept>
#include <warpgraph/containers/bstree/bstree.hpp>
namespace wg::bstree::detail {
[[noreturn]] static void nyi() {
  throw std::logic_error("wg::bstree: not implemented yet");
}
bool simd_supported(SimdPath) {
  return true;
}
SimdPath resolve_simd(SimdPath p) {
  return p;
}
const char* simd_name(SimdPath) {
  return "?";
}
bool compression_pays(const std::uint64_t*, std::size_t) {
  nyi();
}
NodeArray::~NodeArray() = default;
Core::Core(bool, std::uint32_t, SimdPath, std::uint32_t) {
  nyi();
}
Core::~Core() = default;
bool Core::insert(std::uint64_t, const void*, bool) {
  nyi();
}
bool Core::erase(std::uint64_t) {
  nyi();
}
bool Core::find(std::uint64_t, void*) const {
  nyi();
}
bool Core::lower_bound(std::uint64_t, std::uint64_t*) const {
  nyi();
}
std::size_t Core::scan(ScanCursor&, std::uint64_t*, void*) const {
  nyi();
}
void Core::bulk_load(const std::uint64_t*, const void*, std::size_t, double, double) {
  nyi();
}
std::size_t Core::size() const {
  nyi();
}
std::size_t Core::memory_bytes() const {
  nyi();
}
int Core::height() const {
  nyi();
}
void Core::check_invariants() const {
  nyi();
}
LeafFormatCounts Core::leaf_formats() const {
  nyi();
}
}  // namespace wg::bstree::detail
