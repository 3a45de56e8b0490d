/* webpush.c: Web Push's cryptography (RFC 8188, RFC 8291, RFC 8292) on
 * libcrypto's OpenSSL 3 interfaces, none of them deprecated ones. */
#include <arpa/inet.h>
#include <ctype.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include "server/base/webpush.h"

struct webpush_key {
	EVP_PKEY *pkey;
	int has_private;
};

static _Thread_local const char *last_error = "";

const char *webpush_error(void)
{
	return last_error;
}

static int fail(const char *why)
{
	last_error = why;
	return -1;
}

/* ---- base64url ---- */

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int webpush_b64_encode(const uint8_t *in, size_t n, char *out, size_t cap)
{
	size_t o = 0;

	if (n > (size_t)INT_MAX / 2 || cap < WEBPUSH_B64_LEN(n) + 1)
		return fail("base64url: no room for the text");
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) |
		             (i + 2 < n ? in[i + 2] : 0);

		out[o++] = b64_alphabet[v >> 18 & 63];
		out[o++] = b64_alphabet[v >> 12 & 63];
		if (i + 1 < n)
			out[o++] = b64_alphabet[v >> 6 & 63];
		if (i + 2 < n)
			out[o++] = b64_alphabet[v & 63];
	}
	out[o] = 0;
	return (int)o;
}

static int b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '-')
		return 62;
	if (c == '_')
		return 63;
	return -1;
}

int webpush_b64_decode(const char *in, size_t len, uint8_t *out, size_t cap)
{
	size_t pad = 0, o = 0;
	uint32_t acc = 0;
	int bits = 0;

	while (len > 0 && in[len - 1] == '=') {
		len--;
		pad++;
	}
	if (pad > 2 || (pad && (len + pad) % 4) || len % 4 == 1)
		return fail("base64url: not a whole number of bytes");
	if (len > (size_t)INT_MAX || len / 4 * 3 + (len % 4 ? len % 4 - 1 : 0) > cap)
		return fail("base64url: longer than expected");
	for (size_t i = 0; i < len; i++) {
		int v = b64_value((unsigned char)in[i]);

		if (v < 0)
			return fail("base64url: a character outside the alphabet");
		acc = (acc << 6 | (uint32_t)v) & 0xffffff;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	if (acc & ((1u << bits) - 1))
		return fail("base64url: stray bits at the end");
	return (int)o;
}

/* ---- P-256 keys ---- */

/* 1 when point is an uncompressed point on P-256, else 0. */
static int point_valid(const uint8_t point[WEBPUSH_POINT_LEN])
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	int ok = p && point[0] == POINT_CONVERSION_UNCOMPRESSED &&
	         EC_POINT_oct2point(g, p, point, WEBPUSH_POINT_LEN, NULL) == 1 &&
	         EC_POINT_is_on_curve(g, p, NULL) == 1 && EC_POINT_is_at_infinity(g, p) == 0;

	EC_POINT_free(p);
	EC_GROUP_free(g);
	return ok;
}

/* The EVP_PKEY of a point, with the private scalar d unless d is NULL. */
static EVP_PKEY *pkey_of(const BIGNUM *d, const uint8_t point[WEBPUSH_POINT_LEN])
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *pkey = NULL;

	if (!b || !OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
	    !OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, point, WEBPUSH_POINT_LEN) ||
	    (d && !OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, d)))
		goto done;
	params = OSSL_PARAM_BLD_to_param(b);
	ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	if (!params || !ctx || EVP_PKEY_fromdata_init(ctx) <= 0 ||
	    EVP_PKEY_fromdata(ctx, &pkey, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) <= 0)
		pkey = NULL;
done:
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	return pkey;
}

static int key_wrap(webpush_key **out, EVP_PKEY *pkey, int has_private)
{
	*out = OPENSSL_zalloc(sizeof **out);
	if (!*out) {
		EVP_PKEY_free(pkey);
		return fail("key: out of memory");
	}
	(*out)->pkey = pkey;
	(*out)->has_private = has_private;
	return 0;
}

int webpush_key_new(webpush_key **out)
{
	EVP_PKEY *pkey = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");

	*out = NULL;
	if (!pkey)
		return fail("key: P-256 key generation failed");
	return key_wrap(out, pkey, 1);
}

int webpush_key_from_private(webpush_key **out, const uint8_t d[WEBPUSH_SCALAR_LEN])
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	BIGNUM *bn = BN_secure_new();
	EC_POINT *p = g ? EC_POINT_new(g) : NULL;
	uint8_t point[WEBPUSH_POINT_LEN];
	EVP_PKEY *pkey = NULL;
	int rc = -1;

	*out = NULL;
	if (!g || !bn || !p || !BN_bin2bn(d, WEBPUSH_SCALAR_LEN, bn)) {
		fail("key: out of memory");
		goto done;
	}
	if (BN_is_zero(bn) || BN_cmp(bn, EC_GROUP_get0_order(g)) >= 0) {
		fail("key: the private scalar is not between 1 and the order of P-256");
		goto done;
	}
	if (!EC_POINT_mul(g, p, bn, NULL, NULL, NULL) ||
	    EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, point, sizeof point, NULL) !=
	            sizeof point ||
	    !(pkey = pkey_of(bn, point))) {
		fail("key: the key pair could not be made");
		goto done;
	}
	rc = key_wrap(out, pkey, 1);
