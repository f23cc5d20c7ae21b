import ctypes
import os

import torch

from sgl_kernel.ops import *
