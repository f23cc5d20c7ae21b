const char* arg = "-DSGL_KERNEL_ENABLE_FA3=OFF";
