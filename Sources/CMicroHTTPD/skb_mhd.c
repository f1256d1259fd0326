#include "skb_mhd.h"

#include <arpa/inet.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

// Only the types and constants come from the header (libmicrohttpd-dev, at build time); every
// function is looked up in the library when the first server starts.
#include <microhttpd.h>

static struct {
    __typeof__(MHD_start_daemon) *start_daemon;
    __typeof__(MHD_stop_daemon) *stop_daemon;
    __typeof__(MHD_quiesce_daemon) *quiesce_daemon;
    __typeof__(MHD_get_daemon_info) *get_daemon_info;
    __typeof__(MHD_get_connection_values) *get_connection_values;
    __typeof__(MHD_lookup_connection_value) *lookup_connection_value;
    __typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
    __typeof__(MHD_create_response_from_callback) *create_response_from_callback;
    __typeof__(MHD_add_response_header) *add_response_header;
    __typeof__(MHD_queue_response) *queue_response;
    __typeof__(MHD_destroy_response) *destroy_response;
} api;

static const char *load_error = "libmicrohttpd was not loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {"libmicrohttpd.12.dylib", "/opt/homebrew/lib/libmicrohttpd.12.dylib", NULL};
#else
    static const char *const names[] = {"libmicrohttpd.so.12", NULL};
#endif
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_error = "libmicrohttpd (libmicrohttpd.so.12) is not installed: install libmicrohttpd12 (Debian) to serve the console";
        return;
    }
#define SKB_BIND(field, symbol)                                                                                        \
    *(void **)(&api.field) = dlsym(library, symbol);                                                                  \
    if (api.field == NULL) {                                                                                           \
        load_error = "the installed libmicrohttpd is too old (0.9.71 or later is needed)";                            \
        return;                                                                                                        \
    }
    SKB_BIND(start_daemon, "MHD_start_daemon")
    SKB_BIND(stop_daemon, "MHD_stop_daemon")
    SKB_BIND(quiesce_daemon, "MHD_quiesce_daemon")
    SKB_BIND(get_daemon_info, "MHD_get_daemon_info")
    SKB_BIND(get_connection_values, "MHD_get_connection_values")
    SKB_BIND(lookup_connection_value, "MHD_lookup_connection_value")
    SKB_BIND(create_response_from_buffer, "MHD_create_response_from_buffer")
    SKB_BIND(create_response_from_callback, "MHD_create_response_from_callback")
    SKB_BIND(add_response_header, "MHD_add_response_header")
    SKB_BIND(queue_response, "MHD_queue_response")
    SKB_BIND(destroy_response, "MHD_destroy_response")
#undef SKB_BIND
    load_error = NULL;
}

const char *skb_mhd_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

struct skb_mhd_server {
    struct MHD_Daemon *daemon;
    skb_mhd_handler_fn handler;
    void *context;
    size_t max_body_bytes;
    int quiesced;
    /* The listening socket quiesce hands back: libmicrohttpd's threads may still look at it until
       MHD_stop_daemon returns, so it is closed only after that (see MHD_quiesce_daemon). */
    MHD_socket quiesced_socket;
};

struct header {
    char *name;
    char *value;
    struct header *next;
};

struct skb_mhd_request {
    struct MHD_Connection *connection;
    const char *method;
    const char *path;
    char *body;
    size_t length;
    size_t capacity;
    int answered;
    int too_large;
    size_t discarded;
    // The response the handler set.
    unsigned int status;
    struct header *headers;
    char *response;
    size_t response_length;
    skb_mhd_stream_fn stream;
    void *stream_context;
    skb_mhd_release_fn release;
};

static void free_request(struct skb_mhd_request *request) {
    struct header *header = request->headers;
    while (header != NULL) {
        struct header *next = header->next;
        free(header->name);
        free(header->value);
        free(header);
        header = next;
    }
    // A stream never handed to libmicrohttpd is released here.
    if (request->stream != NULL && request->release != NULL) request->release(request->stream_context);
    free(request->body);
    free(request->response);
    free(request);
}

/// A streamed body's reader, owned by libmicrohttpd's response once handed over (the response can
/// outlive the request's state).
struct stream {
    skb_mhd_stream_fn read;
    void *context;
    skb_mhd_release_fn release;
};

