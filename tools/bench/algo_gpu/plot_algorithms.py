"""Plots and tables of the GPU algorithm benchmarks (traversal_bench, global_bench; issue 34).

Plots, through tools/bench/plot_tables.py (any mix of the benches' JSON files; each kind takes
the rows it draws):
    /usr/bin/python3 tools/bench/plot_tables.py --gunrock GUNROCK_TXT static JSON... OUT/
    /usr/bin/python3 tools/bench/plot_tables.py dynamic JSON... OUT/
Tables (markdown on stdout, no matplotlib needed):
    python3 tools/bench/algo_gpu/plot_algorithms.py markdown [--gunrock GUNROCK_TXT] JSON...

Reads the rows of both benches in their current shape (bench_plan.hpp: ms, structure,
batch_log2, update_ms, ...) and in the earlier one (seconds, update_seconds, batch, graphs named
by their path), and Gunrock's times as "ALGO ... Elapsed Time : MS" lines (device_bench.sh's
gunrock_r20.txt). Gunrock's R-MAT s20 file is the graph "gunrock_rmat20" (earlier rows: a path
ending in r20.mtx or rmat20*.mtx).
"""
import collections
import math
import re

GUNROCK_GRAPH = "gunrock_rmat20"
# Gunrock's example binaries -> our algorithm names (pr stops on the largest change, as ours
# with pagerank_max_change; its sssp figure is on unit weights).
GUNROCK_ALGO = {"bfs": "bfs", "sssp": "sssp_unit", "pr": "pagerank_max_change", "tc": "tc"}
ALGO_ORDER = ["bfs", "sssp_unit", "sssp_len64", "cc", "kcore", "pagerank_l1",
              "pagerank_max_change", "tc"]
ALGO_TITLE = {"bfs": "BFS", "sssp_unit": "SSSP, unit lengths", "sssp_len64": "SSSP, lengths 1..64",
              "cc": "components", "kcore": "core numbers", "pagerank_l1": "PageRank, L1 < 1e-10",
              "pagerank_max_change": "PageRank, max change < 1e-6", "tc": "triangle count",
              "pagerank": "PageRank (L1 < 1e-10)", "sssp": "SSSP, lengths 1..64"}
STRUCTURES = ["slab", "csr", "btree"]
DYN_ORDER = ["bfs", "sssp", "cc", "kcore", "pagerank"]


def graph_name(g):
    g = str(g)
    if g == GUNROCK_GRAPH or re.search(r"(^|/)(r|rmat)_?s?20[^/]*\.mtx$", g):
        return GUNROCK_GRAPH
    m = re.fullmatch(r"rmat-?s?(\d+)", g)
    if m:
        return "rmat" + m.group(1)
    return re.sub(r"\.(mtx|txt|gz)$", "", g.rsplit("/", 1)[-1])


def structure_name(s):
    s = s or "slab_set"
    return "slab" if s.startswith("slab") else s


def is_dynamic(r):
    return r.get("section") == "dynamic" or "update_ms" in r or "update_seconds" in r


def static_rows(recs):
    """{(graph, algorithm, structure): row} with ms, edges, iterations; later rows win."""
    out = {}
    for r in recs:
        if r.get("skipped") or is_dynamic(r) or "algorithm" not in r:
            continue
        ms = r["ms"] if "ms" in r else 1e3 * r.get("seconds", 0)
        algo = r["algorithm"]
        if algo.startswith("pagerank_l1"):
            algo = "pagerank_l1"
        row = {"ms": ms, "edges": r.get("edges", 0), "iterations": r.get("iterations", 0),
               "gpu": r.get("gpu", "")}
        out[(graph_name(r["graph"]), algo, structure_name(r.get("structure")))] = row
    return out


def dynamic_rows(recs):
    """{algorithm: {stream: {log2 batch: (update ms, recompute ms, recomputed)}}}."""
    out = collections.defaultdict(lambda: collections.defaultdict(dict))
    for r in recs:
        if r.get("skipped") or not is_dynamic(r):
            continue
        algo = r["algorithm"].replace("dynamic_", "")
        k = r.get("batch_log2")
        if k is None:
            k = int(r["batch"]).bit_length() - 1
        upd = r["update_ms"] if "update_ms" in r else 1e3 * r["update_seconds"]
        rec = r["recompute_ms"] if "recompute_ms" in r else 1e3 * r["recompute_seconds"]
        recomputed = bool(r.get("recomputed", False) or r.get("recomputed_batches", 0))
        out[algo][r["stream"]][k] = (upd, rec, recomputed)
    return out


