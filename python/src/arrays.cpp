#include "arrays.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <type_traits>

namespace wg::python {

namespace {

std::string dtype_name(nb::dlpack::dtype t) {
  switch (static_cast<nb::dlpack::dtype_code>(t.code)) {
    case nb::dlpack::dtype_code::Int:
      return "int" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::UInt:
      return "uint" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::Float:
      return "float" + std::to_string(t.bits);
    case nb::dlpack::dtype_code::Bool:
      return "bool";
    case nb::dlpack::dtype_code::Complex:
      return "complex" + std::to_string(t.bits);
    default:
      return "an unsupported dtype";
  }
}

/// Checks what every reader needs (host memory, one dimension) and returns the length.
std::size_t checked_length(const AnyArray& a, const char* what) {
  const ArrayDevice d = device_of(a);
  if (d == ArrayDevice::cuda)
    throw nb::value_error((std::string(what) +
                           ": a CUDA array; this build has the cpu backend only (pass a NumPy "
                           "array, e.g. cupy.asnumpy(x) or x.cpu().numpy())")
                              .c_str());
  if (d != ArrayDevice::host)
    throw nb::value_error((std::string(what) + ": an array on an unsupported device").c_str());
  if (a.ndim() != 1)
    throw nb::value_error((std::string(what) + ": expected a one-dimensional array, got " +
                           std::to_string(a.ndim()) + " dimensions")
                              .c_str());
  return a.shape(0);
}

/// f(i, x) for each entry x of `a` as T (the array's element type), any stride.
template <class T, class F>
void each_as(const AnyArray& a, std::size_t n, F&& f) {
  const auto* base = static_cast<const char*>(a.data());
  const std::int64_t stride = a.stride(0) * static_cast<std::int64_t>(sizeof(T));
  for (std::size_t i = 0; i < n; ++i) {
    T x;
    std::memcpy(&x, base + static_cast<std::int64_t>(i) * stride, sizeof(T));
    f(i, x);
  }
}

/// Calls each_as with the C++ type of `a`'s dtype; false when it is none of the listed kinds.
template <class F>
bool dispatch(const AnyArray& a, std::size_t n, bool floats, F&& f) {
  const nb::dlpack::dtype t = a.dtype();
  if (t == nb::dtype<std::int8_t>()) return each_as<std::int8_t>(a, n, f), true;
  if (t == nb::dtype<std::int16_t>()) return each_as<std::int16_t>(a, n, f), true;
  if (t == nb::dtype<std::int32_t>()) return each_as<std::int32_t>(a, n, f), true;
  if (t == nb::dtype<std::int64_t>()) return each_as<std::int64_t>(a, n, f), true;
  if (t == nb::dtype<std::uint8_t>()) return each_as<std::uint8_t>(a, n, f), true;
  if (t == nb::dtype<std::uint16_t>()) return each_as<std::uint16_t>(a, n, f), true;
  if (t == nb::dtype<std::uint32_t>()) return each_as<std::uint32_t>(a, n, f), true;
  if (t == nb::dtype<std::uint64_t>()) return each_as<std::uint64_t>(a, n, f), true;
  if (!floats) return false;
  if (t == nb::dtype<float>()) return each_as<float>(a, n, f), true;
  if (t == nb::dtype<double>()) return each_as<double>(a, n, f), true;
  return false;
}

[[noreturn]] void bad_entry(const char* what, std::size_t i, const std::string& value,
                            const char* rule) {
  throw nb::value_error(
      (std::string(what) + "[" + std::to_string(i) + "] = " + value + ": " + rule).c_str());
}

}  // namespace

ArrayDevice device_of(const AnyArray& a) {
  const int type = a.device_type();
  if (type == nb::device::cpu::value) return ArrayDevice::host;
  if (type == nb::device::cuda::value || type == nb::device::cuda_managed::value)
    return ArrayDevice::cuda;
  return ArrayDevice::other;
}

std::vector<vertex_t> read_ids(const AnyArray& a, const char* what, std::uint64_t* max_id) {
  const std::size_t n = checked_length(a, what);
  std::vector<vertex_t> ids(n);
  std::uint64_t largest = 0;
  const bool ok = dispatch(a, n, false, [&](std::size_t i, auto x) {
    if constexpr (std::is_signed_v<decltype(x)>)
      if (x < 0) bad_entry(what, i, std::to_string(x), "vertex ids must be >= 0");
    const auto id = static_cast<std::uint64_t>(x);
    if (id >= kVertexIdLimit)
      bad_entry(what, i, std::to_string(x), "vertex ids must be below 2^31 (2147483648)");
    ids[i] = static_cast<vertex_t>(id);
    largest = id > largest ? id : largest;
  });
  if (!ok)
    throw nb::value_error(
        (std::string(what) + ": vertex ids must be integers, got " + dtype_name(a.dtype()))
            .c_str());
  if (max_id) *max_id = largest;
  return ids;
}

std::vector<double> read_weights(const AnyArray& a, const char* what) {
  const std::size_t n = checked_length(a, what);
  std::vector<double> w(n);
  const bool ok = dispatch(a, n, true, [&](std::size_t i, auto x) {
    const auto v = static_cast<double>(x);
    if (!std::isfinite(v)) bad_entry(what, i, std::to_string(v), "weights must be finite");
    w[i] = v;
  });
  if (!ok)
    throw nb::value_error(
        (std::string(what) + ": weights must be numbers, got " + dtype_name(a.dtype())).c_str());
  return w;
}

EdgeList read_edges(const AnyArray& src, const AnyArray& dst,
                    const std::optional<AnyArray>& weights, bool symmetric) {
  EdgeList e;
  e.symmetric = symmetric;
  std::uint64_t max_src = 0, max_dst = 0;
  e.src = read_ids(src, "src", &max_src);
  e.dst = read_ids(dst, "dst", &max_dst);
  if (e.src.size() != e.dst.size())
    throw nb::value_error(("src and dst differ in length (" + std::to_string(e.src.size()) +
                           " and " + std::to_string(e.dst.size()) + ")")
                              .c_str());
  if (weights) {
    e.weight = read_weights(*weights, "weights");
    if (e.weight.size() != e.src.size())
      throw nb::value_error(("weights has " + std::to_string(e.weight.size()) + " entries for " +
                             std::to_string(e.src.size()) + " edges")
                                .c_str());
  }
  e.num_vertices = e.src.empty() ? 0 : std::max(max_src, max_dst) + 1;
  return e;
}

}  // namespace wg::python
