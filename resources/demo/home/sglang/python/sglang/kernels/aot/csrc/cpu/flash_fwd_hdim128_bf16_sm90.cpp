// Host-compiler build of ../flash/flash_fwd_hdim128_bf16_sm90.cu for machines without nvcc.
#include "../flash/flash_fwd_hdim128_bf16_sm90.cu"