done:
	EC_POINT_free(p);
	BN_clear_free(bn);
	EC_GROUP_free(g);
	return rc;
}

int webpush_key_public(webpush_key **out, const uint8_t point[WEBPUSH_POINT_LEN])
{
	EVP_PKEY *pkey;

	*out = NULL;
	if (!point_valid(point))
		return fail("key: not an uncompressed point on P-256");
	if (!(pkey = pkey_of(NULL, point)))
		return fail("key: the public key could not be made");
	return key_wrap(out, pkey, 0);
}

void webpush_key_free(webpush_key *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->pkey);
	OPENSSL_free(k);
}

int webpush_key_point(const webpush_key *k, uint8_t out[WEBPUSH_POINT_LEN])
{
	size_t len = 0;

	if (!k || EVP_PKEY_get_octet_string_param(k->pkey, OSSL_PKEY_PARAM_PUB_KEY, out,
	                                          WEBPUSH_POINT_LEN, &len) != 1 ||
	    len != WEBPUSH_POINT_LEN || out[0] != POINT_CONVERSION_UNCOMPRESSED)
		return fail("key: no uncompressed public point");
	return 0;
}

int webpush_key_point_b64(const webpush_key *k, char *out, size_t cap)
{
	uint8_t point[WEBPUSH_POINT_LEN];

	if (webpush_key_point(k, point) < 0 || webpush_b64_encode(point, sizeof point, out, cap) < 0)
		return -1;
	return 0;
}

int webpush_key_write(const webpush_key *k, char *out, size_t cap)
{
	uint8_t d[WEBPUSH_SCALAR_LEN], point[WEBPUSH_POINT_LEN];
	BIGNUM *bn = NULL;
	int n, m, rc = -1;

	if (!k || !k->has_private)
		return fail("key: no private key to write");
	if (cap < WEBPUSH_KEY_TEXT_LEN)
		return fail("key: no room for the text");
	if (EVP_PKEY_get_bn_param(k->pkey, OSSL_PKEY_PARAM_PRIV_KEY, &bn) != 1 ||
	    BN_bn2binpad(bn, d, sizeof d) != sizeof d || webpush_key_point(k, point) < 0) {
		fail("key: the key pair could not be read");
		goto done;
	}
	n = webpush_b64_encode(d, sizeof d, out, cap);
	out[n++] = '\n';
	m = webpush_b64_encode(point, sizeof point, out + n, cap - (size_t)n);
	n += m;
	out[n++] = '\n';
	out[n] = 0;
	rc = n;
done:
	OPENSSL_cleanse(d, sizeof d);
	BN_clear_free(bn);
	return rc;
}

int webpush_key_read(webpush_key **out, const char *text, size_t len)
{
	uint8_t d[WEBPUSH_SCALAR_LEN], point[WEBPUSH_POINT_LEN], made[WEBPUSH_POINT_LEN];
	const char *nl = memchr(text, '\n', len);
	size_t second;
	int rc = -1;

	*out = NULL;
	if (len > 0 && text[len - 1] == '\n')
		len--;
	if (!nl || (size_t)(nl - text) >= len)
		return fail("key: the text is not two lines");
	second = len - (size_t)(nl - text) - 1;
	if (memchr(nl + 1, '\n', second))
		return fail("key: the text is not two lines");
	if (webpush_b64_decode(text, (size_t)(nl - text), d, sizeof d) != sizeof d ||
	    webpush_b64_decode(nl + 1, second, point, sizeof point) != sizeof point) {
		fail("key: the lines are not a base64url scalar and point");
		goto done;
	}
	if (webpush_key_from_private(out, d) < 0)
		goto done;
	if (webpush_key_point(*out, made) < 0 || memcmp(made, point, sizeof point)) {
		webpush_key_free(*out);
		*out = NULL;
		fail("key: the public point is not the private scalar's");
		goto done;
	}
	rc = 0;
done:
	OPENSSL_cleanse(d, sizeof d);
	return rc;
}

/* ---- HKDF-SHA-256 and AES-128-GCM ---- */

/* HKDF (RFC 5869) for an output of at most one block, 32 bytes: one
 * extract, one expand step. */
