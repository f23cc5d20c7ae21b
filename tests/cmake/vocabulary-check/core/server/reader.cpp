// A comment may name sglang:num_running_reqs and "DCGM_FI_DEV_GPU_UTIL" freely.
const char* url = "http://host/metrics"; // "vllm:num_requests_running" in a trailing comment
const char* drifted = "sglang_num_running_reqs";