def gunrock_times(path):
    """{our algorithm name: ms} from 'ALGO ... Elapsed Time : MS' lines."""
    out = {}
    if not path:
        return out
    with open(path) as f:
        for line in f:
            m = re.match(r"(\w+) .*Elapsed Time\s*:\s*([0-9.]+)", line)
            if m and m.group(1) in GUNROCK_ALGO:
                out[GUNROCK_ALGO[m.group(1)]] = float(m.group(2))
    return out


def graph_order(graphs):
    def key(g):
        if g == GUNROCK_GRAPH:
            return (0, 0, g)
        m = re.fullmatch(r"rmat(\d+)", g)
        return (2, int(m.group(1)), g) if m else (1, 0, g)
    return sorted(graphs, key=key)


def gpu_of(recs):
    for r in recs:
        if r.get("gpu") and r["gpu"] != "unknown GPU":
            return r["gpu"]
    return ""


def plot_static(plt, recs, gunrock_path, out, save):
    """Per algorithm: ms per graph, bars for slab / CSR / B-tree (and Gunrock on its file); and
    Gedges/s against the R-MAT scale."""
    rows = static_rows(recs)
    if not rows:
        return
    gun = gunrock_times(gunrock_path)
    algos = [a for a in ALGO_ORDER if any(k[1] == a for k in rows)]
    graphs = graph_order({k[0] for k in rows})
    cols = min(4, len(algos))
    nrows = math.ceil(len(algos) / cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.6 * nrows), squeeze=False)
    colors = {"slab": "tab:blue", "csr": "tab:orange", "btree": "tab:green", "Gunrock": "black"}
    width = 0.2
    for ax, algo in zip(axes.flat, algos):
        gs = [g for g in graphs if any((g, algo, s) in rows for s in STRUCTURES)]
        for i, s in enumerate(STRUCTURES + ["Gunrock"]):
            xs, ys = [], []
            for j, g in enumerate(gs):
                if s == "Gunrock":
                    v = gun.get(algo) if g == GUNROCK_GRAPH else None
                else:
                    v = rows.get((g, algo, s), {}).get("ms")
                if v:
                    xs.append(j + (i - 1.5) * width)
                    ys.append(v)
            if xs:
                ax.bar(xs, ys, width, color=colors[s], label=s)
        ax.set_xticks(range(len(gs)))
        ax.set_xticklabels([g.replace("gunrock_", "Gunrock's\n") for g in gs], fontsize=6,
                           rotation=45, ha="right")
        ax.set_yscale("log")
        ax.set_title(ALGO_TITLE.get(algo, algo), fontsize=9)
        ax.grid(alpha=0.3, axis="y")
    for ax in axes.flat[len(algos):]:
        ax.axis("off")
    axes[0][0].set_ylabel("ms (median)")
    handles = {}
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(lab, h)
    fig.legend(handles.values(), handles.keys(), loc="upper right", fontsize=8)
    fig.suptitle(f"Static algorithms: slab graph, our CSR, B-tree graph, Gunrock ({gpu_of(recs)})",
                 fontsize=10)
    save(plt, fig, out, "static_algorithms")

    scales = collections.defaultdict(dict)
    for (g, algo, s), r in rows.items():
        m = re.fullmatch(r"rmat(\d+)", g)
        if m and r["ms"] > 0:
            scales[(algo, s)][int(m.group(1))] = r["edges"] / (r["ms"] * 1e-3) * 1e-9
    if not scales:
        return
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.3 * nrows), squeeze=False)
    for ax, algo in zip(axes.flat, algos):
        for s in STRUCTURES:
            pts = scales.get((algo, s))
            if pts:
                xs = sorted(pts)
                ax.plot(xs, [pts[x] for x in xs], "o-", color=colors[s], label=s)
        ax.set_title(ALGO_TITLE.get(algo, algo), fontsize=9)
        ax.set_xlabel("R-MAT scale (edge factor 16)")
        ax.grid(alpha=0.3)
    for ax in axes.flat[len(algos):]:
        ax.axis("off")
    axes[0][0].set_ylabel("G edges/s")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"Static algorithms: rate against R-MAT scale ({gpu_of(recs)})", fontsize=10)
    save(plt, fig, out, "static_rates_rmat")


