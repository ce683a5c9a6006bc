/*
 * Times ML-DSA keygen, signing from secret-key bytes and verification from public-key
 * bytes in a liboqs build (mldsa-native inside), the way pqsig-bench times its peers:
 * 16 keys, 4 messages of 32 bytes per key, empty context, deterministic signing
 * (rnd = 0^32: liboqs draws rnd from OQS_randombytes, which we replace), samples
 * interleaved over the keys, median of the per-call wall time (CLOCK_MONOTONIC) and of
 * the TSC ticks. One JSON line per (algorithm, operation) in pqsig-bench's format, with
 * "impl":"mldsa-native". Built and run by scripts/mldsa-native-bench.sh.
 */
#include <oqs/oqs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

#define KEYS 16
#define MSGS 4
#define MSG_LEN 32

/* OQS_randombytes replacement: a counter stream for key generation (distinct xi per
 * key), zeros for signing (deterministic ML-DSA). */
static int g_zero;
static uint64_t g_ctr = 0x9e3779b97f4a7c15ULL;
static void scripted(uint8_t *buf, size_t len) {
	for (size_t i = 0; i < len; i++) {
		if (g_zero) {
			buf[i] = 0;
		} else {
			g_ctr = g_ctr * 6364136223846793005ULL + 1442695040888963407ULL;
			buf[i] = (uint8_t)(g_ctr >> 56);
		}
	}
}

static uint64_t now_ns(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

static uint64_t ticks(void) {
	_mm_lfence();
	uint64_t t = __rdtsc();
	_mm_lfence();
	return t;
}

static int cmp_u64(const void *a, const void *b) {
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

static double median(uint64_t *v, size_t n) {
	qsort(v, n, sizeof *v, cmp_u64);
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2.0;
}

/* The backend as pqsig-bench names it: mldsa-native's arithmetic is AVX2 on x86-64, but a
 * liboqs built with OQS_USE_SHA3_AVX512VL (its default) hashes with XKCP's AVX-512VL
 * Keccak when the CPU has AVX-512, so that build on such a CPU is labelled
 * "avx2+avx512vl-sha3"; "avx2" is what a CPU without AVX-512 runs. */
static const char *backend(void) {
	if (!__builtin_cpu_supports("avx2"))
		return "portable";
#if defined(OQS_USE_SHA3_AVX512VL)
	if (OQS_CPU_has_extension(OQS_CPU_EXT_AVX512))
		return "avx2+avx512vl-sha3";
#endif
	return "avx2";
}

static void row(const char *alg, const char *op, uint64_t *ns, uint64_t *tk, size_t n) {
	double mn = median(ns, n), mt = median(tk, n);
	printf("{\"alg\":\"%s\",\"op\":\"%s\",\"impl\":\"mldsa-native\",\"backend\":\"%s\","
	       "\"api\":\"bytes\",\"median_ns\":%.1f,\"median_ticks\":%.1f,\"iters\":%zu,"
	       "\"note\":\"liboqs %s\"}\n",
	       alg, op, backend(), mn, mt, n,
	       OQS_version());
}

int main(int argc, char **argv) {
	size_t rounds = argc > 1 ? (size_t)atoi(argv[1]) : 40;
	const char *algs[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87"};
	OQS_init();
	OQS_randombytes_custom_algorithm(scripted);
	for (size_t a = 0; a < 3; a++) {
		OQS_SIG *s = OQS_SIG_new(algs[a]);
		if (!s) {
			fprintf(stderr, "%s not enabled in this liboqs build\n", algs[a]);
			return 1;
		}
		size_t n = rounds * KEYS, nm = rounds * KEYS * MSGS;
		uint8_t *pk = malloc(KEYS * s->length_public_key);
		uint8_t *sk = malloc(KEYS * s->length_secret_key);
		uint8_t *sig = malloc(KEYS * MSGS * s->length_signature);
		size_t *siglen = malloc(KEYS * MSGS * sizeof *siglen);
		uint8_t msg[KEYS * MSGS][MSG_LEN];
		uint64_t *ns = malloc(nm * sizeof *ns), *tk = malloc(nm * sizeof *tk);
		for (size_t i = 0; i < KEYS * MSGS; i++)
			for (size_t j = 0; j < MSG_LEN; j++)
				msg[i][j] = (uint8_t)(i * 31 + j * 7 + a);
		/* keygen (one warm-up round, then `rounds` rounds over the keys) */
		g_zero = 0;
		for (size_t r = 0; r <= rounds; r++) {
			for (size_t k = 0; k < KEYS; k++) {
				uint64_t t0 = now_ns(), c0 = ticks();
				if (OQS_SIG_keypair(s, pk + k * s->length_public_key,
				                    sk + k * s->length_secret_key) != OQS_SUCCESS)
					return 2;
				uint64_t c1 = ticks(), t1 = now_ns();
				if (r) {
					ns[(r - 1) * KEYS + k] = t1 - t0;
					tk[(r - 1) * KEYS + k] = c1 - c0;
				}
			}
		}
		row(algs[a], "keygen", ns, tk, n);
		/* sign from secret-key bytes, deterministic */
		g_zero = 1;
		for (size_t r = 0; r <= rounds; r++) {
			for (size_t i = 0; i < KEYS * MSGS; i++) {
				size_t k = i / MSGS;
				uint64_t t0 = now_ns(), c0 = ticks();
				if (OQS_SIG_sign_with_ctx_str(s, sig + i * s->length_signature, &siglen[i],
				                              msg[i], MSG_LEN, NULL, 0,
				                              sk + k * s->length_secret_key) != OQS_SUCCESS)
					return 3;
				uint64_t c1 = ticks(), t1 = now_ns();
				if (r) {
					ns[(r - 1) * KEYS * MSGS + i] = t1 - t0;
					tk[(r - 1) * KEYS * MSGS + i] = c1 - c0;
				}
			}
		}
		row(algs[a], "sign", ns, tk, nm);
		/* verify from public-key bytes */
		for (size_t r = 0; r <= rounds; r++) {
			for (size_t i = 0; i < KEYS * MSGS; i++) {
				size_t k = i / MSGS;
				uint64_t t0 = now_ns(), c0 = ticks();
				OQS_STATUS ok = OQS_SIG_verify_with_ctx_str(
				    s, msg[i], MSG_LEN, sig + i * s->length_signature, siglen[i], NULL, 0,
				    pk + k * s->length_public_key);
				uint64_t c1 = ticks(), t1 = now_ns();
				if (ok != OQS_SUCCESS)
					return 4;
				if (r) {
					ns[(r - 1) * KEYS * MSGS + i] = t1 - t0;
					tk[(r - 1) * KEYS * MSGS + i] = c1 - c0;
				}
			}
		}
		row(algs[a], "verify", ns, tk, nm);
		free(pk); free(sk); free(sig); free(siglen); free(ns); free(tk);
		OQS_SIG_free(s);
	}
	OQS_destroy();
	return 0;
}
