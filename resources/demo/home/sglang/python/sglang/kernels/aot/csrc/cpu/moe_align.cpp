// Host-compiler build of ../moe/moe_align.cu for machines without nvcc.
#include "../moe/moe_align.cu"
