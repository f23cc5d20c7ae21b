// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// One tiny kernel per library: tests/data/fatbin/make.sh builds it for one target each.
#include <cuda_runtime.h>

extern "C" __global__ void kf_add(float* x, float v)
{
    x[threadIdx.x] += v;
}

// Runs the kernel once on the current device: "ok" or the CUDA error text
// ("no kernel image is available for execution on the device").
extern "C" const char* kf_run()
{
    float* x = nullptr;
    cudaError_t e = cudaMalloc(&x, 32 * sizeof(float));
    if (e != cudaSuccess)
        return cudaGetErrorString(e);
    kf_add<<<1, 32>>>(x, 1.0f);
    e = cudaGetLastError();
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    cudaFree(x);
    return e == cudaSuccess ? "ok" : cudaGetErrorString(e);
}
