// Host-compiler build of ../attention/merge_attn_states.cu for machines without nvcc.
#include "../attention/merge_attn_states.cu"
