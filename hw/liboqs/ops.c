/* hw/liboqs/ops.c — counts what one liboqs operation sends to the card: keygen, then
 * SIGNS signatures, then VERIFIES verifications of the last one, all through liboqs's
 * unchanged API. run.sh runs it against a fresh card per configuration and divides the
 * card's request counters. Its randomness is a fixed stream (OQS_randombytes_custom_
 * algorithm), so every run makes the same keys and signatures with the same rejection
 * loops, and the differences between runs are exact.
 *
 * usage: ops ALG SIGNS VERIFIES    (exit 0 when every call succeeded and verified)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <oqs/oqs.h>

/* xorshift64: deterministic, for counting only (never for real keys). */
static void fixed_randombytes(uint8_t *out, size_t len) {
	static uint64_t x = 0x243f6a8885a308d3ull;
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		out[i] = (uint8_t)x;
	}
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: ops ALG SIGNS VERIFIES\n");
		return 2;
	}
	long signs = strtol(argv[2], NULL, 10), verifies = strtol(argv[3], NULL, 10);
	OQS_init();
	OQS_randombytes_custom_algorithm(fixed_randombytes);
	OQS_SIG *sig = OQS_SIG_new(argv[1]);
	if (sig == NULL) {
		fprintf(stderr, "ops: %s not enabled\n", argv[1]);
		return 2;
	}
	uint8_t *pk = malloc(sig->length_public_key), *sk = malloc(sig->length_secret_key);
	uint8_t *s = malloc(sig->length_signature);
	size_t s_len = 0;
	uint8_t msg[32];
	memset(msg, 0x5a, sizeof msg);
	int ok = pk && sk && s && OQS_SIG_keypair(sig, pk, sk) == OQS_SUCCESS;
	for (long i = 0; ok && i < signs; i++) {
		msg[0] = (uint8_t)i; /* a different message, a different rejection loop */
		ok = OQS_SIG_sign(sig, s, &s_len, msg, sizeof msg, sk) == OQS_SUCCESS;
	}
	for (long i = 0; ok && signs > 0 && i < verifies; i++) {
		ok = OQS_SIG_verify(sig, msg, sizeof msg, s, s_len, pk) == OQS_SUCCESS;
	}
	OQS_SIG_free(sig);
	free(pk);
	free(sk);
	free(s);
	OQS_destroy();
	if (!ok) {
		fprintf(stderr, "ops: %s failed\n", argv[1]);
		return 1;
	}
	return 0;
}
