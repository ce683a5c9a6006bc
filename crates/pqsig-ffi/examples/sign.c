/* pqsig C example: generate a key pair, sign a message, verify the signature.
 *
 *   cc -I crates/pqsig-ffi/include crates/pqsig-ffi/examples/sign.c \
 *      target/release/libpqsig_ffi.a -lpthread -ldl -lm -o sign
 *   ./sign ML-DSA-65 "hello"
 *
 * (or `cc sign.c $(pkg-config --cflags --libs pqsig)` once installed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqsig.h"

int main(int argc, char **argv) {
  const char *name = argc > 1 ? argv[1] : "ML-DSA-65";
  const char *text = argc > 2 ? argv[2] : "hello, post-quantum world";

  pqsig_sig *sig = pqsig_sig_new(name);
  if (sig == NULL) {
    fprintf(stderr, "error: %s\navailable:", pqsig_last_error());
    for (size_t i = 0; i < pqsig_alg_count(); i++) fprintf(stderr, " %s", pqsig_alg_name(i));
    fprintf(stderr, "\n");
    return 2;
  }

  size_t pk_len = pqsig_sig_length_public_key(sig);
  size_t sk_len = pqsig_sig_length_secret_key(sig);
  size_t sig_len = pqsig_sig_length_signature(sig); /* capacity in, length out */
  uint8_t *pk = malloc(pk_len), *sk = malloc(sk_len), *signature = malloc(sig_len);
  int rc = 2;
  if (!pk || !sk || !signature) goto done;

  pqsig_status st = pqsig_sig_keypair(sig, pk, pk_len, sk, sk_len);
  if (st != PQSIG_OK) {
    fprintf(stderr, "keypair: %s\n", pqsig_last_error());
    goto done;
  }
  st = pqsig_sig_sign(sig, signature, &sig_len, (const uint8_t *)text, strlen(text), sk, sk_len);
  if (st != PQSIG_OK) {
    fprintf(stderr, "sign: %s\n", pqsig_last_error());
    goto done;
  }
  st = pqsig_sig_verify(sig, (const uint8_t *)text, strlen(text), signature, sig_len, pk, pk_len);
  printf("%s: public key %zu bytes, secret key %zu bytes, signature %zu bytes: %s\n",
         pqsig_sig_name(sig), pk_len, sk_len, sig_len,
         st == PQSIG_OK ? "valid" : pqsig_status_string(st));
  rc = st == PQSIG_OK ? 0 : 1;

done:
  if (sk) memset(sk, 0, sk_len); /* a real program would use explicit_bzero */
  free(pk);
  free(sk);
  free(signature);
  pqsig_sig_free(sig);
  return rc;
}
