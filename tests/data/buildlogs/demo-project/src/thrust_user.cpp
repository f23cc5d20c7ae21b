// Compiled by the host compiler: on CUDA 13 this needs <cuda>/include/cccl.
#include <thrust/version.h>

int thrustMajor()
{
    return THRUST_MAJOR_VERSION;
}
