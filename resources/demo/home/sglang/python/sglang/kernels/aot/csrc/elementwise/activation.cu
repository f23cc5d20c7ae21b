// Demo kernel activation (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(activation, a / (1.0f + (b < 0 ? -b : b)))
