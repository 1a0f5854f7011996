"""Ctrl-C during a long read: wg.read raises KeyboardInterrupt promptly and stops reading (the
C++ read is cancelled, not left running). The file is a FIFO whose writer never stops, so the
read can only end by the interrupt."""
import os
import signal
import threading
import time

import pytest

import warpgraph as wg


def test_ctrl_c_interrupts_a_read_that_would_not_end(tmp_path):
    fifo = tmp_path / "edges.fifo"
    os.mkfifo(fifo)
    stop = threading.Event()

    def writer():
        try:
            with open(fifo, "w") as f:
                while not stop.is_set():
                    f.write("1 2\n" * 1000)
                    f.flush()
                    time.sleep(0.01)
        except BrokenPipeError:  # the reader stopped reading: what the test wants
            pass

    w = threading.Thread(target=writer, daemon=True)
    w.start()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            wg.read(str(fifo))
    finally:
        stop.set()
        timer.cancel()
    assert time.monotonic() - start < 10
    w.join(timeout=10)
    assert not w.is_alive()
