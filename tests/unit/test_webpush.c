/* test_webpush.c: Check unit tests of Web Push's cryptography
 * (server/base/webpush.h) against the RFCs' own worked examples: RFC 8291
 * section 5 and appendix A (the push message, every intermediate value),
 * RFC 8188 sections 3.1 and 3.2 (aes128gcm, one record and two), RFC 8292
 * section 2.4 (the VAPID token: its signing input and its signature), RFC
 * 4648 section 10 (base64); then round trips with fresh keys, and every
 * bad input refused. */
#include <check.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "server/base/webpush.h"

/* RFC 8291 section 5 and appendix A. */
#define R91_PLAIN "When I grow up, I want to be a watermelon"
#define R91_UA_PUBLIC \
	"BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
#define R91_UA_PRIVATE "q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94"
#define R91_AS_PUBLIC \
	"BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8"
#define R91_AS_PRIVATE "yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"
#define R91_AUTH "BTBZMqHH6r4Tts7J_aSIgg"
#define R91_SALT "DGv6ra1nlYgDCS1FRnbzlw"
#define R91_SECRET "kyrL1jIIOHEzg3sM2ZWRHDRB62YACZhhSlknJ672kSs"
#define R91_IKM "S4lYMb_L0FxCeq0WhDx813KgSYqU26kOyzWUdsXYyrg"
#define R91_CEK "oIhVW04MRdy2XN9CiKLxTg"
#define R91_NONCE "4h_95klXJ5E_qnoN"
#define R91_BODY                                                                           \
	"DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmY" \
	"WAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexS" \
	"gSxsj_Qulcy4a-fN"

/* RFC 8188 sections 3.1 and 3.2. */
#define R88_PLAIN "I am the walrus"
#define R88_IKM_1 "yqdlZ-tYemfogSmv7Ws5PQ"
#define R88_CEK_1 "_wniytB-ofscZDh4tbSjHw"
#define R88_NONCE_1 "Bcs8gkIRKLI8GeI8"
#define R88_BODY_1 "I1BsxtFttlv3u_Oo94xnmwAAEAAA-NAVub2qFgBEuQKRapoZu-IxkIva3MEB1PD-ly8Thjg"
#define R88_IKM_2 "BO3ZVPxUlnLORbVGMpbT1Q"
#define R88_BODY_2                                                                         \
	"uNCkWiNYzKTnBN9ji3-qWAAAABkCYTHOG8chz_gnvgOqdGYovxyjuqRyJFjEDyoF1Fvkj6hQPdPHI51OEUKEpgz3" \
	"SsLWIqS_uA"

/* RFC 8292 section 2.4. */
#define R92_HEADER "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9"
#define R92_CLAIMS                                                                          \
	"eyJhdWQiOiJodHRwczovL3B1c2guZXhhbXBsZS5uZXQiLCJleHAiOjE0NTM1MjM3NjgsInN1YiI6Im1haWx0bzpw" \
	"dXNoQGV4YW1wbGUuY29tIn0"
#define R92_SIG "i3CYb7t4xfxCDquptFOepC9GAu_HLGkMlMuCGSK2rpiUfnK9ojFwDXb1JrErtmysazNjjvW2L9OkSSHzvoD1oA"
#define R92_K \
	"BA1Hxzyi1RUM1b5wjxsn7nGxAszw2u61m164i3MrAIxHF6YK5h4SDYic-dRuU_RCPCfA5aq9ojSwk5Y2EmClBPs"
#define R92_ENDPOINT "https://push.example.net/p/JzLQ3raZJfFBR0aqvOMsLrt54w4rJUsV"
#define R92_SUB "mailto:push@example.com"
#define R92_EXP 1453523768

/* 65 bytes of 0x04: uncompressed, but on no curve (the web platform
 * tests' invalid applicationServerKey). */
#define NOT_A_POINT \
	"BAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQ"

/* Decodes a vector (base64url) into out, checking its length is n. */
static void unb64(const char *text, uint8_t *out, size_t n)
{
	ck_assert_int_eq(webpush_b64_decode(text, strlen(text), out, n), (int)n);
}

/* The base64url of n bytes (static, one at a time). */
static const char *b64(const uint8_t *in, size_t n)
{
	static char text[8192];

	ck_assert_int_ge(webpush_b64_encode(in, n, text, sizeof text), 0);
	return text;
}

static webpush_key *key_of_private(const char *d_text)
{
	uint8_t d[WEBPUSH_SCALAR_LEN];
	webpush_key *k;

	unb64(d_text, d, sizeof d);
	ck_assert_int_eq(webpush_key_from_private(&k, d), 0);
	return k;
}

static const char *point_of(const webpush_key *k)
{
	static char text[WEBPUSH_B64_LEN(WEBPUSH_POINT_LEN) + 1];

	ck_assert_int_eq(webpush_key_point_b64(k, text, sizeof text), 0);
	return text;
}

