// Host-compiler build of ../sampling/top_k_top_p.cu for machines without nvcc.
#include "../sampling/top_k_top_p.cu"