def _batch_axis(ax, algo):
    """The shared look of a dynamic panel: log y, algorithm title, integer log2 batch x."""
    from matplotlib.ticker import MaxNLocator
    ax.set_yscale("log")
    ax.set_title(ALGO_TITLE.get(algo, algo), fontsize=9)
    ax.set_xlabel("log2 batch edges")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(alpha=0.3)


def _kinds(group):
    """(kind, colour, batch sizes ascending, points) for each kind of batch an algorithm's rows
    have: insert, then mixed."""
    for kind, color in (("insert", "tab:blue"), ("mixed", "tab:red")):
        pts = group.get(kind)
        if pts:
            yield kind, color, sorted(pts), pts


def plot_dynamic(plt, recs, out, save):
    """Per algorithm: recompute time / update time per batch size, insert and mixed, saved as
    dynamic_speedup; returns the figure of both times per batch (the caller saves it)."""
    groups = dynamic_rows(recs)
    if not groups:
        fig, ax = plt.subplots(figsize=(4, 1))
        ax.axis("off")
        ax.text(0.5, 0.5, "no dynamic rows", ha="center", va="center")
        return fig
    algos = [a for a in DYN_ORDER if a in groups] + sorted(set(groups) - set(DYN_ORDER))
    fig, axes = plt.subplots(1, len(algos), figsize=(3.4 * len(algos), 3.6), squeeze=False)
    for ax, algo in zip(axes[0], algos):
        for kind, color, xs, pts in _kinds(groups[algo]):
            ys = [pts[x][1] / pts[x][0] if pts[x][0] > 0 else float("nan") for x in xs]
            ax.plot(xs, ys, "-", color=color, label=kind)
            # Filled: the update ran; hollow: the class answered by its static computation.
            for x, y in zip(xs, ys):
                ax.plot([x], [y], "o", color=color,
                        markerfacecolor="none" if pts[x][2] else color)
        ax.axhline(1, color="gray", lw=1)
        ax.axhline(10, color="green", lw=1, ls="--")
        _batch_axis(ax, algo)
    axes[0][0].set_ylabel("speedup: recompute / update")
    axes[0][0].legend(fontsize=7)
    fig.suptitle("Dynamic: (apply + static recompute) / (apply + update); lines at 1x and 10x; "
                 f"hollow: answered by recompute ({gpu_of(recs)})", fontsize=9)
    save(plt, fig, out, "dynamic_speedup")

    fig, axes = plt.subplots(1, len(algos), figsize=(3.4 * len(algos), 3.6), squeeze=False)
    for ax, algo in zip(axes[0], algos):
        for kind, color, xs, pts in _kinds(groups[algo]):
            ax.plot(xs, [pts[x][0] for x in xs], "o-", color=color, label=f"{kind}: update")
            ax.plot(xs, [pts[x][1] for x in xs], "--", color=color, label=f"{kind}: recompute")
        _batch_axis(ax, algo)
    axes[0][0].set_ylabel("ms per batch")
    axes[0][0].legend(fontsize=6)
    fig.suptitle("Dynamic algorithms: apply + update against apply + recompute", fontsize=10)
    return fig


def _ms(v):
    if v is None:
        return "-"
    return f"{v:.3g} ms" if v < 1000 else f"{v / 1e3:.3g} s"


