// Host-compiler build of ../allreduce/custom_all_reduce.cu for machines without nvcc.
#include "../allreduce/custom_all_reduce.cu"
