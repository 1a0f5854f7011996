#!/usr/bin/python3
"""Turns graph_gpu_bench JSON into tools/bench/plot.py records: Tables 5.2 / 5.3 (edge insert and
delete rates), 5.4 (vertex deletion), 5.5 (bulk build time), 5.6 (incremental build), 5.7
(static TC time) and 5.9 (insert 2^22 + TC), and the has_edges query rates (no thesis figure).
Tables 5.5 and 5.7 are drawn against each graph's edge count, each point labelled with its graph
(the thesis' figure exists for luxembourg_osm only: the other graphs of its tables are not in
../shared/datasets).

    /usr/bin/python3 tools/bench/graph_gpu/to_plot_records.py in.json out.json
    for t in "Table 5.2" "Table 5.3" "Table 5.4" "Table 5.6" has_edges; do
      /usr/bin/python3 tools/bench/plot.py out.json --logx --filter "$t" --out plots
    done
    for t in 5.5 5.7; do
      /usr/bin/python3 tools/bench/plot.py out.json --logx --logy --filter "Table $t" --out plots
    done
    /usr/bin/python3 tools/bench/plot.py out.json --filter "Table 5.9" --out plots
"""
import json
import sys

rows = json.load(open(sys.argv[1]))
# Edge count of each graph (bulk build records), the x of its Table 5.5 and 5.7 points.
edges_of = {r["graph"]: r["edges"] for r in rows if r.get("bench") == "graph_gpu_bulk_build"}
records = []
for r in rows:
    bench = r.get("bench")
    if bench in ("graph_gpu_edge_insert", "graph_gpu_edge_delete"):
        op = "insertion" if bench.endswith("insert") else "deletion"
        fig = f"Table 5.{2 if op == 'insertion' else 3}: edge {op} rate ({r['gpu']})"
        common = dict(figure=fig, x=r["batch"], x_label="batch size (edges)", unit="MEdge/s",
                      gpu=r["gpu"])
        records.append(dict(common, series=r["graph"], value=r["rate_medges"], paper=r.get("paper")))
        # The rows of the thesis' protocol (random batches into real and R-MAT graphs) are drawn
        # without their copy series: their means stand beside the thesis' mean, and the plot keeps
        # one copy line per graph with R-MAT or uniform batches.
        if "rate_medges_h2d" in r and "random" not in r["graph"]:
            records.append(dict(common, series=r["graph"] + " (+h2d copy)",
                                value=r["rate_medges_h2d"]))
    elif bench == "graph_gpu_vertex_delete":
        common = dict(figure=f"Table 5.4: vertex deletion rate ({r['gpu']})", x=r["batch"],
                      x_label="batch size (vertices)", unit="MVertex/s", gpu=r["gpu"])
        records.append(dict(common, series=r["graph"], value=r["rate_mvertices"],
                            paper=r.get("paper")))
        if "rate_mvertices_h2d" in r:
            records.append(dict(common, series=r["graph"] + " (+h2d copy of the ids)",
                                value=r["rate_mvertices_h2d"]))
    elif bench in ("graph_gpu_bulk_build", "graph_gpu_static_tc") and r["graph"] in edges_of:
        build = bench == "graph_gpu_bulk_build"
        fig = "Table 5.5: bulk build time" if build else "Table 5.7: static triangle count time"
        common = dict(figure=f"{fig} ({r['gpu']})", x=edges_of[r["graph"]],
                      x_label="edges of the graph", unit="ms", gpu=r["gpu"])
        name = r["graph"].rsplit(".", 1)[0] if r["graph"].endswith((".mtx", ".txt")) else r["graph"]
        records.append(dict(common, series="ours", value=r["ms"], paper=r.get("paper") or None,
                            label=name))
        if build and "ms_h2d" in r:
            records.append(dict(common, series="ours (+h2d copy)", value=r["ms_h2d"]))
    elif bench == "graph_gpu_incremental_build":
        common = dict(figure=f"Table 5.6: incremental build rate ({r['gpu']})", x=r["batch"],
                      x_label="batch size (edges)", unit="MEdge/s", gpu=r["gpu"])
        # Benches before the 2026-11-25 review recorded the arithmetic mean as "mean of ...".
        graph = "arithmetic " + r["graph"] if r["graph"].startswith("mean of") else r["graph"]
        records.append(dict(common, series=graph, value=r["rate_medges"], paper=r.get("paper")))
        if "rate_medges_h2d" in r:
            records.append(dict(common, series=graph + " (+h2d copy)",
                                value=r["rate_medges_h2d"]))
    elif bench == "graph_gpu_dynamic_tc":
        common = dict(figure=f"Table 5.9: insert 2^22 + triangle count, cumulative ({r['gpu']})",
                      x=r["iter"], x_label="round", unit="ms", gpu=r["gpu"])
        records.append(dict(common, series=r["graph"] + ": insert + incremental TC",
                            value=r["cumulative_ms"], paper=r.get("paper_road_usa_cum_ms")))
    elif bench == "graph_gpu_has_edges":
        records.append(dict(figure=f"has_edges query rate, not in the thesis ({r['gpu']})",
                            x=r["batch"], x_label="batch size (queries)", unit="MQuery/s",
                            gpu=r["gpu"], series=r["graph"], value=r["rate_mqueries"]))
json.dump(records, open(sys.argv[2], "w"), indent=1)
