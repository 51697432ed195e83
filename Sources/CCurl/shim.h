#pragma once
#include <curl/curl.h>

// curl_easy_setopt is variadic, and Swift cannot call C variadic functions. Each option takes
// exactly one argument of a type fixed by the option, so one fixed-arity inline wrapper per
// argument type is exact (the same approach as CMicroHTTPD's herald_mhd_connection_info).
static inline CURLcode herald_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode herald_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode herald_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode herald_curl_setopt_list(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode herald_curl_setopt_read_function(CURL *handle, curl_read_callback callback) {
  return curl_easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
