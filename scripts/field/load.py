#!/usr/bin/env python3
"""GPU load for the field test: holds HOLD_GB of GPU memory and runs a bf16 8192^3 matmul
loop in 30 s cycles (18 s full, 6 s light, 6 s idle) for SECONDS. usage: load.py SECONDS HOLD_GB"""
import os
import sys
import time

import torch

seconds, hold_gb = float(sys.argv[1]), float(sys.argv[2])
hold = torch.empty(int(hold_gb * 2**30), dtype=torch.uint8, device="cuda")
a = torch.randn(8192, 8192, dtype=torch.bfloat16, device="cuda")
b = torch.randn_like(a)
torch.cuda.synchronize()
print("load ready pid=%d reserved_mib=%d" % (os.getpid(), torch.cuda.memory_reserved() >> 20), flush=True)
t0 = time.time()
while time.time() - t0 < seconds:
    phase = (time.time() - t0) % 30
    if phase < 18:
        for _ in range(10):
            c = a @ b
        torch.cuda.synchronize()
    elif phase < 24:
        c = a @ b
        torch.cuda.synchronize()
        time.sleep(0.1)
    else:
        time.sleep(0.2)
print("load done", flush=True)
