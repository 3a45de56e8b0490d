/* files.c: the static files of the web root, served by lws through the
 * mounts: precompressed copies, the headers every file gets, a byte
 * budget per address for large files, links out of the root refused, and
 * the 404 page. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "server/net/api_rooms.h"
#include "server/base/clock.h"
#include "server/net/files.h"
#include "server/base/iptable.h"
#include "server/base/log.h"
#include "server/net/conn.h"

/* The codings of a precompressed copy, in the order they are preferred. */
enum { ENC_NONE, ENC_GZIP, ENC_BR };

/* What the request lws is serving a file for accepts and asks for (set for
 * each request in FILTER_HTTP_CONNECTION, read by gz_open() and
 * files_add_headers() in the same call): the codings its Accept-Encoding accepts
 * (1 << ENC_GZIP, 1 << ENC_BR), whether its URL is under /v/ (a name that
 * changes with the content: long-lived caching), and the coding of the
 * copy gz_open() opened. */
static unsigned enc_accepted;
static int file_immutable, file_module;
static int file_sent_enc;
static lws_fop_fd_t (*plat_open)(const struct lws_plat_file_ops *, const char *, const char *,
                                 lws_fop_flags_t *);

/* The codings the Accept-Encoding header accepts (RFC 9110, 12.5.3), as
 * bits 1 << ENC_*: "gzip" (or "x-gzip"), "br", each with a q above 0, or,
 * for one not named, "*" with a q above 0. */
