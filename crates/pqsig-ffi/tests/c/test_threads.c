/* One handle shared by several threads; pqsig_last_error() is per thread: a failure in
 * one thread does not show in another, and each thread sees its own message. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pqsig.h"
#include "check.h"

#define THREADS 4
static pqsig_sig *shared;
static pthread_barrier_t barrier;

struct result { int ok; char message[256]; };

static void *worker(void *arg) {
  long id = (long)(intptr_t)arg;
  struct result *r = calloc(1, sizeof *r);
  size_t pk_len = pqsig_sig_length_public_key(shared), sk_len = pqsig_sig_length_secret_key(shared);
  size_t sig_len = pqsig_sig_length_signature(shared);
  uint8_t *pk = malloc(pk_len), *sk = malloc(sk_len), *s = malloc(sig_len);
  uint8_t msg[8] = {(uint8_t)id};
  r->ok = pqsig_sig_keypair(shared, pk, pk_len, sk, sk_len) == PQSIG_OK &&
          pqsig_sig_sign(shared, s, &sig_len, msg, sizeof msg, sk, sk_len) == PQSIG_OK &&
          pqsig_sig_verify(shared, msg, sizeof msg, s, sig_len, pk, pk_len) == PQSIG_OK;
  /* Odd threads fail a call, even threads succeed; then all compare their messages. */
  if (id % 2) {
    r->ok &= pqsig_sig_verify(shared, msg, sizeof msg, s, sig_len, pk, pk_len - (size_t)id) ==
             PQSIG_ERR_INVALID_LENGTH;
  }
  pthread_barrier_wait(&barrier);
  strncpy(r->message, pqsig_last_error(), sizeof r->message - 1);
  free(pk); free(sk); free(s);
  return r;
}

int main(void) {
  shared = pqsig_sig_new("ML-DSA-44");
  CHECK(shared != NULL, "new");
  if (!shared) return check_report("test_threads");
  pthread_barrier_init(&barrier, NULL, THREADS);
  pthread_t t[THREADS];
  for (long i = 0; i < THREADS; i++) pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
  for (long i = 0; i < THREADS; i++) {
    struct result *r;
    pthread_join(t[i], (void **)&r);
    CHECK(r->ok, "thread %ld: operations", i);
    if (i % 2) {
      char want[64];
      snprintf(want, sizeof want, "public key has %ld bytes", 1312 - i);
      CHECK(strstr(r->message, want) != NULL, "thread %ld: message \"%s\"", i, r->message);
    } else {
      CHECK(r->message[0] == '\0', "thread %ld: another thread's message \"%s\"", i, r->message);
    }
    free(r);
  }
  pthread_barrier_destroy(&barrier);
  pqsig_sig_free(shared);
  return check_report("test_threads");
}