static ssize_t read_stream(void *context, uint64_t position, char *buffer, size_t max) {
    (void)position;
    struct stream *stream = context;
    long count = stream->read(stream->context, buffer, max);
    return count < 0 ? MHD_CONTENT_READER_END_OF_STREAM : (ssize_t)count;
}

static void release_stream(void *context) {
    struct stream *stream = context;
    if (stream->release != NULL) stream->release(stream->context);
    free(stream);
}

static enum MHD_Result queue_plain(struct MHD_Connection *connection, unsigned int status, const char *text) {
    struct MHD_Response *response = api.create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    api.add_response_header(response, "Content-Type", "application/json");
    api.add_response_header(response, "Cache-Control", "no-store");
    api.add_response_header(response, "Connection", "close");
    enum MHD_Result result = api.queue_response(connection, status, response);
    api.destroy_response(response);
    return result;
}

static const char too_large_text[] = "{\"error\":\"the request body is larger than the server accepts\"}";

static enum MHD_Result queue_answer(struct skb_mhd_request *request) {
    struct MHD_Response *response;
    if (request->stream != NULL) {
        struct stream *stream = malloc(sizeof *stream);
        if (stream == NULL) return MHD_NO;
        *stream = (struct stream){request->stream, request->stream_context, request->release};
        response = api.create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read_stream, stream, release_stream);
        if (response == NULL) {
            free(stream);
            return MHD_NO;
        }
        // libmicrohttpd releases it now.
        request->stream = NULL;
        request->release = NULL;
    } else {
        response = api.create_response_from_buffer(request->response_length, request->response, MHD_RESPMEM_MUST_COPY);
        if (response == NULL) return MHD_NO;
    }
    for (struct header *header = request->headers; header != NULL; header = header->next) {
        api.add_response_header(response, header->name, header->value);
    }
    enum MHD_Result result = api.queue_response(request->connection, request->status ? request->status : 500, response);
    api.destroy_response(response);
    return result;
}

static enum MHD_Result access_handler(
    void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
    const char *upload_data, size_t *upload_data_size, void **state) {
    (void)version;
    struct skb_mhd_server *server = cls;
    struct skb_mhd_request *request = *state;
    if (request == NULL) {
        request = calloc(1, sizeof *request);
        if (request == NULL) return MHD_NO;
        request->connection = connection;
        request->method = method;
        request->path = url;
        *state = request;
        // A declared length over the limit is refused before any of the body is read.
        const char *declared = api.lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (declared != NULL && strtoull(declared, NULL, 10) > server->max_body_bytes) {
            request->answered = 1;
            return queue_plain(connection, MHD_HTTP_CONTENT_TOO_LARGE, too_large_text);
        }
        return MHD_YES;
    }
    if (request->answered) {
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t chunk = *upload_data_size;
        *upload_data_size = 0;
        // A body of undeclared length (chunked) that grows over the limit is read to its end and
        // dropped, then answered 413 (libmicrohttpd 0.9 cannot answer before the upload ends);
        // past four times the limit the connection is closed instead.
        if (request->too_large || request->length + chunk > server->max_body_bytes) {
            request->too_large = 1;
            request->discarded += chunk;
            return request->discarded > 4 * server->max_body_bytes ? MHD_NO : MHD_YES;
        }
        if (request->length + chunk + 1 > request->capacity) {
            size_t capacity = request->capacity ? request->capacity : 1024;
            while (capacity < request->length + chunk + 1) capacity *= 2;
            char *grown = realloc(request->body, capacity);
            if (grown == NULL) return MHD_NO;
            request->body = grown;
            request->capacity = capacity;
        }
        memcpy(request->body + request->length, upload_data, chunk);
        request->length += chunk;
        request->body[request->length] = 0;
        return MHD_YES;
    }
    request->answered = 1;
    if (request->too_large) return queue_plain(connection, MHD_HTTP_CONTENT_TOO_LARGE, too_large_text);
    server->handler(server->context, request);
    return queue_answer(request);
}

static void completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)connection;
    (void)code;
    if (*state != NULL) free_request(*state);
    *state = NULL;
}