static unsigned accepted_codings(struct lws *wsi)
{
	char ae[512];
	int star = 0, gz = -1, br = -1;

	if (lws_hdr_copy(wsi, ae, sizeof ae, WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0)
		return 0;
	for (char *save = NULL, *t = strtok_r(ae, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *semi = strchr(t, ';'), *q;
		size_t n;
		int ok = 1;

		while (*t == ' ' || *t == '\t')
			t++;
		n = semi ? (size_t)(semi - t) : strlen(t);
		while (n && (t[n - 1] == ' ' || t[n - 1] == '\t'))
			n--;
		if (semi && (q = strstr(semi, "q=")) && strtod(q + 2, NULL) <= 0)
			ok = 0;
		if ((n == 4 && !strncasecmp(t, "gzip", 4)) || (n == 6 && !strncasecmp(t, "x-gzip", 6)))
			gz = ok;
		else if (n == 2 && !strncasecmp(t, "br", 2))
			br = ok;
		else if (n == 1 && *t == '*')
			star = ok;
	}
	return ((gz >= 0 ? gz : star) ? 1u << ENC_GZIP : 0) | ((br >= 0 ? br : star) ? 1u << ENC_BR : 0);
}

/* 1 when the request's Sec-Fetch-Dest is "script" (a module or a classic
 * script of a page, not a worker, not a fetch). */
static int is_dest_script(struct lws *wsi)
{
	char d[16];

	return lws_hdr_custom_copy(wsi, d, sizeof d, "sec-fetch-dest:", 15) == 6 &&
	       !strcasecmp(d, "script");
}

/* A file's compressed copy, when it should be served in its place: the
 * preferred one of path + ".br" and path + ".gz" that the client accepts
 * and that is a regular file at least as new as path. Returns its ENC_*
 * (ENC_NONE: the file itself), the copy's name in cp and its stat in cst. */
static int copy_fresh(const char *path, unsigned accepted, char *cp, size_t cap, struct stat *cst)
{
	static const struct { int enc; const char *ext; } copies[] = {
		{ENC_BR, ".br"}, {ENC_GZIP, ".gz"},
	};
	struct stat st;

	if (!accepted || stat(path, &st) || !S_ISREG(st.st_mode))
		return ENC_NONE;
	for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
		if ((accepted & 1u << copies[i].enc) &&
		    snprintf(cp, cap, "%s%s", path, copies[i].ext) < (int)cap && !stat(cp, cst) &&
		    S_ISREG(cst->st_mode) && cst->st_mtime >= st.st_mtime)
			return copies[i].enc;
	return ENC_NONE;
}

/* lws's file open, for the files of the web root: a client that accepts
 * br or gzip gets file.br or file.gz when there is a fresh one (lws then
 * sends it with its own length and ETag; Content-Encoding: gzip is lws's,
 * Content-Encoding: br files_add_headers()'s). */
static lws_fop_fd_t gz_open(const struct lws_plat_file_ops *fops, const char *filename,
                            const char *vpath, lws_fop_flags_t *flags)
{
	char cp[PATH_MAX];
	struct stat cst;
	unsigned accepted = enc_accepted;
	int enc;

	enc_accepted = 0;
	file_sent_enc = ENC_NONE;
	enc = copy_fresh(filename, accepted, cp, sizeof cp, &cst);
	if (enc != ENC_NONE) {
		lws_fop_fd_t fd = plat_open(fops, cp, vpath, flags);

		if (fd) {
			/* lws's own test of Accept-Encoding is a search for "gzip". */
			if (enc == ENC_GZIP)
				*flags |= LWS_FOP_FLAG_COMPR_ACCEPTABLE_GZIP | LWS_FOP_FLAG_COMPR_IS_GZIP;
			fd->flags = *flags;
			file_sent_enc = enc;
			return fd;
		}
	}
	return plat_open(fops, filename, vpath, flags);
}

void files_init(struct lws_context *ctx)
{
	struct lws_plat_file_ops *fops = lws_get_fops(ctx);

	plat_open = fops->LWS_FOP_OPEN;
	fops->LWS_FOP_OPEN = gz_open;
}

/* Static files this large count against a budget of bytes a minute per
 * address: web/oware.egdb (1.35 MB, 0.65 MB as brotli) alone today; the
 * next largest, i18n.js and puzzles-togyz.json, are about 72 KB
 * (docs/running.md, "Static files"). */
#define FILE_BIG (256 * 1024)
#define FILE_BYTES_PER_MIN ((int64_t)32 << 20)
#define FILE_WINDOW_MS 60000

/* A GET of a file of the web root: counts what it will send when it is
 * a large one (nothing for a 304: the ETag asked for is lws's for the
 * copy to be sent). 0 to serve it, 1 when its address spent its budget. */
static int file_budget(struct lws *wsi, const char *uri)
{
	char path[PATH_MAX], cp[PATH_MAX], etag[40], inm[64], addr[64];
	struct stat st, cst;
	ipent *ip;
	int64_t now;

	if (uri[0] != '/' ||
	    snprintf(path, sizeof path, "%s%s%s", net_cfg->web_root, uri,
	             uri[strlen(uri) - 1] == '/' ? "index.html" : "") >= (int)sizeof path ||
	    stat(path, &st) || !S_ISREG(st.st_mode) || st.st_size < FILE_BIG)
		return 0;
	if (copy_fresh(path, enc_accepted, cp, sizeof cp, &cst) != ENC_NONE)
		st = cst; /* the compressed copy is sent */
	snprintf(etag, sizeof etag, "%08llX%08lX", (unsigned long long)st.st_size,
	         (unsigned long)st.st_mtime);
	if (lws_hdr_copy(wsi, inm, sizeof inm, WSI_TOKEN_HTTP_IF_NONE_MATCH) > 0 &&
	    !strcmp(inm, etag))
		return 0;
	net_client_addr(wsi, addr, sizeof addr);
	ip = ip_get(addr);
	if (!ip)
		return 1;
	now = now_ms();
	if (now - ip->file_window >= FILE_WINDOW_MS) {
		ip->file_window = now;
		ip->file_bytes = 0;
	}
	if (ip->file_bytes + st.st_size > FILE_BYTES_PER_MIN) {
		log_limited(LOG_INFO, "http_refused", addr, "reason=file_budget bytes=%lld addr=%s",
		            (long long)ip->file_bytes, addr);
		return 1;
	}
	ip->file_bytes += st.st_size;
	return 0;
}

/* Headers added to every static file: the room id travels in page URLs,
 * so no Referer carries it away; no MIME sniffing; no framing; and the
 * client's strict Content-Security-Policy (no inline code; the engine's
 * WebAssembly needs 'wasm-unsafe-eval'), also in index.html's meta tag.
 * A brotli copy says so; a file under /v/ (its URL changes with its
 * content, web/part.mk) may be kept a year without asking again (lws then
 * adds no Cache-Control of its own). A file under /v/ asked for as a
 * script (Sec-Fetch-Dest: script: one of the page's modules) goes without
 * the headers that only a page or a worker reads (CSP, Referrer-Policy,
 * X-Frame-Options): 300 bytes less for each of the 40 modules a first
 * visit loads. Workers are asked for as "worker", a service worker's
 * fetches as "empty": they get them all. So files under /v/ say that they
 * vary by Sec-Fetch-Dest: a shared cache must not hand a worker the
 * answer a module got. */
int files_add_headers(struct lws *wsi, struct lws_process_html_args *args)
{
	static const struct { const char *name, *value; int module; } h[] = {
		{"vary:", "Accept-Encoding", 1}, /* a compressed copy for some clients */
		{"content-security-policy:",
		 "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
		 "img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
		 "base-uri 'none'; form-action 'self'; frame-ancestors 'none'", 0},
		{"referrer-policy:", "no-referrer", 0},
		{"x-content-type-options:", "nosniff", 1},
		{"x-frame-options:", "DENY", 0},
	};
	static const char immutable[] = "public, max-age=31536000, immutable";
	static const char vary_dest[] = "Accept-Encoding, Sec-Fetch-Dest";
	unsigned char **p = (unsigned char **)&args->p;
	unsigned char *end = (unsigned char *)args->p + args->max_len;
	int sent_enc = file_sent_enc;

	file_sent_enc = ENC_NONE;
	for (size_t i = 0; i < sizeof h / sizeof h[0]; i++) {
		const char *v = i == 0 && file_immutable ? vary_dest : h[i].value;

		if ((h[i].module || !file_module) &&
		    lws_add_http_header_by_name(wsi, (const unsigned char *)h[i].name,
		                                (const unsigned char *)v, (int)strlen(v), p, end))
			return 1;
	}
	if (sent_enc == ENC_BR &&
	    lws_add_http_header_by_token(wsi, WSI_TOKEN_HTTP_CONTENT_ENCODING,
	                                 (const unsigned char *)"br", 2, p, end))
		return 1;
	if (file_immutable &&
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
	                                (const unsigned char *)immutable,
	                                (int)sizeof immutable - 1, p, end))
		return 1;
	return 0;
}

/* 1 when uri names a file that a symbolic link puts outside the web root
 * (refused unless --follow-links). */
static int leaves_root(const char *uri)
{
	static char root[PATH_MAX];
	char path[PATH_MAX], real[PATH_MAX];
	size_t rn;

	if (net_cfg->follow_links || !uri || uri[0] != '/')
		return 0;
	if (!root[0] && !realpath(net_cfg->web_root, root))
		return 0;
	if (snprintf(path, sizeof path, "%s%s%s", net_cfg->web_root, uri,
	             uri[strlen(uri) - 1] == '/' ? "index.html" : "") >= (int)sizeof path ||
	    !realpath(path, real))
		return 0; /* no such file: lws answers 404 itself */
	rn = strlen(root);
	return strncmp(real, root, rn) || (real[rn] != '/' && real[rn] != 0);
}

/* 1 when uri is one of the server's own routes, which check their
 * methods themselves (http.c, api_rooms.c). */
static int is_route(const char *uri)
{
	return !strcmp(uri, API_ROOMS_PATH) || !strcmp(uri, API_PUSH_PATH) ||
	       !strcmp(uri, "/healthz") || !strcmp(uri, "/metrics") ||
	       !strncmp(uri, "/api/events/", 12);
}

/* The part of a request's filter (FILTER_HTTP_CONNECTION) that is the
 * files': 0 to go on, 1 after a refusal was sent. Files answer GET and
 * HEAD only (lws 4.1.6 would send a file to any method); only a GET sends
 * one, and so only a GET is counted against the budget. */
int files_filter(struct lws *wsi, http_req *rq, const char *in)
{
	static const char *const allow[] = {"allow:", "GET, HEAD", NULL};

	if (!is_route(in) && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0 &&
	    lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) <= 0) {
		char addr[64];

		net_client_addr(wsi, addr, sizeof addr);
		log_limited(LOG_INFO, "http_refused", addr, "reason=method addr=%s", addr);
		http_refuse_with(wsi, rq, HTTP_STATUS_METHOD_NOT_ALLOWED, allow);
		return 1;
	}
	enc_accepted = accepted_codings(wsi);
	file_immutable = !strncmp(in, "/v/", 3);
	file_module = file_immutable && is_dest_script(wsi);
	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 && file_budget(wsi, in)) {
		http_refuse(wsi, rq, 429);
		return 1;
	}
	if (leaves_root(in)) {
		char eu[256], addr[64];

		net_client_addr(wsi, addr, sizeof addr);
		log_limited(LOG_WARN, "http_refused", addr, "reason=link uri=\"%s\" addr=%s",
		            log_esc(eu, sizeof eu, in, 100, 0), addr);
		http_refuse(wsi, rq, HTTP_STATUS_NOT_FOUND);
		return 1;
	}
	return 0;
}


