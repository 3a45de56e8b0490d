/* sha256.c: SHA-256 and a constant-time compare from libcrypto (OpenSSL),
 * which libwebsockets links already. */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "server/base/sha256.h"

/* One digest context for the process, kept: tokens are hashed on the
 * event loop, one at a time. */
static EVP_MD_CTX *ctx;

void sha256_init(void)
{
	uint8_t out[SHA256_LEN];

	sha256("", 0, out);
}

void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN])
{
	unsigned int n = SHA256_LEN;

	if (!ctx)
		ctx = EVP_MD_CTX_new();
	/* Fails only without memory for its context: then no digest at all
	 * (zeros), which no stored token hash equals. */
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) ||
	    !EVP_DigestUpdate(ctx, data, len) || !EVP_DigestFinal_ex(ctx, out, &n))
		memset(out, 0, SHA256_LEN);
}

int sha256_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n) == 0;
}
