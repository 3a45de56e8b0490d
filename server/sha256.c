/* sha256.c: SHA-256 and a constant-time compare from libcrypto (OpenSSL),
 * which libwebsockets links already. */
#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "server/sha256.h"

void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN])
{
	unsigned int n = SHA256_LEN;

	/* Fails only without memory for its context: then no digest at all
	 * (zeros), which no stored token hash equals. */
	if (!EVP_Digest(data, len, out, &n, EVP_sha256(), NULL))
		memset(out, 0, SHA256_LEN);
}

int sha256_equal(const uint8_t *a, const uint8_t *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n) == 0;
}