START_TEST(test_base64url_known_answers)
{
	/* RFC 4648 section 10, without the padding. */
	static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
	static const char *const coded[] = {"", "Zg", "Zm8", "Zm9v", "Zm9vYg", "Zm9vYmE", "Zm9vYmFy"};
	uint8_t out[16];
	char text[16];

	for (int i = 0; i < 7; i++) {
		size_t n = strlen(plain[i]);

		ck_assert_int_eq(webpush_b64_encode((const uint8_t *)plain[i], n, text, sizeof text),
		                 (int)strlen(coded[i]));
		ck_assert_str_eq(text, coded[i]);
		ck_assert_int_eq(webpush_b64_decode(coded[i], strlen(coded[i]), out, sizeof out), (int)n);
		ck_assert(memcmp(out, plain[i], n) == 0);
	}
	/* The URL alphabet. */
	ck_assert_int_eq(webpush_b64_decode("-_8", 3, out, sizeof out), 2);
	ck_assert_int_eq(out[0], 0xfb);
	ck_assert_int_eq(out[1], 0xff);
	ck_assert_str_eq(b64(out, 2), "-_8");
	/* Padding is tolerated when it is right. */
	ck_assert_int_eq(webpush_b64_decode("Zg==", 4, out, sizeof out), 1);
	ck_assert_int_eq(webpush_b64_decode("Zm8=", 4, out, sizeof out), 2);
	/* Refused: a lone character, stray bits, the standard alphabet, bad
	 * padding, more than the room given, no room for the text. */
	ck_assert_int_eq(webpush_b64_decode("Zm9vY", 5, out, sizeof out), -1);
	ck_assert_int_eq(webpush_b64_decode("Zh", 2, out, sizeof out), -1);
	ck_assert_str_eq(webpush_error(), "base64url: stray bits at the end");
	ck_assert_int_eq(webpush_b64_decode("+/8", 3, out, sizeof out), -1);
	ck_assert_int_eq(webpush_b64_decode("Zg=", 3, out, sizeof out), -1);
	ck_assert_int_eq(webpush_b64_decode("Zg===", 5, out, sizeof out), -1);
	ck_assert_int_eq(webpush_b64_decode("Zm9vYmFy", 8, out, 5), -1);
	ck_assert_int_eq(webpush_b64_encode((const uint8_t *)"foo", 3, text, 4), -1);
	ck_assert_int_eq(webpush_b64_encode((const uint8_t *)"foo", 3, text, 5), 4);
}
END_TEST

/* The RFC's private keys give the RFC's public keys. */
START_TEST(test_rfc8291_keys_of_their_private_scalars)
{
	webpush_key *as = key_of_private(R91_AS_PRIVATE), *ua = key_of_private(R91_UA_PRIVATE);

	ck_assert_str_eq(point_of(as), R91_AS_PUBLIC);
	ck_assert_str_eq(point_of(ua), R91_UA_PUBLIC);
	webpush_key_free(as);
	webpush_key_free(ua);
}
END_TEST

/* Appendix A, step by step: the ECDH secret from both sides, the IKM, the
 * content key and the nonce. */
START_TEST(test_rfc8291_intermediate_values)
{
	webpush_key *as = key_of_private(R91_AS_PRIVATE), *ua = key_of_private(R91_UA_PRIVATE);
	uint8_t ua_pub[WEBPUSH_POINT_LEN], as_pub[WEBPUSH_POINT_LEN], auth[WEBPUSH_AUTH_LEN];
	uint8_t salt[WEBPUSH_SALT_LEN], secret[WEBPUSH_SCALAR_LEN], ikm[32];
	uint8_t cek[WEBPUSH_CEK_LEN], nonce[WEBPUSH_NONCE_LEN];

	unb64(R91_UA_PUBLIC, ua_pub, sizeof ua_pub);
	unb64(R91_AS_PUBLIC, as_pub, sizeof as_pub);
	unb64(R91_AUTH, auth, sizeof auth);
	unb64(R91_SALT, salt, sizeof salt);

	ck_assert_int_eq(webpush_ecdh(as, ua_pub, secret), 0);
	ck_assert_str_eq(b64(secret, sizeof secret), R91_SECRET);
	memset(secret, 0, sizeof secret);
	ck_assert_int_eq(webpush_ecdh(ua, as_pub, secret), 0);
	ck_assert_str_eq(b64(secret, sizeof secret), R91_SECRET);

	ck_assert_int_eq(webpush_ikm(secret, auth, ua_pub, as_pub, ikm), 0);
	ck_assert_str_eq(b64(ikm, sizeof ikm), R91_IKM);
	/* The two keys the other way round give another IKM. */
	ck_assert_int_eq(webpush_ikm(secret, auth, as_pub, ua_pub, ikm), 0);
	ck_assert_str_ne(b64(ikm, sizeof ikm), R91_IKM);
	ck_assert_int_eq(webpush_ikm(secret, auth, ua_pub, as_pub, ikm), 0);

	ck_assert_int_eq(webpush_ece_keys(ikm, sizeof ikm, salt, cek, nonce), 0);
	ck_assert_str_eq(b64(cek, sizeof cek), R91_CEK);
	ck_assert_str_eq(b64(nonce, sizeof nonce), R91_NONCE);
	webpush_key_free(as);
	webpush_key_free(ua);
}
END_TEST

