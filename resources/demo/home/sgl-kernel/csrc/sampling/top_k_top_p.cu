// Demo kernel top_k_top_p (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(top_k_top_p, a < b ? a : 0.0f)
