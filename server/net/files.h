/* files.h: the static files lws serves from the web root through the
 * mounts: precompressed copies, the headers every file gets, a byte
 * budget per address for large files, links out of the root refused, and
 * the 404 page. */
#ifndef SRV_FILES_H
#define SRV_FILES_H

#include <libwebsockets.h>

#include "server/net/respond.h"

/* Makes lws serve a fresh file.br or file.gz in place of file to clients
 * that accept it (call once the context exists). */
void files_init(struct lws_context *ctx);
/* A request's filter (FILTER_HTTP_CONNECTION) for files: notes what the
 * request accepts for the answer's headers, and refuses a large file past
 * the address's budget (429) or a link out of the web root (404). 0 to
 * go on, 1 after a refusal was sent. */
int files_filter(struct lws *wsi, http_req *rq, const char *uri);
/* LWS_CALLBACK_ADD_HEADERS of a file: 0, or 1 when they did not fit. */
int files_add_headers(struct lws *wsi, struct lws_process_html_args *args);
/* The client's 404 page for uri (the path without its first "/"), with a
 * <base> leading home from its depth; a small page when it cannot be
 * read. -1: hang up once written. */
int files_not_found(struct lws *wsi, http_req *rq, const char *uri);

#endif
