# sgl-kernel demo package (aot layout): importing the package imports the FA3 wrappers.
from sgl_kernel.flash_attn import flash_attn_varlen_func, flash_attn_with_kvcache

__version__ = "0.4.7.demo"