/* Section 5: the body, byte for byte, from the given keys and salt. */
START_TEST(test_rfc8291_body_is_the_rfcs)
{
	webpush_key *as = key_of_private(R91_AS_PRIVATE);
	uint8_t salt[WEBPUSH_SALT_LEN], body[WEBPUSH_BODY_MAX];
	webpush_sub sub;
	int n;

	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC, R91_AUTH), 0);
	unb64(R91_SALT, salt, sizeof salt);
	n = webpush_encrypt(&sub, (const uint8_t *)R91_PLAIN, strlen(R91_PLAIN), as, salt, body,
	                    sizeof body);
	/* 86 bytes of header, 41 of text, the delimiter, the tag. */
	ck_assert_int_eq(n, 86 + 41 + 1 + 16);
	ck_assert_str_eq(b64(body, (size_t)n), R91_BODY);
	/* The header: salt, rs 4096, idlen 65, the sender's key. */
	ck_assert_int_eq(body[16] << 24 | body[17] << 16 | body[18] << 8 | body[19], 4096);
	ck_assert_int_eq(body[20], 65);
	ck_assert_str_eq(b64(body + 21, 65), R91_AS_PUBLIC);
	webpush_key_free(as);
}
END_TEST

/* The user agent's side opens the RFC's body with its own key. */
START_TEST(test_rfc8291_body_decrypts_for_the_user_agent)
{
	webpush_key *ua = key_of_private(R91_UA_PRIVATE);
	uint8_t body[256], auth[WEBPUSH_AUTH_LEN], out[256];
	int len = webpush_b64_decode(R91_BODY, strlen(R91_BODY), body, sizeof body), n;

	ck_assert_int_eq(len, 144);
	unb64(R91_AUTH, auth, sizeof auth);
	n = webpush_decrypt(ua, auth, body, (size_t)len, out, sizeof out);
	ck_assert_int_eq(n, (int)strlen(R91_PLAIN));
	ck_assert(memcmp(out, R91_PLAIN, (size_t)n) == 0);
	/* Another auth secret: nothing opens. */
	auth[0] ^= 1;
	ck_assert_int_eq(webpush_decrypt(ua, auth, body, (size_t)len, out, sizeof out), -1);
	webpush_key_free(ua);
}
END_TEST

/* Section 3.1: one record, decrypted and encrypted again to the same
 * bytes. */
START_TEST(test_rfc8188_example_one_record)
{
	uint8_t ikm[16], body[64], out[64], again[64], cek[16], nonce[12];
	int len = webpush_b64_decode(R88_BODY_1, strlen(R88_BODY_1), body, sizeof body);
	const uint8_t *salt, *keyid;
	size_t idlen;
	uint32_t rs;

	ck_assert_int_eq(len, 53);
	unb64(R88_IKM_1, ikm, sizeof ikm);
	ck_assert_int_eq(webpush_ece_header(body, (size_t)len, &salt, &rs, &keyid, &idlen), 21);
	ck_assert_uint_eq(rs, 4096);
	ck_assert_uint_eq(idlen, 0);
	ck_assert_int_eq(webpush_ece_keys(ikm, sizeof ikm, salt, cek, nonce), 0);
	ck_assert_str_eq(b64(cek, sizeof cek), R88_CEK_1);
	ck_assert_str_eq(b64(nonce, sizeof nonce), R88_NONCE_1);

	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)len, out, sizeof out), 15);
	ck_assert(memcmp(out, R88_PLAIN, 15) == 0);

	ck_assert_int_eq(webpush_ece_encrypt(ikm, sizeof ikm, body, 4096, NULL, 0,
	                                     (const uint8_t *)R88_PLAIN, 15, again, sizeof again),
	                 53);
	ck_assert_str_eq(b64(again, 53), R88_BODY_1);
}
END_TEST

