/* webpush.h: Web Push's cryptography on libcrypto: the aes128gcm content
 * coding (RFC 8188), the message encryption for a subscription (RFC 8291),
 * VAPID's signed token (RFC 8292), P-256 keys as text, base64url. Knows
 * nothing of rooms, subscriptions' storage or the network: it builds the
 * body and the Authorization header of one push, and reads them back.
 *
 * Every function returns 0 (or a length) on success and -1 on failure,
 * never aborts on bad input, and leaves what webpush_error() says. */
#ifndef SRV_WEBPUSH_H
#define SRV_WEBPUSH_H

#include <stddef.h>
#include <stdint.h>

#define WEBPUSH_POINT_LEN 65  /* an uncompressed P-256 point: 0x04 || x || y */
#define WEBPUSH_SCALAR_LEN 32 /* a P-256 private scalar, and the ECDH secret */
#define WEBPUSH_AUTH_LEN 16   /* a subscription's auth secret */
#define WEBPUSH_SALT_LEN 16
#define WEBPUSH_CEK_LEN 16    /* AES-128-GCM's key */
#define WEBPUSH_NONCE_LEN 12
#define WEBPUSH_TAG_LEN 16
#define WEBPUSH_RS 4096       /* the record size of a push (RFC 8291 section 4) */
/* salt, rs, idlen, and the sender's public key as the key id */
#define WEBPUSH_HEADER_LEN (WEBPUSH_SALT_LEN + 4 + 1 + WEBPUSH_POINT_LEN)
/* Push services take bodies of 4,096 bytes (RFC 8030 section 7.2 asks at
 * least that): the header, the plaintext, its delimiter, the tag. */
#define WEBPUSH_BODY_MAX 4096
#define WEBPUSH_PLAIN_MAX (WEBPUSH_BODY_MAX - WEBPUSH_HEADER_LEN - 1 - WEBPUSH_TAG_LEN)
/* Base64url without padding of n bytes: its length, not counting the NUL. */
#define WEBPUSH_B64_LEN(n) (((n) * 4 + 2) / 3)
/* A key pair as text (webpush_key_write): two lines and the NUL. */
#define WEBPUSH_KEY_TEXT_LEN \
	(WEBPUSH_B64_LEN(WEBPUSH_SCALAR_LEN) + 1 + WEBPUSH_B64_LEN(WEBPUSH_POINT_LEN) + 1 + 1)
#define WEBPUSH_JWT_LIFETIME_MAX 86400 /* RFC 8292 section 2: at most 24 hours */
#define WEBPUSH_URL_MAX 2048           /* an endpoint, and so an origin */
#define WEBPUSH_CONTACT_MAX 256        /* VAPID's sub: a mailto: or https: URL */

/* What the last failing call of this thread was refused for: a constant
 * string ("" when none). */
const char *webpush_error(void);

/* ---- base64url (RFC 4648 section 5), without padding ---- */

/* Writes n bytes as base64url and a NUL into out (cap bytes, at least
 * WEBPUSH_B64_LEN(n) + 1): returns the length written, or -1 when out is
 * too small. */
int webpush_b64_encode(const uint8_t *in, size_t n, char *out, size_t cap);

/* Decodes len characters of base64url (trailing '=' padding tolerated,
 * nothing else outside the alphabet, no stray bits) into out (cap bytes):
 * returns the number of bytes, or -1 with out's contents undefined. */
int webpush_b64_decode(const char *in, size_t len, uint8_t *out, size_t cap);

/* ---- P-256 key pairs ---- */

/* A P-256 key pair (or, from webpush_key_public, a public key alone),
 * owned by whoever made it and freed by webpush_key_free. */
typedef struct webpush_key webpush_key;

/* A new random key pair in *out: 0, or -1 with *out NULL. */
int webpush_key_new(webpush_key **out);

/* The key pair of a private scalar (big-endian, 1 <= d < n): 0, or -1. */
int webpush_key_from_private(webpush_key **out, const uint8_t d[WEBPUSH_SCALAR_LEN]);

/* The public key of an uncompressed point, refused unless it is on the
 * curve: 0, or -1. */
int webpush_key_public(webpush_key **out, const uint8_t point[WEBPUSH_POINT_LEN]);

/* Frees k (NULL is fine). */
void webpush_key_free(webpush_key *k);

