#ifndef PODCAST_CCURL_SHIM_H
#define PODCAST_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift cannot
// call. Each wrapper below fixes one argument type so the compiler passes it correctly.

static inline CURLcode podcast_easy_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode podcast_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode podcast_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode podcast_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode podcast_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode podcast_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode podcast_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
  return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

static inline CURLcode podcast_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode podcast_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
  return curl_easy_getinfo(handle, info, value);
}

// CURLPAUSE_CONT and CURL_WRITEFUNC_PAUSE are macros built from other macros, which Swift
// does not import.
static inline CURLcode podcast_easy_unpause(CURL *handle) {
  return curl_easy_pause(handle, CURLPAUSE_CONT);
}

static inline size_t podcast_write_pause(void) {
  return CURL_WRITEFUNC_PAUSE;
}

#endif