static int hkdf(const uint8_t *salt, size_t salt_len, const uint8_t *ikm, size_t ikm_len,
                const uint8_t *info, size_t info_len, uint8_t *out, size_t out_len)
{
	uint8_t prk[32], t[32], msg[160];
	unsigned int n = 0;
	int rc = 0;

	if (info_len + 1 > sizeof msg || out_len > sizeof t || ikm_len > INT_MAX ||
	    salt_len > INT_MAX)
		return fail("hkdf: bad lengths");
	memcpy(msg, info, info_len);
	msg[info_len] = 1;
	if (!HMAC(EVP_sha256(), salt, (int)salt_len, ikm, ikm_len, prk, &n) || n != 32 ||
	    !HMAC(EVP_sha256(), prk, sizeof prk, msg, info_len + 1, t, &n) || n != 32)
		rc = fail("hkdf: HMAC-SHA-256 failed");
	else
		memcpy(out, t, out_len);
	OPENSSL_cleanse(prk, sizeof prk);
	OPENSSL_cleanse(t, sizeof t);
	return rc;
}

/* AES-128-GCM of in (n bytes) and, if delim is not 0, the byte delim
 * after it, into out and the tag after it. */
static int gcm_seal(const uint8_t key[WEBPUSH_CEK_LEN], const uint8_t nonce[WEBPUSH_NONCE_LEN],
                    const uint8_t *in, size_t n, uint8_t delim, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int a = 0, b = 0, c = 0, ok;

	ok = ctx && n < INT_MAX && EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) &&
	     (n == 0 || EVP_EncryptUpdate(ctx, out, &a, in, (int)n)) &&
	     EVP_EncryptUpdate(ctx, out + a, &b, &delim, 1) &&
	     EVP_EncryptFinal_ex(ctx, out + a + b, &c) &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, WEBPUSH_TAG_LEN, out + a + b + c);
	EVP_CIPHER_CTX_free(ctx);
	return ok && (size_t)(a + b + c) == n + 1 ? 0 : fail("aes128gcm: encryption failed");
}

/* Opens a record of n bytes (the tag its last 16) into out (n - 16). */
static int gcm_open(const uint8_t key[WEBPUSH_CEK_LEN], const uint8_t nonce[WEBPUSH_NONCE_LEN],
                    const uint8_t *in, size_t n, uint8_t *out)
{
	EVP_CIPHER_CTX *ctx;
	uint8_t tag[WEBPUSH_TAG_LEN];
	size_t m = n - WEBPUSH_TAG_LEN;
	int a = 0, b = 0, ok;

	if (n <= WEBPUSH_TAG_LEN || n >= INT_MAX)
		return fail("aes128gcm: a record shorter than its tag");
	memcpy(tag, in + m, sizeof tag);
	ctx = EVP_CIPHER_CTX_new();
	ok = ctx &&
	     EVP_DecryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, nonce) &&
	     EVP_DecryptUpdate(ctx, out, &a, in, (int)m) &&
	     EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, WEBPUSH_TAG_LEN, tag) &&
	     EVP_DecryptFinal_ex(ctx, out + a, &b) > 0;
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : fail("aes128gcm: a record does not open (wrong key, or altered)");
}

/* ---- RFC 8188 ---- */

#define ECE_HEADER_MIN (WEBPUSH_SALT_LEN + 4 + 1)
#define ECE_RS_MIN 18

int webpush_ece_keys(const uint8_t *ikm, size_t ikm_len, const uint8_t salt[WEBPUSH_SALT_LEN],
                     uint8_t cek[WEBPUSH_CEK_LEN], uint8_t nonce[WEBPUSH_NONCE_LEN])
{
	static const char cek_info[] = "Content-Encoding: aes128gcm";
	static const char nonce_info[] = "Content-Encoding: nonce";

	/* sizeof counts the NUL that each info ends with (section 2.2). */
	if (hkdf(salt, WEBPUSH_SALT_LEN, ikm, ikm_len, (const uint8_t *)cek_info, sizeof cek_info,
	         cek, WEBPUSH_CEK_LEN) < 0 ||
	    hkdf(salt, WEBPUSH_SALT_LEN, ikm, ikm_len, (const uint8_t *)nonce_info,
	         sizeof nonce_info, nonce, WEBPUSH_NONCE_LEN) < 0)
		return -1;
	return 0;
}

int webpush_ece_encrypt(const uint8_t *ikm, size_t ikm_len, const uint8_t salt[WEBPUSH_SALT_LEN],
                        uint32_t rs, const uint8_t *keyid, size_t idlen, const uint8_t *plain,
                        size_t n, uint8_t *out, size_t cap)
{
	uint8_t cek[WEBPUSH_CEK_LEN], nonce[WEBPUSH_NONCE_LEN];
	size_t head = ECE_HEADER_MIN + idlen, total;
	int rc;

	if (rs < ECE_RS_MIN)
		return fail("aes128gcm: the record size is under 18");
	if (idlen > 255)
		return fail("aes128gcm: the key id is over 255 bytes");
	if (n > rs - 1 - WEBPUSH_TAG_LEN)
		return fail("aes128gcm: the plaintext does not fit in one record");
	total = head + n + 1 + WEBPUSH_TAG_LEN;
	if (total > cap || total > INT_MAX)
		return fail("aes128gcm: no room for the body");
	memcpy(out, salt, WEBPUSH_SALT_LEN);
	out[16] = (uint8_t)(rs >> 24);
	out[17] = (uint8_t)(rs >> 16);
	out[18] = (uint8_t)(rs >> 8);
	out[19] = (uint8_t)rs;
	out[20] = (uint8_t)idlen;
	if (idlen)
		memcpy(out + ECE_HEADER_MIN, keyid, idlen);
	rc = webpush_ece_keys(ikm, ikm_len, salt, cek, nonce);
	if (rc == 0)
		rc = gcm_seal(cek, nonce, plain, n, 2, out + head);
	OPENSSL_cleanse(cek, sizeof cek);
	return rc < 0 ? -1 : (int)total;
}

