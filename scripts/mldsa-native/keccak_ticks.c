/* Median TSC ticks of liboqs's own Keccak-f[1600] permutations (XKCP's one-state AVX2
 * assembly and its four-way AVX2 C code), for docs/PERFORMANCE.md's comparison with
 * pqsig's `cargo run -p pqsig --release --example keccak_ticks`. Linked against the
 * liboqs.a that scripts/mldsa-native-bench.sh builds:
 *   cc -O2 scripts/mldsa-native/keccak_ticks.c PATH/build-pqsig-bench/lib/liboqs.a -o kt
 * Same method as keccak_ticks: 2001 samples of 16 back-to-back permutations, median. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

void KeccakP1600_Initialize_avx2(void *state);
void KeccakP1600_Permute_24rounds_avx2(void *state);
void KeccakP1600times4_PermuteAll_24rounds_avx2(void *states);

enum { SAMPLES = 2001, INNER = 16 };

static int cmp(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median_ticks(void (*f)(void *), void *st) {
    static uint64_t t[SAMPLES];
    for (int i = 0; i < 200; i++) f(st);
    for (int i = 0; i < SAMPLES; i++) {
        uint64_t t0 = __rdtsc();
        for (int j = 0; j < INNER; j++) f(st);
        t[i] = (__rdtsc() - t0) / INNER;
    }
    qsort(t, SAMPLES, sizeof t[0], cmp);
    return t[SAMPLES / 2];
}

int main(void) {
    static uint64_t one[32] __attribute__((aligned(64)));
    static uint64_t four[100] __attribute__((aligned(64)));
    KeccakP1600_Initialize_avx2(one);
    for (int i = 0; i < 100; i++) four[i] = (uint64_t)i * 0x9E3779B97F4A7C15ull;
    printf("xkcp permute1 avx2 (KeccakP-1600-AVX2.S):   %6lu ticks\n",
           (unsigned long)median_ticks(KeccakP1600_Permute_24rounds_avx2, one));
    printf("xkcp permute4 avx2 (times4-SIMD256.c):      %6lu ticks\n",
           (unsigned long)median_ticks(KeccakP1600times4_PermuteAll_24rounds_avx2, four));
    return 0;
}
