// The op registry the kernel files add themselves to.
#include "sgl_kernel_ops.h"

#include <cstring>

namespace sgl_kernel {
namespace {
struct Entry
{
    const char* name;
    void (*fn)(const float*, const float*, float*, std::size_t);
};
Entry g_ops[64];
int g_count = 0;
} // namespace

int register_op(const char* name, void (*entry)(const float*, const float*, float*, std::size_t))
{
    if (g_count < 64)
        g_ops[g_count++] = Entry { name, entry };
    return g_count;
}

int registered_ops()
{
    return g_count;
}

} // namespace sgl_kernel
