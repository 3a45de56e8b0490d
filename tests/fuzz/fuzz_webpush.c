/* fuzz_webpush.c: libFuzzer target: Web Push's cryptography
 * (server/base/webpush.h) on bytes from outside: what a page sends as a
 * subscription's keys, a push body as the user agent's side reads it, a
 * VAPID token, an endpoint, a key pair's text, base64url.
 *
 * The same bytes go to each. Checks: base64url decoded and encoded again
 * is the text (less its padding), and any bytes encoded decode back; a
 * subscription "p256dh\nauth" accepted is 65 + 16 bytes whose text is the
 * one given; a body decrypts (RFC 8291 for the RFC's user agent, RFC 8188
 * for a fixed key) to at most its own length or is refused; a key text
 * accepted is written back the same; a token verifies (never, without the
 * key) or is refused; an origin is the endpoint's start, lowercased; and
 * the bytes as a message (at most 3,993 of them) encrypt to a body that
 * decrypts to them, as one aes128gcm record of a size taken from the
 * first two bytes too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/webpush.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* RFC 8291 appendix A's keys and auth secret: fixed, so that a run is
 * the same every time. */
static webpush_key *ua, *as;
static webpush_sub sub;

static webpush_key *key_of(const char *d_text)
{
	uint8_t d[WEBPUSH_SCALAR_LEN];
	webpush_key *k = NULL;

	FUZZ_CHECK(webpush_b64_decode(d_text, strlen(d_text), d, sizeof d) == sizeof d);
	FUZZ_CHECK(webpush_key_from_private(&k, d) == 0);
	return k;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	ua = key_of("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94");
	as = key_of("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw");
	FUZZ_CHECK(webpush_sub_parse(&sub,
	                             "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"
	                             "AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
	                             "BTBZMqHH6r4Tts7J_aSIgg") == 0);
	return 0;
}

static void base64url(const uint8_t *data, size_t size)
{
	static char text[3 * 8192], again[3 * 8192];
	static uint8_t bytes[8192];
	size_t unpadded = size;
	int n, m;

	if (size > 6000)
		return;
	n = webpush_b64_decode((const char *)data, size, bytes, sizeof bytes);
	while (unpadded > 0 && data[unpadded - 1] == '=')
		unpadded--;
	if (n >= 0) {
		m = webpush_b64_encode(bytes, (size_t)n, again, sizeof again);
		FUZZ_CHECK_EQ(m, unpadded);
		FUZZ_CHECK(memcmp(again, data, unpadded) == 0);
	}
	n = webpush_b64_encode(data, size, text, sizeof text);
	FUZZ_CHECK_EQ(n, WEBPUSH_B64_LEN(size));
	FUZZ_CHECK_EQ(webpush_b64_decode(text, (size_t)n, bytes, sizeof bytes), size);
	FUZZ_CHECK(memcmp(bytes, data, size) == 0);
}

static void subscription(const char *text)
{
	const char *nl = strchr(text, '\n');
	char p256dh[200], back[200];
	webpush_sub s;

	if (!nl || (size_t)(nl - text) >= sizeof p256dh)
		return;
	memcpy(p256dh, text, (size_t)(nl - text));
	p256dh[nl - text] = 0;
	if (webpush_sub_parse(&s, p256dh, nl + 1) < 0)
		return;
	FUZZ_CHECK(webpush_b64_encode(s.p256dh, sizeof s.p256dh, back, sizeof back) == 87);
	FUZZ_CHECK(strncmp(back, p256dh, 87) == 0);
	FUZZ_CHECK(webpush_b64_encode(s.auth, sizeof s.auth, back, sizeof back) == 22);
	FUZZ_CHECK(strncmp(back, nl + 1, 22) == 0);
}

static void bodies(const uint8_t *data, size_t size)
{
	static uint8_t out[65536];
	static const uint8_t ikm[16] = {1, 2, 3};
	int n;

	n = webpush_decrypt(ua, sub.auth, data, size, out, sizeof out);
	FUZZ_CHECK(n == -1 || (size_t)n <= size);
	n = webpush_ece_decrypt(ikm, sizeof ikm, data, size, out, sizeof out);
	FUZZ_CHECK(n == -1 || (size_t)n <= size);
}

static void key_text(const uint8_t *data, size_t size)
{
	char back[WEBPUSH_KEY_TEXT_LEN];
	webpush_key *k = NULL;
	int n;

	if (webpush_key_read(&k, (const char *)data, size) < 0) {
		FUZZ_CHECK(k == NULL);
		return;
	}
	n = webpush_key_write(k, back, sizeof back);
	FUZZ_CHECK_EQ(n, WEBPUSH_KEY_TEXT_LEN - 1);
	/* The same text, unless it was padded. */
	if (!memchr(data, '=', size)) {
		FUZZ_CHECK(n == (int)size || n == (int)size + 1);
		FUZZ_CHECK(memcmp(back, data, size) == 0);
	}
	webpush_key_free(k);
}

static void token_and_origin(const char *text, size_t len)
{
	static char claims[4096], origin[WEBPUSH_URL_MAX + 1];
	int n;

	/* Without the key's private half nobody signs for it. */
	FUZZ_CHECK_EQ(webpush_vapid_verify(text, as, claims, sizeof claims), -1);
	n = webpush_origin(text, origin, sizeof origin);
	if (n < 0)
		return;
	FUZZ_CHECK((size_t)n <= len && origin[n] == 0);
	FUZZ_CHECK(!strncmp(origin, "https://", 8) || !strncmp(origin, "http://", 7));
	for (int i = 0; i < n; i++)
		FUZZ_CHECK(origin[i] == text[i] || origin[i] == text[i] - 'A' + 'a');
}

static void round_trips(const uint8_t *data, size_t size)
{
	static uint8_t body[WEBPUSH_BODY_MAX + 64], out[WEBPUSH_BODY_MAX];
	static const uint8_t salt[WEBPUSH_SALT_LEN] = {9, 8, 7};
	static const uint8_t ikm[16] = {4, 5, 6};
	uint32_t rs;
	int n;

	if (size > WEBPUSH_PLAIN_MAX) {
		FUZZ_CHECK_EQ(webpush_encrypt(&sub, data, size, as, salt, body, sizeof body), -1);
		return;
	}
	n = webpush_encrypt(&sub, data, size, as, salt, body, sizeof body);
	FUZZ_CHECK_EQ(n, WEBPUSH_HEADER_LEN + size + 17);
	FUZZ_CHECK_EQ(webpush_decrypt(ua, sub.auth, body, (size_t)n, out, sizeof out), size);
	FUZZ_CHECK(memcmp(out, data, size) == 0);

	rs = size >= 2 ? (uint32_t)data[0] << 8 | data[1] : 18;
	n = webpush_ece_encrypt(ikm, sizeof ikm, salt, rs, data, size < 5 ? size : 5, data, size,
	                        body, sizeof body);
	if (rs < 18 || size + 17 > rs) {
		FUZZ_CHECK_EQ(n, -1);
		return;
	}
	FUZZ_CHECK_EQ(n, 21 + (size < 5 ? size : 5) + size + 17);
	FUZZ_CHECK_EQ(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)n, out, sizeof out), size);
	FUZZ_CHECK(memcmp(out, data, size) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	FUZZ_CHECK(text != NULL);
	memcpy(text, data, size);
	text[size] = 0;
	base64url(data, size);
	subscription(text);
	bodies(data, size);
	key_text(data, size);
	token_and_origin(text, strlen(text));
	round_trips(data, size);
	free(text);
	return 0;
}
