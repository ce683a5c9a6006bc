/* pqsig_mldsa_ntt_batch against a naive O(n^2) NTT written here from the definition
 * (FIPS 204: NTT(a)[i] = sum_j a_j * zeta^((2*brv8(i)+1)*j), zeta = 1753, q = 8380417;
 * the inverse includes 1/256 and, as the reference invntt_tomont, the factor 2^32):
 * every output congruent and centred, batches of 1..9 polynomials, inputs of every
 * size (|a| < q as the reference passes them, and any int32_t), the round trip, and
 * the error paths (NULL, unknown mode, too many polynomials, misaligned buffer).
 *
 * Where the call runs comes from the environment (PQSIG_DEVICE, PQSIG_CARD): the Rust
 * harness runs this once on the CPU and once with a card (tests/c_tests.rs).
 * `test_ntt device-error`: PQSIG_DEVICE names no kernel device; every call must fail
 * with PQSIG_ERR_DEVICE and leave the buffer unchanged. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqsig.h"
#include "check.h"

#define Q 8380417
#define N 256
#define MAXP 9

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rng(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static uint32_t mod_q(int64_t x) {
  int64_t r = x % Q;
  return (uint32_t)(r < 0 ? r + Q : r);
}

static uint32_t mul_q(uint32_t a, uint32_t b) { return (uint32_t)((uint64_t)a * b % Q); }

static uint32_t pow_q(uint32_t b, uint64_t e) {
  uint32_t r = 1;
  while (e) {
    if (e & 1) r = mul_q(r, b);
    b = mul_q(b, b);
    e >>= 1;
  }
  return r;
}

static unsigned brv8(unsigned i) {
  unsigned r = 0;
  for (int b = 0; b < 8; b++) r |= ((i >> b) & 1u) << (7 - b);
  return r;
}

static uint32_t zeta_pow[512]; /* zeta^k, zeta a primitive 512th root of unity */

static void naive_ntt(const int32_t *a, uint32_t *out) {
  for (unsigned i = 0; i < N; i++) {
    unsigned e = 2 * brv8(i) + 1;
    uint64_t s = 0;
    for (unsigned j = 0; j < N; j++) s = (s + (uint64_t)mod_q(a[j]) * zeta_pow[(e * j) % 512]) % Q;
    out[i] = (uint32_t)s;
  }
}

/* invntt_tomont: 2^32 / 256 * sum_i A_i zeta^-((2*brv8(i)+1)*j). */
static void naive_invntt_tomont(const int32_t *a, uint32_t *out) {
  uint32_t f = mul_q(pow_q(2, 32), pow_q(256, Q - 2));
  for (unsigned j = 0; j < N; j++) {
    uint64_t s = 0;
    for (unsigned i = 0; i < N; i++) {
      unsigned e = (2 * brv8(i) + 1) * j % 512;
      s = (s + (uint64_t)mod_q(a[i]) * zeta_pow[(512 - e) % 512]) % Q;
    }
    out[j] = mul_q((uint32_t)s, f);
  }
}

/* Checks every polynomial of got (the call's output) against the naive transform of in. */
static void check_against_naive(const int32_t *in, const int32_t *got, size_t polys, int mode,
                                const char *what) {
  uint32_t want[N];
  for (size_t p = 0; p < polys; p++) {
    if (mode == PQSIG_MLDSA_NTT) naive_ntt(in + p * N, want);
    else naive_invntt_tomont(in + p * N, want);
    int bad = 0, wide = 0;
    for (unsigned i = 0; i < N; i++) {
      int32_t c = got[p * N + i];
      if (mod_q(c) != want[i]) bad++;
      if (c < -(Q - 1) / 2 || c > (Q - 1) / 2) wide++;
    }
    CHECK(bad == 0, "%s: polynomial %zu of %zu: %d coefficients not congruent", what, p, polys, bad);
    CHECK(wide == 0, "%s: polynomial %zu: %d coefficients not centred", what, p, wide);
  }
}

/* Random inputs: |a| < q (what the reference passes), or any int32_t. */
static void fill(int32_t *a, size_t n, int any) {
  for (size_t i = 0; i < n; i++) {
    uint64_t r = rng();
    a[i] = any ? (int32_t)(uint32_t)r : (int32_t)(r % (2 * Q - 1)) - (Q - 1);
  }
}