/* Writes k's public key as the uncompressed point: 0, or -1. */
int webpush_key_point(const webpush_key *k, uint8_t out[WEBPUSH_POINT_LEN]);

/* Writes k's public key as base64url (87 characters and the NUL), what a
 * page hands PushManager.subscribe as applicationServerKey: 0, or -1. */
int webpush_key_point_b64(const webpush_key *k, char *out, size_t cap);

/* Writes the key pair as text for the state directory: the private scalar
 * and the public point in base64url, a line each (WEBPUSH_KEY_TEXT_LEN
 * bytes with the NUL): returns the length, or -1 (also for a public key
 * alone, or when cap is too small). */
int webpush_key_write(const webpush_key *k, char *out, size_t cap);

/* Reads the text of webpush_key_write (the last newline optional): 0 with
 * the pair in *out, or -1 when the text is not two such lines, or the
 * public line is not the private scalar's point. */
int webpush_key_read(webpush_key **out, const char *text, size_t len);

/* ---- RFC 8188: the aes128gcm content coding ---- */

/* The content key and nonce of an input key and a salt (section 2.2 and
 * 2.3: HKDF-SHA-256): 0, or -1. */
int webpush_ece_keys(const uint8_t *ikm, size_t ikm_len, const uint8_t salt[WEBPUSH_SALT_LEN],
                     uint8_t cek[WEBPUSH_CEK_LEN], uint8_t nonce[WEBPUSH_NONCE_LEN]);

/* Encrypts n bytes as one record, the last, with its delimiter 0x02 and no
 * further padding, behind the header (salt, rs, idlen, keyid of idlen
 * bytes, at most 255): returns the body's length (21 + idlen + n + 17), or
 * -1 when the record does not fit in rs (at least 18) or in out's cap. */
int webpush_ece_encrypt(const uint8_t *ikm, size_t ikm_len, const uint8_t salt[WEBPUSH_SALT_LEN],
                        uint32_t rs, const uint8_t *keyid, size_t idlen, const uint8_t *plain,
                        size_t n, uint8_t *out, size_t cap);

/* The header of a body: its salt, record size and key id point into body.
 * Returns the header's length, or -1 when body is shorter, or rs < 18. */
int webpush_ece_header(const uint8_t *body, size_t len, const uint8_t **salt, uint32_t *rs,
                       const uint8_t **keyid, size_t *idlen);

/* Decrypts a body of any number of records (each's padding and delimiter
 * checked: 0x01 but in the last, 0x02 in it) into out: returns the
 * plaintext's length, or -1 when a record does not open, is truncated or
 * is padded wrong, or out is too small. */
int webpush_ece_decrypt(const uint8_t *ikm, size_t ikm_len, const uint8_t *body, size_t len,
                        uint8_t *out, size_t cap);

/* ---- RFC 8291: a push message for one subscription ---- */

/* A subscription's keys, as its page reported them (PushSubscription's
 * getKey("p256dh") and getKey("auth")). */
typedef struct webpush_sub {
	uint8_t p256dh[WEBPUSH_POINT_LEN];
	uint8_t auth[WEBPUSH_AUTH_LEN];
} webpush_sub;

/* Reads the base64url keys of a subscription into out: 0, or -1 when
 * p256dh is not a point on P-256 or auth is not 16 bytes. */
int webpush_sub_parse(webpush_sub *out, const char *p256dh, const char *auth);

/* The ECDH secret (the shared point's x) of a key pair and a peer's
 * public point: 0, or -1. */
int webpush_ecdh(const webpush_key *own, const uint8_t peer[WEBPUSH_POINT_LEN],
                 uint8_t secret[WEBPUSH_SCALAR_LEN]);

/* The input key of section 3.3: HKDF-SHA-256 with the auth secret as the
 * salt, the ECDH secret as the key, "WebPush: info" 0x00 ua_public
 * as_public as the info: 0, or -1. */
int webpush_ikm(const uint8_t secret[WEBPUSH_SCALAR_LEN], const uint8_t auth[WEBPUSH_AUTH_LEN],
                const uint8_t ua_public[WEBPUSH_POINT_LEN],
                const uint8_t as_public[WEBPUSH_POINT_LEN], uint8_t ikm[32]);

