/* Misuse is reported with status codes and a message, never a crash: unknown names,
 * NULL pointers, wrong lengths, too-small buffers; the enumeration functions. */
#include <stdlib.h>
#include <string.h>

#include "pqsig.h"
#include "check.h"

#define ALG "ML-DSA-44"

static void test_names(void) {
  CHECK(pqsig_sig_new("NOT-AN-ALGORITHM") == NULL, "unknown name gave a handle");
  CHECK(strstr(pqsig_last_error(), "NOT-AN-ALGORITHM") != NULL, "message names the input");
  CHECK(pqsig_sig_new(NULL) == NULL, "NULL name gave a handle");
  CHECK(strstr(pqsig_last_error(), "NULL") != NULL, "message for NULL name");
  CHECK(pqsig_sig_new("\xff\xfe") == NULL, "invalid UTF-8 gave a handle");
  CHECK(pqsig_sig_new("") == NULL, "empty name gave a handle");

  /* Spellings: case-insensitive, - and _ interchangeable; canonical name returned. */
  pqsig_sig *s = pqsig_sig_new("ml_dsa_44");
  CHECK(s != NULL && strcmp(pqsig_sig_name(s), "ML-DSA-44") == 0, "alternate spelling");
  CHECK(strcmp(pqsig_last_error(), "") == 0, "success clears the last error");
  pqsig_sig_free(s);

  CHECK(pqsig_alg_is_enabled("SNOVA_V_S_AES"), "SNOVA_V_S_AES enabled");
  CHECK(pqsig_alg_is_enabled("falcon-padded-1024"), "falcon-padded-1024 enabled");
  CHECK(!pqsig_alg_is_enabled("RSA-2048"), "RSA-2048 not enabled");
  CHECK(!pqsig_alg_is_enabled(NULL), "NULL not enabled");
  size_t n = pqsig_alg_count();
  CHECK(pqsig_alg_name(n) == NULL && pqsig_alg_name((size_t)-1) == NULL, "name out of range");
  CHECK(strcmp(pqsig_alg_name(0), "ML-DSA-44") == 0, "first name");
  int families[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; i++) {
    const char *a = pqsig_alg_name(i);
    families[0] += strncmp(a, "ML-DSA-", 7) == 0;
    families[1] += strncmp(a, "Falcon-", 7) == 0;
    families[2] += strncmp(a, "FN-DSA-", 7) == 0;
    families[3] += strncmp(a, "SNOVA_", 6) == 0;
  }
  CHECK(families[0] == 3 && families[1] == 4 && families[2] == 2 && families[3] == 18,
        "families %d %d %d %d", families[0], families[1], families[2], families[3]);

  CHECK(strcmp(pqsig_status_string(PQSIG_OK), "ok") == 0, "status string");
  CHECK(strcmp(pqsig_status_string(9999), "unknown status") == 0, "unknown status");
  CHECK(strcmp(pqsig_status_string(-1), "unknown status") == 0, "negative status");
  CHECK(pqsig_version() != NULL && strlen(pqsig_version()) > 0, "version");
}

static void test_null_handle(void) {
  uint8_t buf[64];
  size_t len = sizeof buf;
  CHECK(pqsig_sig_length_public_key(NULL) == 0 && pqsig_sig_length_secret_key(NULL) == 0 &&
        pqsig_sig_length_signature(NULL) == 0 && pqsig_sig_length_seed(NULL) == 0,
        "lengths of NULL");
  CHECK(pqsig_sig_name(NULL) == NULL && !pqsig_sig_supports_context(NULL), "NULL handle");
  pqsig_sig_free(NULL);
  CHECK_STATUS(pqsig_sig_keypair(NULL, buf, 64, buf, 64), PQSIG_ERR_NULL_POINTER, "keypair");
  CHECK(strstr(pqsig_last_error(), "sig is NULL") != NULL, "message");
  CHECK_STATUS(pqsig_sig_keypair_from_seed(NULL, buf, 32, buf, 64, buf, 64),
               PQSIG_ERR_NULL_POINTER, "keypair_from_seed");
  CHECK_STATUS(pqsig_sig_sign(NULL, buf, &len, buf, 1, buf, 64), PQSIG_ERR_NULL_POINTER, "sign");
  CHECK_STATUS(pqsig_sig_verify(NULL, buf, 1, buf, 64, buf, 64), PQSIG_ERR_NULL_POINTER, "verify");
  CHECK_STATUS(pqsig_sig_sign_with_ctx(NULL, buf, &len, buf, 1, buf, 1, buf, 64),
               PQSIG_ERR_NULL_POINTER, "sign_with_ctx");
  CHECK_STATUS(pqsig_sig_verify_with_ctx(NULL, buf, 1, buf, 64, buf, 1, buf, 64),
               PQSIG_ERR_NULL_POINTER, "verify_with_ctx");
}

