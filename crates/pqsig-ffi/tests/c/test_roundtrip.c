/* Every algorithm: lengths, key generation (random and from a seed), sign, verify, a
 * tampered signature and a wrong message rejected, context-string handling. */
#include <stdlib.h>
#include <string.h>

#include "pqsig.h"
#include "check.h"

static void test_algorithm(const char *name) {
  pqsig_sig *sig = pqsig_sig_new(name);
  CHECK(sig != NULL, "pqsig_sig_new(%s)", name);
  if (!sig) return;
  CHECK(strcmp(pqsig_sig_name(sig), name) == 0, "%s: name %s", name, pqsig_sig_name(sig));

  size_t pk_len = pqsig_sig_length_public_key(sig);
  size_t sk_len = pqsig_sig_length_secret_key(sig);
  size_t sig_max = pqsig_sig_length_signature(sig);
  size_t seed_len = pqsig_sig_length_seed(sig);
  CHECK(pk_len > 0 && sk_len > 0 && sig_max > 0 && seed_len >= 32, "%s: lengths", name);

  uint8_t *pk = malloc(pk_len), *sk = malloc(sk_len), *pk2 = malloc(pk_len),
          *sk2 = malloc(sk_len), *s = malloc(sig_max), *seed = malloc(seed_len);
  for (size_t i = 0; i < seed_len; i++) seed[i] = (uint8_t)(i * 7 + 1);
  const uint8_t msg[] = "pqsig C test message";
  const size_t msg_len = sizeof msg - 1;

  /* Seeded key generation is deterministic; random key generation is not. */
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, seed, seed_len, pk, pk_len, sk, sk_len),
               PQSIG_OK, name);
  CHECK(strcmp(pqsig_last_error(), "") == 0, "%s: last error not cleared", name);
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, seed, seed_len, pk2, pk_len, sk2, sk_len),
               PQSIG_OK, name);
  CHECK(memcmp(pk, pk2, pk_len) == 0 && memcmp(sk, sk2, sk_len) == 0,
        "%s: seeded keygen not deterministic", name);
  CHECK_STATUS(pqsig_sig_keypair(sig, pk2, pk_len, sk2, sk_len), PQSIG_OK, name);
  CHECK(memcmp(pk, pk2, pk_len) != 0, "%s: random keygen repeated the seeded key", name);

  /* Sign / verify with both key pairs. */
  size_t s_len = sig_max;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &s_len, msg, msg_len, sk, sk_len), PQSIG_OK, name);
  CHECK(s_len > 0 && s_len <= sig_max, "%s: signature length %zu", name, s_len);
  CHECK_STATUS(pqsig_sig_verify(sig, msg, msg_len, s, s_len, pk, pk_len), PQSIG_OK, name);
  /* The wrong key, the wrong message, a tampered signature. */
  pqsig_status st = pqsig_sig_verify(sig, msg, msg_len, s, s_len, pk2, pk_len);
  CHECK(st == PQSIG_ERR_VERIFICATION_FAILED || st == PQSIG_ERR_INVALID_SIGNATURE,
        "%s: other key accepted (%d)", name, (int)st);
  st = pqsig_sig_verify(sig, msg, msg_len - 1, s, s_len, pk, pk_len);
  CHECK(st == PQSIG_ERR_VERIFICATION_FAILED, "%s: wrong message (%d)", name, (int)st);
  for (size_t pos = 0; pos < s_len; pos += (s_len / 5) + 1) {
    s[pos] ^= 0x01;
    st = pqsig_sig_verify(sig, msg, msg_len, s, s_len, pk, pk_len);
    CHECK(st == PQSIG_ERR_VERIFICATION_FAILED || st == PQSIG_ERR_INVALID_SIGNATURE,
          "%s: signature with byte %zu flipped accepted (%d)", name, pos, (int)st);
    s[pos] ^= 0x01;
  }
  CHECK_STATUS(pqsig_sig_verify(sig, msg, msg_len, s, s_len, pk, pk_len), PQSIG_OK, name);
  st = pqsig_sig_verify(sig, msg, msg_len, s, s_len - 1, pk, pk_len);
  CHECK(st == PQSIG_ERR_INVALID_SIGNATURE || st == PQSIG_ERR_VERIFICATION_FAILED,
        "%s: truncated signature (%d)", name, (int)st);
  /* The empty message, passed as NULL with length 0. */
  s_len = sig_max;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &s_len, NULL, 0, sk2, sk_len), PQSIG_OK, name);
  CHECK_STATUS(pqsig_sig_verify(sig, NULL, 0, s, s_len, pk2, pk_len), PQSIG_OK, name);

  /* Context strings. */
  const uint8_t ctx[] = "application context";
  const size_t ctx_len = sizeof ctx - 1;
  s_len = sig_max;
  if (pqsig_sig_supports_context(sig)) {
    CHECK_STATUS(pqsig_sig_sign_with_ctx(sig, s, &s_len, msg, msg_len, ctx, ctx_len, sk, sk_len),
                 PQSIG_OK, name);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(sig, msg, msg_len, s, s_len, ctx, ctx_len, pk, pk_len),
                 PQSIG_OK, name);
    CHECK_STATUS(pqsig_sig_verify(sig, msg, msg_len, s, s_len, pk, pk_len),
                 PQSIG_ERR_VERIFICATION_FAILED, name);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(sig, msg, msg_len, s, s_len, ctx, ctx_len - 1, pk, pk_len),
                 PQSIG_ERR_VERIFICATION_FAILED, name);
    uint8_t long_ctx[256] = {0};
    size_t l = sig_max;
    CHECK_STATUS(pqsig_sig_sign_with_ctx(sig, s, &l, msg, msg_len, long_ctx, 256, sk, sk_len),
                 PQSIG_ERR_CONTEXT_TOO_LONG, name);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(sig, msg, msg_len, s, s_len, long_ctx, 256, pk, pk_len),
                 PQSIG_ERR_CONTEXT_TOO_LONG, name);
    l = sig_max;
    CHECK_STATUS(pqsig_sig_sign_with_ctx(sig, s, &l, msg, msg_len, long_ctx, 255, sk, sk_len),
                 PQSIG_OK, name);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(sig, msg, msg_len, s, l, long_ctx, 255, pk, pk_len),
                 PQSIG_OK, name);
  } else {
    CHECK_STATUS(pqsig_sig_sign_with_ctx(sig, s, &s_len, msg, msg_len, ctx, ctx_len, sk, sk_len),
                 PQSIG_ERR_UNSUPPORTED, name);
    CHECK(strstr(pqsig_last_error(), "not supported") != NULL, "%s: message", name);
    s_len = sig_max;
    CHECK_STATUS(pqsig_sig_sign_with_ctx(sig, s, &s_len, msg, msg_len, NULL, 0, sk, sk_len),
                 PQSIG_OK, name);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(sig, msg, msg_len, s, s_len, NULL, 0, pk, pk_len),
                 PQSIG_OK, name);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(sig, msg, msg_len, s, s_len, ctx, ctx_len, pk, pk_len),
                 PQSIG_ERR_UNSUPPORTED, name);
  }

  free(pk); free(sk); free(pk2); free(sk2); free(s); free(seed);
  pqsig_sig_free(sig);
}

int main(int argc, char **argv) {
  /* Optional arguments: run only these algorithms (default: every one). */
  size_t n = pqsig_alg_count();
  CHECK(n == 27, "pqsig_alg_count() = %zu", n);
  if (argc > 1) {
    for (int i = 1; i < argc; i++) test_algorithm(argv[i]);
  } else {
    for (size_t i = 0; i < n; i++) {
      const char *name = pqsig_alg_name(i);
      CHECK(name != NULL && pqsig_alg_is_enabled(name), "pqsig_alg_name(%zu)", i);
      if (name) test_algorithm(name);
    }
  }
  return check_report("test_roundtrip");
}
