import ctypes
import os

import torch
