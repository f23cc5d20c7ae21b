// Host-compiler build of ../elementwise/activation.cu for machines without nvcc.
#include "../elementwise/activation.cu"
