# SPDX-License-Identifier: BSD-3-Clause
# GPU timeline of gpulz host-API calls (kernels, copies, runtime calls), through
# torch's profiler (CUPTI): python3 trace.py LIB OUTDIR FILE:KB:S:MODE...
import ctypes, json, sys, time, os
import torch
from torch.profiler import profile, ProfilerActivity, record_function
lib = ctypes.CDLL(sys.argv[1]); out = sys.argv[2]
lib.tr_len.restype = ctypes.c_size_t
torch.zeros(1, device='cuda'); torch.cuda.synchronize()
def run_one(f, kb, S, mode, out):
    assert lib.tr_load(f, ctypes.c_size_t(kb), S, mode) == 0
    for _ in range(20):
        assert lib.tr_compress() == 0 and lib.tr_decompress() == 0
    walls = {'c': [], 'd': []}
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for i in range(5):
            with record_function(f"compress{i}"):
                t = time.perf_counter(); assert lib.tr_compress() == 0; walls['c'].append(time.perf_counter() - t)
            with record_function(f"decompress{i}"):
                t = time.perf_counter(); assert lib.tr_decompress() == 0; walls['d'].append(time.perf_counter() - t)
    tag = f"{os.path.basename(sys.argv[2]).split('.')[0]}-{kb}k-{sys.argv[5]}"
    prof.export_chrome_trace(f"{out}/trace-{tag}.json")
    ev = json.load(open(f"{out}/trace-{tag}.json"))["traceEvents"]
    ev = [e for e in ev if e.get("ph") == "X"]
    rng = {e["name"]: e for e in ev if e.get("cat") == "user_annotation" and e["name"].startswith(("compress", "decompress"))}
    with open(f"{out}/timeline-{tag}.txt", "w") as o:
        o.write(f"{tag} ratio {kb*1024/lib.tr_len():.3f} wall c {sorted(walls['c'])[2]*1e3:.3f} ms d {sorted(walls['d'])[2]*1e3:.3f} ms\n")
        for name in ("compress3", "decompress3"):
            r = rng[name]; t0, t1 = r["ts"], r["ts"] + r["dur"]
            o.write(f"== {name} {r['dur']:.1f} us\n")
            inner = sorted((e for e in ev if t0 <= e["ts"] <= t1 and e is not r and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_driver")), key=lambda e: e["ts"])
            busy = 0.0
            for e in inner:
                gpu = e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")
                if gpu: busy += e["dur"]
                o.write(f"{e['ts']-t0:9.1f} {e['dur']:8.1f} {'GPU ' if gpu else 'host'} s{e.get('args',{}).get('stream','') if gpu else ''} {e['name'][:90]}\n")
            o.write(f"-- gpu busy (sum) {busy:.1f} us of {r['dur']:.1f}\n")
    os.remove(f"{out}/trace-{tag}.json")

for spec in sys.argv[3:]:
  fn, kb, S, mname = spec.split(':'); f = fn.encode(); kb = int(kb); S = int(S)
  mode = {'lz': 0, 'fast': 1, 'ratio': 2, 'auto': 3}[mname]
  sys.argv = [None, None, fn, kb, S, mname]
  run_one(f, kb, S, mode, out)
