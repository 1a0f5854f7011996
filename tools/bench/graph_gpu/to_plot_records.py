#!/usr/bin/python3
"""Turns graph_gpu_bench JSON into tools/bench/plot.py records (edge insert/delete tables).

    /usr/bin/python3 tools/bench/graph_gpu/to_plot_records.py in.json out.json
"""
import json
import sys

records = []
for r in json.load(open(sys.argv[1])):
    if r.get("bench") not in ("graph_gpu_edge_insert", "graph_gpu_edge_delete"):
        continue
    op = "insertion" if r["bench"].endswith("insert") else "deletion"
    fig = f"Table 5.{2 if op == 'insertion' else 3}: edge {op} rate ({r['gpu']})"
    common = dict(figure=fig, x=r["batch"], x_label="batch size (edges)", unit="MEdge/s", gpu=r["gpu"])
    records.append(dict(common, series=r["graph"], value=r["rate_medges"], paper=r.get("paper")))
    records.append(dict(common, series=r["graph"] + " (+h2d copy)", value=r["rate_medges_h2d"]))
json.dump(records, open(sys.argv[2], "w"), indent=1)
