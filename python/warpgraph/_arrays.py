"""Arrays in: what the package hands to warpgraph._core.

Host arrays (NumPy, and anything ``numpy.asarray`` takes, lists included) go to the C++ side
as they are: it checks dtype, dimensions, lengths and ids, reads any stride and copies once.
Device arrays (``__cuda_array_interface__``, or a DLPack device other than the CPU) are passed
through untouched, so that a GPU build reads them in place; the CPU build refuses them with a
ValueError naming the argument. This is the one place a zero-copy CuPy / torch branch goes.
"""
from __future__ import annotations

import numpy as np

from . import _core

_CPU_DLPACK_DEVICE = 1  # kDLCPU


def is_device_array(x) -> bool:
    """Whether ``x`` lives in device memory (CuPy arrays, torch CUDA tensors, ...)."""
    if hasattr(x, "__cuda_array_interface__"):
        return True
    dev = getattr(x, "__dlpack_device__", None)
    if dev is not None and not isinstance(x, np.ndarray):
        try:
            return dev()[0] != _CPU_DLPACK_DEVICE
        except Exception:  # a broken protocol: let the C++ side say what is wrong
            return False
    return False


def as_array(x, what: str):
    """``x`` as an array the C++ side reads: device arrays and ndarrays unchanged, anything else
    through numpy.asarray (a list of ints becomes int64; of floats, float64, which the id
    readers refuse)."""
    if x is None:
        raise ValueError(f"{what}: expected an array, got None")
    if is_device_array(x) and not _core.has_gpu:
        # The GPU build reads device arrays in place here (DLPack / __cuda_array_interface__).
        raise ValueError(f"{what}: a device (CUDA) array; this build has the cpu backend only "
                         "(pass a NumPy array, e.g. cupy.asnumpy(x) or x.cpu().numpy())")
    if isinstance(x, np.ndarray) or is_device_array(x):
        if isinstance(x, np.ndarray) and x.dtype.byteorder not in ("=", "|", "<" if np.little_endian else ">"):
            return x.astype(x.dtype.newbyteorder("="))  # the C++ side reads native order only
        return x
    a = np.asarray(x)
    if a.dtype == object:
        raise ValueError(f"{what}: expected numbers, got objects")
    return a
