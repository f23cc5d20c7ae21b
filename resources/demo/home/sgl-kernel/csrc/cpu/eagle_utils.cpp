// Host-compiler build of ../speculative/eagle_utils.cu for machines without nvcc.
#include "../speculative/eagle_utils.cu"
