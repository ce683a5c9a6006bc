// C ABI of the Verilator harness of hw/falcon (crates/pqsig-hwsim, module `falcon`).
#pragma once
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define FALCON_SIM_OK 0
#define FALCON_SIM_EBADARG 1
#define FALCON_SIM_ETIMEOUT 2

// Operations of falcon_fpu_stream.
#define FALCON_FPU_ADD 0
#define FALCON_FPU_SUB 1
#define FALCON_FPU_MUL 2

// Streams `count` operand pairs through one unit (falcon_fpadd for ADD/SUB, falcon_fpmul
// for MUL), one pair per clock cycle (II = 1); out[i] = the result for (a[i], b[i]).
// *latency (may be NULL) receives the unit's latency in cycles, measured on the model.
int falcon_fpu_stream(uint32_t op, const uint64_t *a, const uint64_t *b, uint64_t *out,
                      size_t count, uint32_t *latency);

// Runs one transform on the FFT engine for logn 9 or 10 with `units` adders/multipliers: loads the n words of `data`
// (binary64 bit patterns, the library's layout) through the host port, starts fft
// (inverse = 0) or ifft (inverse = 1), waits for the end and reads the result back
// into `data`. *cycles (may be NULL) receives the engine's cycle count (start to done).
// units = 1 (one adder, one multiplier) or 2 (two of each): the engine's UNITS parameter.
int falcon_fft_run(uint32_t units, uint32_t logn, uint32_t inverse, uint64_t *data,
                   uint64_t *cycles);

#ifdef __cplusplus
}
#endif
