// Demo kernel flash_fwd_hdim128_bf16_sm90 (sgl-kernel-like layout; compiled by nvcc or, via csrc/cpu/, by the host compiler).
#include "sgl_kernel_ops.h"

SGL_DEFINE_OP(flash_fwd_hdim128_bf16_sm90, a * b * 0.0884f)