static void test_arguments(void) {
  pqsig_sig *sig = pqsig_sig_new(ALG);
  CHECK(sig != NULL, "new");
  if (!sig) return;
  size_t pk_len = pqsig_sig_length_public_key(sig), sk_len = pqsig_sig_length_secret_key(sig);
  size_t sig_max = pqsig_sig_length_signature(sig), seed_len = pqsig_sig_length_seed(sig);
  CHECK(pk_len == 1312 && sk_len == 2560 && sig_max == 2420 && seed_len == 32, "ML-DSA-44 lengths");
  uint8_t *pk = calloc(1, pk_len), *sk = calloc(1, sk_len), *s = calloc(1, sig_max + 1);
  uint8_t seed[33] = {1};
  const uint8_t msg[] = "message";

  /* Key generation: NULL outputs, small buffers, seed length. */
  CHECK_STATUS(pqsig_sig_keypair(sig, NULL, pk_len, sk, sk_len), PQSIG_ERR_NULL_POINTER, "pk NULL");
  CHECK(strstr(pqsig_last_error(), "public_key is NULL") != NULL, "message");
  CHECK_STATUS(pqsig_sig_keypair(sig, pk, pk_len, NULL, sk_len), PQSIG_ERR_NULL_POINTER, "sk NULL");
  CHECK_STATUS(pqsig_sig_keypair(sig, pk, pk_len - 1, sk, sk_len), PQSIG_ERR_BUFFER_TOO_SMALL, "pk small");
  CHECK_STATUS(pqsig_sig_keypair(sig, pk, pk_len, sk, sk_len - 1), PQSIG_ERR_BUFFER_TOO_SMALL, "sk small");
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, NULL, 32, pk, pk_len, sk, sk_len),
               PQSIG_ERR_NULL_POINTER, "seed NULL");
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, NULL, 0, pk, pk_len, sk, sk_len),
               PQSIG_ERR_NULL_POINTER, "seed NULL, length 0");
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, seed, 31, pk, pk_len, sk, sk_len),
               PQSIG_ERR_INVALID_LENGTH, "seed 31");
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, seed, 33, pk, pk_len, sk, sk_len),
               PQSIG_ERR_INVALID_LENGTH, "seed 33");
  CHECK(strstr(pqsig_last_error(), "32 expected") != NULL, "seed message");
  CHECK_STATUS(pqsig_sig_keypair_from_seed(sig, seed, 32, pk, pk_len, sk, sk_len), PQSIG_OK, "seeded");

  /* Signing: NULL arguments, small buffer, wrong key length, corrupt key. */
  size_t len = sig_max;
  CHECK_STATUS(pqsig_sig_sign(sig, NULL, &len, msg, 7, sk, sk_len), PQSIG_ERR_NULL_POINTER, "sig NULL");
  CHECK_STATUS(pqsig_sig_sign(sig, s, NULL, msg, 7, sk, sk_len), PQSIG_ERR_NULL_POINTER, "len NULL");
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, NULL, 7, sk, sk_len), PQSIG_ERR_NULL_POINTER, "msg NULL");
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, msg, 7, NULL, sk_len), PQSIG_ERR_NULL_POINTER, "sk NULL");
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, msg, 7, NULL, 0), PQSIG_ERR_NULL_POINTER, "sk NULL, 0");
  CHECK_STATUS(pqsig_sig_sign_with_ctx(sig, s, &len, msg, 7, NULL, 3, sk, sk_len),
               PQSIG_ERR_NULL_POINTER, "ctx NULL");
  CHECK(len == sig_max, "len changed on failure");
  len = sig_max - 1;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, msg, 7, sk, sk_len), PQSIG_ERR_BUFFER_TOO_SMALL, "small sig");
  CHECK(len == sig_max - 1, "len changed on failure");
  len = sig_max;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, msg, 7, sk, sk_len - 1), PQSIG_ERR_INVALID_LENGTH, "sk len");
  len = sig_max + 1; /* a larger buffer is fine; the length written is returned */
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, msg, 7, sk, sk_len), PQSIG_OK, "sign");
  CHECK(len == sig_max, "signature length %zu", len);

  /* Verification: NULL arguments, wrong lengths, a corrupted public key. */
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, len, pk, pk_len), PQSIG_OK, "verify");
  CHECK_STATUS(pqsig_sig_verify(sig, NULL, 7, s, len, pk, pk_len), PQSIG_ERR_NULL_POINTER, "msg NULL");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, NULL, len, pk, pk_len), PQSIG_ERR_NULL_POINTER, "sig NULL");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, NULL, 0, pk, pk_len), PQSIG_ERR_NULL_POINTER, "sig NULL, 0");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, len, NULL, pk_len), PQSIG_ERR_NULL_POINTER, "pk NULL");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, len, pk, pk_len - 1), PQSIG_ERR_INVALID_LENGTH, "pk len");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, len + 1, pk, pk_len), PQSIG_ERR_INVALID_SIGNATURE, "sig len+1");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, 0, pk, pk_len), PQSIG_ERR_INVALID_SIGNATURE, "sig len 0");
  pk[0] ^= 1;
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, len, pk, pk_len), PQSIG_ERR_VERIFICATION_FAILED, "other pk");
  pk[0] ^= 1;
  CHECK(strcmp(pqsig_last_error(), "") != 0, "failure leaves a message");
  CHECK_STATUS(pqsig_sig_verify(sig, msg, 7, s, len, pk, pk_len), PQSIG_OK, "verify again");
  CHECK(strcmp(pqsig_last_error(), "") == 0, "success clears the message");

  free(pk); free(sk); free(s);
  pqsig_sig_free(sig);
}

