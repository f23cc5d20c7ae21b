#!/usr/bin/env python3
"""Compares `kernelforge-cli gpu watch --json` (over SSH) with nvidia-smi run directly in the
same seconds. usage: compare.py DIRECT.csv KF.jsonl [WINDOW_MS]

DIRECT.csv: nvidia-smi --query-gpu=timestamp,index,uuid,name,utilization.gpu,memory.used,
memory.total,temperature.gpu,power.draw,power.limit,clocks.sm,pstate,
clocks_throttle_reasons.active --format=csv -lms 1000   (header and units: another format
than the noheader,nounits stream KernelForge reads, parsed here independently)

For every KernelForge sample and field: 'nearest' = equal to the direct sample nearest in
time; 'window' = within [min, max] of the direct samples at most WINDOW_MS away (default
1000: one sampling period each side). Prints one line per field and a JSON summary."""
import csv
import datetime as dt
import json
import sys

REASONS = {"gpu_idle": 0x1, "applications_clocks_setting": 0x2, "sw_power_cap": 0x4, "hw_slowdown": 0x8,
           "sync_boost": 0x10, "sw_thermal_slowdown": 0x20, "hw_thermal_slowdown": 0x40,
           "hw_power_brake_slowdown": 0x80, "display_clock_setting": 0x100}
# kernelforge json key -> direct header name (as nvidia-smi prints it), numeric?
FIELDS = [("name", "name", False), ("uuid", "uuid", False), ("util", "utilization.gpu", True),
          ("mem_used_mib", "memory.used", True), ("mem_total_mib", "memory.total", True),
          ("temp_c", "temperature.gpu", True), ("power_w", "power.draw", True),
          ("power_limit_w", "power.limit", True), ("sm_clock_mhz", "clocks.current.sm", True),
          ("pstate", "pstate", False), ("reasons", "clocks_event_reasons.active", False)]


def ms(text):
    return dt.datetime.strptime(text.strip(), "%Y/%m/%d %H:%M:%S.%f").replace(tzinfo=dt.timezone.utc).timestamp() * 1000


def value(raw, numeric):
    raw = raw.strip()
    if raw.startswith("[") or raw in ("N/A", ""):
        return None
    if numeric:
        return float(raw.split()[0])
    return raw


def main():
    direct_path, kf_path = sys.argv[1], sys.argv[2]
    window = float(sys.argv[3]) if len(sys.argv) > 3 else 1000.0
    direct = {}  # index -> [(ms, {field: value})]
    with open(direct_path) as f:
        rows = list(csv.reader(f, skipinitialspace=True))
    header = [h.split(" [")[0].strip() for h in rows[0]]
    alias = {"clocks.sm": "clocks.current.sm", "clocks_throttle_reasons.active": "clocks_event_reasons.active"}
    header = [alias.get(h, h) for h in header]
    for r in rows[1:]:
        if len(r) != len(header) or r[0] == rows[0][0]:
            continue
        rec = dict(zip(header, r))
        vals = {}
        for key, name, numeric in FIELDS:
            v = value(rec[name], numeric)
            if key == "reasons" and v is not None:
                v = int(v, 16)
            vals[key] = v
        direct.setdefault(int(rec["index"]), []).append((ms(rec["timestamp"]), vals))
    stats = {k: {"n": 0, "nearest": 0, "window": 0, "max_abs_diff_nearest": 0.0, "misses": []} for k, _, _ in FIELDS}
    samples = 0
    no_direct = 0
    with open(kf_path) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            o = json.loads(line)
            t = dt.datetime.fromisoformat(o["time"].replace("Z", "+00:00")).timestamp() * 1000
            for g in o["gpus"]:
                samples += 1
                rows = direct.get(g["index"], [])
                near = [r for r in rows if abs(r[0] - t) <= window]
                if not near:
                    no_direct += 1
                    continue
                nearest = min(rows, key=lambda r: abs(r[0] - t))[1]
                for key, _, numeric in FIELDS:
                    v = g.get(key)
                    if key == "reasons":
                        v = sum(REASONS.get(w, int(w, 16) if w.startswith("0x") else 0) for w in v)
                    s = stats[key]
                    s["n"] += 1
                    cands = [r[1][key] for r in near]
                    ok_near = v == nearest[key]
                    if numeric and v is not None and nearest[key] is not None:
                        s["max_abs_diff_nearest"] = max(s["max_abs_diff_nearest"], abs(v - nearest[key]))
                    if numeric and v is not None and all(c is not None for c in cands):
                        ok_win = min(cands) <= v <= max(cands)
                    else:
                        ok_win = v in cands
                    s["nearest"] += ok_near
                    s["window"] += ok_win
                    if not ok_win and len(s["misses"]) < 5:
                        s["misses"].append({"time": o["time"], "kf": v, "direct_window": cands})
    print("kernelforge samples: %d (GPU rows), without a direct sample within %d ms: %d" % (samples, window, no_direct))
    print("%-14s %5s %8s %8s %10s" % ("field", "n", "nearest", "window", "max|diff|"))
    for key, _, numeric in FIELDS:
        s = stats[key]
        print("%-14s %5d %8d %8d %10s" % (key, s["n"], s["nearest"], s["window"],
                                          ("%.2f" % s["max_abs_diff_nearest"]) if numeric else "-"))
        for m in s["misses"]:
            print("    miss %s kf=%r direct=%r" % (m["time"], m["kf"], m["direct_window"]))
    json.dump({"samples": samples, "no_direct": no_direct, "window_ms": window, "fields": stats},
              open(kf_path + ".compare.json", "w"), indent=1)


main()
