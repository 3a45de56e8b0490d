/* sha256.h: SHA-256 (FIPS 180-4) of a buffer, for hashing seat tokens. */
#ifndef SRV_SHA256_H
#define SRV_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN 32

/* Writes the 32-byte SHA-256 digest of len bytes at data to out. */
void sha256(const void *data, size_t len, uint8_t out[SHA256_LEN]);

/* Loads libcrypto's SHA-256 at start (about 2 MB of its tables and
 * providers, once), rather than at the first token: owared calls it before
 * it listens, so that what a connection costs is measured apart from it. */
void sha256_init(void);

/* 1 when the n bytes at a and b are equal, else 0, in time that depends
 * only on n. */
int sha256_equal(const uint8_t *a, const uint8_t *b, size_t n);

#endif
