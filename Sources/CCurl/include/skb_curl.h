// libcurl, loaded on first use with dlopen: typed wrappers around the few curl_easy_* and
// curl_multi_* calls the HTTP client makes, so that no variadic call crosses into Swift and the
// binary has no link-time dependency on libcurl (which would map it, and the ~35 libraries it
// brings, at every start). The types and constants are declared here, with the values of curl's
// stable ABI (curl/curl.h, unchanged since 7.x), so no curl header is needed to build.
#ifndef SKB_CURL_H
#define SKB_CURL_H

#include <stddef.h>
#include <stdint.h>

typedef struct skb_curl skb_curl;             // CURL *
typedef struct skb_curl_multi skb_curl_multi; // CURLM *
typedef struct skb_curl_slist skb_curl_slist; // struct curl_slist *

/// A write or header callback: (bytes, 1, count, context) → count taken (less aborts the transfer).
typedef size_t (*skb_curl_data_fn)(char *bytes, size_t size, size_t count, void *context);

enum {
    SKB_CURLOPT_WRITEDATA = 10001,
    SKB_CURLOPT_URL = 10002,
    SKB_CURLOPT_WRITEFUNCTION = 20011,
    SKB_CURLOPT_HTTPHEADER = 10023,
    SKB_CURLOPT_HEADERDATA = 10029,
    SKB_CURLOPT_CUSTOMREQUEST = 10036,
    SKB_CURLOPT_NOBODY = 44,
    SKB_CURLOPT_FOLLOWLOCATION = 52,
    SKB_CURLOPT_HEADERFUNCTION = 20079,
    SKB_CURLOPT_NOSIGNAL = 99,
    SKB_CURLOPT_TIMEOUT_MS = 155,
    SKB_CURLOPT_CONNECTTIMEOUT_MS = 156,
    SKB_CURLOPT_COPYPOSTFIELDS = 10165,
    SKB_CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    SKB_CURLOPT_PROTOCOLS = 181,
    SKB_CURLPROTO_HTTP_HTTPS = 3,
    // SMTP (mail.send)
    SKB_CURLOPT_READDATA = 10009,
    SKB_CURLOPT_READFUNCTION = 20012,
    SKB_CURLOPT_UPLOAD = 46,
    SKB_CURLOPT_INFILESIZE_LARGE = 30115,
    SKB_CURLOPT_USERNAME = 10173,
    SKB_CURLOPT_PASSWORD = 10174,
    SKB_CURLOPT_MAIL_FROM = 10186,
    SKB_CURLOPT_MAIL_RCPT = 10187,
    SKB_CURLOPT_LOGIN_OPTIONS = 10224,
    SKB_CURLOPT_USE_SSL = 119,
    SKB_CURLOPT_CAINFO = 10065,
    SKB_CURLUSESSL_NONE = 0,
    SKB_CURLUSESSL_ALL = 3,
    SKB_CURLPROTO_SMTP_SMTPS = (1 << 16) | (1 << 17),
};

enum {
    SKB_CURLE_OK = 0,
    SKB_CURLE_UNSUPPORTED_PROTOCOL = 1,
    SKB_CURLE_URL_MALFORMAT = 3,
    SKB_CURLE_COULDNT_RESOLVE_PROXY = 5,
    SKB_CURLE_COULDNT_RESOLVE_HOST = 6,
    SKB_CURLE_COULDNT_CONNECT = 7,
    SKB_CURLE_WEIRD_SERVER_REPLY = 8,
    SKB_CURLE_WRITE_ERROR = 23,
    SKB_CURLE_OPERATION_TIMEDOUT = 28,
    SKB_CURLE_SSL_CONNECT_ERROR = 35,
    SKB_CURLE_ABORTED_BY_CALLBACK = 42,
    SKB_CURLE_GOT_NOTHING = 52,
    SKB_CURLE_SEND_ERROR = 55,
    SKB_CURLE_RECV_ERROR = 56,
    SKB_CURLE_SSL_CERTPROBLEM = 58,
    SKB_CURLE_PEER_FAILED_VERIFICATION = 60,
    SKB_CURLE_SSL_CACERT_BADFILE = 77,
    SKB_CURLE_LOGIN_DENIED = 67,
    SKB_CURLE_USE_SSL_FAILED = 64,
    SKB_CURLE_UPLOAD_FAILED = 25,
};

/// Loads libcurl and initialises it, once per process; NULL when it is ready, else why not
/// (a static string).
const char *skb_curl_load(void);

skb_curl *skb_curl_easy_init(void);
void skb_curl_easy_cleanup(skb_curl *easy);
int skb_curl_setopt_long(skb_curl *easy, int option, long value);
int skb_curl_setopt_string(skb_curl *easy, int option, const char *value);
int skb_curl_setopt_int64(skb_curl *easy, int option, int64_t value);
int skb_curl_setopt_headers(skb_curl *easy, skb_curl_slist *headers);
int skb_curl_setopt_write(skb_curl *easy, skb_curl_data_fn function, void *context);
int skb_curl_setopt_header(skb_curl *easy, skb_curl_data_fn function, void *context);
/// The read callback of an upload (the message of an SMTP transfer): (buffer, 1, room, context) → bytes given.
int skb_curl_setopt_read(skb_curl *easy, skb_curl_data_fn function, void *context);
/// A list option other than the HTTP headers (CURLOPT_MAIL_RCPT).
int skb_curl_setopt_slist(skb_curl *easy, int option, skb_curl_slist *list);
/// The last response's status (CURLINFO_RESPONSE_CODE), 0 when none arrived.
long skb_curl_response_code(skb_curl *easy);
const char *skb_curl_strerror(int code);

skb_curl_slist *skb_curl_slist_append(skb_curl_slist *list, const char *line);
void skb_curl_slist_free_all(skb_curl_slist *list);

skb_curl_multi *skb_curl_multi_init(void);
void skb_curl_multi_cleanup(skb_curl_multi *multi);
int skb_curl_multi_add(skb_curl_multi *multi, skb_curl *easy);
int skb_curl_multi_remove(skb_curl_multi *multi, skb_curl *easy);
/// Drives the transfers; `*running` is how many are still going.
int skb_curl_multi_perform(skb_curl_multi *multi, int *running);
/// Waits up to `timeout_ms` for activity or `skb_curl_multi_wakeup` (callable from any thread).
int skb_curl_multi_poll(skb_curl_multi *multi, int timeout_ms);
int skb_curl_multi_wakeup(skb_curl_multi *multi);
/// The result (a CURLcode) of a finished transfer, or -1 when none has finished.
int skb_curl_multi_done(skb_curl_multi *multi);

#endif
