#!/usr/bin/python3
"""Draws benchmark JSON records (tools/bench/harness.hpp Report) beside the papers' figures.

Each record needs: series, x, value; optional: figure (else bench) groups records into one plot,
paper (the paper's figure for the same point, drawn as a dashed line / markers), target,
x_label, unit, gpu, label (a short text drawn beside the point, e.g. its dataset). Any benchmark
that writes such records can be plotted:

    /usr/bin/python3 tools/bench/plot.py results.json [more.json ...] --out plots/ [--filter TEXT]

One PNG per figure is written to --out (file name from the figure title).
"""
import argparse
import collections
import json
import os
import re
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="JSON files (arrays of records)")
    ap.add_argument("--out", default="plots", help="output folder")
    ap.add_argument("--filter", default="", help="only figures whose title contains this text")
    ap.add_argument("--logy", action="store_true", help="logarithmic y axis")
    ap.add_argument("--logx", action="store_true", help="logarithmic x axis (base 2: batch sizes)")
    args = ap.parse_args()

    records = []
    for path in args.json:
        with open(path) as f:
            data = json.load(f)
        if isinstance(data, dict) and data.get("command") == "stream":
            # A `warpgraph stream --json` document has batches, not benchmark records.
            sys.exit(f"{path} is the output of `warpgraph stream --json`, not benchmark records: "
                     f"draw it with /usr/bin/python3 tools/plot_stream.py {path} -o stream.png")
        records.extend(data if isinstance(data, list) else [data])

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figures = collections.OrderedDict()
    for r in records:
        if "x" not in r or "value" not in r:
            continue
        title = str(r.get("figure", r.get("bench", "benchmark")))
        if args.filter and args.filter not in title:
            continue
        figures.setdefault(title, []).append(r)
    if not figures:
        sys.exit("no plottable records (need x and value fields)")
    os.makedirs(args.out, exist_ok=True)
    for title, recs in figures.items():
        n_series = len({str(r.get("series", "ours")) for r in recs})
        many = n_series > 4
        # Many series: the legend goes to the right of the axes, not over the lines, and the
        # figure is tall enough for all of its lines (about 0.16 inch each at font size 7; the
        # paper's and the target's lines too).
        height = max(4.2, 0.16 * (n_series + 2) + 0.6) if many else 4.2
        fig, ax = plt.subplots(figsize=(9.6 if many else 6.4, height))
        series = collections.OrderedDict()
        paper = {}
        for r in recs:
            series.setdefault(str(r.get("series", "ours")), []).append((r["x"], r["value"]))
            if r.get("paper"):
                paper[r["x"]] = r["paper"]
        # A figure of labelled points (one per dataset) is not a curve: markers only.
        labelled = [r for r in recs if r.get("label")]
        # Past ten series the default colours repeat: then each series gets a colour of tab20
        # and a marker, a pair no other series has while there are fewer than 200 (past 20 the
        # colours repeat with the next marker; the paper keeps black squares).
        markers = ["o", "^", "v", "D", "P", "X", "*", "<", ">", "h"]
        crowded = len(series) > 10
        for i, (name, pts) in enumerate(series.items()):
            pts.sort()
            marker = markers[(i + i // 20) % len(markers)]
            style = dict(color=plt.get_cmap("tab20")(i % 20), marker=marker,
                         markersize=5) if crowded else dict(marker="o")
            ax.plot([p[0] for p in pts], [p[1] for p in pts], label=name,
                    linestyle="none" if labelled else "-", **style)
        for r in labelled:  # slanted, so that neighbours' labels do not overlap
            ax.annotate(str(r["label"]), (r["x"], r["value"]), fontsize=6, rotation=30,
                        xytext=(4, 3), textcoords="offset points")
        if paper:
            xs = sorted(paper)
            ax.plot(xs, [paper[x] for x in xs], "k", linestyle="none" if labelled else "--",
                    marker="s", label="paper / original")
            targets = {r["x"]: r["target"] for r in recs if r.get("target")}
            if targets:
                tx = sorted(targets)
                ax.plot(tx, [targets[x] for x in tx], ":", color="gray", marker="^", label="target")
        first = recs[0]
        ax.set_xlabel(first.get("x_label", "x"))
        ax.set_ylabel(first.get("unit", "value"))
        gpu = first.get("gpu")
        ax.set_title(title + (f"\n{gpu}" if gpu else ""), fontsize=10)
        if args.logy:
            ax.set_yscale("log")
        if args.logx:
            ax.set_xscale("log", base=2)
        ax.grid(True, alpha=0.3)
        if many:
            ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        else:
            ax.legend(fontsize=8)
        fig.tight_layout()
        name = re.sub(r"[^A-Za-z0-9_.=-]+", "_", title).strip("_") + ".png"
        fig.savefig(os.path.join(args.out, name), dpi=110, bbox_inches="tight")
        plt.close(fig)
        print(os.path.join(args.out, name))


if __name__ == "__main__":
    main()
