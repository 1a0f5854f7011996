#!/usr/bin/env python3
"""Summarises an A/B run of tools/bench/ab_trees.sh: for each table of the slab hash and graph
benchmarks, the median over rounds of its harmonic mean(s) for tree A and tree B, and B/A.

    python3 tools/bench/ab_summary.py LOG_DIR
"""
import glob
import os
import re
import statistics
import sys


def harmonic(xs):
    return len(xs) / sum(1.0 / x for x in xs)


def tables(path):
    """Yields (table name, metric, value) for every table of one bench log: its own harmonic-mean
    line where it prints one, else the harmonic mean of its rows' first rate column (rows per
    batch size), or of 1/time for the tables that print times (build, TC, Table 5.9)."""
    title, rows, has_own = "", [], False

    def flush():
        if rows and not has_own:
            return [(title, "rows hmean", harmonic(rows))]
        return []

    for line in open(path, errors="replace"):
        line = line.rstrip()
        m = re.match(r"^== (.*?) ==", line)
        if m:
            yield from flush()
            title, rows, has_own = re.sub(r"\s*\(\d+ vertices.*$", "", m.group(1)), [], False
            continue
        m = re.match(r"^2\^\d+\s+([\d.]+)", line)
        if m:
            rows.append(float(m.group(1)))
            continue
        m = re.match(r"^(\S+ s\d+ ef\d+)\s.*build\s+([\d.]+) ms.*TC\s+([\d.]+) ms", line)
        if m:
            yield f"build {m.group(1)}", "1000/ms", 1000 / float(m.group(2))
            yield f"static TC {m.group(1)}", "1000/ms", 1000 / float(m.group(3))
            continue
        m = re.match(r"^(\d)\s+([\d.]+)\s+[\d.]+\s+[\d.]+", line)
        if m and title.startswith("Table 5.9"):
            rows.append(1000 / float(m.group(2)))
            continue
        m = re.match(r"^harmonic mean: insert ([\d.]+) MEdge/s, delete ([\d.]+) MEdge/s", line)
        if m:
            has_own = True
            yield title, "insert", float(m.group(1))
            yield title, "delete", float(m.group(2))
            continue
        m = re.match(r"^\s+(\w+ \w+ \w+)\s+([\d.]+) G/s \(\d+ configurations\)", line)
        if m:
            yield "slab hash", m.group(1), float(m.group(2))
    yield from flush()


def main():
    root = sys.argv[1]
    values = {}  # (bench, table, metric) -> side -> [values]
    for path in sorted(glob.glob(os.path.join(root, "*_[AB]_r*.log"))):
        bench, side = re.match(r"(\w+)_([AB])_r\d+\.log", os.path.basename(path)).groups()
        seen = {}
        for table, metric, value in tables(path):
            key = (bench, table, metric)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > 1:  # the same title twice in one log: number it
                key = (bench, f"{table} #{seen[key]}", metric)
            values.setdefault(key, {}).setdefault(side, []).append(value)
    print(f"{'table':<78} {'metric':<18} {'A':>9} {'B':>9} {'B/A':>7}")
    ratios = []
    for (bench, table, metric), sides in values.items():
        if "A" not in sides or "B" not in sides:
            continue
        a, b = statistics.median(sides["A"]), statistics.median(sides["B"])
        ratios.append(b / a)
        print(f"{table[:78]:<78} {metric:<18} {a:9.1f} {b:9.1f} {b / a:7.3f}")
    if ratios:
        print(f"tables: {len(ratios)}, B/A min {min(ratios):.3f}, median "
              f"{statistics.median(ratios):.3f}, max {max(ratios):.3f}")


if __name__ == "__main__":
    main()