int webpush_ece_header(const uint8_t *body, size_t len, const uint8_t **salt, uint32_t *rs,
                       const uint8_t **keyid, size_t *idlen)
{
	if (len < ECE_HEADER_MIN || len < ECE_HEADER_MIN + (size_t)body[20])
		return fail("aes128gcm: shorter than its header");
	*salt = body;
	*rs = (uint32_t)body[16] << 24 | (uint32_t)body[17] << 16 | (uint32_t)body[18] << 8 |
	      body[19];
	if (*rs < ECE_RS_MIN)
		return fail("aes128gcm: the record size is under 18");
	*idlen = body[20];
	*keyid = body + ECE_HEADER_MIN;
	return (int)(ECE_HEADER_MIN + *idlen);
}

int webpush_ece_decrypt(const uint8_t *ikm, size_t ikm_len, const uint8_t *body, size_t len,
                        uint8_t *out, size_t cap)
{
	uint8_t cek[WEBPUSH_CEK_LEN], nonce[WEBPUSH_NONCE_LEN], *rec = NULL;
	const uint8_t *salt, *keyid;
	size_t idlen, left, rec_len, o = 0;
	uint64_t seq = 0;
	uint32_t rs;
	int head = webpush_ece_header(body, len, &salt, &rs, &keyid, &idlen), rc = -1;

	if (head < 0)
		return -1;
	left = len - (size_t)head;
	body += head;
	if (left == 0)
		return fail("aes128gcm: no record");
	if (len > INT_MAX)
		return fail("aes128gcm: the body is too long");
	if (webpush_ece_keys(ikm, ikm_len, salt, cek, nonce) < 0)
		return -1;
	rec_len = left < rs ? left : rs;
	if (!(rec = OPENSSL_malloc(rec_len))) {
		fail("aes128gcm: out of memory");
		goto done;
	}
	while (left > 0) {
		size_t r = left < rs ? left : rs, k;
		int last = r == left;
		uint8_t iv[WEBPUSH_NONCE_LEN];

		if (r <= WEBPUSH_TAG_LEN) {
			fail("aes128gcm: a record shorter than its tag and delimiter");
			goto done;
		}
		/* Section 2.3: the nonce XOR the record's sequence number. */
		memcpy(iv, nonce, sizeof iv);
		for (int i = 0; i < 8; i++)
			iv[WEBPUSH_NONCE_LEN - 1 - i] ^= (uint8_t)(seq >> (8 * i));
		if (gcm_open(cek, iv, body, r, rec) < 0)
			goto done;
		k = r - WEBPUSH_TAG_LEN;
		while (k > 0 && rec[k - 1] == 0)
			k--;
		if (k == 0 || rec[k - 1] != (last ? 2 : 1)) {
			fail(k == 0            ? "aes128gcm: a record without its delimiter"
			     : last            ? "aes128gcm: the last record does not say it is the last"
			                       : "aes128gcm: a record before the last says it is the last");
			goto done;
		}
		k--;
		if (k > cap - o) {
			fail("aes128gcm: no room for the plaintext");
			goto done;
		}
		memcpy(out + o, rec, k);
		o += k;
		body += r;
		left -= r;
		seq++;
	}
	rc = (int)o;
done:
	if (rec) {
		OPENSSL_cleanse(rec, rec_len);
		OPENSSL_free(rec);
	}
	OPENSSL_cleanse(cek, sizeof cek);
	return rc;
}

/* ---- RFC 8291 ---- */

int webpush_sub_parse(webpush_sub *out, const char *p256dh, const char *auth)
{
	if (!p256dh || webpush_b64_decode(p256dh, strlen(p256dh), out->p256dh,
	                                  sizeof out->p256dh) != sizeof out->p256dh ||
	    !point_valid(out->p256dh))
		return fail("subscription: p256dh is not a base64url point on P-256");
	if (!auth ||
	    webpush_b64_decode(auth, strlen(auth), out->auth, sizeof out->auth) != sizeof out->auth)
		return fail("subscription: auth is not 16 bytes in base64url");
	return 0;
}

