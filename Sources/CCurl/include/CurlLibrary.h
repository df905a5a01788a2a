#ifndef PODCAST_CURL_LIBRARY_H
#define PODCAST_CURL_LIBRARY_H

// libcurl is opened with dlopen on the first transfer, not linked: libcurl and the two dozen
// libraries it pulls in (OpenSSL, GnuTLS through LDAP, Kerberos, nghttp2, ...) took half of
// the start-up time of every command, including the ones that never touch the network
// (`--help`, completions, `episodes FILE`, `status`). curl.h is included for its types and
// constants only; calling one of its functions directly fails at link time, which is the point.
#include <curl/curl.h>
#include <stddef.h>

// The shared object opened when none is named: the soname of libcurl's ABI since 2006.
#define PODCAST_LIBCURL_SONAME "libcurl.so.4"

// Opens `soname` and resolves every function below, once per process; later calls return 0
// at once. Returns 0 on success, or -1 with a one-line reason in `error` (nothing is kept, so
// a later call may still succeed). Safe to call from any thread.
int podcast_curl_load(const char *soname, char *error, size_t error_size);

// Whether `soname` would load as libcurl, without keeping it: 0, or -1 with the reason in `error`.
int podcast_curl_check(const char *soname, char *error, size_t error_size);

// The functions of libcurl the transfer layer uses, called through the pointers resolved above.
// Each must only be called after podcast_curl_load returned 0.
CURLcode podcast_global_init(long flags);
CURL *podcast_easy_init(void);
void podcast_easy_cleanup(CURL *handle);
// Every option back to its default; the handle keeps its buffers (and its place in no multi).
void podcast_easy_reset(CURL *handle);
const char *podcast_easy_strerror(CURLcode code);
struct curl_slist *podcast_slist_append(struct curl_slist *list, const char *line);
void podcast_slist_free_all(struct curl_slist *list);
CURLM *podcast_multi_init(void);
CURLMcode podcast_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode podcast_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode podcast_multi_perform(CURLM *multi, int *running);
CURLMcode podcast_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode podcast_multi_wakeup(CURLM *multi);
CURLMsg *podcast_multi_info_read(CURLM *multi, int *queued);
const char *podcast_multi_strerror(CURLMcode code);
CURLMcode podcast_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

// A share handle for the TLS session cache and the DNS cache, with a lock per kind of data
// (easy handles are set up and cleaned up on other threads than the one that drives them).
// NULL, with the reason in `error`, if libcurl refuses any of it.
CURLSH *podcast_share_make(char *error, size_t error_size);
CURLcode podcast_easy_setopt_share(CURL *handle, CURLSH *share);

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call. Each wrapper
// fixes one argument type so the compiler passes it correctly.
CURLcode podcast_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode podcast_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode podcast_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode podcast_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode podcast_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode podcast_easy_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback value);
CURLcode podcast_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value);
CURLcode podcast_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode podcast_easy_getinfo_string(CURL *handle, CURLINFO info, char **value);

// CURLPAUSE_CONT and CURL_WRITEFUNC_PAUSE are macros built from other macros, which Swift
// does not import.
CURLcode podcast_easy_unpause(CURL *handle);
size_t podcast_write_pause(void);

#endif
