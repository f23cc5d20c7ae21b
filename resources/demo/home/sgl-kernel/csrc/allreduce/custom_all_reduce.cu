// Demo kernel custom_all_reduce (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(custom_all_reduce, a + b)
