// Host-compiler build of ../moe/moe_topk_softmax.cu for machines without nvcc.
#include "../moe/moe_topk_softmax.cu"
