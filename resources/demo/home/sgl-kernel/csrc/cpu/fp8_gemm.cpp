// Host-compiler build of ../gemm/fp8_gemm.cu for machines without nvcc.
#include "../gemm/fp8_gemm.cu"