/* Section 3.2: two records of 25 bytes, the first padded, a key id "a1". */
START_TEST(test_rfc8188_example_two_records)
{
	uint8_t ikm[16], body[128], out[64];
	int len = webpush_b64_decode(R88_BODY_2, strlen(R88_BODY_2), body, sizeof body);
	const uint8_t *salt, *keyid;
	size_t idlen;
	uint32_t rs;

	ck_assert_int_gt(len, 23);
	unb64(R88_IKM_2, ikm, sizeof ikm);
	ck_assert_int_eq(webpush_ece_header(body, (size_t)len, &salt, &rs, &keyid, &idlen), 23);
	ck_assert_uint_eq(rs, 25);
	ck_assert_uint_eq(idlen, 2);
	ck_assert(memcmp(keyid, "a1", 2) == 0);
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)len, out, sizeof out), 15);
	ck_assert(memcmp(out, R88_PLAIN, 15) == 0);
	/* Without its last record the first is the last, and says it is not:
	 * a truncation, refused. */
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, 23 + 25, out, sizeof out), -1);
	ck_assert_str_eq(webpush_error(), "aes128gcm: the last record does not say it is the last");
	/* No room for the plaintext. */
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)len, out, 14), -1);
}
END_TEST

START_TEST(test_ece_refuses_altered_and_bad_bodies)
{
	uint8_t ikm[16], body[64], out[64], salt[WEBPUSH_SALT_LEN];
	int len = webpush_b64_decode(R88_BODY_1, strlen(R88_BODY_1), body, sizeof body);

	unb64(R88_IKM_1, ikm, sizeof ikm);
	/* A byte of the text, of the tag, of the salt changed. */
	for (int at = 0; at < len; at += 13) {
		body[at] ^= 0x40;
		ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)len, out, sizeof out),
		                 -1);
		body[at] ^= 0x40;
	}
	/* Another key. */
	ikm[3] ^= 1;
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)len, out, sizeof out), -1);
	ikm[3] ^= 1;
	/* Shorter than a header, a header with no record, a record shorter than
	 * its tag, a record size under 18. */
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, 20, out, sizeof out), -1);
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, 21, out, sizeof out), -1);
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, 21 + 16, out, sizeof out), -1);
	body[18] = 0;
	body[19] = 17;
	ck_assert_int_eq(webpush_ece_decrypt(ikm, sizeof ikm, body, (size_t)len, out, sizeof out), -1);
	/* Encrypting: a record size under 18, text past one record, a key id
	 * over 255 bytes, no room. */
	memset(salt, 7, sizeof salt);
	ck_assert_int_eq(webpush_ece_encrypt(ikm, 16, salt, 17, NULL, 0, out, 0, body, sizeof body),
	                 -1);
	ck_assert_int_eq(webpush_ece_encrypt(ikm, 16, salt, 18, NULL, 0, out, 1, body, sizeof body),
	                 18 + 21);
	ck_assert_int_eq(webpush_ece_decrypt(ikm, 16, body, 18 + 21, out, sizeof out), 1);
	ck_assert_int_eq(webpush_ece_encrypt(ikm, 16, salt, 18, NULL, 0, out, 2, body, sizeof body),
	                 -1);
	ck_assert_str_eq(webpush_error(), "aes128gcm: the plaintext does not fit in one record");
	ck_assert_int_eq(webpush_ece_encrypt(ikm, 16, salt, 4096, out, 256, out, 1, body, 4096), -1);
	ck_assert_int_eq(webpush_ece_encrypt(ikm, 16, salt, 4096, NULL, 0, out, 10, body, 47), -1);
	ck_assert_int_eq(webpush_ece_encrypt(ikm, 16, salt, 4096, NULL, 0, out, 10, body, 48), 48);
}
END_TEST

/* Fresh ephemeral keys and salts: each push opens for the subscriber, no
 * two bodies share a salt or a sender key, and the bound is exact. */
