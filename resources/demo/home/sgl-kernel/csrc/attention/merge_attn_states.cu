// Demo kernel merge_attn_states (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(merge_attn_states, 0.5f * (a + b))
