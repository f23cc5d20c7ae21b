// Demo kernel fused_add_rms_norm (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(fused_add_rms_norm, (a + b) * 0.70710678f)