static void test_falcon_variable_length(void) {
  /* Falcon-512 (compressed): signatures vary and are at most the advertised maximum; a
   * buffer below the maximum is refused up front even if a given signature would fit. */
  pqsig_sig *sig = pqsig_sig_new("Falcon-512");
  CHECK(sig != NULL, "Falcon-512");
  if (!sig) return;
  size_t pk_len = pqsig_sig_length_public_key(sig), sk_len = pqsig_sig_length_secret_key(sig);
  size_t sig_max = pqsig_sig_length_signature(sig);
  uint8_t *pk = malloc(pk_len), *sk = malloc(sk_len), *s = malloc(sig_max);
  CHECK_STATUS(pqsig_sig_keypair(sig, pk, pk_len, sk, sk_len), PQSIG_OK, "keypair");
  size_t len = sig_max - 1;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, (const uint8_t *)"m", 1, sk, sk_len),
               PQSIG_ERR_BUFFER_TOO_SMALL, "below max");
  len = sig_max;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, (const uint8_t *)"m", 1, sk, sk_len), PQSIG_OK, "sign");
  CHECK(len < sig_max, "compressed Falcon signature %zu of max %zu", len, sig_max);
  CHECK_STATUS(pqsig_sig_verify(sig, (const uint8_t *)"m", 1, s, len, pk, pk_len), PQSIG_OK, "verify");
  /* A corrupted secret key: the Falcon header byte is checked. */
  sk[0] ^= 0xff;
  len = sig_max;
  CHECK_STATUS(pqsig_sig_sign(sig, s, &len, (const uint8_t *)"m", 1, sk, sk_len),
               PQSIG_ERR_INVALID_KEY, "corrupt sk");
  free(pk); free(sk); free(s);
  pqsig_sig_free(sig);
}

int main(void) {
  test_names();
  test_null_handle();
  test_arguments();
  test_falcon_variable_length();
  return check_report("test_errors");
}
