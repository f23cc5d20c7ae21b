// Small stand-ins for sgl-kernel's ops: each kernel file defines one entry point.
#pragma once

#include <cstddef>

#if defined(__CUDACC__)
#define SGL_HOST_DEVICE __host__ __device__
#else
#define SGL_HOST_DEVICE
#endif

namespace sgl_kernel {

// One element of the op, shared by the CUDA kernel and the CPU fallback loop.
using ElementFn = float (*)(float, float);

void run_elementwise(const char* name, ElementFn fn, const float* a, const float* b, float* out, std::size_t n);
int register_op(const char* name, void (*entry)(const float*, const float*, float*, std::size_t));
int registered_ops();
const char* cuda_headers_version();

} // namespace sgl_kernel

// Defines the op `name`: a __global__ kernel under nvcc, a plain loop otherwise.
#if defined(__CUDACC__)
#define SGL_DEFINE_OP(name, expr)                                                                                      \
    SGL_HOST_DEVICE inline float name##_element(float a, float b)                                                      \
    {                                                                                                                  \
        return (expr);                                                                                                 \
    }                                                                                                                  \
    __global__ void name##_kernel(const float* a, const float* b, float* out, std::size_t n)                           \
    {                                                                                                                  \
        const std::size_t i = blockIdx.x * blockDim.x + threadIdx.x;                                                   \
        if (i < n)                                                                                                     \
            out[i] = name##_element(a[i], b[i]);                                                                       \
    }                                                                                                                  \
    void name##_entry(const float* a, const float* b, float* out, std::size_t n)                                       \
    {                                                                                                                  \
        sgl_kernel::run_elementwise(#name, &name##_element, a, b, out, n);                                             \
    }                                                                                                                  \
    static const int name##_registered = sgl_kernel::register_op(#name, &name##_entry);
#else
#define SGL_DEFINE_OP(name, expr)                                                                                      \
    inline float name##_element(float a, float b)                                                                      \
    {                                                                                                                  \
        return (expr);                                                                                                 \
    }                                                                                                                  \
    void name##_entry(const float* a, const float* b, float* out, std::size_t n)                                       \
    {                                                                                                                  \
        sgl_kernel::run_elementwise(#name, &name##_element, a, b, out, n);                                             \
    }                                                                                                                  \
    static const int name##_registered = sgl_kernel::register_op(#name, &name##_entry);
#endif
