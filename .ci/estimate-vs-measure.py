#!/usr/bin/env python3
"""gpulab's memory model against real steps, on shapes it was never fitted on.

For each shape: `gpulab measure` (Candle, counting allocator) and `gpulab measure --pytorch` (the
same step in PyTorch, the profiler's memory events), beside what `gpulab estimate` predicts from
the shipped calibrations. Prints a Markdown table (the README quotes one run of it).

Usage: .ci/estimate-vs-measure.py GPULAB PYTHON [DTYPE OPTIMIZER [DEVICE [CAL CAL...]]]
  GPULAB: the gpulab binary (target/release/gpulab); PYTHON: a python with torch, or "-" for
  Candle only. DTYPE, OPTIMIZER: f32 adamw by default. DEVICE: cpu (default) or cuda:N. CAL:
  calibration files for `estimate` (default: the shipped ones).
"""
import json
import statistics
import subprocess
import sys

# (family, batch, layers, d, heads, kv_heads, ffn, vocab, seq) — none of them a calibration or
# held-out shape of `measure --validate`; larger in every dimension.
SHAPES = [
    ("gpt", 4, 4, 512, 8, None, None, 16000, 256),
    ("gpt", 2, 12, 768, 12, None, None, 50257, 128),
    ("gpt", 24, 2, 256, 4, None, None, 8000, 64),
    ("gpt", 8, 6, 384, 6, None, None, 12000, 192),
    ("llama", 8, 6, 512, 8, 4, 1408, 32000, 128),
    ("llama", 24, 4, 384, 6, 2, 1024, 8000, 96),
    ("llama", 2, 12, 768, 12, 4, 2048, 50000, 256),
    ("llama", 4, 3, 640, 10, 5, 1728, 20000, 224),
]


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{out.stderr[-2000:]}")
    return out.stdout


def main():
    gpulab, python = sys.argv[1], sys.argv[2]
    dtype = sys.argv[3] if len(sys.argv) > 3 else "f32"
    optimizer = sys.argv[4] if len(sys.argv) > 4 else "adamw"
    device = sys.argv[5] if len(sys.argv) > 5 else "cpu"
    cals = [a for c in sys.argv[6:] for a in ("--calibration", c)]
    print(f"| shape | params | Candle measured | Candle model | error | PyTorch measured | "
          f"PyTorch model | error | PyTorch / Candle |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    errs = {"candle": [], "pytorch": []}
    for fam, b, layers, d, h, kv, ffn, vocab, seq in SHAPES:
        # One vocabulary: the same shape flags describe the same model in measure and estimate.
        shape = ["--arch", fam, "--batch", str(b), "--layers", str(layers), "--d-model", str(d),
                 "--heads", str(h), "--vocab", str(vocab), "--seq-len", str(seq)]
        if kv:
            shape += ["--kv-heads", str(kv)]
        if ffn:
            shape += ["--ffn", str(ffn)]
        common = ["--dtype", dtype, "--optimizer", optimizer, "--quiet", "--device", device]
        candle = json.loads(run([gpulab, "measure", *shape, *common, "--no-sweep", "--json", "-"]))
        step = candle["results"][0]["measurement"]
        measured = step["ledger"]["measured_peak"]
        est = [*shape, "--dtype", dtype, "--optimizer", optimizer, "--json", *cals]
        columns = json.loads(run([gpulab, "estimate", *est]))["measured"]
        predicted = {c["framework"]: c["prediction"]["peak"] for c in columns if c["prediction"]}
        e_c = (predicted["candle"] - measured) / measured
        errs["candle"].append(abs(e_c))
        row = [step["description"], f"{step['params']:,}", f"{measured / 2**20:,.1f} MiB",
               f"{predicted['candle'] / 2**20:,.1f} MiB", f"{e_c * 100:+.1f} %"]
        if python != "-":
            torch = json.loads(run([gpulab, "measure", "--pytorch", "--python", python, *shape,
                                    *common, "--json", "-"]))[0]
            t_measured = torch["measured"]["peak"]
            e_t = (predicted["pytorch"] - t_measured) / t_measured
            errs["pytorch"].append(abs(e_t))
            row += [f"{t_measured / 2**20:,.1f} MiB", f"{predicted['pytorch'] / 2**20:,.1f} MiB",
                    f"{e_t * 100:+.1f} %", f"{t_measured / measured:.2f}"]
        else:
            row += ["-"] * 4
        print("| " + " | ".join(row) + " |", flush=True)
    for k, v in errs.items():
        if v:
            print(f"\n{k}: median |error| {statistics.median(v) * 100:.2f} %, "
                  f"worst {max(v) * 100:.2f} % over {len(v)} shapes ({dtype}, {optimizer})")


if __name__ == "__main__":
    main()
