// Host-compiler build of ../elementwise/fused_add_rms_norm.cu for machines without nvcc.
#include "../elementwise/fused_add_rms_norm.cu"
