// libpq, loaded on first use with dlopen: typed wrappers around the libpq calls the PostgreSQL
// state makes, so that the binary has no link-time dependency on libpq (which would map it, and
// the ~20 libraries it brings — Kerberos, LDAP, TLS — at every start, even for `--version`).
// The types and constants come from libpq-fe.h (libpq-dev) at build time; no libpq symbol is
// referenced, so none is linked.
#ifndef SKB_PQ_H
#define SKB_PQ_H

#if __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h> // Debian and Ubuntu (libpq-dev)
#else
#include <libpq-fe.h>
#endif

/// Loads libpq (libpq.so.5), once per process and thread-safe; NULL when it is ready, else why
/// not (a static string). Every other function here needs it to have returned NULL.
const char *skb_pq_load(void);

PGconn *skb_pq_connectdb_params(const char *const *keywords, const char *const *values, int expand_dbname);
ConnStatusType skb_pq_status(const PGconn *connection);
char *skb_pq_error_message(const PGconn *connection);
void skb_pq_finish(PGconn *connection);
PQnoticeProcessor skb_pq_set_notice_processor(PGconn *connection, PQnoticeProcessor processor, void *context);
int skb_pq_socket(const PGconn *connection);

PGresult *skb_pq_exec(PGconn *connection, const char *sql);
PGresult *skb_pq_exec_params(PGconn *connection, const char *sql, int count, const Oid *types,
                             const char *const *values, const int *lengths, const int *formats, int result_format);
ExecStatusType skb_pq_result_status(const PGresult *result);
char *skb_pq_result_error_field(const PGresult *result, int field);
char *skb_pq_cmd_tuples(PGresult *result);
int skb_pq_ntuples(const PGresult *result);
int skb_pq_nfields(const PGresult *result);
char *skb_pq_fname(const PGresult *result, int field);
Oid skb_pq_ftype(const PGresult *result, int field);
int skb_pq_getisnull(const PGresult *result, int row, int field);
char *skb_pq_getvalue(const PGresult *result, int row, int field);
void skb_pq_clear(PGresult *result);

int skb_pq_consume_input(PGconn *connection);
PGnotify *skb_pq_notifies(PGconn *connection);
void skb_pq_freemem(void *pointer);

#endif
