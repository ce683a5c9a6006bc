/* ntt_sim.h: C ABI of the Verilator co-simulation of hw/ntt (the accelerator top
 * ntt_accel with its AXI-Lite control slave and AXI4 master). The harness plays the
 * host: it writes the registers, serves the AXI4 master from a memory model standing
 * for the DMA window, and checks the AXI traffic by assertion. Every entry returns an
 * error code (never aborts). */
#ifndef NTT_SIM_H
#define NTT_SIM_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct ntt_sim ntt_sim;

typedef struct ntt_sim_config {
  uint32_t q;          /* 8380417 or 12289 */
  uint32_t n;          /* 256 (q = 8380417), 512 or 1024 (q = 12289) */
  uint32_t bfus;       /* 1, 2 or 4 */
  uint32_t kind;       /* 0 = radix-2 (bus 64*bfus bits), 1 = Winograd radix-8 (bfus = 1, bus 256 bits) */
  uint32_t stall_pct;  /* memory model: % of cycles each channel stalls (0..90) */
  uint32_t seed;       /* memory model stall pattern */
  uint32_t buf_offset; /* byte offset of the buffer inside its 4 KiB page */
} ntt_sim_config;

typedef struct ntt_sim_cycles {
  uint64_t load, compute, store, total; /* from the device's counters */
  uint64_t sim_cycles;                  /* clock cycles from start to done seen by host */
} ntt_sim_cycles;

enum {
  NTT_SIM_OK = 0,
  NTT_SIM_EBADARG = 1,     /* null pointer, unknown mode, too many polys */
  NTT_SIM_ECONFIG = 2,     /* configuration not compiled in */
  NTT_SIM_EOUTSIDE = 3,    /* AXI access outside the buffer */
  NTT_SIM_EBURST = 4,      /* illegal burst: type, size, len > 256, 4 KiB crossing, alignment */
  NTT_SIM_EPROTOCOL = 5,   /* W beats / WLAST do not match the burst, or a handshake rule */
  NTT_SIM_ETIMEOUT = 6,    /* done never came */
  NTT_SIM_EDEVICE = 7,     /* the device reported an error (ERR register) */
  NTT_SIM_EINCOMPLETE = 8, /* stopped by the caller's cycle limit (ntt_sim_run_for) */
};

/* mode: 0 = forward NTT, 1 = inverse NTT */
ntt_sim *ntt_sim_new(const ntt_sim_config *cfg, int *err);
void ntt_sim_free(ntt_sim *h);
/* Transforms num_polys polys of n words each, in place (words must hold num_polys*n). */
int ntt_sim_run(ntt_sim *h, uint32_t *words, uint32_t num_polys, uint32_t mode,
                ntt_sim_cycles *cycles);
/* Starts a request and stops after max_cycles whatever its state (NTT_SIM_EINCOMPLETE
 * if it had not finished); used to test a reset in the middle of a batch. */
int ntt_sim_run_for(ntt_sim *h, uint32_t *words, uint32_t num_polys, uint32_t mode,
                    uint64_t max_cycles, ntt_sim_cycles *cycles);
/* Asserts ARESETn for a few cycles and clears the memory model. */
int ntt_sim_reset(ntt_sim *h);
/* Places the buffer of the next requests at buf_offset bytes inside its 4 KiB page
 * (< 4096; a multiple of the bus width in bytes, or the device refuses the request). */
int ntt_sim_set_buf_offset(ntt_sim *h, uint32_t buf_offset);
/* Test hook: programs BUF_ADDR = real buffer + delta (the device then accesses outside
 * the buffer, which the assertions must catch). */
int ntt_sim_set_addr_skew(ntt_sim *h, int32_t delta_bytes);
/* Memory model latency: cycles from an AR handshake until its data may start
 * (default 0: the next cycle), and from the last W beat to the B response (default 2).
 * For cycle figures against a DDR-like memory; results do not depend on it. */
int ntt_sim_set_latency(ntt_sim *h, uint32_t read_cycles, uint32_t write_cycles);
/* Last error's message (NUL-terminated, truncated to len). */
void ntt_sim_error_message(const ntt_sim *h, char *buf, uint32_t len);
/* Configurations compiled into this library: writes up to max entries, returns count. */
uint32_t ntt_sim_configs(ntt_sim_config *out, uint32_t max);

#ifdef __cplusplus
}
#endif
#endif
