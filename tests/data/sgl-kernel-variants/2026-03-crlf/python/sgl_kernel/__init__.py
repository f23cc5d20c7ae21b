import ctypes
import os
