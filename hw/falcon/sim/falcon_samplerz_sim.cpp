// Verilator host harness of falcon_samplerz (C ABI in falcon_samplerz_sim.h).
#include "falcon_samplerz_sim.h"

#include <memory>

#include "Vfalcon_samplerz.h"
#include "verilated.h"

namespace {
// Window slots of the model (2^NSLOT_LOG, the RTL default) and 64-bit words per window.
constexpr uint32_t kSlots = 4;
constexpr uint32_t kWords = FALCON_SZ_WINDOW / 8;
// Most cycles one request may take before the harness gives up (a request takes a few
// hundred; 2^-80-probability runs of rejections aside).
constexpr uint64_t kLimit = 2000000;

void tick(Vfalcon_samplerz &m) {
  m.clk = 0;
  m.eval();
  m.clk = 1;
  m.eval();
}

// Writes one window into a slot through the host port, one word per cycle.
uint64_t write_window(Vfalcon_samplerz &m, uint32_t slot, const uint8_t *w) {
  for (uint32_t i = 0; i < kWords; i++) {
    uint64_t word = 0;
    for (int b = 7; b >= 0; b--) word = (word << 8) | w[8 * i + b];
    m.host_we = 1;
    m.host_addr = slot * kWords + i;
    m.host_wdata = word;
    tick(m);
  }
  m.host_we = 0;
  return kWords;
}
}  // namespace

struct FalconSz {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vfalcon_samplerz> m;
};

extern "C" FalconSz *falcon_sz_new(void) {
  auto h = new FalconSz;
  h->ctx = std::make_unique<VerilatedContext>();
  h->m = std::make_unique<Vfalcon_samplerz>(h->ctx.get(), "sz");
  return h;
}

extern "C" void falcon_sz_free(FalconSz *h) { delete h; }

extern "C" int falcon_sz_serve(FalconSz *h, uint64_t sigma_min, const uint64_t *mu,
                               const uint64_t *isigma, size_t count, const uint8_t *window,
                               uint32_t pos, const uint8_t *ahead, size_t n_ahead,
                               int32_t *out, uint32_t *attempts, uint64_t *req_cycles,
                               FalconSzResult *res) {
  if (!h || !mu || !isigma || !window || !out || !res || count == 0 ||
      pos > FALCON_SZ_WINDOW || n_ahead > 65535 || (n_ahead > 0 && !ahead))
    return FALCON_SZ_EBADARG;
  Vfalcon_samplerz &m = *h->m;
  *res = FalconSzResult{};
  m.start = 0;
  m.load = 0;
  m.host_we = 0;
  m.rst = 1;
  tick(m);
  m.rst = 0;
  // Window 0 and as many windows ahead as there are free slots.
  uint64_t load = write_window(m, 0, window);
  uint32_t avail = 0;
  while (avail < n_ahead && avail + 1 < kSlots) {
    avail++;
    load += write_window(m, avail % kSlots, ahead + (size_t)(avail - 1) * FALCON_SZ_WINDOW);
  }
  m.supplied = (uint16_t)n_ahead;
  m.avail = (uint16_t)avail;
  m.load = 1;
  m.load_pos = pos;
  tick(m);
  m.load = 0;
  load++;
  uint64_t cycles = 0, stall = 0;
  for (size_t i = 0; i < count; i++) {
    m.mu = mu[i];
    m.isigma = isigma[i];
    m.sigma_min = sigma_min;
    m.last = i + 1 == count;
    m.start = 1;
    tick(m);
    m.start = 0;
    uint64_t c = 1;
    while (!m.done) {
      if (m.waiting) {
        // The device needs window avail + 1 (its slot held a window it has left). It
        // never waits for a window that was not supplied (that is NeedMore); if a broken
        // model did, stop rather than read past `ahead`.
        if (avail >= n_ahead) return FALCON_SZ_ETIMEOUT;
        avail++;
        stall += write_window(m, avail % kSlots,
                              ahead + (size_t)(avail - 1) * FALCON_SZ_WINDOW);
        m.avail = (uint16_t)avail;
        m.eval();
        continue;
      }
      tick(m);
      if (++c > kLimit) return FALCON_SZ_ETIMEOUT;
    }
    cycles += c;
    if (req_cycles) req_cycles[i] = c;
    if (attempts) attempts[i] = m.attempts;
    if (m.needmore) {
      res->need_more = 1;
      break;
    }
    out[i] = (int32_t)m.z_out;
  }
  res->refills = m.win;
  res->pos = m.pos;
  res->cycles = cycles;
  res->stall_cycles = stall;
  res->load_cycles = load;
  return FALCON_SZ_OK;
}
