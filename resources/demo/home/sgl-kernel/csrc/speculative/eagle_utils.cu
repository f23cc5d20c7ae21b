// Demo kernel eagle_utils (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(eagle_utils, a * 2.0f - b)