START_TEST(test_push_round_trip_with_fresh_keys)
{
	static uint8_t plain[WEBPUSH_PLAIN_MAX + 1], a[WEBPUSH_BODY_MAX + 64],
		b[WEBPUSH_BODY_MAX + 64], out[WEBPUSH_BODY_MAX];
	char p256dh[WEBPUSH_B64_LEN(WEBPUSH_POINT_LEN) + 1];
	uint8_t auth[WEBPUSH_AUTH_LEN];
	webpush_key *ua;
	webpush_sub sub;
	int na, nb;

	for (size_t i = 0; i < sizeof plain; i++)
		plain[i] = (uint8_t)(i * 7 + 1);
	for (size_t i = 0; i < sizeof auth; i++)
		auth[i] = (uint8_t)(0xa0 + i);
	ck_assert_int_eq(webpush_key_new(&ua), 0);
	strcpy(p256dh, point_of(ua));
	ck_assert_int_eq(webpush_sub_parse(&sub, p256dh, b64(auth, sizeof auth)), 0);

	na = webpush_encrypt(&sub, plain, 100, NULL, NULL, a, sizeof a);
	nb = webpush_encrypt(&sub, plain, 100, NULL, NULL, b, sizeof b);
	ck_assert_int_eq(na, 86 + 100 + 17);
	ck_assert_int_eq(nb, na);
	ck_assert(memcmp(a, b, 16) != 0);      /* the salt */
	ck_assert(memcmp(a + 21, b + 21, 65)); /* the sender's key */
	ck_assert_int_eq(webpush_decrypt(ua, auth, a, (size_t)na, out, sizeof out), 100);
	ck_assert(memcmp(out, plain, 100) == 0);
	ck_assert_int_eq(webpush_decrypt(ua, auth, b, (size_t)nb, out, sizeof out), 100);

	/* An empty message, and the longest: a body of exactly 4,096 bytes. */
	na = webpush_encrypt(&sub, plain, 0, NULL, NULL, a, sizeof a);
	ck_assert_int_eq(na, 86 + 17);
	ck_assert_int_eq(webpush_decrypt(ua, auth, a, (size_t)na, out, sizeof out), 0);
	na = webpush_encrypt(&sub, plain, WEBPUSH_PLAIN_MAX, NULL, NULL, a, sizeof a);
	ck_assert_int_eq(na, 4096);
	ck_assert_int_eq(webpush_decrypt(ua, auth, a, (size_t)na, out, sizeof out), 3993);
	ck_assert(memcmp(out, plain, 3993) == 0);
	ck_assert_int_eq(webpush_encrypt(&sub, plain, WEBPUSH_PLAIN_MAX + 1, NULL, NULL, a, sizeof a),
	                 -1);
	ck_assert_str_eq(webpush_error(), "push: the message is over 3,993 bytes");
	/* No room for the body. */
	ck_assert_int_eq(webpush_encrypt(&sub, plain, 100, NULL, NULL, a, 202), -1);
	/* A body whose key id is not a point. */
	na = webpush_encrypt(&sub, plain, 10, NULL, NULL, a, sizeof a);
	a[40] ^= 1;
	ck_assert_int_eq(webpush_decrypt(ua, auth, a, (size_t)na, out, sizeof out), -1);
	webpush_key_free(ua);
}
END_TEST

START_TEST(test_subscription_keys_refused)
{
	webpush_sub sub;

	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC, R91_AUTH), 0);
	/* A point on no curve, 64 bytes, 66 bytes, a compressed prefix, the
	 * standard alphabet, none. */
	ck_assert_int_eq(webpush_sub_parse(&sub, NOT_A_POINT, R91_AUTH), -1);
	ck_assert_str_eq(webpush_error(), "subscription: p256dh is not a base64url point on P-256");
	ck_assert_int_eq(webpush_sub_parse(&sub, "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"
	                                         "AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIA",
	                                   R91_AUTH),
	                 -1);
	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC "AA", R91_AUTH), -1);
	ck_assert_int_eq(webpush_sub_parse(&sub,
	                                   "AiVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-"
	                                   "AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
	                                   R91_AUTH),
	                 -1);
	ck_assert_int_eq(webpush_sub_parse(&sub,
	                                   "BCVxsr7N/eNgVRqvHtD0zTZsEc6+VV+JvLexhqUzORcxaOzi6+"
	                                   "AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4",
	                                   R91_AUTH),
	                 -1);
	ck_assert_int_eq(webpush_sub_parse(&sub, NULL, R91_AUTH), -1);
	/* An auth secret of 15 or 17 bytes, or none. */
	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC, "BTBZMqHH6r4Tts7J_aSI"), -1);
	ck_assert_str_eq(webpush_error(), "subscription: auth is not 16 bytes in base64url");
	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC, "BTBZMqHH6r4Tts7J_aSIggAA"), -1);
	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC, ""), -1);
	ck_assert_int_eq(webpush_sub_parse(&sub, R91_UA_PUBLIC, NULL), -1);
}
END_TEST