def markdown(recs, gunrock_path):
    """The tables of RESULTS.md (static and dynamic algorithms), from the rows."""
    rows = static_rows(recs)
    dyn = dynamic_rows(recs)
    gun = gunrock_times(gunrock_path)
    gpu = gpu_of(recs) or "GPU"
    lines = []
    add = lines.append
    algos = [a for a in ALGO_ORDER if any(k[1] == a for k in rows)]
    if any(k[0] == GUNROCK_GRAPH for k in rows):
        add(f"Static, on Gunrock's R-MAT s20 file ({gpu}, one job; ours: CUDA events around the "
            "call with the graph on the GPU, median after a warm-up; Gunrock: its CUDA-event "
            "time, last of 5 runs):")
        add("")
        add("| algorithm | slab graph | our CSR | B-tree graph | Gunrock | slab / Gunrock |")
        add("|---|---|---|---|---|---|")
        for a in algos:
            v = {s: rows.get((GUNROCK_GRAPH, a, s), {}).get("ms") for s in STRUCTURES}
            if not any(v.values()):
                continue
            it = rows.get((GUNROCK_GRAPH, a, "slab"), {}).get("iterations")
            slab = _ms(v["slab"]) + (f" ({it} it.)" if it and a.startswith("pagerank") else "")
            g = gun.get(a)
            ratio = f"x{v['slab'] / g:.2f}" if g and v["slab"] else "-"
            add(f"| {ALGO_TITLE.get(a, a)} | {slab} | {_ms(v['csr'])} | {_ms(v['btree'])} | "
                f"{_ms(g)} | {ratio} |")
        add("")
    rmats = [g for g in graph_order({k[0] for k in rows}) if re.fullmatch(r"rmat\d+", g)]
    if rmats:
        add("Static on R-MAT (edge factor 16, ids permuted), G edges/s: slab / CSR / B-tree "
            "(undirected edges / time):")
        add("")
        add("| algorithm | " + " | ".join(f"s{g[4:]}" for g in rmats) + " |")
        add("|---|" + "---|" * len(rmats))
        for a in algos:
            cells = []
            for g in rmats:
                vals = []
                for s in STRUCTURES:
                    r = rows.get((g, a, s))
                    vals.append(f"{r['edges'] / (r['ms'] * 1e-3) * 1e-9:.2f}"
                                if r and r["ms"] > 0 else "-")
                cells.append(" / ".join(vals))
            if any(c != "- / - / -" for c in cells):
                add(f"| {ALGO_TITLE.get(a, a)} | " + " | ".join(cells) + " |")
        add("")
    files = [g for g in graph_order({k[0] for k in rows})
             if g != GUNROCK_GRAPH and not re.fullmatch(r"rmat\d+", g)]
    if files:
        add("Static on the shared real graphs, ms: slab / CSR / B-tree:")
        add("")
        add("| algorithm | " + " | ".join(files) + " |")
        add("|---|" + "---|" * len(files))
        for a in algos:
            cells = [" / ".join(f"{rows[(g, a, s)]['ms']:.3g}" if (g, a, s) in rows else "-"
                                for s in STRUCTURES) for g in files]
            if any(c != "- / - / -" for c in cells):
                add(f"| {ALGO_TITLE.get(a, a)} | " + " | ".join(cells) + " |")
        add("")
    if dyn:
        ks = sorted({k for a in dyn.values() for s in a.values() for k in s})
        add("Dynamic on R-MAT s20: (apply + static recompute) / (apply + update) per batch of "
            "2^k edges; R: the class answered by its static computation:")
        add("")
        add("| algorithm, stream | " + " | ".join(f"2^{k}" for k in ks) + " |")
        add("|---|" + "---|" * len(ks))
        for a in [a for a in DYN_ORDER if a in dyn] + sorted(set(dyn) - set(DYN_ORDER)):
            for s in ("insert", "mixed"):
                pts = dyn[a].get(s)
                if not pts:
                    continue
                cells = []
                for k in ks:
                    p = pts.get(k)
                    cells.append("-" if not p or p[0] <= 0 else
                                 f"x{p[1] / p[0]:.2f}" + (" R" if p[2] else ""))
                add(f"| {ALGO_TITLE.get(a, a)}, {s} | " + " | ".join(cells) + " |")
        add("")
    return "\n".join(lines)


def main():
    import argparse
    import json
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["markdown"])
    ap.add_argument("json", nargs="+")
    ap.add_argument("--gunrock", default="", help="'ALGO ... Elapsed Time : MS' lines")
    args = ap.parse_args()
    recs = []
    for p in args.json:
        with open(p) as f:
            recs += json.load(f)
    print(markdown(recs, args.gunrock))


if __name__ == "__main__":
    main()