int webpush_ecdh(const webpush_key *own, const uint8_t peer[WEBPUSH_POINT_LEN],
                 uint8_t secret[WEBPUSH_SCALAR_LEN])
{
	EVP_PKEY *peer_key;
	EVP_PKEY_CTX *ctx;
	size_t len = WEBPUSH_SCALAR_LEN;
	int ok;

	if (!own || !own->has_private)
		return fail("ecdh: no private key");
	if (!point_valid(peer) || !(peer_key = pkey_of(NULL, peer)))
		return fail("ecdh: the peer's key is not a point on P-256");
	ctx = EVP_PKEY_CTX_new(own->pkey, NULL);
	ok = ctx && EVP_PKEY_derive_init(ctx) > 0 && EVP_PKEY_derive_set_peer(ctx, peer_key) > 0 &&
	     EVP_PKEY_derive(ctx, secret, &len) > 0 && len == WEBPUSH_SCALAR_LEN;
	EVP_PKEY_CTX_free(ctx);
	EVP_PKEY_free(peer_key);
	return ok ? 0 : fail("ecdh: the key agreement failed");
}

int webpush_ikm(const uint8_t secret[WEBPUSH_SCALAR_LEN], const uint8_t auth[WEBPUSH_AUTH_LEN],
                const uint8_t ua_public[WEBPUSH_POINT_LEN],
                const uint8_t as_public[WEBPUSH_POINT_LEN], uint8_t ikm[32])
{
	static const char label[] = "WebPush: info"; /* and its NUL */
	uint8_t info[sizeof label + 2 * WEBPUSH_POINT_LEN];

	memcpy(info, label, sizeof label);
	memcpy(info + sizeof label, ua_public, WEBPUSH_POINT_LEN);
	memcpy(info + sizeof label + WEBPUSH_POINT_LEN, as_public, WEBPUSH_POINT_LEN);
	return hkdf(auth, WEBPUSH_AUTH_LEN, secret, WEBPUSH_SCALAR_LEN, info, sizeof info, ikm, 32);
}

int webpush_encrypt(const webpush_sub *sub, const uint8_t *plain, size_t n,
                    const webpush_key *as_key, const uint8_t *salt, uint8_t *out, size_t cap)
{
	uint8_t as_public[WEBPUSH_POINT_LEN], secret[WEBPUSH_SCALAR_LEN], ikm[32];
	uint8_t fresh_salt[WEBPUSH_SALT_LEN];
	webpush_key *fresh = NULL;
	int rc = -1;

	if (n > WEBPUSH_PLAIN_MAX)
		return fail("push: the message is over 3,993 bytes");
	if (!as_key) {
		if (webpush_key_new(&fresh) < 0)
			return -1;
		as_key = fresh;
	}
	if (!salt) {
		if (RAND_bytes(fresh_salt, sizeof fresh_salt) != 1) {
			fail("push: no random salt");
			goto done;
		}
		salt = fresh_salt;
	}
	if (webpush_key_point(as_key, as_public) < 0 ||
	    webpush_ecdh(as_key, sub->p256dh, secret) < 0 ||
	    webpush_ikm(secret, sub->auth, sub->p256dh, as_public, ikm) < 0)
		goto done;
	rc = webpush_ece_encrypt(ikm, sizeof ikm, salt, WEBPUSH_RS, as_public, sizeof as_public,
	                         plain, n, out, cap);
done:
	OPENSSL_cleanse(secret, sizeof secret);
	OPENSSL_cleanse(ikm, sizeof ikm);
	webpush_key_free(fresh);
	return rc;
}

int webpush_decrypt(const webpush_key *ua_key, const uint8_t auth[WEBPUSH_AUTH_LEN],
                    const uint8_t *body, size_t len, uint8_t *out, size_t cap)
{
	uint8_t ua_public[WEBPUSH_POINT_LEN], secret[WEBPUSH_SCALAR_LEN], ikm[32];
	const uint8_t *salt, *keyid;
	size_t idlen;
	uint32_t rs;
	int rc = -1;

	if (webpush_ece_header(body, len, &salt, &rs, &keyid, &idlen) < 0)
		return -1;
	if (idlen != WEBPUSH_POINT_LEN)
		return fail("push: the key id is not the sender's 65-byte point");
	if (webpush_key_point(ua_key, ua_public) < 0 || webpush_ecdh(ua_key, keyid, secret) < 0 ||
	    webpush_ikm(secret, auth, ua_public, keyid, ikm) < 0)
		goto done;
	rc = webpush_ece_decrypt(ikm, sizeof ikm, body, len, out, cap);
done:
	OPENSSL_cleanse(secret, sizeof secret);
	OPENSSL_cleanse(ikm, sizeof ikm);
	return rc;
}

/* ---- RFC 8292 ---- */

