#!/usr/bin/env python3
"""One Falcon signature at 168 MHz on the co-design: Cortex-M4 host work plus device cycles
(issue 19, deliverable 5; docs/REPRODUCING.md "Falcon co-design").

    scripts/falcon-cycle-model.py [--split FILE|-] [--fft FILE] [--samplerz FILE]
                                  [--params FILE] [--units 1|2] [--json] [--check]

Inputs (all data, nothing measured is written in this script):
  --split     instructions per function of each M4 operation, from
              scripts/m4-func-split.py ELF Falcon-512 Falcon-1024
              (default docs/bench/2026-11-28-m4-func-split.jsonl; "-" = stdin)
  --fft       the FFT/iFFT engine's lines of hw/falcon/report.sh --json (units fftN, fftNx2:
              cycles, ifft_cycles, lut, ff, dsp, bram) (default hw/falcon/model/fft.jsonl)
  --samplerz  the SamplerZ device half: samplerz_cycles_per_sample or
              samplerz_cycles_per_signature {"512","1024"}, resources, pending, source
              (default hw/falcon/model/samplerz.json: the SamplerZ RTL's figures)
  --params    clock, host CPI range, FFT calls per signature, transfer cost, the paper's
              figures (default hw/falcon/model/params.json)

Two cuts of one signature from the compact key (the reference's sign_dyn, which the paper
and pqm4 measure):
  A "fft+samplerz": what pqsig's hardware builds (and the issue's cut): FFT, iFFT and
     SamplerZ's base sampler + BerExp on the device; every other instruction on the M4.
  B "all-binary64": every binary64 function on the device (FFT-domain arithmetic, the LDL
     and ffSampling recursion too), as the paper's text describes its FPGA; the host keeps
     hashing, ChaCha20, encoding and the rest. Device cycles of the functions the RTL does
     not build are ESTIMATED at the FFT's density (M4 instructions per engine cycle).
time = host cycles (instructions x CPI lo..hi) + device cycles + transfer, serial (the
host waits for each call, as in the paper's co-design); "overlap" = max(host, device), the
bound if every device call overlapped host work.
--check: exit 1 unless the split is consistent (FFT calls, host + device = total) and the
arithmetic reproduces a hand-computed case.
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

FFT = "pqsig::kernels::falcon::fft::portable::fft"
IFFT = "pqsig::kernels::falcon::fft::portable::ifft"
SAMPLERZ = ("pqsig::kernels::falcon::samplerz::portable::sample",
            "pqsig::kernels::falcon::samplerz::portable::sample_pair",
            "pqsig::kernels::falcon::samplerz::portable::sample_leaf")
# Binary64 work beyond FFT/iFFT/SamplerZ (cut B): the FFT-domain kernels and the signer's
# floating-point functions.
FLOAT_PREFIXES = ("pqsig::kernels::falcon::fft::", "pqsig::falcon::sign::ffsampling::",
                  "pqsig::falcon::sign::tree::", "pqsig::falcon::sign::finish",
                  "pqsig::falcon::sign::target")
LOGN = {"Falcon-512": 9, "Falcon-1024": 10}


def read_lines(path):
    f = sys.stdin if path == "-" else open(path)
    out = [json.loads(l) for l in f if l.strip()]
    if f is not sys.stdin:
        f.close()
    return out


def ms(cycles, mhz):
    return cycles / (mhz * 1000.0)


def model_one(alg, ops, fft_units, sz, params, units):
    """The model for one parameter set; returns a dict (numbers only)."""
    n = 1 << LOGN[alg]
    sign = ops[(alg, "sign")]
    fns = sign["by_function"]
    total = sign["instructions"]
    eng = fft_units[f"fft{n}" + ("x2" if units == 2 else "")]
    calls = params["fft_calls_per_signature"]
    mhz = params["clock_mhz"]
    cpi_lo, cpi_hi = params["host_cpi"]["lo"], params["host_cpi"]["hi"]
    tw = params["transfer_cycles_per_word"]

    fft_i, ifft_i = fns.get(FFT, 0), fns.get(IFFT, 0)
    sz_i = sum(fns.get(k, 0) for k in SAMPLERZ)
    float_i = sum(v for k, v in fns.items() if k.startswith(FLOAT_PREFIXES))
    float_other = float_i - fft_i - ifft_i   # FFT-domain arithmetic, LDL, ffSampling

    samples = 2 * n   # one attempt: z0 and z1, n integers each
    per_sig = sz.get("samplerz_cycles_per_signature") or {}
    if per_sig.get(str(n)) is not None:
        sz_cycles = per_sig[str(n)]
    elif sz.get("samplerz_cycles_per_sample") is not None:
        sz_cycles = samples * sz["samplerz_cycles_per_sample"]
    else:
        sz_cycles = None
    fft_cycles = calls["fft"] * eng["cycles"] + calls["ifft"] * eng["ifft_cycles"]
    fft_xfer = (calls["fft"] + calls["ifft"]) * 2 * n * tw
    # M4 instructions of one FFT per engine cycle: the density used to price cut B's
    # functions that have no RTL.
    density = (fft_i / calls["fft"]) / eng["cycles"]

    cuts = {}
    for cut, device_i, extra_cycles in (
            ("fft+samplerz", fft_i + ifft_i + sz_i, 0),
            ("all-binary64", float_i + sz_i, float_other / density)):
        host_i = total - device_i
        dev = fft_cycles + fft_xfer + (sz_cycles or 0) + extra_cycles
        h_lo, h_hi = host_i * cpi_lo, host_i * cpi_hi
        cuts[cut] = {
            "host_instructions": host_i,
            "device_instructions_on_m4": device_i,
            "host_cycles_lo": round(h_lo), "host_cycles_hi": round(h_hi),
            "device_cycles": round(dev),
            "device_cycles_estimated": round(extra_cycles),
            "serial_ms_lo": round(ms(h_lo + dev, mhz), 2),
            "serial_ms_hi": round(ms(h_hi + dev, mhz), 2),
            "overlap_ms_lo": round(ms(max(h_lo, dev), mhz), 2),
            "overlap_ms_hi": round(ms(max(h_hi, dev), mhz), 2),
        }
    paper = params["paper"]
    return {
        "alg": alg, "units": units, "clock_mhz": mhz,
        "m4_sign_instructions": total,
        "m4_sign_ms_lo": round(ms(total * cpi_lo, mhz), 1),
        "m4_sign_ms_hi": round(ms(total * cpi_hi, mhz), 1),
        "fft_instructions": fft_i, "ifft_instructions": ifft_i,
        "samplerz_instructions": sz_i, "float_other_instructions": float_other,
        "fft_calls": calls["fft"], "ifft_calls": calls["ifft"],
        "fft_engine_cycles": fft_cycles, "fft_transfer_cycles": fft_xfer,
        "samples": samples, "samplerz_cycles": sz_cycles,
        "samplerz_pending": bool(sz.get("pending", True)),
        "m4_instructions_per_engine_cycle": round(density, 1),
        "cuts": cuts,
        "paper_sign_ms": paper["sign_ms"][str(n)],
        "paper_software_ms": paper["software_ms"][str(n)],
    }


def resources(fft_units, sz, units, n):
    eng = fft_units[f"fft{n}" + ("x2" if units == 2 else "")]
    out = {k: eng[k] for k in ("lut", "ff", "dsp", "bram")}
    pending = any(sz.get(k) is None for k in ("lut", "ff", "dsp"))
    if not pending:
        for k in ("lut", "ff", "dsp", "bram"):
            out[k] = out[k] + (sz.get(k) or 0)
    out["samplerz_included"] = not pending
    return out


def check(results, ops, failures):
    for r in results:
        alg = r["alg"]
        exp = ops.get((alg, "sign_expanded"))
        if exp:
            # sign_expanded computes only target's FFT: the ratio is the FFT call count.
            one = exp["by_function"].get(FFT, 0)
            ratio = r["fft_instructions"] / one if one else 0
            if abs(ratio - r["fft_calls"]) > 0.01:
                failures.append(f"{alg}: sign has {ratio:.3f} FFTs' worth of instructions, "
                                f"the model assumes {r['fft_calls']}")
        if r["fft_instructions"] == 0 or r["ifft_instructions"] == 0 \
                or r["samplerz_instructions"] == 0:
            failures.append(f"{alg}: FFT, iFFT or SamplerZ missing from the split")
        for name, c in r["cuts"].items():
            if c["host_instructions"] + c["device_instructions_on_m4"] \
                    != r["m4_sign_instructions"] or c["host_instructions"] <= 0:
                failures.append(f"{alg} {name}: host + device != total")
    # A hand-computed case: n = 512, 1,000,000 instructions of which FFT 500,000 (5 calls
    # of 100,000), iFFT 100,000, SamplerZ 100,000; engine 1,000 / 1,100 cycles; CPI 1..2;
    # 10 cycles per sample; 2 cycles per word. Cut A: host 300,000 instr -> 300,000..
    # 600,000 cycles; device 5*1000 + 2*1100 + 7*2*512*2 + 1024*10 = 31,776 cycles;
    # serial at 100 MHz: 3.31776 .. 6.31776 ms.
    ops_t = {("Falcon-512", "sign"): {"instructions": 1_000_000, "by_function": {
        FFT: 500_000, IFFT: 100_000, SAMPLERZ[0]: 100_000}}}
    fft_t = {"fft512": {"cycles": 1000, "ifft_cycles": 1100, "lut": 1, "ff": 1, "dsp": 1,
                        "bram": 0}}
    par_t = {"clock_mhz": 100, "host_cpi": {"lo": 1.0, "hi": 2.0},
             "fft_calls_per_signature": {"fft": 5, "ifft": 2},
             "transfer_cycles_per_word": 2,
             "paper": {"sign_ms": {"512": 0}, "software_ms": {"512": 0}}}
    t = model_one("Falcon-512", ops_t, fft_t, {"samplerz_cycles_per_sample": 10}, par_t, 1)
    a = t["cuts"]["fft+samplerz"]
    if (a["device_cycles"], a["serial_ms_lo"], a["serial_ms_hi"]) != (31776, 3.32, 6.32):
        failures.append(f"hand-computed case: got {a}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--split", default=os.path.join(ROOT, "docs/bench/2026-11-28-m4-func-split.jsonl"))
    ap.add_argument("--fft", default=os.path.join(ROOT, "hw/falcon/model/fft.jsonl"))
    ap.add_argument("--samplerz", default=os.path.join(ROOT, "hw/falcon/model/samplerz.json"))
    ap.add_argument("--params", default=os.path.join(ROOT, "hw/falcon/model/params.json"))
    ap.add_argument("--units", type=int, choices=(1, 2), default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        ops = {(r["alg"], r["op"]): r for r in read_lines(a.split)}
        fft_units = {r["unit"]: r for r in read_lines(a.fft)}
        with open(a.samplerz) as f:
            sz = json.load(f)
        with open(a.params) as f:
            params = json.load(f)
    except (OSError, ValueError, KeyError) as e:
        print(f"error: reading the inputs: {e}", file=sys.stderr)
        return 2
    algs = [alg for alg in LOGN if (alg, "sign") in ops]
    if not algs:
        print("error: no Falcon sign record in the split", file=sys.stderr)
        return 2
    results = []
    for alg in algs:
        r = model_one(alg, ops, fft_units, sz, params, a.units)
        r["resources"] = resources(fft_units, sz, a.units, 1 << LOGN[alg])
        results.append(r)
    if a.json:
        for r in results:
            print(json.dumps(r, separators=(",", ":")))
    else:
        p = params["paper"]
        pend = " (SamplerZ: PLACEHOLDER, pending the SamplerZ RTL)" if sz.get("pending", True) else ""
        print(f"Falcon signing at {params['clock_mhz']} MHz, FFT engine UNITS={a.units}{pend}")
        print(f"{'alg':<12} {'row':<34} {'ms':>17}")
        for r in results:
            alg = r["alg"]
            print(f"{alg:<12} {'paper: software on Cortex-M4':<34} {r['paper_software_ms']:>17}")
            print(f"{alg:<12} {'paper: SW+HW co-design':<34} {r['paper_sign_ms']:>17}")
            print(f"{alg:<12} {'pqsig: software on M4 (est.)':<34} "
                  f"{r['m4_sign_ms_lo']:>8}..{r['m4_sign_ms_hi']:<8}")
            for name, c in r["cuts"].items():
                print(f"{alg:<12} {'model ' + name + ', serial':<34} "
                      f"{c['serial_ms_lo']:>8}..{c['serial_ms_hi']:<8}")
                print(f"{alg:<12} {'model ' + name + ', overlap bound':<34} "
                      f"{c['overlap_ms_lo']:>8}..{c['overlap_ms_hi']:<8}")
            c = r["cuts"]["fft+samplerz"]
            print(f"{'':<12} host {c['host_instructions']:,} instr; device: FFT/iFFT "
                  f"{r['fft_engine_cycles']:,} + transfer {r['fft_transfer_cycles']:,} + "
                  f"SamplerZ {format(round(r['samplerz_cycles']), ',') if r['samplerz_cycles'] is not None else 'n/a'} cycles")
            res = r["resources"]
            inc = "" if res["samplerz_included"] else " (FFT engine only; SamplerZ pending)"
            print(f"{'':<12} resources: {res['lut']:,} LUT, {res['ff']:,} FF, {res['dsp']} DSP, "
                  f"{res['bram']} BRAM36{inc}; paper {p['lut']:,} LUT, {p['ff']:,} FF, {p['dsp']} DSP")
    if a.check:
        failures = []
        check(results, ops, failures)
        for f in failures:
            print("FAIL:", f, file=sys.stderr)
        if failures:
            return 1
        print("model checks: ok", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
