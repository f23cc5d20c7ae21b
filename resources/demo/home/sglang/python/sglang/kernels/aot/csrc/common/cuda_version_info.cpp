// A host-compiled translation unit that uses CCCL headers, as sgl-kernel's .cpp/.cc files do
// through torch and cutlass. CUDA 13 moved these headers to <cuda>/include/cccl: g++ only
// finds them when that folder is on the include path (nvcc adds it by itself).
#include "sgl_kernel_ops.h"

#if defined(SGL_KERNEL_HAVE_CUDA_TOOLKIT)
#include <cuda/std/version>
#include <thrust/version.h>
#endif

#include <string>

namespace sgl_kernel {

const char* cuda_headers_version()
{
#if defined(SGL_KERNEL_HAVE_CUDA_TOOLKIT)
    static const std::string v
        = "thrust " + std::to_string(THRUST_MAJOR_VERSION) + "." + std::to_string(THRUST_MINOR_VERSION);
    return v.c_str();
#else
    return "no CUDA toolkit";
#endif
}

} // namespace sgl_kernel