int webpush_origin(const char *endpoint, char *out, size_t cap)
{
	size_t len = endpoint ? strnlen(endpoint, WEBPUSH_URL_MAX + 1) : 0, start, end;

	if (len > WEBPUSH_URL_MAX)
		return fail("vapid: the endpoint is too long");
	if (len >= 8 && !memcmp(endpoint, "https://", 8))
		start = 8;
	else if (len >= 7 && !memcmp(endpoint, "http://", 7))
		start = 7;
	else
		return fail("vapid: the endpoint is not an http(s) URL");
	for (end = start; end < len && !strchr("/?#", endpoint[end]); end++) {
		char c = endpoint[end];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr(".-:[]", c)))
			return fail("vapid: the endpoint's host is not a plain host name");
	}
	if (end == start)
		return fail("vapid: the endpoint has no host");
	if (end + 1 > cap)
		return fail("vapid: no room for the origin");
	for (size_t i = 0; i < end; i++) {
		char c = endpoint[i];

		out[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	out[end] = 0;
	return (int)end;
}

static int contact_valid(const char *s)
{
	size_t len = strnlen(s, WEBPUSH_CONTACT_MAX + 1);

	if (len > WEBPUSH_CONTACT_MAX ||
	    (strncmp(s, "mailto:", 7) != 0 && strncmp(s, "https://", 8) != 0) ||
	    len <= (s[0] == 'm' ? 7u : 8u))
		return 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] < 0x21 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\')
			return 0;
	return 1;
}

#define JWT_HEADER "{\"typ\":\"JWT\",\"alg\":\"ES256\"}"
#define CLAIMS_MAX (WEBPUSH_URL_MAX + WEBPUSH_CONTACT_MAX + 64)
#define SIGNING_MAX (WEBPUSH_B64_LEN(sizeof JWT_HEADER) + 1 + WEBPUSH_B64_LEN(CLAIMS_MAX) + 1)

int webpush_vapid_jwt(const webpush_key *key, const char *endpoint, const char *contact,
                      int64_t exp, char *out, size_t cap)
{
	char origin[WEBPUSH_URL_MAX + 1], claims[CLAIMS_MAX], input[SIGNING_MAX];
	uint8_t der[80], raw[64];
	const unsigned char *p = der;
	size_t der_len = sizeof der;
	EVP_MD_CTX *md = NULL;
	ECDSA_SIG *sig = NULL;
	const BIGNUM *r, *s;
	int n, m, rc = -1;

	if (!key || !key->has_private)
		return fail("vapid: no private key to sign with");
	if (webpush_origin(endpoint, origin, sizeof origin) < 0)
		return -1;
	if (!contact || !contact_valid(contact))
		return fail("vapid: the contact is not a plain mailto: or https: URL");
	if (exp <= 0)
		return fail("vapid: the expiry is not a time");
	m = snprintf(claims, sizeof claims, "{\"aud\":\"%s\",\"exp\":%lld,\"sub\":\"%s\"}", origin,
	             (long long)exp, contact);
	if (m < 0 || (size_t)m >= sizeof claims)
		return fail("vapid: the claims are too long");
	n = webpush_b64_encode((const uint8_t *)JWT_HEADER, sizeof JWT_HEADER - 1, input, sizeof input);
	input[n++] = '.';
	n += webpush_b64_encode((const uint8_t *)claims, (size_t)m, input + n, sizeof input - (size_t)n);

	md = EVP_MD_CTX_new();
	if (!md || EVP_DigestSignInit(md, NULL, EVP_sha256(), NULL, key->pkey) != 1 ||
	    EVP_DigestSign(md, der, &der_len, (const unsigned char *)input, (size_t)n) != 1 ||
	    !(sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len))) {
		fail("vapid: signing failed");
		goto done;
	}
	/* JWS (RFC 7518 section 3.4) wants r and s, 32 bytes each, not DER. */
	ECDSA_SIG_get0(sig, &r, &s);
	if (BN_bn2binpad(r, raw, 32) != 32 || BN_bn2binpad(s, raw + 32, 32) != 32) {
		fail("vapid: signing failed");
		goto done;
	}
	if ((size_t)n + 1 + WEBPUSH_B64_LEN(sizeof raw) + 1 > cap) {
		fail("vapid: no room for the token");
		goto done;
	}
	memcpy(out, input, (size_t)n);
	out[n++] = '.';
	n += webpush_b64_encode(raw, sizeof raw, out + n, cap - (size_t)n);
	rc = n;
done:
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(md);
	return rc;
}

int webpush_vapid_header(const webpush_key *key, const char *endpoint, const char *contact,
                         int64_t now, int lifetime, char *out, size_t cap)
{
	char jwt[SIGNING_MAX + 100], k[WEBPUSH_B64_LEN(WEBPUSH_POINT_LEN) + 1];
	int n;

	if (lifetime < 1 || lifetime > WEBPUSH_JWT_LIFETIME_MAX)
		return fail("vapid: a token lives 1 s to 24 h");
	if (now <= 0 || now > INT64_MAX - lifetime)
		return fail("vapid: the time is not a time");
	if (webpush_vapid_jwt(key, endpoint, contact, now + lifetime, jwt, sizeof jwt) < 0 ||
	    webpush_key_point_b64(key, k, sizeof k) < 0)
		return -1;
	n = snprintf(out, cap, "vapid t=%s, k=%s", jwt, k);
	if (n < 0 || (size_t)n >= cap)
		return fail("vapid: no room for the header");
	return n;
}

