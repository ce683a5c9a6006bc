// ntt_sim.cpp: the C ABI of the co-simulation. The configurations compiled in are
// listed by the generated header ntt_sim_configs.h (X-macro NTT_SIM_CONFIGS(X), one
// X(ModelClass, q, n, bfus, kind) per Verilated model), written by the build script.
#include "ntt_sim.h"

#include <cstring>
#include <new>

#include "ntt_sim_configs.h"
#include "ntt_sim_impl.h"

struct ntt_sim {
  nttsim::Base *impl;
};

// Verilator's runtime wants this symbol when a model is built without --main.
double sc_time_stamp() { return 0; }

static nttsim::Base *make(const ntt_sim_config &c) {
#define NTT_SIM_MAKE(V, Q, N, B, K)                                              \
  if (c.q == (Q) && c.n == (N) && c.bfus == (B) && c.kind == (K))                 \
    return new (std::nothrow) nttsim::Sim<V>(c);
  NTT_SIM_CONFIGS(NTT_SIM_MAKE)
#undef NTT_SIM_MAKE
  return nullptr;
}

extern "C" {

ntt_sim *ntt_sim_new(const ntt_sim_config *cfg, int *err) {
  if (err) *err = NTT_SIM_OK;
  if (!cfg) {
    if (err) *err = NTT_SIM_EBADARG;
    return nullptr;
  }
  if (cfg->stall_pct > 90 || cfg->buf_offset >= 4096) {
    if (err) *err = NTT_SIM_EBADARG;
    return nullptr;
  }
  try {
    nttsim::Base *b = make(*cfg);
    if (!b) {
      if (err) *err = NTT_SIM_ECONFIG;
      return nullptr;
    }
    ntt_sim *h = new (std::nothrow) ntt_sim;
    if (!h) {
      delete b;
      if (err) *err = NTT_SIM_EBADARG;
      return nullptr;
    }
    h->impl = b;
    return h;
  } catch (...) {
    if (err) *err = NTT_SIM_ECONFIG;
    return nullptr;
  }
}

void ntt_sim_free(ntt_sim *h) {
  if (!h) return;
  delete h->impl;
  delete h;
}

int ntt_sim_run(ntt_sim *h, uint32_t *words, uint32_t num_polys, uint32_t mode,
                ntt_sim_cycles *cycles) {
  if (!h) return NTT_SIM_EBADARG;
  try {
    return h->impl->run(words, num_polys, mode, 0, cycles);
  } catch (...) {
    return NTT_SIM_EPROTOCOL;
  }
}

int ntt_sim_run_for(ntt_sim *h, uint32_t *words, uint32_t num_polys, uint32_t mode,
                    uint64_t max_cycles, ntt_sim_cycles *cycles) {
  if (!h || max_cycles == 0) return NTT_SIM_EBADARG;
  try {
    return h->impl->run(words, num_polys, mode, max_cycles, cycles);
  } catch (...) {
    return NTT_SIM_EPROTOCOL;
  }
}

int ntt_sim_reset(ntt_sim *h) {
  if (!h) return NTT_SIM_EBADARG;
  return h->impl->reset();
}

int ntt_sim_set_buf_offset(ntt_sim *h, uint32_t buf_offset) {
  if (!h || buf_offset >= 4096) return NTT_SIM_EBADARG;
  h->impl->cfg.buf_offset = buf_offset;
  return NTT_SIM_OK;
}

int ntt_sim_set_addr_skew(ntt_sim *h, int32_t delta_bytes) {
  if (!h) return NTT_SIM_EBADARG;
  h->impl->skew = delta_bytes;
  return NTT_SIM_OK;
}

int ntt_sim_set_latency(ntt_sim *h, uint32_t read_cycles, uint32_t write_cycles) {
  if (!h || read_cycles > 10000 || write_cycles > 10000) return NTT_SIM_EBADARG;
  h->impl->read_latency = read_cycles;
  h->impl->write_latency = write_cycles;
  return NTT_SIM_OK;
}

void ntt_sim_error_message(const ntt_sim *h, char *buf, uint32_t len) {
  if (!buf || len == 0) return;
  buf[0] = 0;
  if (!h) return;
  std::strncpy(buf, h->impl->msg.c_str(), len - 1);
  buf[len - 1] = 0;
}

uint32_t ntt_sim_configs(ntt_sim_config *out, uint32_t max) {
  uint32_t k = 0;
#define NTT_SIM_LIST(V, Q, N, B, K)                   \
  if (out && k < max) {                               \
    std::memset(&out[k], 0, sizeof(ntt_sim_config));  \
    out[k].q = (Q); out[k].n = (N); out[k].bfus = (B); \
    out[k].kind = (K);                                \
  }                                                   \
  k++;
  NTT_SIM_CONFIGS(NTT_SIM_LIST)
#undef NTT_SIM_LIST
  return k;
}

}  // extern "C"
