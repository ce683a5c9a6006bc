/* A minimal test harness shared by the C tests: CHECK records a failure and goes on. */
#ifndef PQSIG_TEST_CHECK_H
#define PQSIG_TEST_CHECK_H
#include <stdio.h>

static int check_failures = 0;
static int check_count = 0;

#define CHECK(cond, ...)                                                        \
  do {                                                                          \
    check_count++;                                                              \
    if (!(cond)) {                                                              \
      check_failures++;                                                         \
      fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond);  \
      fprintf(stderr, __VA_ARGS__);                                             \
      fprintf(stderr, " (last error: \"%s\")\n", pqsig_last_error());           \
    }                                                                           \
  } while (0)

#define CHECK_STATUS(expr, want, what)                                          \
  do {                                                                          \
    pqsig_status got_ = (expr);                                                 \
    CHECK(got_ == (want), "%s: got %d (%s), want %d (%s)", (what), (int)got_,   \
          pqsig_status_string(got_), (int)(want), pqsig_status_string(want));   \
  } while (0)

static int check_report(const char *name) {
  if (check_failures) {
    fprintf(stderr, "%s: %d of %d checks FAILED\n", name, check_failures, check_count);
    return 1;
  }
  printf("%s: all %d checks passed\n", name, check_count);
  return 0;
}
#endif
