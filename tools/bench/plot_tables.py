#!/usr/bin/python3
"""Plots of the benchmarks whose JSON records are tables rather than plot.py series:
btree_bench (beside GpuBTree and the paper), stream_bench (host ingest against its bounds),
traversal_bench and global_bench (static time beside Gunrock, dynamic update against recompute).

    /usr/bin/python3 tools/bench/plot_tables.py btree   tools/bench/btree/results/btree_h200.json OUT/
    /usr/bin/python3 tools/bench/plot_tables.py stream  tools/bench/stream/results/stream_h200.json OUT/
    /usr/bin/python3 tools/bench/plot_tables.py --gunrock FILE static STATIC_JSON... OUT/
    /usr/bin/python3 tools/bench/plot_tables.py dynamic DYNAMIC_JSON... OUT/
    /usr/bin/python3 tools/bench/plot_tables.py lsm     tools/bench/lsm/results/lsm_h200.json OUT/
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


def algo_gpu():
    """tools/bench/algo_gpu/plot_algorithms.py: the plots (and, run as a script, the markdown
    tables) of traversal_bench and global_bench, rows of either shape."""
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "algo_gpu"))
    import plot_algorithms
    return plot_algorithms


def static(plt, recs, gunrock, out):
    """Static algorithm times per graph (slab graph, our CSR, B-tree graph, Gunrock) and rates
    against the R-MAT scale; dynamic rows among the files are left to `dynamic`."""
    algo_gpu().plot_static(plt, recs, gunrock, out, save)


def dynamic(plt, recs, out):
    """Per algorithm: recompute / update per batch size (dynamic_speedup), and both times."""
    fig = algo_gpu().plot_dynamic(plt, recs, out, save)
    save(plt, fig, out, "dynamic_algorithms")


# ---- lsm_bench (issue 37): one plot per table, every structure beside the paper's K40c ----------
LSM_STYLE = {  # structure: (label, colour)
    "lsm": ("GPU LSM", "tab:blue"),
    "sorted_array": ("sorted array", "tab:orange"),
    "btree": ("B-tree", "tab:green"),
    "slab_map": ("slab hash map", "tab:red"),
}
LSM_PREFIX = (("slab_map_", "slab_map"), ("slab_", "slab_map"), ("btree_", "btree"),
              ("sa_", "sorted_array"), ("lsm_", "lsm"))


def lsm_split(r):
    """(structure, operation) of an lsm_bench record; older JSON has no "structure" field."""
    for prefix, structure in LSM_PREFIX:
        if r["series"].startswith(prefix):
            return r.get("structure", structure), r["series"][len(prefix):]
    return r.get("structure", "lsm"), r["series"]


def lsm_panel(ax, recs, op, title):
    """One operation: the harmonic mean per log2 b of each structure with its min-max band, the
    paper's K40c figure dashed in the same colour; rates measured once (x = 0, not per b) and
    figures constant in b (the cuckoo hash's) as horizontal lines."""
    by = collections.defaultdict(list)
    for r in recs:
        structure, o = lsm_split(r)
        if o == op:
            by[structure].append(r)
    for structure in LSM_STYLE:
        rows = sorted(by.get(structure, []), key=lambda r: r["log2_b"])
        if not rows:
            continue
        label, colour = LSM_STYLE[structure]
        xs = [r["log2_b"] for r in rows]
        if all(x == 0 for x in xs):  # measured once, independent of b
            ax.axhline(rows[0]["mean"], color=colour, lw=1.5, label=f"{label} (one size)")
        else:
            ax.plot(xs, [r["mean"] for r in rows], "o-", color=colour, ms=3, label=label)
            if any(r.get("samples", 1) > 1 for r in rows):
                ax.fill_between(xs, [r["min"] for r in rows], [r["max"] for r in rows],
                                color=colour, alpha=0.12, lw=0)
        paper = [(x, r["paper_mean"]) for x, r in zip(xs, rows) if r.get("paper_mean")]
        what = rows[0].get("paper_what") or ("K40c cuckoo hash" if structure == "slab_map"
                                             else f"K40c {label}")
        if len({p for _, p in paper}) == 1 and (structure == "slab_map" or len(paper) == 1):
            ax.axhline(paper[0][1], color=colour, ls=":", lw=1.2, label=f"paper: {what}")
        elif paper:
            ax.plot(*zip(*paper), "x--", color=colour, ms=4, lw=1, label=f"paper: {what}")
    ax.set_yscale("log")
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("log2 b (batch size)")
    ax.grid(alpha=0.3, which="both")


def lsm(plt, recs, out):
    """Tables II, III and IV of the GPU LSM paper and the build/cleanup rates, a plot each."""
    gpu = next((r.get("gpu") for r in recs if r.get("gpu")), "")
    table = lambda t: [r for r in recs if r.get("bench") == "lsm_table" + t]
    note = "shaded: min-max over resident batch counts; dashed/dotted: the paper's K40c figures"

    fig, ax = plt.subplots(figsize=(7, 4.4))
    lsm_panel(ax, table("II"), "insert", "insertion of batches of b into a growing structure "
              "(n = 2^27)")
    ax.set_ylabel("M elements/s (harmonic mean)")
    ax.legend(fontsize=7, ncol=2)
    fig.suptitle(f"GPU LSM Table II: insertion rate, {gpu}\n{note}", fontsize=9)
    save(plt, fig, out, "lsm_table2_insertion")

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=True)
    for ax, op, title in zip(axes, ["lookup_none", "lookup_all"],
                             ["none of the queries present", "all of the queries present"]):
        lsm_panel(ax, table("III"), op, title + " (r b queries, r b resident)")
    axes[0].set_ylabel("M queries/s (harmonic mean)")
    axes[0].legend(fontsize=7, ncol=2)
    fig.suptitle(f"GPU LSM Table III: lookup rate, {gpu}\n{note}", fontsize=9)
    save(plt, fig, out, "lsm_table3_lookup")

    ops = [("count_L8", "count, L = 8"), ("count_L1024", "count, L = 1024"),
           ("range_L8", "range, L = 8"), ("range_L1024", "range, L = 1024")]
    fig, axes = plt.subplots(1, 4, figsize=(16, 4.4))
    for ax, (op, title) in zip(axes, ops):
        lsm_panel(ax, table("IV"), op, title)
        ax.text(0.02, 0.02, "slab hash map: n/a (no key order)", transform=ax.transAxes,
                fontsize=7, color=LSM_STYLE["slab_map"][1])
    axes[0].set_ylabel("M queries/s (harmonic mean)")
    axes[0].legend(fontsize=7)
    fig.suptitle(f"GPU LSM Table IV: count and range rate (L expected results per query), {gpu}"
                 f"\n{note}", fontsize=9)
    save(plt, fig, out, "lsm_table4_count_range")

    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    lsm_panel(ax, [r for r in table("II") if r["series"].endswith("_build")], "build",
              "bulk build of n = 2^27 (LSM: levels for batch size b)")
    ax.set_ylabel("M elements/s")
    ax.legend(fontsize=7)
    rows = sorted(table("V-D"), key=lambda r: (r["log2_b"], r["series"]))
    labels = [f'b=2^{r["log2_b"]}\n{r["series"].split("_")[-1]}% stale' for r in rows]
    bx.bar(range(len(rows)), [r["mean"] for r in rows], color=LSM_STYLE["lsm"][1], label="GPU LSM")
    bx.plot(range(len(rows)), [r["paper_mean"] for r in rows], "k_", ms=18, mew=2,
            label="paper: K40c LSM")
    bx.set_xticks(range(len(rows)))
    bx.set_xticklabels(labels, fontsize=7)
    bx.set_yscale("log")
    bx.set_ylabel("M elements/s")
    bx.set_title("cleanup (Section V-D)", fontsize=9)
    bx.grid(alpha=0.3, axis="y")
    bx.legend(fontsize=7, loc="center right")
    fig.suptitle(f"GPU LSM bulk build and cleanup, {gpu}", fontsize=9)
    save(plt, fig, out, "lsm_build_cleanup")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["btree", "stream", "static", "dynamic", "lsm"])
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
    elif args.kind == "lsm":
        lsm(plt, recs, out)
    elif args.kind == "static":
        static(plt, recs, args.gunrock, out)
    else:
        dynamic(plt, recs, out)


if __name__ == "__main__":
    main()
