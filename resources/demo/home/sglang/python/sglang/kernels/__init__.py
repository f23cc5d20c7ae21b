# sglang.kernels (demo): the ahead-of-time kernels live in aot/, built as the sglang-kernel wheel.
