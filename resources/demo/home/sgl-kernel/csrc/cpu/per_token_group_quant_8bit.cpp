// Host-compiler build of ../gemm/per_token_group_quant_8bit.cu for machines without nvcc.
#include "../gemm/per_token_group_quant_8bit.cu"
