// ntt_sim_impl.h: the host/memory side of the co-simulation, as a template over the
// Verilated model class (one class per compiled configuration; see ntt_sim.cpp).
#ifndef NTT_SIM_IMPL_H
#define NTT_SIM_IMPL_H
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "ntt_sim.h"
#include "verilated.h"

namespace nttsim {

// Register map (docs/HARDWARE.md)
enum : uint32_t {
  REG_CTRL = 0x00, REG_IER = 0x04, REG_ERR = 0x08, REG_BUF = 0x10, REG_BUF_HI = 0x14,
  REG_MODE = 0x18, REG_NUM = 0x1C, REG_CYC_LOAD = 0x20, REG_CYC_COMPUTE = 0x24,
  REG_CYC_STORE = 0x28, REG_CYC_TOTAL = 0x2C, REG_ID_Q = 0x30, REG_ID_SHAPE = 0x34,
  REG_ID_MAGIC = 0x38,
};
constexpr uint64_t BASE = 0x10000000ull;  // DMA window base (bus address)
constexpr uint32_t MAX_POLYS = 65535;

struct Base {
  virtual ~Base() {}
  virtual int run(uint32_t *words, uint32_t num, uint32_t mode, uint64_t limit,
                  ntt_sim_cycles *cyc) = 0;
  virtual int reset() = 0;
  ntt_sim_config cfg{};
  std::string msg;
  int32_t skew = 0;
  uint32_t read_latency = 0;   // cycles from an AR handshake to its first R beat (+1)
  uint32_t write_latency = 2;  // cycles from the last W beat to its B response
};

// data-bus helpers: 64-bit buses are QData, wider ones VlWide<N>
static inline void put_bus(QData &d, const uint32_t *w) {
  d = (uint64_t)w[0] | ((uint64_t)w[1] << 32);
}
template <std::size_t N> static inline void put_bus(VlWide<N> &d, const uint32_t *w) {
  for (std::size_t i = 0; i < N; i++) d[i] = w[i];
}
static inline void get_bus(const QData &d, uint32_t *w) {
  w[0] = (uint32_t)d;
  w[1] = (uint32_t)(d >> 32);
}
template <std::size_t N> static inline void get_bus(const VlWide<N> &d, uint32_t *w) {
  for (std::size_t i = 0; i < N; i++) w[i] = d[i];
}

template <class V> struct Sim : Base {
  VerilatedContext ctx;
  V *m;
  uint32_t beat_words;  // 32-bit words per beat: 2 * bfus (radix-2), 8 * bfus (Winograd)
  uint32_t rng;
  // memory model
  std::vector<uint32_t> mem;  // the DMA window: [BASE, BASE + mem.size()*4)
  uint64_t buf_lo = 0, buf_hi = 0;
  struct Burst { uint64_t addr; uint32_t beats, done; uint64_t ready; };
  uint64_t now = 0;  // memory model clock
  std::deque<Burst> rq, wq;  // accepted read / write bursts
  std::deque<uint32_t> bq;   // B responses due (cycle countdown)
  int err = NTT_SIM_OK;

  explicit Sim(const ntt_sim_config &c) : m(nullptr) {
    cfg = c;
    beat_words = (c.kind == 1 ? 8 : 2) * c.bfus;
    rng = c.seed ? c.seed : 0x12345u;
    ctx.debug(0);
    ctx.randReset(0);
    m = new V(&ctx, "top");
    hard_reset();
  }
  ~Sim() override {
    m->final();
    delete m;
  }

  bool coin() {  // stall decision
    rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5;
    return cfg.stall_pct && (rng % 100) < cfg.stall_pct;
  }

  int fail(int code, const char *fmt, uint64_t a = 0, uint64_t b = 0) {
    if (err == NTT_SIM_OK) {
      char buf[256];
      std::snprintf(buf, sizeof buf, fmt, (unsigned long long)a, (unsigned long long)b);
      msg = buf;
      err = code;
    }
    return code;
  }

  void clear_inputs() {
    m->s_awvalid = 0; m->s_wvalid = 0; m->s_bready = 0; m->s_arvalid = 0; m->s_rready = 0;
    m->m_arready = 0; m->m_rvalid = 0; m->m_rlast = 0; m->m_rresp = 0;
    m->m_awready = 0; m->m_wready = 0; m->m_bvalid = 0; m->m_bresp = 0;
  }

  void hard_reset() {
    clear_inputs();
    m->rst_n = 0;
    for (int i = 0; i < 4; i++) half_cycles();
    m->rst_n = 1;
    half_cycles();
    rq.clear(); wq.clear(); bq.clear();
  }
  int reset() override {
    hard_reset();
    err = NTT_SIM_OK;
    msg.clear();
    return NTT_SIM_OK;
  }

  void half_cycles() {  // one full clock with the current inputs
    m->clk = 0; m->eval();
    m->clk = 1; m->eval();
    m->clk = 0; m->eval();
  }

  // ------------------------------------------------------------ AXI-Lite host
  bool lite_write(uint32_t addr, uint32_t data) {
    m->s_awaddr = addr; m->s_awvalid = 1; m->s_wdata = data; m->s_wvalid = 1;
    m->s_bready = 1;
    for (int i = 0; i < 64; i++) {
      m->eval();
      bool aw = m->s_awready, b = m->s_bvalid;
      mem_cycle();
      if (aw) { m->s_awvalid = 0; m->s_wvalid = 0; }
      if (b && !m->s_awvalid) { m->s_bready = 0; return true; }
    }
    m->s_awvalid = 0; m->s_wvalid = 0; m->s_bready = 0;
    return false;
  }
  bool lite_read(uint32_t addr, uint32_t &data) {
    m->s_araddr = addr; m->s_arvalid = 1; m->s_rready = 1;
    for (int i = 0; i < 64; i++) {
      m->eval();
      bool ar = m->s_arready, r = m->s_rvalid;
      uint32_t d = m->s_rdata;
      mem_cycle();
      if (ar) m->s_arvalid = 0;
      if (r && !m->s_arvalid) { data = d; m->s_rready = 0; return true; }
    }
    m->s_arvalid = 0; m->s_rready = 0;
    return false;
  }

  // ------------------------------------------------------------ memory model + checks
  int check_burst(const char *ch, uint64_t addr, uint32_t len, uint32_t size, uint32_t burst) {
    uint32_t bytes = beat_words * 4;
    uint32_t lsize = 0;
    while ((1u << lsize) < bytes) lsize++;
    if (burst != 1) return fail(NTT_SIM_EBURST, "burst type %llu is not INCR", burst);
    if (size != lsize) return fail(NTT_SIM_EBURST, "size %llu is not the bus width (%llu)", size, lsize);
    if (len + 1 > 256) return fail(NTT_SIM_EBURST, "burst of %llu beats > 256", len + 1);
    if (addr % bytes) return fail(NTT_SIM_EBURST, "address 0x%llx not aligned to %llu", addr, bytes);
    uint64_t end = addr + (uint64_t)(len + 1) * bytes;
    if ((addr >> 12) != ((end - 1) >> 12))
      return fail(NTT_SIM_EBURST, "burst 0x%llx..0x%llx crosses a 4 KiB boundary", addr, end);
    if (addr < buf_lo || end > buf_hi)
      return fail(NTT_SIM_EOUTSIDE, "access 0x%llx..0x%llx outside the buffer", addr, end);
    (void)ch;
    return NTT_SIM_OK;
  }

  // One clock: inputs of the memory model for this cycle are already on the pins.
  void mem_cycle() {
    m->clk = 0;
    m->eval();
    // sample handshakes
    bool ar = m->m_arvalid && m->m_arready;
    bool r = m->m_rvalid && m->m_rready;
    bool aw = m->m_awvalid && m->m_awready;
    bool w = m->m_wvalid && m->m_wready;
    bool b = m->m_bvalid && m->m_bready;
    uint64_t araddr = m->m_araddr, awaddr = m->m_awaddr;
    uint32_t arlen = m->m_arlen, awlen = m->m_awlen;
    uint32_t arsize = m->m_arsize, awsize = m->m_awsize, arburst = m->m_arburst,
             awburst = m->m_awburst;
    uint32_t wdata[16];
    get_bus(m->m_wdata, wdata);
    bool wlast = m->m_wlast;
    uint32_t wstrb = (uint32_t)m->m_wstrb;
    m->clk = 1;
    m->eval();
    // update the model after the edge
    if (ar && check_burst("AR", araddr, arlen, arsize, arburst) == NTT_SIM_OK)
      rq.push_back({araddr, arlen + 1, 0, now + read_latency});
    if (r) {
      Burst &f = rq.front();
      if (++f.done == f.beats) rq.pop_front();
    }
    if (aw && check_burst("AW", awaddr, awlen, awsize, awburst) == NTT_SIM_OK)
      wq.push_back({awaddr, awlen + 1, 0, 0});
    if (w) {
      if (wq.empty()) {
        fail(NTT_SIM_EPROTOCOL, "W beat without a write burst");
      } else {
        Burst &f = wq.front();
        uint32_t full = (uint32_t)((1ull << (beat_words * 4)) - 1u);
        if (wstrb != full) fail(NTT_SIM_EPROTOCOL, "partial WSTRB 0x%llx", wstrb);
        uint64_t a = f.addr + (uint64_t)f.done * beat_words * 4;
        for (uint32_t i = 0; i < beat_words; i++) mem[(a - BASE) / 4 + i] = wdata[i];
        f.done++;
        bool last = f.done == f.beats;
        if (wlast != last) fail(NTT_SIM_EPROTOCOL, "WLAST %llu at beat %llu", wlast, f.done);
        if (last) { wq.pop_front(); bq.push_back(write_latency); }
      }
    }
    if (b) bq.pop_front();
    for (auto &x : bq) if (x) x--;
    // next cycle's inputs
    m->m_arready = !coin();
    m->m_awready = !coin();
    m->m_wready = !wq.empty() && !coin();
    now++;
    if (!rq.empty() && rq.front().ready <= now && !coin()) {
      Burst &f = rq.front();
      uint64_t a = f.addr + (uint64_t)f.done * beat_words * 4;
      put_bus(m->m_rdata, &mem[(a - BASE) / 4]);
      m->m_rvalid = 1;
      m->m_rlast = (f.done + 1 == f.beats);
      m->m_rresp = 0;
    } else {
      m->m_rvalid = 0;
      m->m_rlast = 0;
    }
    m->m_bvalid = !bq.empty() && bq.front() == 0;
    m->m_bresp = 0;
    m->clk = 0;
    m->eval();
  }

  // A request that breaks an AXI rule or hangs leaves the card reset (as a host
  // driver would after a bus error); an incomplete one (cycle limit) is left as it is.
  int run(uint32_t *words, uint32_t num, uint32_t mode, uint64_t limit,
          ntt_sim_cycles *cyc) override {
    int rc = run_inner(words, num, mode, limit, cyc);
    if (rc == NTT_SIM_EOUTSIDE || rc == NTT_SIM_EBURST || rc == NTT_SIM_EPROTOCOL ||
        rc == NTT_SIM_ETIMEOUT)
      hard_reset();
    return rc;
  }

  int run_inner(uint32_t *words, uint32_t num, uint32_t mode, uint64_t limit,
                ntt_sim_cycles *cyc) {
    err = NTT_SIM_OK;
    msg.clear();
    if (mode > 1) return fail(NTT_SIM_EBADARG, "mode %llu", mode);
    if (num > MAX_POLYS) return fail(NTT_SIM_EBADARG, "num_polys %llu > 65535", num);
    if (num && !words) return fail(NTT_SIM_EBADARG, "null buffer");
    uint64_t nw = (uint64_t)num * cfg.n;
    uint32_t off = cfg.buf_offset;
    // window: one guard page before and after the buffer
    uint64_t win = 4096 + off + nw * 4 + 8192;
    mem.assign(win / 4, 0xDEADBEEFu);
    buf_lo = BASE + 4096 + off;
    buf_hi = buf_lo + nw * 4;
    if (nw) std::memcpy(&mem[(buf_lo - BASE) / 4], words, nw * 4);
    rq.clear(); wq.clear(); bq.clear();
    uint64_t prog = (uint64_t)((int64_t)buf_lo + skew);
    if (!lite_write(REG_BUF, (uint32_t)prog) || !lite_write(REG_BUF_HI, 0) ||
        !lite_write(REG_MODE, mode) || !lite_write(REG_NUM, num))
      return fail(NTT_SIM_ETIMEOUT, "AXI-Lite write not acknowledged");
    if (!lite_write(REG_CTRL, 1)) return fail(NTT_SIM_ETIMEOUT, "start not acknowledged");
    uint64_t budget = limit ? limit
                            : 20000 + (uint64_t)num * cfg.n * 16 * (1 + cfg.stall_pct / 10);
    uint64_t cycles = 0;
    uint32_t ctrl = 0;
    bool done = false;
    while (cycles < budget && err == NTT_SIM_OK) {
      for (int i = 0; i < 16 && cycles < budget && err == NTT_SIM_OK; i++, cycles++) mem_cycle();
      if (!lite_read(REG_CTRL, ctrl)) return fail(NTT_SIM_ETIMEOUT, "AXI-Lite read hangs");
      cycles += 2;
      if (ctrl & 2) { done = true; break; }
    }
    if (err != NTT_SIM_OK) return err;
    if (!done) {
      if (limit) return fail(NTT_SIM_EINCOMPLETE, "stopped after %llu cycles", cycles);
      return fail(NTT_SIM_ETIMEOUT, "no done after %llu cycles", cycles);
    }
    // the bus must be quiet
    if (!rq.empty() || !wq.empty() || !bq.empty())
      return fail(NTT_SIM_EPROTOCOL, "done with bursts outstanding (%llu read, %llu write)",
                  rq.size(), wq.size() + bq.size());
    uint32_t e = 0, v[4] = {0, 0, 0, 0};
    lite_read(REG_ERR, e);
    lite_read(REG_CYC_LOAD, v[0]);
    lite_read(REG_CYC_COMPUTE, v[1]);
    lite_read(REG_CYC_STORE, v[2]);
    lite_read(REG_CYC_TOTAL, v[3]);
    if (cyc) {
      cyc->load = v[0]; cyc->compute = v[1]; cyc->store = v[2]; cyc->total = v[3];
      cyc->sim_cycles = cycles;
    }
    if (e) return fail(NTT_SIM_EDEVICE, "device ERR register = 0x%llx", e);
    // the guard pages must be untouched
    for (uint64_t i = 0; i < (buf_lo - BASE) / 4; i++)
      if (mem[i] != 0xDEADBEEFu) return fail(NTT_SIM_EOUTSIDE, "guard word %llu written", i);
    for (uint64_t i = (buf_hi - BASE) / 4; i < mem.size(); i++)
      if (mem[i] != 0xDEADBEEFu) return fail(NTT_SIM_EOUTSIDE, "guard word %llu written", i);
    if (nw) std::memcpy(words, &mem[(buf_lo - BASE) / 4], nw * 4);
    return NTT_SIM_OK;
  }
};

}  // namespace nttsim
#endif
