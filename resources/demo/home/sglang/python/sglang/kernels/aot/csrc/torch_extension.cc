// Stand-in for sgl-kernel's TORCH_LIBRARY registration: reports what was built.
#include "sgl_kernel_ops.h"

#include <cstdio>

extern "C" int sgl_kernel_describe()
{
    std::printf("sgl-kernel demo: %d ops, %s\n", sgl_kernel::registered_ops(), sgl_kernel::cuda_headers_version());
    return sgl_kernel::registered_ops();
}
