#include "CurlLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// One pointer per libcurl function, named after it. setopt, getinfo and pause keep their
// variadic or int prototypes: a call through the pointer passes arguments as a direct call would.
#define PODCAST_CURL_FUNCTIONS(X)                                                              \
  X(curl_global_init, CURLcode, (long))                                                       \
  X(curl_easy_init, CURL *, (void))                                                           \
  X(curl_easy_cleanup, void, (CURL *))                                                        \
  X(curl_easy_reset, void, (CURL *))                                                          \
  X(curl_easy_setopt, CURLcode, (CURL *, CURLoption, ...))                                    \
  X(curl_easy_getinfo, CURLcode, (CURL *, CURLINFO, ...))                                     \
  X(curl_easy_pause, CURLcode, (CURL *, int))                                                 \
  X(curl_easy_strerror, const char *, (CURLcode))                                             \
  X(curl_slist_append, struct curl_slist *, (struct curl_slist *, const char *))              \
  X(curl_slist_free_all, void, (struct curl_slist *))                                         \
  X(curl_multi_init, CURLM *, (void))                                                         \
  X(curl_multi_add_handle, CURLMcode, (CURLM *, CURL *))                                      \
  X(curl_multi_remove_handle, CURLMcode, (CURLM *, CURL *))                                   \
  X(curl_multi_perform, CURLMcode, (CURLM *, int *))                                          \
  X(curl_multi_poll, CURLMcode, (CURLM *, struct curl_waitfd *, unsigned int, int, int *))    \
  X(curl_multi_wakeup, CURLMcode, (CURLM *))                                                  \
  X(curl_multi_info_read, CURLMsg *, (CURLM *, int *))                                        \
  X(curl_multi_strerror, const char *, (CURLMcode))                                          \
  X(curl_multi_setopt, CURLMcode, (CURLM *, CURLMoption, ...))                                \
  X(curl_share_init, CURLSH *, (void))                                                        \
  X(curl_share_setopt, CURLSHcode, (CURLSH *, CURLSHoption, ...))                             \
  X(curl_share_cleanup, CURLSHcode, (CURLSH *))

#define PODCAST_CURL_FIELD(name, result, parameters) result(*name) parameters;
struct podcast_curl_table {
  PODCAST_CURL_FUNCTIONS(PODCAST_CURL_FIELD)
};

static struct podcast_curl_table curl;
static int loaded = 0;
static pthread_mutex_t load_lock = PTHREAD_MUTEX_INITIALIZER;

// Resolves into a local table and publishes it only when every function is there, so a
// libcurl too old for curl_multi_wakeup (before 7.68) is refused whole, not half used.
static int resolve(void *library, const char *soname, struct podcast_curl_table *table,
                   char *error, size_t error_size) {
#define PODCAST_CURL_RESOLVE(name, result, parameters)                                         \
  *(void **)(&table->name) = dlsym(library, #name);                                            \
  if (table->name == NULL) {                                                                   \
    snprintf(error, error_size, "%s has no %s (libcurl 7.68 or later is needed)", soname, #name); \
    return -1;                                                                                 \
  }
  PODCAST_CURL_FUNCTIONS(PODCAST_CURL_RESOLVE)
  return 0;
}

// Opens `soname` and resolves every function into `table`; on failure nothing stays open.
static void *open_library(const char *soname, struct podcast_curl_table *table, char *error,
                          size_t error_size) {
  // RTLD_LOCAL: libcurl's symbols stay out of the global scope, where they could interpose on
  // another library's.
  void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    const char *reason = dlerror();
    snprintf(error, error_size, "%s", reason != NULL ? reason : soname);
    return NULL;
  }
  if (resolve(library, soname, table, error, error_size) != 0) {
    dlclose(library);
    return NULL;
  }
  return library;
}

int podcast_curl_load(const char *soname, char *error, size_t error_size) {
  pthread_mutex_lock(&load_lock);
  struct podcast_curl_table table;
  if (!loaded && open_library(soname, &table, error, error_size) != NULL) {
    curl = table;
    loaded = 1;
  }
  int status = loaded ? 0 : -1;
  pthread_mutex_unlock(&load_lock);
  return status;
}

int podcast_curl_check(const char *soname, char *error, size_t error_size) {
  struct podcast_curl_table table;
  void *library = open_library(soname, &table, error, error_size);
  if (library == NULL) return -1;
  dlclose(library);
  return 0;
}

CURLcode podcast_global_init(long flags) { return curl.curl_global_init(flags); }
CURL *podcast_easy_init(void) { return curl.curl_easy_init(); }
void podcast_easy_cleanup(CURL *handle) { curl.curl_easy_cleanup(handle); }
void podcast_easy_reset(CURL *handle) { curl.curl_easy_reset(handle); }
const char *podcast_easy_strerror(CURLcode code) { return curl.curl_easy_strerror(code); }

struct curl_slist *podcast_slist_append(struct curl_slist *list, const char *line) {
  return curl.curl_slist_append(list, line);
}

void podcast_slist_free_all(struct curl_slist *list) { curl.curl_slist_free_all(list); }
CURLM *podcast_multi_init(void) { return curl.curl_multi_init(); }

CURLMcode podcast_multi_add_handle(CURLM *multi, CURL *handle) {
  return curl.curl_multi_add_handle(multi, handle);
}

CURLMcode podcast_multi_remove_handle(CURLM *multi, CURL *handle) {
  return curl.curl_multi_remove_handle(multi, handle);
}

CURLMcode podcast_multi_perform(CURLM *multi, int *running) {
  return curl.curl_multi_perform(multi, running);
}

CURLMcode podcast_multi_poll(CURLM *multi, int timeout_ms) {
  return curl.curl_multi_poll(multi, NULL, 0, timeout_ms, NULL);
}

CURLMcode podcast_multi_wakeup(CURLM *multi) { return curl.curl_multi_wakeup(multi); }

CURLMsg *podcast_multi_info_read(CURLM *multi, int *queued) {
  return curl.curl_multi_info_read(multi, queued);
}

const char *podcast_multi_strerror(CURLMcode code) { return curl.curl_multi_strerror(code); }

CURLcode podcast_easy_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl.curl_easy_setopt(handle, option, value);
}