START_TEST(test_key_pair_as_text)
{
	char text[WEBPUSH_KEY_TEXT_LEN], bad[WEBPUSH_KEY_TEXT_LEN + 8];
	webpush_key *k, *back, *pub;
	uint8_t point[WEBPUSH_POINT_LEN], d[WEBPUSH_SCALAR_LEN];
	int n;

	ck_assert_int_eq(webpush_key_new(&k), 0);
	n = webpush_key_write(k, text, sizeof text);
	ck_assert_int_eq(n, 43 + 1 + 87 + 1);
	ck_assert_int_eq(text[43], '\n');
	ck_assert_int_eq(text[43 + 1 + 87], '\n');
	ck_assert(strncmp(text + 44, point_of(k), 87) == 0);
	ck_assert_int_eq(webpush_key_write(k, text, sizeof text - 1), -1);
	n = webpush_key_write(k, text, sizeof text);

	ck_assert_int_eq(webpush_key_read(&back, text, (size_t)n), 0);
	ck_assert_str_eq(point_of(back), point_of(k));
	webpush_key_free(back);
	/* Without the last newline. */
	ck_assert_int_eq(webpush_key_read(&back, text, (size_t)n - 1), 0);
	webpush_key_free(back);

	/* The public line not the scalar's: one character changed. */
	memcpy(bad, text, (size_t)n);
	bad[60] = bad[60] == 'A' ? 'B' : 'A';
	ck_assert_int_eq(webpush_key_read(&back, bad, (size_t)n), -1);
	ck_assert_ptr_null(back);
	/* One line, three lines, no text, a bad character, a short scalar. */
	ck_assert_int_eq(webpush_key_read(&back, text, 44), -1);
	memcpy(bad, text, (size_t)n);
	memcpy(bad + n, "AA\n", 3);
	ck_assert_int_eq(webpush_key_read(&back, bad, (size_t)n + 3), -1);
	ck_assert_int_eq(webpush_key_read(&back, "", 0), -1);
	memcpy(bad, text, (size_t)n);
	bad[5] = '+';
	ck_assert_int_eq(webpush_key_read(&back, bad, (size_t)n), -1);
	ck_assert_int_eq(webpush_key_read(&back, text + 2, (size_t)n - 2), -1);
	webpush_key_free(k);

	/* Scalars outside 1 .. n - 1: zero, the order, all ones. */
	memset(d, 0, sizeof d);
	ck_assert_int_eq(webpush_key_from_private(&k, d), -1);
	unb64("_____wAAAAD__________7zm-q2nF56E87nKwvxjJVE", d, sizeof d);
	ck_assert_int_eq(webpush_key_from_private(&k, d), -1);
	d[31] -= 1; /* the order less one: the largest scalar */
	ck_assert_int_eq(webpush_key_from_private(&k, d), 0);
	webpush_key_free(k);
	memset(d, 0xff, sizeof d);
	ck_assert_int_eq(webpush_key_from_private(&k, d), -1);
	ck_assert_ptr_null(k);

	/* A public key alone: no text, no signing, no ECDH. */
	unb64(R91_UA_PUBLIC, point, sizeof point);
	ck_assert_int_eq(webpush_key_public(&pub, point), 0);
	ck_assert_str_eq(point_of(pub), R91_UA_PUBLIC);
	ck_assert_int_eq(webpush_key_write(pub, text, sizeof text), -1);
	ck_assert_int_eq(webpush_ecdh(pub, point, d), -1);
	ck_assert_int_eq(webpush_vapid_jwt(pub, R92_ENDPOINT, R92_SUB, 1, text, sizeof text), -1);
	webpush_key_free(pub);
	unb64(NOT_A_POINT, point, sizeof point);
	ck_assert_int_eq(webpush_key_public(&pub, point), -1);
	ck_assert_ptr_null(pub);
	webpush_key_free(NULL);
}
END_TEST

/* Section 2.4: our signing input for the RFC's claims is the RFC's, and
 * the RFC's signature verifies under the RFC's key (r || s, not DER). */
START_TEST(test_rfc8292_example_token)
{
	static const char claims_json[] =
		"{\"aud\":\"https://push.example.net\",\"exp\":1453523768,\"sub\":\"mailto:push@example.com\"}";
	const char *jwt = R92_HEADER "." R92_CLAIMS "." R92_SIG;
	char ours[1024], claims[256], bad[1024];
	uint8_t point[WEBPUSH_POINT_LEN];
	webpush_key *rfc, *k;
	size_t input = strlen(R92_HEADER "." R92_CLAIMS);

	unb64(R92_K, point, sizeof point);
	ck_assert_int_eq(webpush_key_public(&rfc, point), 0);
	ck_assert_int_eq(webpush_vapid_verify(jwt, rfc, claims, sizeof claims),
	                 (int)strlen(claims_json));
	ck_assert_str_eq(claims, claims_json);

	/* Another key signs, so only the signing input can match. */
	ck_assert_int_eq(webpush_key_new(&k), 0);
	ck_assert_int_gt(webpush_vapid_jwt(k, R92_ENDPOINT, R92_SUB, R92_EXP, ours, sizeof ours), 0);
	ck_assert_int_eq(strncmp(ours, jwt, input + 1), 0);
	ck_assert_uint_eq(strlen(ours), strlen(jwt));
	/* Our token does not verify under the RFC's key, nor the RFC's under
	 * ours; a changed claim or signature verifies under none. */
	ck_assert_int_eq(webpush_vapid_verify(ours, rfc, claims, sizeof claims), -1);
	ck_assert_int_eq(webpush_vapid_verify(jwt, k, claims, sizeof claims), -1);
	ck_assert_str_eq(webpush_error(), "vapid: the signature is not the key's");
	strcpy(bad, jwt);
	bad[input - 3] = bad[input - 3] == 'A' ? 'B' : 'A';
	ck_assert_int_eq(webpush_vapid_verify(bad, rfc, claims, sizeof claims), -1);
	strcpy(bad, jwt);
	bad[input + 5] = bad[input + 5] == 'A' ? 'B' : 'A';
	ck_assert_int_eq(webpush_vapid_verify(bad, rfc, claims, sizeof claims), -1);
	/* Not three parts, a short signature, no room for the claims. */
	ck_assert_int_eq(webpush_vapid_verify(R92_HEADER "." R92_CLAIMS, rfc, claims, sizeof claims),
	                 -1);
	ck_assert_int_eq(webpush_vapid_verify(R92_HEADER "." R92_CLAIMS ".AAAA", rfc, claims,
	                                      sizeof claims),
	                 -1);
	ck_assert_int_eq(webpush_vapid_verify(jwt, rfc, claims, 20), -1);
	webpush_key_free(k);
	webpush_key_free(rfc);
}
END_TEST