int webpush_vapid_verify(const char *jwt, const webpush_key *key, char *claims, size_t cap)
{
	char header[128];
	uint8_t raw[64], *der = NULL;
	const char *dot1, *dot2;
	size_t len = jwt ? strnlen(jwt, SIGNING_MAX + 100) : 0;
	EVP_MD_CTX *md = NULL;
	ECDSA_SIG *sig = NULL;
	BIGNUM *r = NULL, *s = NULL;
	int n, der_len, rc = -1;

	if (!key || len == 0 || len > SIGNING_MAX + 99 || cap == 0)
		return fail("vapid: no token, no key, or no room for the claims");
	dot1 = memchr(jwt, '.', len);
	dot2 = dot1 ? memchr(dot1 + 1, '.', len - (size_t)(dot1 + 1 - jwt)) : NULL;
	if (!dot2 || memchr(dot2 + 1, '.', len - (size_t)(dot2 + 1 - jwt)))
		return fail("vapid: the token is not three parts");
	n = webpush_b64_decode(jwt, (size_t)(dot1 - jwt), (uint8_t *)header, sizeof header - 1);
	if (n < 0)
		return -1;
	header[n] = 0;
	if (!strstr(header, "\"alg\":\"ES256\""))
		return fail("vapid: the token is not ES256");
	if (webpush_b64_decode(dot2 + 1, len - (size_t)(dot2 + 1 - jwt), raw, sizeof raw) !=
	    sizeof raw)
		return fail("vapid: the signature is not 64 bytes");
	sig = ECDSA_SIG_new();
	r = BN_bin2bn(raw, 32, NULL);
	s = BN_bin2bn(raw + 32, 32, NULL);
	if (!sig || !r || !s || !ECDSA_SIG_set0(sig, r, s)) {
		BN_free(r);
		BN_free(s);
		fail("vapid: out of memory");
		goto done;
	}
	der_len = i2d_ECDSA_SIG(sig, &der);
	md = EVP_MD_CTX_new();
	if (der_len <= 0 || !md ||
	    EVP_DigestVerifyInit(md, NULL, EVP_sha256(), NULL, key->pkey) != 1 ||
	    EVP_DigestVerify(md, der, (size_t)der_len, (const unsigned char *)jwt,
	                     (size_t)(dot2 - jwt)) != 1) {
		fail("vapid: the signature is not the key's");
		goto done;
	}
	n = webpush_b64_decode(dot1 + 1, (size_t)(dot2 - dot1 - 1), (uint8_t *)claims, cap - 1);
	if (n < 0)
		goto done;
	claims[n] = 0;
	rc = n;
done:
	OPENSSL_free(der);
	ECDSA_SIG_free(sig);
	EVP_MD_CTX_free(md);
	return rc;
}

/* ---- a subscription's endpoint ---- */

static int ipv4_refused(const uint8_t a[4], int loopback_ok)
{
	if (a[0] == 127)
		return !loopback_ok;
	return a[0] == 0 || a[0] == 10 || (a[0] == 100 && (a[1] & 0xc0) == 64) ||
	       (a[0] == 169 && a[1] == 254) || (a[0] == 172 && (a[1] & 0xf0) == 16) ||
	       (a[0] == 192 && a[1] == 168) || (a[0] == 192 && a[1] == 0 && a[2] == 0) ||
	       (a[0] == 198 && (a[1] & 0xfe) == 18) || a[0] >= 224;
}

static int ipv6_refused(const uint8_t a[16], int loopback_ok)
{
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t zero[15];

	if (!memcmp(a, mapped, 12))
		return ipv4_refused(a + 12, loopback_ok);
	if (!memcmp(a, zero, 15))
		return a[15] == 1 ? !loopback_ok : 1; /* ::1, and :: */
	return a[0] == 0xff || (a[0] & 0xfe) == 0xfc || (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) ||
	       (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0) || (a[0] == 0x20 && a[1] == 0x01 &&
	       a[2] == 0x0d && a[3] == 0xb8) || !memcmp(a, zero, 12) /* IPv4-compatible */;
}

