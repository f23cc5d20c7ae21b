// FA3 entry points (FlashAttention-3 targets sm_90a only; useless on SM120).
#include "sgl_kernel_ops.h"

extern "C" int sgl_flash_ops_available()
{
    return 1;
}