skb_mhd_server *skb_mhd_start(
    const char *address, uint16_t port, skb_mhd_limits limits, skb_mhd_handler_fn handler, void *context, const char **error) {
    const char *problem = skb_mhd_load();
    if (problem != NULL) {
        *error = problem;
        return NULL;
    }
    struct sockaddr_in v4;
    struct sockaddr_in6 v6;
    memset(&v4, 0, sizeof v4);
    memset(&v6, 0, sizeof v6);
    const struct sockaddr *bind_address;
    // ITC: a pipe that wakes the listening thread, so quiesce and stop act at once.
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL | MHD_USE_ITC;
    if (inet_pton(AF_INET, address, &v4.sin_addr) == 1) {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(port);
        bind_address = (const struct sockaddr *)&v4;
    } else if (inet_pton(AF_INET6, address, &v6.sin6_addr) == 1) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(port);
        bind_address = (const struct sockaddr *)&v6;
        flags |= MHD_USE_IPv6;
    } else {
        *error = "the listen address is not an IPv4 or IPv6 address";
        return NULL;
    }
    struct skb_mhd_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        *error = "out of memory";
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->max_body_bytes = limits.max_body_bytes;
    server->daemon = api.start_daemon(
        flags, port, NULL, NULL, access_handler, server, MHD_OPTION_SOCK_ADDR, bind_address, MHD_OPTION_CONNECTION_MEMORY_LIMIT,
        limits.connection_memory_bytes, MHD_OPTION_CONNECTION_TIMEOUT, limits.idle_timeout_seconds,
        MHD_OPTION_CONNECTION_LIMIT, limits.max_connections, MHD_OPTION_NOTIFY_COMPLETED, completed, NULL, MHD_OPTION_END);
    if (server->daemon == NULL) {
        free(server);
        *error = "cannot listen on that address and port (in use, or not an address of this machine)";
        return NULL;
    }
    return server;
}

uint16_t skb_mhd_port(skb_mhd_server *server) {
    const union MHD_DaemonInfo *info = api.get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void skb_mhd_quiesce(skb_mhd_server *server) {
    if (server->quiesced) return;
    server->quiesced = 1;
    server->quiesced_socket = api.quiesce_daemon(server->daemon);
}

void skb_mhd_stop(skb_mhd_server *server) {
    api.stop_daemon(server->daemon);
    if (server->quiesced && server->quiesced_socket != MHD_INVALID_SOCKET) close(server->quiesced_socket);
    free(server);
}

const char *skb_mhd_method(skb_mhd_request *request) { return request->method; }
const char *skb_mhd_path(skb_mhd_request *request) { return request->path; }

const char *skb_mhd_body(skb_mhd_request *request, size_t *length) {
    *length = request->length;
    return request->body != NULL ? request->body : "";
}

struct visit {
    skb_mhd_value_fn visit;
    void *context;
};

static enum MHD_Result visit_value(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    struct visit *visit = cls;
    visit->visit(visit->context, key, value);
    return MHD_YES;
}

void skb_mhd_values(skb_mhd_request *request, int kind, skb_mhd_value_fn visit, void *context) {
    struct visit state = {visit, context};
    api.get_connection_values(request->connection, (enum MHD_ValueKind)kind, visit_value, &state);
}

void skb_mhd_set_status(skb_mhd_request *request, unsigned int status) { request->status = status; }

void skb_mhd_add_header(skb_mhd_request *request, const char *name, const char *value) {
    struct header *header = calloc(1, sizeof *header);
    if (header == NULL) return;
    header->name = strdup(name);
    header->value = strdup(value);
    // Kept in the order given.
    struct header **end = &request->headers;
    while (*end != NULL) end = &(*end)->next;
    *end = header;
}

void skb_mhd_set_body(skb_mhd_request *request, const char *bytes, size_t length) {
    free(request->response);
    request->response = malloc(length ? length : 1);
    if (request->response == NULL) return;
    memcpy(request->response, bytes, length);
    request->response_length = length;
}

void skb_mhd_set_stream(skb_mhd_request *request, skb_mhd_stream_fn read, void *context, skb_mhd_release_fn release) {
    request->stream = read;
    request->stream_context = context;
    request->release = release;
}