/* Encrypts n bytes (at most WEBPUSH_PLAIN_MAX) for sub: the body to POST
 * with "Content-Encoding: aes128gcm", into out (WEBPUSH_BODY_MAX bytes
 * will do). as_key and salt are the sender's ephemeral key pair and the
 * salt; NULL for each draws a new one, which every real push must (given
 * ones are for known answers). Returns the body's length, or -1. */
int webpush_encrypt(const webpush_sub *sub, const uint8_t *plain, size_t n,
                    const webpush_key *as_key, const uint8_t *salt, uint8_t *out, size_t cap);

/* The user agent's side: decrypts a body for the key pair ua_key whose
 * public point and auth secret the subscription gave. Returns the
 * plaintext's length, or -1. */
int webpush_decrypt(const webpush_key *ua_key, const uint8_t auth[WEBPUSH_AUTH_LEN],
                    const uint8_t *body, size_t len, uint8_t *out, size_t cap);

/* ---- RFC 8292: VAPID ---- */

/* Writes an endpoint's origin (scheme "https" or "http", host, port if
 * any) into out: the length, or -1 when endpoint is no such URL. */
int webpush_origin(const char *endpoint, char *out, size_t cap);

/* Writes the ES256 JWT {"typ":"JWT","alg":"ES256"} . {"aud":origin,
 * "exp":exp,"sub":contact}, signed by key (r || s, base64url), into out:
 * returns its length, or -1 when endpoint has no origin, contact is empty,
 * too long or holds a quote, backslash or control character, or out is
 * too small. */
int webpush_vapid_jwt(const webpush_key *key, const char *endpoint, const char *contact,
                      int64_t exp, char *out, size_t cap);

/* Writes the value of the Authorization header of a push to endpoint,
 * "vapid t=<jwt>, k=<public key>", its token valid from now for lifetime
 * seconds (1 to WEBPUSH_JWT_LIFETIME_MAX; a push service whose clock is
 * ahead may refuse a full 24 h, so a caller should ask for less, e.g. 12
 * h): the length, or -1. */
int webpush_vapid_header(const webpush_key *key, const char *endpoint, const char *contact,
                         int64_t now, int lifetime, char *out, size_t cap);

/* Checks a JWT's header is ES256's and its signature key's, and writes its
 * claims (the JSON text, NUL-ended) into claims: their length, or -1. */
int webpush_vapid_verify(const char *jwt, const webpush_key *key, char *claims, size_t cap);

/* ---- a subscription's endpoint: where a server may send ---- */

/* The push services of the browsers, the default of --push-allow:
 * Chrome's (Firebase Cloud Messaging), Firefox's (Mozilla's autopush),
 * Edge's (Windows Push Notification Services), Safari's (Apple). */
#define WEBPUSH_ALLOW_DEFAULT \
	"fcm.googleapis.com,updates.push.services.mozilla.com,*.notify.windows.com," \
	"web.push.apple.com"
#define WEBPUSH_HOST_MAX 253

struct sockaddr;

/* Checks an endpoint before it is kept: an https: URL (an http: one too
 * when loopback_ok) of at most WEBPUSH_URL_MAX bytes, without user info,
 * whose host (lowercased, without its port, into host: cap bytes, at
 * least WEBPUSH_HOST_MAX + 1) is on allow, a comma-separated list of
 * names where "*.x" is any name ending in ".x", or, when loopback_ok (a
 * test's fake push service), a loopback address or "localhost". An
 * address literal in a loopback, private, link-local, multicast or
 * unspecified range is refused whatever the list says (unless loopback
 * and loopback_ok). 0, or -1 with webpush_error() saying why. */
int webpush_endpoint_check(const char *endpoint, const char *allow, int loopback_ok, char *host,
                           size_t cap);

/* The port of an endpoint checked by webpush_endpoint_check (443 for
 * https:, 80 for http: unless given), its path (from the first '/', "/"
 * when none) into path (cap bytes): the port, or -1. */
int webpush_endpoint_target(const char *endpoint, char *path, size_t cap);

/* 1 when a push must never be sent to the IPv4 or IPv6 address sa (a
 * loopback, private, shared, link-local, multicast, unspecified or
 * reserved one; an IPv4-mapped IPv6 one as its IPv4), else 0. Loopback
 * addresses count as 0 when loopback_ok. */
int webpush_addr_refused(const struct sockaddr *sa, int loopback_ok);

#endif
