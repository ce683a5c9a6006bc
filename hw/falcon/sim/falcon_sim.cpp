// Verilator host harness of hw/falcon: streams operands through the binary64 units and
// drives the FFT engine's host port. C ABI in falcon_sim.h.
#include "falcon_sim.h"

#include <memory>

#include "Vfalcon_fpadd.h"
#include "Vfalcon_fft_n1024.h"
#include "Vfalcon_fft_n512.h"
#include "Vfalcon_fft2_n1024.h"
#include "Vfalcon_fft2_n512.h"
#include "Vfalcon_fpmul.h"
#include "verilated.h"

// sc_time_stamp is defined once for the crate, by hw/ntt/sim/ntt_sim.cpp.

namespace {

template <class M>
void tick(M &m) {
  m.clk = 0;
  m.eval();
  m.clk = 1;
  m.eval();
}

// Feeds (a, b, sub) for one cycle and returns the unit output after the edge.
template <class M>
uint64_t step(M &m, uint64_t a, uint64_t b, uint32_t sub);
template <>
uint64_t step(Vfalcon_fpadd &m, uint64_t a, uint64_t b, uint32_t sub) {
  m.a = a;
  m.b = b;
  m.sub = sub;
  tick(m);
  return m.y;
}
template <>
uint64_t step(Vfalcon_fpmul &m, uint64_t a, uint64_t b, uint32_t) {
  m.a = a;
  m.b = b;
  tick(m);
  return m.y;
}

template <class M>
int stream(M &m, uint32_t sub, const uint64_t *a, const uint64_t *b, uint64_t *out,
           size_t count, uint32_t *latency) {
  // Measure the latency: zeros, then 1.0 op 1.0 once; the first non-zero output.
  const uint64_t one = 0x3FF0000000000000ull;
  for (int i = 0; i < 32; i++) step(m, 0, 0, 0);
  uint32_t lat = 0;
  for (uint32_t c = 0; c < 64 && lat == 0; c++) {
    uint64_t y = c == 0 ? step(m, one, one, 0) : step(m, 0, 0, 0);
    if (y != 0) lat = c + 1;
  }
  if (lat == 0) return FALCON_SIM_ETIMEOUT;
  if (latency) *latency = lat;
  for (int i = 0; i < 32; i++) step(m, 0, 0, 0);
  // The stream, one pair per cycle: pair c's result leaves after edge c + lat.
  for (size_t c = 0; c < count + lat; c++) {
    uint64_t y = c < count ? step(m, a[c], b[c], sub) : step(m, 0, 0, sub);
    if (c + 1 >= lat && c + 1 - lat < count) out[c + 1 - lat] = y;
  }
  return FALCON_SIM_OK;
}

template <class M>
int fft(M &m, uint32_t n, uint32_t inverse, uint64_t *data, uint64_t *cycles) {
  m.rst = 1;
  m.start = 0;
  m.host_we = 0;
  tick(m);
  tick(m);
  m.rst = 0;
  for (uint32_t i = 0; i < n; i++) {
    m.host_we = 1;
    m.host_addr = i;
    m.host_wdata = data[i];
    tick(m);
  }
  m.host_we = 0;
  m.start = 1;
  m.inverse = inverse;
  tick(m);
  m.start = 0;
  uint64_t guard = 0;
  while (m.busy) {
    tick(m);
    if (++guard > 10000000ull) return FALCON_SIM_ETIMEOUT;
  }
  if (cycles) *cycles = m.cycles;
  // Reads: address in one cycle, data after the edge.
  for (uint32_t i = 0; i < n; i++) {
    m.host_addr = i;
    tick(m);
    data[i] = m.host_rdata;
  }
  return FALCON_SIM_OK;
}

}  // namespace

extern "C" int falcon_fpu_stream(uint32_t op, const uint64_t *a, const uint64_t *b,
                                 uint64_t *out, size_t count, uint32_t *latency) {
  if ((count > 0 && (!a || !b || !out)) || op > FALCON_FPU_MUL) return FALCON_SIM_EBADARG;
  if (op == FALCON_FPU_MUL) {
    auto m = std::make_unique<Vfalcon_fpmul>();
    return stream(*m, 0, a, b, out, count, latency);
  }
  auto m = std::make_unique<Vfalcon_fpadd>();
  return stream(*m, op == FALCON_FPU_SUB, a, b, out, count, latency);
}

extern "C" int falcon_fft_run(uint32_t units, uint32_t logn, uint32_t inverse, uint64_t *data,
                              uint64_t *cycles) {
  if (!data || inverse > 1 || units < 1 || units > 2) return FALCON_SIM_EBADARG;
  if (units == 2 && logn == 9) {
    auto m = std::make_unique<Vfalcon_fft2_n512>();
    return fft(*m, 512, inverse, data, cycles);
  }
  if (units == 2 && logn == 10) {
    auto m = std::make_unique<Vfalcon_fft2_n1024>();
    return fft(*m, 1024, inverse, data, cycles);
  }
  if (logn == 9) {
    auto m = std::make_unique<Vfalcon_fft_n512>();
    return fft(*m, 512, inverse, data, cycles);
  }
  if (logn == 10) {
    auto m = std::make_unique<Vfalcon_fft_n1024>();
    return fft(*m, 1024, inverse, data, cycles);
  }
  return FALCON_SIM_EBADARG;
}
