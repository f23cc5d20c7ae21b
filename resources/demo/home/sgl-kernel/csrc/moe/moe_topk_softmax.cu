// Demo kernel moe_topk_softmax (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(moe_topk_softmax, a - b)
