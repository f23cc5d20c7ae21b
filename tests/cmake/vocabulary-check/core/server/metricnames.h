// The table itself may spell its names.
inline constexpr const char16_t* kName = u"sglang:gen_throughput";