int webpush_addr_refused(const struct sockaddr *sa, int loopback_ok)
{
	if (sa->sa_family == AF_INET)
		return ipv4_refused((const uint8_t *)&((const struct sockaddr_in *)sa)->sin_addr,
		                    loopback_ok);
	if (sa->sa_family == AF_INET6)
		return ipv6_refused(((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr, loopback_ok);
	return 1;
}

/* 1 when host matches one pattern of allow. */
static int host_allowed(const char *host, const char *allow)
{
	size_t hl = strlen(host);

	while (allow && *allow) {
		const char *end = strchr(allow, ',');
		size_t n = end ? (size_t)(end - allow) : strlen(allow);

		while (n && allow[0] == ' ')
			allow++, n--;
		while (n && allow[n - 1] == ' ')
			n--;
		if (n > 2 && allow[0] == '*' && allow[1] == '.') {
			if (hl > n - 1 && !strncasecmp(host + hl - (n - 1), allow + 1, n - 1))
				return 1;
		} else if (n && n == hl && !strncasecmp(host, allow, n))
			return 1;
		allow = end ? end + 1 : NULL;
	}
	return 0;
}

/* The host of an http(s) URL whose scheme ends at start: into host
 * (lowercased, IPv6 without brackets), its end past any port in *end. */
static int url_host(const char *url, size_t start, char *host, size_t cap, size_t *end)
{
	const char *p = url + start, *stop = p + strcspn(p, "/?#");
	const char *colon;
	size_t n;

	if (memchr(p, '@', (size_t)(stop - p)))
		return fail("endpoint: user info in the URL");
	if (*p == '[') {
		const char *close = memchr(p, ']', (size_t)(stop - p));

		if (!close)
			return fail("endpoint: an unclosed IPv6 address");
		n = (size_t)(close - p - 1);
		p++;
		colon = close + 1 < stop && close[1] == ':' ? close + 1 : NULL;
	} else {
		colon = memchr(p, ':', (size_t)(stop - p));
		n = (size_t)((colon ? colon : stop) - p);
	}
	if (n == 0 || n > WEBPUSH_HOST_MAX || n + 1 > cap)
		return fail("endpoint: no host, or one too long");
	for (size_t i = 0; i < n; i++) {
		char c = p[i];

		if (!(isalnum((unsigned char)c) || strchr(".-:", c)))
			return fail("endpoint: the host is not a plain host name");
		host[i] = (char)tolower((unsigned char)c);
	}
	host[n] = 0;
	if (colon) {
		for (const char *d = colon + 1; d < stop; d++)
			if (!isdigit((unsigned char)*d) || d - colon > 5)
				return fail("endpoint: a bad port");
		if (colon + 1 == stop || atoi(colon + 1) < 1 || atoi(colon + 1) > 65535)
			return fail("endpoint: a bad port");
	}
	*end = (size_t)(stop - url);
	return 0;
}

int webpush_endpoint_check(const char *endpoint, const char *allow, int loopback_ok, char *host,
                           size_t cap)
{
	size_t len = endpoint ? strnlen(endpoint, WEBPUSH_URL_MAX + 1) : 0, start, end;
	struct sockaddr_in6 a6 = {.sin6_family = AF_INET6};
	struct sockaddr_in a4 = {.sin_family = AF_INET};
	int literal = 0;

	if (len > WEBPUSH_URL_MAX)
		return fail("endpoint: longer than 2048 bytes");
	if (len >= 8 && !strncasecmp(endpoint, "https://", 8))
		start = 8;
	else if (loopback_ok && len >= 7 && !strncasecmp(endpoint, "http://", 7))
		start = 7;
	else
		return fail("endpoint: not an https: URL");
	for (size_t i = 0; i < len; i++)
		if (endpoint[i] <= 0x20 || endpoint[i] >= 0x7f)
			return fail("endpoint: a space or a character outside ASCII");
	if (url_host(endpoint, start, host, cap, &end) < 0)
		return -1;
	if (inet_pton(AF_INET, host, &a4.sin_addr) == 1)
		literal = 1 + webpush_addr_refused((struct sockaddr *)&a4, loopback_ok);
	else if (inet_pton(AF_INET6, host, &a6.sin6_addr) == 1)
		literal = 1 + webpush_addr_refused((struct sockaddr *)&a6, loopback_ok);
	if (literal == 2)
		return fail("endpoint: a loopback, private, link-local or multicast address");
	if (loopback_ok && (literal == 1 || !strcmp(host, "localhost")))
		return 0;
	if (!host_allowed(host, allow))
		return fail("endpoint: not a push service this server sends to (--push-allow)");
	return 0;
}

int webpush_endpoint_target(const char *endpoint, char *path, size_t cap)
{
	char host[WEBPUSH_HOST_MAX + 1];
	size_t start = !strncasecmp(endpoint, "https://", 8) ? 8 : 7, end;
	const char *p, *colon;
	int port = start == 8 ? 443 : 80;

	if (url_host(endpoint, start, host, sizeof host, &end) < 0)
		return -1;
	p = endpoint + start;
	colon = *p == '[' ? strstr(p, "]:") : memchr(p, ':', (size_t)(endpoint + end - p));
	if (colon && colon < endpoint + end)
		port = atoi(colon + (*p == '[' ? 2 : 1));
	if (snprintf(path, cap, "%s", endpoint[end] == '/' ? endpoint + end : "/") >= (int)cap)
		return fail("endpoint: no room for the path");
	return port;
}
