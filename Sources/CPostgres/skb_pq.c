#include "skb_pq.h"

#include <dlfcn.h>
#include <pthread.h>

static struct {
    PGconn *(*connectdb_params)(const char *const *, const char *const *, int);
    ConnStatusType (*status)(const PGconn *);
    char *(*error_message)(const PGconn *);
    void (*finish)(PGconn *);
    PQnoticeProcessor (*set_notice_processor)(PGconn *, PQnoticeProcessor, void *);
    int (*socket)(const PGconn *);
    PGresult *(*exec)(PGconn *, const char *);
    PGresult *(*exec_params)(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *,
                             int);
    ExecStatusType (*result_status)(const PGresult *);
    char *(*result_error_field)(const PGresult *, int);
    char *(*cmd_tuples)(PGresult *);
    int (*ntuples)(const PGresult *);
    int (*nfields)(const PGresult *);
    char *(*fname)(const PGresult *, int);
    Oid (*ftype)(const PGresult *, int);
    int (*getisnull)(const PGresult *, int, int);
    char *(*getvalue)(const PGresult *, int, int);
    void (*clear)(PGresult *);
    int (*consume_input)(PGconn *);
    PGnotify *(*notifies)(PGconn *);
    void (*freemem)(void *);
} api;

static const char *load_error = "libpq was not loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
#if defined(__APPLE__)
    static const char *const names[] = {"libpq.5.dylib", "/opt/homebrew/opt/libpq/lib/libpq.5.dylib", NULL};
#else
    static const char *const names[] = {"libpq.so.5", NULL};
#endif
    void *library = NULL;
    for (int i = 0; names[i] != NULL && library == NULL; i++) library = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        load_error = "PostgreSQL state needs libpq (libpq.so.5), which is not installed (Debian: apt-get install libpq5)";
        return;
    }
#define SKB_BIND(field, symbol)                                                                                        \
    *(void **)(&api.field) = dlsym(library, symbol);                                                                  \
    if (api.field == NULL) {                                                                                           \
        load_error = "the installed libpq is too old for PostgreSQL state (libpq 10 or later is needed)";             \
        return;                                                                                                        \
    }
    SKB_BIND(connectdb_params, "PQconnectdbParams")
    SKB_BIND(status, "PQstatus")
    SKB_BIND(error_message, "PQerrorMessage")
    SKB_BIND(finish, "PQfinish")
    SKB_BIND(set_notice_processor, "PQsetNoticeProcessor")
    SKB_BIND(socket, "PQsocket")
    SKB_BIND(exec, "PQexec")
    SKB_BIND(exec_params, "PQexecParams")
    SKB_BIND(result_status, "PQresultStatus")
    SKB_BIND(result_error_field, "PQresultErrorField")
    SKB_BIND(cmd_tuples, "PQcmdTuples")
    SKB_BIND(ntuples, "PQntuples")
    SKB_BIND(nfields, "PQnfields")
    SKB_BIND(fname, "PQfname")
    SKB_BIND(ftype, "PQftype")
    SKB_BIND(getisnull, "PQgetisnull")
    SKB_BIND(getvalue, "PQgetvalue")
    SKB_BIND(clear, "PQclear")
    SKB_BIND(consume_input, "PQconsumeInput")
    SKB_BIND(notifies, "PQnotifies")
    SKB_BIND(freemem, "PQfreemem")
#undef SKB_BIND
    load_error = NULL;
}

const char *skb_pq_load(void) {
    pthread_once(&load_once, load);
    return load_error;
}

PGconn *skb_pq_connectdb_params(const char *const *keywords, const char *const *values, int expand_dbname) {
    return api.connectdb_params(keywords, values, expand_dbname);
}
ConnStatusType skb_pq_status(const PGconn *connection) { return api.status(connection); }
char *skb_pq_error_message(const PGconn *connection) { return api.error_message(connection); }
void skb_pq_finish(PGconn *connection) { api.finish(connection); }
PQnoticeProcessor skb_pq_set_notice_processor(PGconn *connection, PQnoticeProcessor processor, void *context) {
    return api.set_notice_processor(connection, processor, context);
}
int skb_pq_socket(const PGconn *connection) { return api.socket(connection); }

PGresult *skb_pq_exec(PGconn *connection, const char *sql) { return api.exec(connection, sql); }
PGresult *skb_pq_exec_params(PGconn *connection, const char *sql, int count, const Oid *types,
                             const char *const *values, const int *lengths, const int *formats, int result_format) {
    return api.exec_params(connection, sql, count, types, values, lengths, formats, result_format);
}
ExecStatusType skb_pq_result_status(const PGresult *result) { return api.result_status(result); }
char *skb_pq_result_error_field(const PGresult *result, int field) { return api.result_error_field(result, field); }
char *skb_pq_cmd_tuples(PGresult *result) { return api.cmd_tuples(result); }
int skb_pq_ntuples(const PGresult *result) { return api.ntuples(result); }
int skb_pq_nfields(const PGresult *result) { return api.nfields(result); }
char *skb_pq_fname(const PGresult *result, int field) { return api.fname(result, field); }
Oid skb_pq_ftype(const PGresult *result, int field) { return api.ftype(result, field); }
int skb_pq_getisnull(const PGresult *result, int row, int field) { return api.getisnull(result, row, field); }
char *skb_pq_getvalue(const PGresult *result, int row, int field) { return api.getvalue(result, row, field); }
void skb_pq_clear(PGresult *result) { api.clear(result); }

int skb_pq_consume_input(PGconn *connection) { return api.consume_input(connection); }
PGnotify *skb_pq_notifies(PGconn *connection) { return api.notifies(connection); }
void skb_pq_freemem(void *pointer) { api.freemem(pointer); }