static int device_error_mode(void) {
  int32_t buf[2 * N], copy[2 * N];
  fill(buf, 2 * N, 0);
  memcpy(copy, buf, sizeof buf);
  CHECK_STATUS(pqsig_mldsa_ntt_batch(buf, 2, PQSIG_MLDSA_NTT), PQSIG_ERR_DEVICE, "bad PQSIG_DEVICE");
  CHECK(strstr(pqsig_last_error(), "PQSIG_DEVICE") != NULL, "message names PQSIG_DEVICE: %s",
        pqsig_last_error());
  CHECK(memcmp(buf, copy, sizeof buf) == 0, "buffer changed on failure");
  return check_report("test_ntt device-error");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "device-error") == 0) return device_error_mode();

  uint32_t zeta = 1753;
  for (unsigned k = 0; k < 512; k++) zeta_pow[k] = pow_q(zeta, k);
  CHECK(pow_q(zeta, 256) == Q - 1, "1753 is a primitive 512th root of unity mod q");

  static int32_t in[MAXP * N], buf[MAXP * N], back[MAXP * N];
  const int modes[2] = {PQSIG_MLDSA_NTT, PQSIG_MLDSA_INVNTT_TOMONT};
  for (size_t polys = 1; polys <= MAXP; polys += (polys < 5 ? 1 : 4)) {
    for (int any = 0; any < 2; any++) {
      for (int m = 0; m < 2; m++) {
        fill(in, polys * N, any);
        memcpy(buf, in, polys * N * sizeof *in);
        CHECK_STATUS(pqsig_mldsa_ntt_batch(buf, polys, modes[m]), PQSIG_OK, "transform");
        check_against_naive(in, buf, polys, modes[m], modes[m] == PQSIG_MLDSA_NTT ? "ntt" : "invntt");
      }
    }
  }

  /* Edge inputs: 0, +-(q-1), INT32_MIN, INT32_MAX. */
  int32_t edge[N];
  const int32_t vals[5] = {0, Q - 1, -(Q - 1), INT32_MIN, INT32_MAX};
  for (unsigned i = 0; i < N; i++) edge[i] = vals[i % 5];
  for (int m = 0; m < 2; m++) {
    memcpy(buf, edge, sizeof edge);
    CHECK_STATUS(pqsig_mldsa_ntt_batch(buf, 1, modes[m]), PQSIG_OK, "edge transform");
    check_against_naive(edge, buf, 1, modes[m], "edge inputs");
  }

  /* Round trip: invntt_tomont(ntt(a)) = a * 2^32 mod q. */
  fill(in, 4 * N, 0);
  memcpy(back, in, 4 * N * sizeof *in);
  CHECK_STATUS(pqsig_mldsa_ntt_batch(back, 4, PQSIG_MLDSA_NTT), PQSIG_OK, "round trip ntt");
  CHECK_STATUS(pqsig_mldsa_ntt_batch(back, 4, PQSIG_MLDSA_INVNTT_TOMONT), PQSIG_OK, "round trip inv");
  uint32_t mont = pow_q(2, 32);
  int bad = 0;
  for (unsigned i = 0; i < 4 * N; i++) bad += mod_q(back[i]) != mul_q(mod_q(in[i]), mont);
  CHECK(bad == 0, "round trip: %d coefficients differ from a * 2^32", bad);

  /* Errors: nothing written, a typed status, a message. */
  fill(buf, N, 0);
  memcpy(in, buf, N * sizeof *buf);
  CHECK_STATUS(pqsig_mldsa_ntt_batch(buf, 1, 2), PQSIG_ERR_UNSUPPORTED, "unknown mode 2");
  CHECK_STATUS(pqsig_mldsa_ntt_batch(buf, 1, -1), PQSIG_ERR_UNSUPPORTED, "unknown mode -1");
  CHECK(strstr(pqsig_last_error(), "mode") != NULL, "message names the mode: %s", pqsig_last_error());
  CHECK(memcmp(buf, in, N * sizeof *buf) == 0, "buffer changed by a refused call");
  CHECK_STATUS(pqsig_mldsa_ntt_batch(NULL, 1, PQSIG_MLDSA_NTT), PQSIG_ERR_NULL_POINTER, "NULL");
  CHECK_STATUS(pqsig_mldsa_ntt_batch(NULL, 0, PQSIG_MLDSA_NTT), PQSIG_OK, "NULL, no polynomials");
  CHECK(strcmp(pqsig_last_error(), "") == 0, "last error cleared by a successful call");
  CHECK_STATUS(pqsig_mldsa_ntt_batch(buf, SIZE_MAX / 64, PQSIG_MLDSA_NTT), PQSIG_ERR_INVALID_LENGTH,
               "num_polys too large");
  CHECK_STATUS(pqsig_mldsa_ntt_batch((int32_t *)((char *)buf + 1), 1, PQSIG_MLDSA_NTT),
               PQSIG_ERR_UNSUPPORTED, "misaligned buffer");
  CHECK(memcmp(buf, in, N * sizeof *buf) == 0, "buffer changed by a refused call");

  return check_report("test_ntt");
}