/* The Authorization header of a push: our token verifies under our key,
 * and its claims read back. */
START_TEST(test_vapid_header_signs_and_reads_back)
{
	const char *endpoint = "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91b";
	char header[1024], jwt[1024], claims[512];
	webpush_key *k, *other;
	const char *t, *comma;
	json_t *j;
	json_error_t err;
	int n;

	ck_assert_int_eq(webpush_key_new(&k), 0);
	n = webpush_vapid_header(k, endpoint, "mailto:admin@oware.example", 1700000000, 43200, header,
	                         sizeof header);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(strncmp(header, "vapid t=", 8), 0);
	t = header + 8;
	comma = strstr(t, ", k=");
	ck_assert_ptr_nonnull(comma);
	ck_assert_str_eq(comma + 4, point_of(k));
	memcpy(jwt, t, (size_t)(comma - t));
	jwt[comma - t] = 0;
	/* The signature is 64 bytes, 86 characters. */
	ck_assert_uint_eq(strlen(strrchr(jwt, '.') + 1), 86);

	ck_assert_int_gt(webpush_vapid_verify(jwt, k, claims, sizeof claims), 0);
	j = json_loads(claims, 0, &err);
	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(json_object_get(j, "aud")), "https://fcm.googleapis.com");
	ck_assert_int_eq(json_integer_value(json_object_get(j, "exp")), 1700000000 + 43200);
	ck_assert_str_eq(json_string_value(json_object_get(j, "sub")), "mailto:admin@oware.example");
	json_decref(j);

	ck_assert_int_eq(webpush_key_new(&other), 0);
	ck_assert_int_eq(webpush_vapid_verify(jwt, other, claims, sizeof claims), -1);
	webpush_key_free(other);

	/* A lifetime of 24 h is the most. */
	ck_assert_int_gt(webpush_vapid_header(k, endpoint, "https://oware.example/contact",
	                                      1700000000, 86400, header, sizeof header),
	                 0);
	ck_assert_int_eq(webpush_vapid_header(k, endpoint, "mailto:a@b", 1700000000, 86401, header,
	                                      sizeof header),
	                 -1);
	ck_assert_str_eq(webpush_error(), "vapid: a token lives 1 s to 24 h");
	ck_assert_int_eq(
		webpush_vapid_header(k, endpoint, "mailto:a@b", 1700000000, 0, header, sizeof header), -1);
	ck_assert_int_eq(webpush_vapid_header(k, endpoint, "mailto:a@b", 1700000000, 60, header, 100),
	                 -1);
	/* Contacts refused: empty, no scheme, a bare scheme, a quote, a space,
	 * a backslash, too long. */
	{
		static const char *const bad[] = {"", "admin@oware.example", "mailto:",
		                                  "mailto:a\"@b", "mailto:a b", "mailto:a\\b",
		                                  "http://oware.example"};
		char longer[300];

		for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
			ck_assert_int_eq(webpush_vapid_jwt(k, endpoint, bad[i], 1, jwt, sizeof jwt), -1);
		memcpy(longer, "mailto:", 7);
		memset(longer + 7, 'a', sizeof longer - 8);
		longer[sizeof longer - 1] = 0;
		ck_assert_int_eq(webpush_vapid_jwt(k, endpoint, longer, 1, jwt, sizeof jwt), -1);
		ck_assert_int_eq(webpush_vapid_jwt(k, endpoint, NULL, 1, jwt, sizeof jwt), -1);
	}
	webpush_key_free(k);
}
END_TEST