CURLcode podcast_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
  return curl.curl_easy_setopt(handle, option, value);
}

CURLcode podcast_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl.curl_easy_setopt(handle, option, value);
}

CURLcode podcast_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl.curl_easy_setopt(handle, option, value);
}

CURLcode podcast_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl.curl_easy_setopt(handle, option, value);
}

CURLcode podcast_easy_setopt_write_function(CURL *handle, CURLoption option,
                                            curl_write_callback value) {
  return curl.curl_easy_setopt(handle, option, value);
}

CURLcode podcast_easy_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback value) {
  return curl.curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, value);
}

CURLcode podcast_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl.curl_easy_getinfo(handle, info, value);
}

CURLcode podcast_easy_getinfo_string(CURL *handle, CURLINFO info, char **value) {
  return curl.curl_easy_getinfo(handle, info, value);
}

CURLcode podcast_easy_unpause(CURL *handle) { return curl.curl_easy_pause(handle, CURLPAUSE_CONT); }

size_t podcast_write_pause(void) { return CURL_WRITEFUNC_PAUSE; }

CURLMcode podcast_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl.curl_multi_setopt(multi, option, value);
}

CURLcode podcast_easy_setopt_share(CURL *handle, CURLSH *share) {
  return curl.curl_easy_setopt(handle, CURLOPT_SHARE, share);
}

// One lock per kind of shared data, so a transfer reading the DNS cache does not wait for
// one storing a TLS session. libcurl's kinds are small numbers (CURL_LOCK_DATA_LAST bounds them).
static pthread_mutex_t share_locks[CURL_LOCK_DATA_LAST];

static void share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *user) {
  (void)handle, (void)access, (void)user;
  if (data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&share_locks[data]);
}

static void share_unlock(CURL *handle, curl_lock_data data, void *user) {
  (void)handle, (void)user;
  if (data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&share_locks[data]);
}

static void init_locks(void) {
  for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&share_locks[i], NULL);
}

CURLSH *podcast_share_make(char *error, size_t error_size) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, init_locks);
  CURLSH *share = curl.curl_share_init();
  if (share == NULL) {
    snprintf(error, error_size, "curl_share_init failed");
    return NULL;
  }
  struct {
    CURLSHoption option;
    long value;
    const char *name;
  } settings[] = {
      {CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS, "CURL_LOCK_DATA_DNS"},
      {CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION, "CURL_LOCK_DATA_SSL_SESSION"},
  };
  CURLSHcode code = curl.curl_share_setopt(share, CURLSHOPT_LOCKFUNC, share_lock);
  if (code == CURLSHE_OK) code = curl.curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, share_unlock);
  for (size_t i = 0; code == CURLSHE_OK && i < sizeof settings / sizeof settings[0]; i++) {
    code = curl.curl_share_setopt(share, settings[i].option, settings[i].value);
    if (code != CURLSHE_OK) snprintf(error, error_size, "libcurl cannot share %s", settings[i].name);
  }
  if (code != CURLSHE_OK) {
    curl.curl_share_cleanup(share);
    return NULL;
  }
  return share;
}
