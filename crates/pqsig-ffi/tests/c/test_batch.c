/* pqsig_sign_batch and pqsig_verify_batch: mixed algorithms, every item's status equal
 * to the single call's, the overall status (first failing item), NULL results, bad
 * items (NULL pointers, wrong lengths, small buffers, contexts), count 0, items NULL. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "pqsig.h"
#include "check.h"

#define ALGS 4
#define PER_ALG 6
#define N (ALGS * PER_ALG)

static const char *names[ALGS] = {"ML-DSA-65", "ML-DSA-44", "Falcon-512", "SNOVA_I_S"};

struct keys {
  pqsig_sig *sig;
  uint8_t *pk, *sk;
  size_t pk_len, sk_len, sig_max;
};

int main(void) {
  struct keys k[ALGS];
  for (int a = 0; a < ALGS; a++) {
    k[a].sig = pqsig_sig_new(names[a]);
    CHECK(k[a].sig != NULL, "pqsig_sig_new(%s)", names[a]);
    if (!k[a].sig) return check_report("test_batch");
    k[a].pk_len = pqsig_sig_length_public_key(k[a].sig);
    k[a].sk_len = pqsig_sig_length_secret_key(k[a].sig);
    k[a].sig_max = pqsig_sig_length_signature(k[a].sig);
    k[a].pk = malloc(k[a].pk_len);
    k[a].sk = malloc(k[a].sk_len);
    CHECK_STATUS(pqsig_sig_keypair(k[a].sig, k[a].pk, k[a].pk_len, k[a].sk, k[a].sk_len),
                 PQSIG_OK, names[a]);
  }

  /* Sign N messages, algorithms interleaved; contexts where the algorithm has them. */
  uint8_t msgs[N][16];
  uint8_t *sigs[N];
  pqsig_sign_item si[N];
  pqsig_status res[N];
  static const uint8_t ctx[] = "batch ctx";
  for (int i = 0; i < N; i++) {
    struct keys *kk = &k[i % ALGS];
    memset(msgs[i], 'a' + i, sizeof msgs[i]);
    sigs[i] = malloc(kk->sig_max);
    int with_ctx = pqsig_sig_supports_context(kk->sig) && i % 2;
    si[i] = (pqsig_sign_item){kk->sig, kk->sk, kk->sk_len, msgs[i], sizeof msgs[i],
                              with_ctx ? ctx : NULL, with_ctx ? sizeof ctx - 1 : 0,
                              sigs[i], kk->sig_max};
  }
  CHECK_STATUS(pqsig_sign_batch(si, N, res), PQSIG_OK, "sign batch");
  CHECK(strcmp(pqsig_last_error(), "") == 0, "last error not cleared");
  for (int i = 0; i < N; i++) {
    struct keys *kk = &k[i % ALGS];
    CHECK_STATUS(res[i], PQSIG_OK, "sign item");
    CHECK(si[i].signature_len > 0 && si[i].signature_len <= kk->sig_max, "item %d length %zu", i,
          si[i].signature_len);
    CHECK_STATUS(pqsig_sig_verify_with_ctx(kk->sig, msgs[i], sizeof msgs[i], sigs[i],
                                           si[i].signature_len, si[i].ctx, si[i].ctx_len,
                                           kk->pk, kk->pk_len),
                 PQSIG_OK, "batch signature verifies");
  }

  /* Verify them back, then spoil some items; each status must equal the single call's. */
  pqsig_verify_item vi[N + 4];
  for (int i = 0; i < N; i++) {
    struct keys *kk = &k[i % ALGS];
    vi[i] = (pqsig_verify_item){kk->sig, kk->pk, kk->pk_len, msgs[i], sizeof msgs[i],
                                si[i].ctx, si[i].ctx_len, sigs[i], si[i].signature_len};
  }
  /* Item 3 passes its own copy of the key (decoded by the engine; the others share
   * their algorithm's buffer, decoded once). */
  uint8_t *pk_copy = malloc(k[3].pk_len);
  memcpy(pk_copy, k[3].pk, k[3].pk_len);
  vi[3].public_key = pk_copy;
  CHECK_STATUS(pqsig_verify_batch(vi, N, res), PQSIG_OK, "verify batch");
  for (int i = 0; i < N; i++) CHECK_STATUS(res[i], PQSIG_OK, "verify item");
  CHECK_STATUS(pqsig_verify_batch(vi, N, NULL), PQSIG_OK, "verify batch, results NULL");

  uint8_t other[16] = {0};
  uint8_t *tampered = malloc(si[4].signature_len);
  memcpy(tampered, sigs[4], si[4].signature_len);
  tampered[10] ^= 1;
  vi[2].message = other;                           /* wrong message */
  vi[4].signature = tampered;                      /* tampered signature */
  vi[5].signature_len -= 1;                        /* truncated */
  vi[7].public_key_len = 3;                        /* wrong key length */
  vi[9].ctx = ctx; vi[9].ctx_len = 3;              /* wrong context */
  vi[N] = vi[0]; vi[N].sig = NULL;                 /* no algorithm */
  vi[N + 1] = vi[1]; vi[N + 1].signature = NULL;   /* no signature */
  vi[N + 2] = vi[2]; vi[N + 2].message = NULL;     /* NULL message with a length */
  vi[N + 3] = vi[6]; vi[N + 3].ctx = ctx; vi[N + 3].ctx_len = 1; /* Falcon: no context */
  pqsig_status all[N + 4];
  pqsig_status first = pqsig_verify_batch(vi, N + 4, all);
  CHECK_STATUS(first, PQSIG_ERR_VERIFICATION_FAILED, "first failing item's status");
  CHECK(strstr(pqsig_last_error(), "item 2") != NULL, "message names item 2");
  for (int i = 0; i < N + 4; i++) {
    pqsig_verify_item *v = &vi[i];
    pqsig_status single =
        pqsig_sig_verify_with_ctx(v->sig, v->message, v->message_len, v->signature,
                                  v->signature_len, v->ctx, v->ctx_len, v->public_key,
                                  v->public_key_len);
    CHECK(all[i] == single, "item %d: batch %d (%s), single %d (%s)", i, (int)all[i],
          pqsig_status_string(all[i]), (int)single, pqsig_status_string(single));
    CHECK((all[i] == PQSIG_OK) == (i < N && i != 2 && i != 4 && i != 5 && i != 7 && i != 9),
          "item %d: status %d", i, (int)all[i]);
  }
  CHECK_STATUS(all[N], PQSIG_ERR_NULL_POINTER, "no algorithm");
  CHECK_STATUS(all[7], PQSIG_ERR_INVALID_LENGTH, "wrong key length");
  CHECK_STATUS(all[N + 3], PQSIG_ERR_UNSUPPORTED, "Falcon context");

  /* Signing failures: a small buffer (untouched, length 0), a context Falcon lacks, a
   * wrong secret-key length; the good item in between is still signed. */
  uint8_t small[8] = {0};
  pqsig_sign_item bad[4] = {si[0], si[1], si[2], si[3]};
  bad[0].signature = small; bad[0].signature_len = sizeof small;
  bad[2].ctx = ctx; bad[2].ctx_len = 2;            /* index 2 is Falcon-512 */
  bad[3].secret_key_len -= 1;
  /* The first batch left the signatures' lengths in signature_len: capacities again. */
  for (int i = 1; i < 4; i++) bad[i].signature_len = k[i].sig_max;
  pqsig_status bres[4];
  CHECK_STATUS(pqsig_sign_batch(bad, 4, bres), PQSIG_ERR_BUFFER_TOO_SMALL, "sign failures");
  CHECK(strstr(pqsig_last_error(), "item 0") != NULL, "message names item 0");
  CHECK_STATUS(bres[0], PQSIG_ERR_BUFFER_TOO_SMALL, "small buffer");
  CHECK(bad[0].signature_len == 0 && small[0] == 0 && small[7] == 0, "small buffer untouched");
  CHECK_STATUS(bres[1], PQSIG_OK, "good item");
  CHECK_STATUS(pqsig_sig_verify(k[1].sig, msgs[1], sizeof msgs[1], bad[1].signature,
                                bad[1].signature_len, k[1].pk, k[1].pk_len),
               PQSIG_ERR_VERIFICATION_FAILED, "item 1 was signed with its context");
  CHECK_STATUS(pqsig_sig_verify_with_ctx(k[1].sig, msgs[1], sizeof msgs[1], bad[1].signature,
                                         bad[1].signature_len, bad[1].ctx, bad[1].ctx_len,
                                         k[1].pk, k[1].pk_len),
               PQSIG_OK, "good item verifies");
  CHECK_STATUS(bres[2], PQSIG_ERR_UNSUPPORTED, "Falcon context");
  CHECK(bad[2].signature_len == 0, "failed item length 0");
  CHECK_STATUS(bres[3], PQSIG_ERR_INVALID_LENGTH, "secret key length");

