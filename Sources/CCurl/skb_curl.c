#include "skb_curl.h"

#include <dlfcn.h>
#include <pthread.h>

typedef int (*easy_setopt_fn)(skb_curl *, int, ...);
typedef int (*easy_getinfo_fn)(skb_curl *, int, ...);

// CURLMsg, as curl/multi.h declares it.
struct skb_curl_msg {
    int msg; // CURLMSG_DONE = 1
    skb_curl *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
};

static struct {
    int (*global_init)(long);
    skb_curl *(*easy_init)(void);
    void (*easy_cleanup)(skb_curl *);
    easy_setopt_fn easy_setopt;
    easy_getinfo_fn easy_getinfo;
    const char *(*easy_strerror)(int);
    skb_curl_slist *(*slist_append)(skb_curl_slist *, const char *);
    void (*slist_free_all)(skb_curl_slist *);
    skb_curl_multi *(*multi_init)(void);
    int (*multi_cleanup)(skb_curl_multi *);
    int (*multi_add_handle)(skb_curl_multi *, skb_curl *);
    int (*multi_remove_handle)(skb_curl_multi *, skb_curl *);
    int (*multi_perform)(skb_curl_multi *, int *);
    int (*multi_poll)(skb_curl_multi *, void *, unsigned int, int, int *);
    int (*multi_wakeup)(skb_curl_multi *);
    struct skb_curl_msg *(*multi_info_read)(skb_curl_multi *, int *);
} api;

static const char *load_error = "libcurl was not loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define SKB_CURL_GLOBAL_ALL 3L
#define SKB_CURLINFO_RESPONSE_CODE 0x200002

static void load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {"libcurl.4.dylib", "/usr/lib/libcurl.4.dylib", NULL};
#else
    static const char *const names[] = {"libcurl.so.4", "libcurl-gnutls.so.4", NULL};
#endif
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_error = "libcurl (libcurl.so.4) is not installed";
        return;
    }
#define SKB_BIND(field, symbol)                                                                                        \
    *(void **)(&api.field) = dlsym(library, symbol);                                                                  \
    if (api.field == NULL) {                                                                                           \
        load_error = "the installed libcurl is too old (7.68 or later is needed)";                                    \
        return;                                                                                                        \
    }
    SKB_BIND(global_init, "curl_global_init")
    SKB_BIND(easy_init, "curl_easy_init")
    SKB_BIND(easy_cleanup, "curl_easy_cleanup")
    SKB_BIND(easy_setopt, "curl_easy_setopt")
    SKB_BIND(easy_getinfo, "curl_easy_getinfo")
    SKB_BIND(easy_strerror, "curl_easy_strerror")
    SKB_BIND(slist_append, "curl_slist_append")
    SKB_BIND(slist_free_all, "curl_slist_free_all")
    SKB_BIND(multi_init, "curl_multi_init")
    SKB_BIND(multi_cleanup, "curl_multi_cleanup")
    SKB_BIND(multi_add_handle, "curl_multi_add_handle")
    SKB_BIND(multi_remove_handle, "curl_multi_remove_handle")
    SKB_BIND(multi_perform, "curl_multi_perform")
    SKB_BIND(multi_poll, "curl_multi_poll")
    SKB_BIND(multi_wakeup, "curl_multi_wakeup")
    SKB_BIND(multi_info_read, "curl_multi_info_read")
#undef SKB_BIND
    if (api.global_init(SKB_CURL_GLOBAL_ALL) != 0) {
        load_error = "libcurl could not be initialised";
        return;
    }
    load_error = NULL;
}

const char *skb_curl_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

skb_curl *skb_curl_easy_init(void) { return api.easy_init(); }
void skb_curl_easy_cleanup(skb_curl *easy) { api.easy_cleanup(easy); }
int skb_curl_setopt_long(skb_curl *easy, int option, long value) { return api.easy_setopt(easy, option, value); }
int skb_curl_setopt_string(skb_curl *easy, int option, const char *value) {
    return api.easy_setopt(easy, option, value);
}
int skb_curl_setopt_int64(skb_curl *easy, int option, int64_t value) { return api.easy_setopt(easy, option, value); }
int skb_curl_setopt_headers(skb_curl *easy, skb_curl_slist *headers) {
    return api.easy_setopt(easy, SKB_CURLOPT_HTTPHEADER, headers);
}
int skb_curl_setopt_write(skb_curl *easy, skb_curl_data_fn function, void *context) {
    int code = api.easy_setopt(easy, SKB_CURLOPT_WRITEFUNCTION, function);
    return code != 0 ? code : api.easy_setopt(easy, SKB_CURLOPT_WRITEDATA, context);
}
int skb_curl_setopt_header(skb_curl *easy, skb_curl_data_fn function, void *context) {
    int code = api.easy_setopt(easy, SKB_CURLOPT_HEADERFUNCTION, function);
    return code != 0 ? code : api.easy_setopt(easy, SKB_CURLOPT_HEADERDATA, context);
}
int skb_curl_setopt_read(skb_curl *easy, skb_curl_data_fn function, void *context) {
    int code = api.easy_setopt(easy, SKB_CURLOPT_READFUNCTION, function);
    return code != 0 ? code : api.easy_setopt(easy, SKB_CURLOPT_READDATA, context);
}
int skb_curl_setopt_slist(skb_curl *easy, int option, skb_curl_slist *list) { return api.easy_setopt(easy, option, list); }
long skb_curl_response_code(skb_curl *easy) {
    long code = 0;
    if (api.easy_getinfo(easy, SKB_CURLINFO_RESPONSE_CODE, &code) != 0) return 0;
    return code;
}
const char *skb_curl_strerror(int code) { return api.easy_strerror(code); }

skb_curl_slist *skb_curl_slist_append(skb_curl_slist *list, const char *line) { return api.slist_append(list, line); }
void skb_curl_slist_free_all(skb_curl_slist *list) { api.slist_free_all(list); }

skb_curl_multi *skb_curl_multi_init(void) { return api.multi_init(); }
void skb_curl_multi_cleanup(skb_curl_multi *multi) { api.multi_cleanup(multi); }
int skb_curl_multi_add(skb_curl_multi *multi, skb_curl *easy) { return api.multi_add_handle(multi, easy); }
int skb_curl_multi_remove(skb_curl_multi *multi, skb_curl *easy) { return api.multi_remove_handle(multi, easy); }
int skb_curl_multi_perform(skb_curl_multi *multi, int *running) { return api.multi_perform(multi, running); }
int skb_curl_multi_poll(skb_curl_multi *multi, int timeout_ms) {
    int count = 0;
    return api.multi_poll(multi, NULL, 0, timeout_ms, &count);
}
int skb_curl_multi_wakeup(skb_curl_multi *multi) { return api.multi_wakeup(multi); }
int skb_curl_multi_done(skb_curl_multi *multi) {
    int queued = 0;
    struct skb_curl_msg *message;
    while ((message = api.multi_info_read(multi, &queued)) != NULL) {
        if (message->msg == 1) return message->data.result;
    }
    return -1;
}
