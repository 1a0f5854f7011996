"""Arrays in: dtypes, shapes, lengths, ids out of range, strides, read-only arrays, lists."""
import numpy as np
import pytest

import warpgraph as wg


def fresh():
    return wg.Graph()


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
def test_every_integer_dtype(dtype):
    g = fresh()
    r = g.insert_edges(np.array([0, 1, 2], dtype=dtype), np.array([1, 2, 0], dtype=dtype))
    assert r.applied == 3 and g.num_edges == 3 and wg.triangle_count(g) == 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.bool_, np.complex128])
def test_non_integer_ids_refused(dtype):
    with pytest.raises(ValueError, match=r"src: vertex ids must be integers, got (float|bool|complex)"):
        fresh().insert_edges(np.array([0, 1], dtype=dtype), np.array([1, 0], dtype=np.int64))


def test_float_list_refused_int_list_taken():
    g = fresh()
    with pytest.raises(ValueError, match="dst: vertex ids must be integers, got float64"):
        g.insert_edges([0, 1], [1.0, 2.5])
    assert g.insert_edges([0, 1], [1, 2]).applied == 2


def test_length_mismatch():
    with pytest.raises(ValueError, match=r"src and dst differ in length \(3 and 2\)"):
        fresh().insert_edges(np.arange(3), np.arange(2))
    g = wg.Graph(weighted=True)
    with pytest.raises(ValueError, match="weights has 1 entries for 2 edges"):
        g.insert_edges([0, 1], [1, 2], np.array([1.0]))


def test_negative_id():
    with pytest.raises(ValueError, match=r"dst\[2\] = -5: vertex ids must be >= 0"):
        fresh().insert_edges(np.array([0, 1, 2]), np.array([1, 2, -5]))


@pytest.mark.parametrize("bad", [2**31, 2**40, 2**64 - 1])
def test_huge_id(bad):
    src = np.array([0, bad], dtype=np.uint64)
    with pytest.raises(ValueError, match=r"src\[1\] = \d+: vertex ids must be below 2\^31"):
        fresh().insert_edges(src, np.array([1, 2], dtype=np.uint64))


def test_nothing_applied_on_error():
    g = fresh()
    with pytest.raises(ValueError):
        g.insert_edges(np.array([0, 1, -1]), np.array([1, 2, 3]))
    assert g.num_edges == 0 and g.num_vertices == 0


def test_two_dimensional_refused():
    with pytest.raises(ValueError, match="src: expected a one-dimensional array, got 2"):
        fresh().insert_edges(np.zeros((2, 2), dtype=np.int64), np.zeros(4, dtype=np.int64))


def test_non_contiguous_read_by_stride():
    pairs = np.array([[0, 1], [1, 2], [2, 0], [2, 3]], dtype=np.int64)
    src, dst = pairs[:, 0], pairs[:, 1]  # strided views
    assert not src.flags.c_contiguous
    g = fresh()
    g.insert_edges(src, dst)
    assert g.num_edges == 4 and wg.triangle_count(g) == 1
    every_other = np.arange(20, dtype=np.int32)[::2]
    g.insert_edges(every_other, every_other + 1)
    assert g.has_edge(18, 19) and not g.has_edge(1, 2 + 100)
    reversed_ids = np.arange(10)[::-1]  # negative stride
    h = fresh()
    h.insert_edges(reversed_ids, np.arange(10))
    assert h.has_edge(9, 0) and h.num_edges == 5


def test_read_only_arrays_taken():
    src, dst = np.array([0, 1, 2]), np.array([1, 2, 0])
    src.flags.writeable = False
    dst.flags.writeable = False
    g = fresh()
    assert g.insert_edges(src, dst).applied == 3
    assert g.erase_edges(src, dst).applied == 3
    w = np.array([1.0, 2.0, 3.0])
    w.flags.writeable = False
    assert wg.from_edges(src, dst, w).weighted


def test_byte_swapped_ids():
    src = np.array([0, 1], dtype=">i8")
    g = fresh()
    g.insert_edges(src, np.array([1, 2], dtype="<i8"))
    assert g.has_edge(0, 1) and g.has_edge(1, 2)


def test_weights_checked():
    g = wg.Graph(weighted=True)
    with pytest.raises(ValueError, match=r"weights\[1\] = nan: weights must be finite"):
        g.insert_edges([0, 1], [1, 2], np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="weights must be numbers, got bool"):
        g.insert_edges([0, 1], [1, 2], np.array([True, False]))
    with pytest.raises(ValueError, match="weights given for an unweighted graph"):
        fresh().insert_edges([0], [1], [2.0])
    g.insert_edges([0, 1], [1, 2], np.array([3, 4], dtype=np.int32))
    assert g.edges()[2].tolist() == [3.0, 4.0]


def test_object_and_none_refused():
    with pytest.raises(ValueError, match="src: expected numbers"):
        fresh().insert_edges(["a", None], [1, 2])
    with pytest.raises(ValueError, match="dst: expected an array, got None"):
        fresh().insert_edges([0], None)


def test_degree_arrays():
    g = wg.from_edges([0, 0, 0, 1], [1, 2, 3, 2])
    assert g.degree(0) == 3 and g.degree(99) == 0
    assert g.degree(np.array([0, 1, 3], dtype=np.uint8)).tolist() == [3, 2, 1]
    assert g.degree().tolist() == [3, 2, 2, 1]
    with pytest.raises(ValueError, match=r"v\[0\] = -1"):
        g.degree(np.array([-1]))


class FakeCudaArray:
    __cuda_array_interface__ = {"shape": (2,), "typestr": "<i8", "data": (0, False),
                                "version": 3}


def test_device_array_refused_clearly():
    from warpgraph._arrays import is_device_array
    assert is_device_array(FakeCudaArray())
    assert not is_device_array(np.arange(3))
    if not wg.has_gpu:
        with pytest.raises(ValueError, match="src: a device \\(CUDA\\) array; this build has the cpu"):
            fresh().insert_edges(FakeCudaArray(), FakeCudaArray())
