#!/usr/bin/python3
"""Draws a `warpgraph stream --json` document: per batch, the triangle count, the edges the batch
changed, its time, and each result kept with --algo (its summary: components, vertices reached,
...), one panel each, against the batch number (0 = the initial build).

    warpgraph stream FILE --algo tc,cc,bfs --json > stream.json
    /usr/bin/python3 tools/plot_stream.py stream.json -o stream.png     ('-' reads stdin)

Exit codes: 0 written, 1 the input is not a stream document (or has no batches), 2 bad usage.
"""
import argparse
import json
import math
import sys


def load(path):
    try:
        with (sys.stdin if path == "-" else open(path)) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"plot_stream: {path}: {e}")
    if not isinstance(doc, dict) or doc.get("command") != "stream":
        sys.exit(f"plot_stream: {path} is not the output of `warpgraph stream --json`")
    if not doc.get("batches"):
        sys.exit(f"plot_stream: {path} has no batches to draw")
    return doc


def series(doc):
    """(title, x, y) of each panel: the count, edges changed, ms, then each tracked result."""
    initial, batches = doc["initial"], doc["batches"]
    x = [0] + [b["index"] for b in batches]
    panels = [
        ("triangles", x, [initial["triangles"]] + [b["triangles"] for b in batches]),
        ("edges changed", x[1:], [b["edges_changed"] for b in batches]),
        ("batch time (ms)", x, [1e3 * initial["seconds"]] + [1e3 * b["seconds"] for b in batches]),
    ]
    names = [a["algo"] for a in batches[0].get("algorithms", []) if a["algo"] != "tc"]
    totals = {a["algo"]: a for a in doc.get("algorithms", [])}
    for name in names:
        ys = []
        for b in batches:
            hit = [a for a in b.get("algorithms", []) if a["algo"] == name]
            ys.append(hit[0]["summary"] if hit else math.nan)
        label = totals.get(name, {}).get("summary_name", "summary")
        panels.append((f"{name}: {label.replace('_', ' ')}", x[1:], ys))
    return panels


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="the stream's JSON document ('-': stdin)")
    ap.add_argument("-o", "--output", required=True, help="image to write (.png, .svg, .pdf)")
    args = ap.parse_args()
    doc = load(args.json)
    panels = series(doc)

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cols = 2
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(10, 2.6 * rows), squeeze=False, sharex=True)
    kinds = {b["index"]: b["kind"] for b in doc["batches"]}
    for ax, (title, x, y) in zip(axes.flat, panels):
        ax.plot(x, y, color="0.4", linewidth=0.8)
        # Insertion batches filled, deletion batches hollow (the initial build: a square).
        for xi, yi in zip(x, y):
            kind = kinds.get(xi, "initial")
            ax.plot([xi], [yi], "s" if kind == "initial" else "o", markersize=3,
                    color="C0" if kind != "erase" else "C3",
                    fillstyle="none" if kind == "erase" else "full")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax in axes[-1]:
        ax.set_xlabel("batch (0 = initial build)")
    source = doc["input"]["file"] if doc.get("input") else doc["stream"].get("file", "")
    fig.suptitle(f"warpgraph stream {source} on {doc['backend']}: "
                 f"{len(doc['batches'])} batches (filled: insert, hollow: erase)", fontsize=10)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