START_TEST(test_origin_of_an_endpoint)
{
	char out[64];

	ck_assert_int_eq(webpush_origin(R92_ENDPOINT, out, sizeof out), 24);
	ck_assert_str_eq(out, "https://push.example.net");
	ck_assert_int_gt(webpush_origin("https://Push.Example.NET:8443/p/x?y#z", out, sizeof out), 0);
	ck_assert_str_eq(out, "https://push.example.net:8443");
	ck_assert_int_gt(webpush_origin("http://127.0.0.1:9999", out, sizeof out), 0);
	ck_assert_str_eq(out, "http://127.0.0.1:9999");
	ck_assert_int_gt(webpush_origin("https://[::1]:8443/push", out, sizeof out), 0);
	ck_assert_str_eq(out, "https://[::1]:8443");
	/* Refused: another scheme, no host, user info, a quote, no room, none. */
	ck_assert_int_eq(webpush_origin("ftp://push.example.net/x", out, sizeof out), -1);
	ck_assert_int_eq(webpush_origin("HTTPS://push.example.net/x", out, sizeof out), -1);
	ck_assert_int_eq(webpush_origin("https:///x", out, sizeof out), -1);
	ck_assert_int_eq(webpush_origin("https://user@push.example.net/x", out, sizeof out), -1);
	ck_assert_int_eq(webpush_origin("https://push\".example.net/x", out, sizeof out), -1);
	ck_assert_int_eq(webpush_origin(R92_ENDPOINT, out, 24), -1);
	ck_assert_int_eq(webpush_origin(NULL, out, sizeof out), -1);
	ck_assert_int_eq(webpush_vapid_jwt(NULL, "ftp://x", R92_SUB, 1, out, sizeof out), -1);
}
END_TEST

/* Where a server may send: https only, the allow-list, no address in a
 * private range, and the loopback only for a test's fake service. */
START_TEST(test_endpoint_allowed_and_refused)
{
	static const struct {
		const char *url;
		int loopback_ok, ok;
		const char *host;
	} cases[] = {
		{"https://fcm.googleapis.com/fcm/send/abc", 0, 1, "fcm.googleapis.com"},
		{"https://FCM.googleapis.com:443/x", 0, 1, "fcm.googleapis.com"},
		{"https://db5p.notify.windows.com/w/?token=1", 0, 1, "db5p.notify.windows.com"},
		{"https://notify.windows.com/w", 0, 0, NULL},        /* "*." wants a subdomain */
		{"https://evilfcm.googleapis.com.example/x", 0, 0, NULL},
		{"http://fcm.googleapis.com/x", 0, 0, NULL},          /* not https */
		{"https://user@fcm.googleapis.com/x", 0, 0, NULL},
		{"https://10.0.0.1/x", 0, 0, NULL},
		{"https://10.0.0.1/x", 1, 0, NULL},                   /* private even in a test */
		{"https://[fe80::1]/x", 1, 0, NULL},
		{"https://169.254.169.254/latest", 1, 0, NULL},
		{"https://224.0.0.1/x", 1, 0, NULL},
		{"http://127.0.0.1:8080/push/1", 0, 0, NULL},
		{"https://127.0.0.1/x", 0, 0, NULL},
		{"http://127.0.0.1:8080/push/1", 1, 1, "127.0.0.1"},
		{"http://[::1]:9/p", 1, 1, "::1"},
		{"https://fcm.googleapis.com:99999/x", 0, 0, NULL},
		{"https://fcm.googleapis.com/a b", 0, 0, NULL},
		{"ftp://fcm.googleapis.com/x", 0, 0, NULL},
	};
	char host[WEBPUSH_HOST_MAX + 1], path[64];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int rc = webpush_endpoint_check(cases[i].url, WEBPUSH_ALLOW_DEFAULT,
		                                cases[i].loopback_ok, host, sizeof host);

		ck_assert_msg((rc == 0) == cases[i].ok, "%s: %d (%s)", cases[i].url, rc,
		              webpush_error());
		if (cases[i].ok)
			ck_assert_str_eq(host, cases[i].host);
	}
	ck_assert_int_eq(webpush_endpoint_target("http://127.0.0.1:8080/push/1?a", path,
	                                         sizeof path), 8080);
	ck_assert_str_eq(path, "/push/1?a");
	ck_assert_int_eq(webpush_endpoint_target("https://[::1]/", path, sizeof path), 443);
	ck_assert_int_eq(webpush_endpoint_target("https://a.b", path, sizeof path), 443);
	ck_assert_str_eq(path, "/");
}
END_TEST

static Suite *webpush_suite(void)
{
	Suite *s = suite_create("webpush");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_base64url_known_answers);
	tcase_add_test(tc, test_rfc8291_keys_of_their_private_scalars);
	tcase_add_test(tc, test_rfc8291_intermediate_values);
	tcase_add_test(tc, test_rfc8291_body_is_the_rfcs);
	tcase_add_test(tc, test_rfc8291_body_decrypts_for_the_user_agent);
	tcase_add_test(tc, test_rfc8188_example_one_record);
	tcase_add_test(tc, test_rfc8188_example_two_records);
	tcase_add_test(tc, test_ece_refuses_altered_and_bad_bodies);
	tcase_add_test(tc, test_push_round_trip_with_fresh_keys);
	tcase_add_test(tc, test_subscription_keys_refused);
	tcase_add_test(tc, test_key_pair_as_text);
	tcase_add_test(tc, test_rfc8292_example_token);
	tcase_add_test(tc, test_vapid_header_signs_and_reads_back);
	tcase_add_test(tc, test_origin_of_an_endpoint);
	tcase_add_test(tc, test_endpoint_allowed_and_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(webpush_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