#if defined(__unix__) || defined(__APPLE__)
  /* A child forked after the batches above (the pool's threads are not inherited) still
   * runs batches; an alarm turns a hang into a failure. */
  pid_t child = fork();
  if (child == 0) {
    alarm(60);
    pqsig_verify_item one[2] = {vi[0], vi[1]};
    _exit(pqsig_verify_batch(one, 2, NULL) == PQSIG_OK ? 0 : 1);
  }
  int wstatus = 0;
  CHECK(child > 0 && waitpid(child, &wstatus, 0) == child, "fork/wait");
  CHECK(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0, "batch in a forked child (status %d)",
        wstatus);
#endif

  /* Degenerate calls. */
  CHECK_STATUS(pqsig_verify_batch(NULL, 0, NULL), PQSIG_OK, "count 0");
  CHECK_STATUS(pqsig_sign_batch(NULL, 0, NULL), PQSIG_OK, "count 0");
  pqsig_status r2[2] = {PQSIG_OK, PQSIG_OK};
  CHECK_STATUS(pqsig_verify_batch(NULL, 2, r2), PQSIG_ERR_NULL_POINTER, "items NULL");
  CHECK(r2[0] == PQSIG_ERR_NULL_POINTER && r2[1] == PQSIG_ERR_NULL_POINTER, "results filled");
  CHECK_STATUS(pqsig_sign_batch(NULL, 2, NULL), PQSIG_ERR_NULL_POINTER, "items NULL");
  CHECK_STATUS(pqsig_verify_batch(vi, (size_t)-1, NULL), PQSIG_ERR_INVALID_LENGTH, "huge count");

  free(tampered);
  free(pk_copy);
  for (int i = 0; i < N; i++) free(sigs[i]);
  for (int a = 0; a < ALGS; a++) {
    free(k[a].pk);
    free(k[a].sk);
    pqsig_sig_free(k[a].sig);
  }
  return check_report("test_batch");
}
