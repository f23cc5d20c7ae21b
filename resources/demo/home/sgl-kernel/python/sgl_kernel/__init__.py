# sgl-kernel demo package: like the real one, importing the package imports the FA3 wrappers.
from sgl_kernel.flash_attn import flash_attn_varlen_func, flash_attn_with_kvcache

__version__ = "0.3.16.demo"
