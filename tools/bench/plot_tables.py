#!/usr/bin/python3
"""Plots of the benchmarks whose JSON records are tables rather than plot.py series:
btree_bench (beside GpuBTree and the paper), stream_bench (host ingest against its bounds),
traversal_bench and global_bench (static time beside Gunrock, dynamic update against recompute).

    /usr/bin/python3 tools/bench/plot_tables.py btree   tools/bench/btree/results/btree_h200.json OUT/
    /usr/bin/python3 tools/bench/plot_tables.py stream  tools/bench/stream/results/stream_h200.json OUT/
    /usr/bin/python3 tools/bench/plot_tables.py --gunrock FILE static STATIC_JSON... OUT/
    /usr/bin/python3 tools/bench/plot_tables.py dynamic DYNAMIC_JSON... OUT/
"""
import argparse
import collections
import json
import os
import re


def load(paths):
    out = []
    for p in paths:
        with open(p) as f:
            out += json.load(f)
    return out


def save(plt, fig, out, name):
    os.makedirs(out, exist_ok=True)
    fig.tight_layout()
    fig.savefig(os.path.join(out, re.sub(r"[^A-Za-z0-9_.=-]+", "_", name) + ".png"), dpi=110)
    plt.close(fig)


def btree(plt, recs, out):
    """One panel per operation: our rate per tree size, the peer's and the paper's."""
    ops = collections.OrderedDict()
    for r in recs:
        if r.get("batch", 0):
            continue
        ops.setdefault(r["bench"], []).append(r)
    fig, axes = plt.subplots(1, len(ops), figsize=(3.2 * len(ops), 3.4), squeeze=False)
    for ax, (op, rows) in zip(axes[0], ops.items()):
        rows.sort(key=lambda r: r["n"])
        xs = [r["n"].bit_length() - 1 for r in rows]
        ax.plot(xs, [r["rate"] / 1e6 for r in rows], "o-", label="warpgraph")
        peer = [(x, r["peer_h200_mops"]) for x, r in zip(xs, rows) if r.get("peer_h200_mops")]
        if peer:
            ax.plot(*zip(*peer), "s--", color="black", label="GpuBTree (same call)")
        paper = [(x, r["paper_mops"]) for x, r in zip(xs, rows) if r.get("paper_mops")]
        if paper:
            ax.plot(*zip(*paper), "^:", color="gray", label="paper (V100)")
        ax.set_title(op, fontsize=9)
        ax.set_xlabel("log2 keys in the tree")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("M operations/s")
    axes[0][0].legend(fontsize=7)
    gpu = recs[0].get("gpu", "")
    fig.suptitle(f"GPU B-link tree against GpuBTree, {gpu}", fontsize=10)
    save(plt, fig, out, f"btree_vs_gpubtree_{gpu}")


def stream(plt, recs, out):
    """Host-batch ingest rates per batch size, beside the resident rate and the copies alone."""
    series = collections.defaultdict(dict)
    gpu = ""
    for r in recs:
        if r.get("bench") != "stream_batches":
            continue
        series[r["case"]][r["batch_log2"]] = r["rate"] / 1e9
        gpu = r.get("gpu", gpu)
    fig, ax = plt.subplots(figsize=(7, 4))
    for case, pts in sorted(series.items()):
        xs = sorted(pts)
        ax.plot(xs, [pts[x] for x in xs], "o-", label=case)
    ax.set_xlabel("log2 batch entries")
    ax.set_ylabel("G entries/s")
    ax.set_title("Host batches into the GPU graph (StreamIngest) " + gpu, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    save(plt, fig, out, "stream_ingest_rates")


def static(plt, recs, gunrock, out):
    """Static algorithm times on the Gunrock R-MAT s20 file: slab graph, CSR, Gunrock."""
    bars = collections.OrderedDict()
    for r in recs:
        if not str(r.get("graph", "")).endswith(".mtx"):
            continue
        ms = r["ms"] if "ms" in r else 1e3 * r["seconds"]
        name = r["algorithm"].replace("pagerank_", "pr ").replace("_", " ")
        bars[f'{name}\n{r.get("structure", "slab")}'] = ms
    for line in open(gunrock) if gunrock else []:
        m = re.match(r"(\w+) .*Elapsed Time : ([0-9.]+)", line)
        if m and m.group(1) != "tc":
            bars[f"{m.group(1)}\nGunrock"] = float(m.group(2))
    fig, ax = plt.subplots(figsize=(max(6, 0.95 * len(bars)), 4))
    colors = ["black" if "Gunrock" in k else "tab:blue" for k in bars]
    ax.bar(range(len(bars)), list(bars.values()), color=colors)
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels(list(bars.keys()), fontsize=7)
    ax.set_yscale("log")
    ax.set_ylabel("ms (median)")
    ax.set_title("Static algorithms, R-MAT s20 ef16 (Gunrock's file and GPU call)", fontsize=10)
    ax.grid(alpha=0.3, axis="y")
    save(plt, fig, out, "static_algorithms_rmat20")


def dynamic(plt, recs, out):
    """Per algorithm: update time against apply + recompute per batch size, insert and mixed."""
    groups = collections.defaultdict(lambda: collections.defaultdict(dict))
    for r in recs:
        algo = r["algorithm"].replace("dynamic_", "")
        batch = r.get("batch_log2")
        if batch is None:
            batch = int(r["batch"]).bit_length() - 1
        upd = r["update_ms"] if "update_ms" in r else 1e3 * r["update_seconds"]
        rec = r["recompute_ms"] if "recompute_ms" in r else 1e3 * r["recompute_seconds"]
        groups[algo][r["stream"]][batch] = (upd, rec)
    algos = sorted(groups)
    fig, axes = plt.subplots(1, len(algos), figsize=(3.3 * len(algos), 3.4), squeeze=False)
    for ax, algo in zip(axes[0], algos):
        for stream_kind, pts in sorted(groups[algo].items()):
            xs = sorted(pts)
            ax.plot(xs, [pts[x][0] for x in xs], "o-", label=f"{stream_kind}: update")
            ax.plot(xs, [pts[x][1] for x in xs], "--", label=f"{stream_kind}: recompute")
        ax.set_yscale("log")
        ax.set_title(algo, fontsize=9)
        ax.set_xlabel("log2 batch edges")
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel("ms per batch")
    axes[0][0].legend(fontsize=6)
    fig.suptitle("Dynamic algorithms: apply + update against apply + recompute", fontsize=10)
    save(plt, fig, out, "dynamic_algorithms")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["btree", "stream", "static", "dynamic"])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--gunrock", default="", help="gunrock_*.txt: 'ALGO ... Elapsed Time : MS' lines")
    args = ap.parse_args()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out = args.json[-1]
    recs = load(args.json[:-1])
    if args.kind == "btree":
        btree(plt, recs, out)
    elif args.kind == "stream":
        stream(plt, recs, out)
    elif args.kind == "static":
        static(plt, recs, args.gunrock, out)
    else:
        dynamic(plt, recs, out)


if __name__ == "__main__":
    main()