/* The client's own page for a path that names nothing (web/404.html, in
 * English and Spanish: docs/running.md, "Static files"), sent with status
 * 404. Its links lead home from any depth: a <base> goes right after its
 * <head>, with one "../" for each "/" in uri (the path as lws gives it,
 * without its first "/"), which also holds behind a proxy that strips a
 * prefix. http_refuse()'s small page when the file cannot be read. */
#define NOT_FOUND_PAGE "404.html"
#define NOT_FOUND_MAX 16384
/* The page's own policy (its style is inline, the server adds a <base>),
 * as a header so that it also forbids framing; no sniffing, no Referer. */
static const char *const not_found_headers[] = {
	"content-security-policy:", "default-src 'none'; style-src 'unsafe-inline'; img-src data:; "
	"form-action 'none'; frame-ancestors 'none'",
	"x-frame-options:", "DENY",
	"x-content-type-options:", "nosniff",
	"referrer-policy:", "no-referrer",
	NULL
};
int files_not_found(struct lws *wsi, http_req *rq, const char *uri)
{
	static const char mark[] = "<head>";
	char path[PATH_MAX], *page = NULL, *at;
	size_t depth = 0, n = 0, cut, blen, len = 0;
	FILE *f;

	for (const char *c = uri; *c; c++)
		depth += *c == '/';
	if (snprintf(path, sizeof path, "%s/" NOT_FOUND_PAGE, net_cfg->web_root) < (int)sizeof path &&
	    (f = fopen(path, "rb"))) {
		page = malloc(NOT_FOUND_MAX + 1);
		if (page)
			n = fread(page, 1, NOT_FOUND_MAX + 1, f);
		fclose(f);
	}
	if (!page || n == 0 || n > NOT_FOUND_MAX) {
		free(page);
		return http_refuse_with(wsi, rq, HTTP_STATUS_NOT_FOUND, not_found_headers);
	}
	page[n] = 0;
	at = strstr(page, mark);
	cut = at ? (size_t)(at - page) + sizeof mark - 1 : 0;
	blen = sizeof "<base href=\"./\">" - 1 + 3 * depth;
	rq->buf = malloc(LWS_PRE + n + blen + 1);
	if (!rq->buf) {
		free(page);
		return -1;
	}
	{
		char *o = (char *)rq->buf + LWS_PRE;

		memcpy(o, page, cut);
		len = cut;
		len += (size_t)sprintf(o + len, "<base href=\"./");
		for (size_t i = 0; i < depth; i++, len += 3)
			memcpy(o + len, "../", 3);
		memcpy(o + len, "\">", 2);
		len += 2;
		memcpy(o + len, page + cut, n - cut);
		len += n - cut;
	}
	free(page);
	rq->len = len;
	return http_respond_with(wsi, rq, HTTP_STATUS_NOT_FOUND, "text/html; charset=utf-8",
	                         not_found_headers);
}
