// Demo kernel per_token_group_quant_8bit (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(per_token_group_quant_8bit, a * 127.0f / (b == 0 ? 1.0f : b))
