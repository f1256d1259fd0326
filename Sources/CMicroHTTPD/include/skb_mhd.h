// GNU libmicrohttpd, loaded on first use with dlopen: a small server interface over the few MHD_*
// calls the console makes, so that no variadic call crosses into Swift and the binary has no
// link-time dependency on libmicrohttpd (no other command maps it at start-up). HTTP parsing,
// cookies and query arguments are libmicrohttpd's; this layer only collects a request's body (with
// a size limit) and hands the whole request to one handler, then queues the handler's response.
//
// Threads: the server runs one thread per connection (libmicrohttpd's own), and the handler is
// called on it; it may block (the console's handler waits there for its async work), and a
// streamed body's reader may block until it has bytes to send.
#ifndef SKB_MHD_H
#define SKB_MHD_H

#include <stddef.h>
#include <stdint.h>

typedef struct skb_mhd_server skb_mhd_server;
typedef struct skb_mhd_request skb_mhd_request;

/// Called once per complete request (its body read), on the connection's thread. It sets the
/// response with `skb_mhd_set_*` and `skb_mhd_add_header` before returning.
typedef void (*skb_mhd_handler_fn)(void *context, skb_mhd_request *request);
/// Writes at most `max` bytes of a streamed body into `buffer`; returns how many (at least 1), or
/// -1 at the end of the stream. It may block until it has something to send.
typedef long (*skb_mhd_stream_fn)(void *context, char *buffer, size_t max);
/// Releases a stream's context once the connection is done with it.
typedef void (*skb_mhd_release_fn)(void *context);
/// One header, cookie or query argument (`value` may be NULL for an argument without `=`).
typedef void (*skb_mhd_value_fn)(void *context, const char *key, const char *value);

enum {
    SKB_MHD_HEADERS = 1,   // MHD_HEADER_KIND
    SKB_MHD_COOKIES = 2,   // MHD_COOKIE_KIND
    SKB_MHD_ARGUMENTS = 8, // MHD_GET_ARGUMENT_KIND
};

typedef struct skb_mhd_limits {
    /// Request bodies longer than this are answered 413: at once when the declared length is over,
    /// else once the body has ended (a connection sending over four times this is closed).
    size_t max_body_bytes;
    /// Memory for one connection's request line and headers (libmicrohttpd refuses more).
    size_t connection_memory_bytes;
    /// Seconds a connection may stay idle (a request that trickles in is cut off).
    unsigned int idle_timeout_seconds;
    /// Connections at once.
    unsigned int max_connections;
} skb_mhd_limits;

/// Loads libmicrohttpd, once per process; NULL when it is ready, else why not (a static string).
const char *skb_mhd_load(void);

/// Starts listening on `address` (an IPv4 or IPv6 literal) and `port` (0: any free port). NULL on
/// failure, with `*error` set to a static string.
skb_mhd_server *skb_mhd_start(
    const char *address, uint16_t port, skb_mhd_limits limits, skb_mhd_handler_fn handler, void *context, const char **error);
/// The port it listens on.
uint16_t skb_mhd_port(skb_mhd_server *server);
/// Stops accepting new connections (the listening socket is closed); running ones go on.
void skb_mhd_quiesce(skb_mhd_server *server);
/// Waits for every connection to end, then frees the server.
void skb_mhd_stop(skb_mhd_server *server);

const char *skb_mhd_method(skb_mhd_request *request);
/// The path, without the query (libmicrohttpd has decoded it).
const char *skb_mhd_path(skb_mhd_request *request);
const char *skb_mhd_body(skb_mhd_request *request, size_t *length);
/// Calls `visit` for every value of `kind` (SKB_MHD_HEADERS, _COOKIES or _ARGUMENTS).
void skb_mhd_values(skb_mhd_request *request, int kind, skb_mhd_value_fn visit, void *context);

void skb_mhd_set_status(skb_mhd_request *request, unsigned int status);
void skb_mhd_add_header(skb_mhd_request *request, const char *name, const char *value);
/// The body, copied.
void skb_mhd_set_body(skb_mhd_request *request, const char *bytes, size_t length);
/// A body of unknown length read from `read` until it ends; `release` is called with `context`
/// once the connection is done with it (also when it was never read).
void skb_mhd_set_stream(skb_mhd_request *request, skb_mhd_stream_fn read, void *context, skb_mhd_release_fn release);

#endif
