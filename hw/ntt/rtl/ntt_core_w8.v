// ntt_core_w8: batched NTT / INTT engine with the Winograd radix-8 unit (ntt_w8bfu),
// behind the same request shape, AXI4 master and counters as ntt_core (radix-2).
//
// A request {buf_addr, num_polys, inv} transforms num_polys polynomials of N words
// stored one after the other from buf_addr, in place, bit-identical to ntt_core.
// Three engines run concurrently on different polys:
//   loader  (AXI read, 8 coefficients per 256-bit beat) -> buffer X of pair p%2
//   compute (one ntt_w8bfu, 8 points per cycle, II = 1) X -> Y -> X ... one pass per
//           N/8 cycles, a pass = three NTT layers (Winograd) or one (radix-2 remainder)
//   storer  (AXI write) <- the final buffer (X if the pass count is even, else Y)
// so loading poly p+1 and storing p-1 overlap computing p.
//
// Passes (hw/ntt/gen/wino_schedule.py): n = 256: W W R R, 512: W W W, 1024: W W W R
// forward (inverse: the same in reverse order). Cycle t of pass P handles the 8 points
// base | i << s (i = 0..7), base and s from the schedule ROM (ntt_w8rom_*), together
// with the unit's 7 lane factors.
//
// Memory: a buffer is 8 banks of N/8 words; point x lives in bank bank3(x) (bit b =
// XOR of the bits of x at positions = b mod 3) at address x >> 3. Any three consecutive
// index bits map to independent bank bits, so the 8 points of a pass cycle and the 8
// coefficients of a bus beat always sit in 8 different banks: one read and one write
// per bank per cycle (simple dual-port RAM). The read-to-write latency is 15 cycles
// (bank 1 + unit 14); the ROM's cycle orders keep every read of a pass at least 16
// issue cycles after the previous pass's write of that point (hw/ntt/gen/wino_check.py),
// so passes follow each other without a stall.
module ntt_core_w8 #(
    parameter integer Q     = 8380417,
    parameter integer N     = 256,
    parameter integer LOGN  = 8,
    parameter integer RB    = 23,
    parameter integer SCALE = 3,
    parameter integer DW    = 256
) (
    input  wire          clk,
    input  wire          rst_n,
    // control
    input  wire          start,
    input  wire          inv_in,
    input  wire [31:0]   buf_addr,
    input  wire [15:0]   num_polys,
    output reg           busy,
    output reg           done_pulse,
    output reg           err_align,
    output reg           err_resp,
    output reg  [31:0]   cyc_load,
    output reg  [31:0]   cyc_compute,
    output reg  [31:0]   cyc_store,
    output reg  [31:0]   cyc_total,
    // AXI4 master: read address / data
    output reg  [31:0]   m_araddr,
    output reg  [7:0]    m_arlen,
    output wire [2:0]    m_arsize,
    output wire [1:0]    m_arburst,
    output reg           m_arvalid,
    input  wire          m_arready,
    input  wire [DW-1:0] m_rdata,
    input  wire [1:0]    m_rresp,
    input  wire          m_rlast,
    input  wire          m_rvalid,
    output wire          m_rready,
    // AXI4 master: write address / data / response
    output reg  [31:0]   m_awaddr,
    output reg  [7:0]    m_awlen,
    output wire [2:0]    m_awsize,
    output wire [1:0]    m_awburst,
    output reg           m_awvalid,
    input  wire          m_awready,
    output wire [DW-1:0] m_wdata,
    output wire [DW/8-1:0] m_wstrb,
    output wire          m_wlast,
    output wire          m_wvalid,
    input  wire          m_wready,
    input  wire [1:0]    m_bresp,
    input  wire          m_bvalid,
    output wire          m_bready
);
  // ---------------------------------------------------------------- geometry
  localparam integer T    = N / 8;          // cycles per pass = beats per poly = bank depth
  localparam integer AB   = LOGN - 3;       // bank address bits
  localparam integer NP   = (LOGN == 9) ? 3 : 4;   // passes
  localparam integer BB   = DW / 8;         // bytes per beat
  localparam integer LBB  = 5;              // log2(BB)
  localparam integer FINAL_Y = NP % 2;      // the last pass writes Y when NP is odd
  localparam integer PIPE = 16;             // tag stages: ROM (1) + bank read (1) + unit (14)
  localparam integer RA   = LOGN;           // ROM address bits {inv, pass[1:0], t}
  localparam integer SW   = 1 + 4 + LOGN;   // ROM sdata {r2, s, base}

  assign m_arsize  = LBB[2:0];
  assign m_arburst = 2'b01;
  assign m_awsize  = LBB[2:0];
  assign m_awburst = 2'b01;
  assign m_wstrb   = {(DW/8){1'b1}};
  assign m_bready  = 1'b1;

  // ---------------------------------------------------------------- helpers
  function [2:0] bank3(input [9:0] x);
    integer p;
    begin
      bank3 = 3'd0;
      for (p = 0; p < 10; p = p + 1) bank3[p % 3] = bank3[p % 3] ^ x[p];
    end
  endfunction
  function [2:0] rotl3(input [2:0] v, input [1:0] r);
    rotl3 = (r == 2'd1) ? {v[1:0], v[2]} : (r == 2'd2) ? {v[0], v[2:1]} : v;
  endfunction
  function [1:0] mod3(input [3:0] s);   // a table: s % 3 would build a 32-bit divider
    case (s)
      4'd1, 4'd4, 4'd7: mod3 = 2'd1;
      4'd2, 4'd5, 4'd8: mod3 = 2'd2;
      default:          mod3 = 2'd0;
    endcase
  endfunction

  // beats of the next burst: not past the poly, 256 beats, or the next 4 KiB boundary
  function [8:0] blen(input [31:0] addr, input [10:0] left);
    reg [12:0] to4k;
    reg [12:0] b;
    begin
      to4k = (13'd4096 - {1'b0, addr[11:0]}) >> LBB;
      b = {2'b0, left};
      if (b > 13'd256) b = 13'd256;
      if (b > to4k) b = to4k;
      blen = b[8:0];
    end
  endfunction

  // ---------------------------------------------------------------- request state
  reg        inv;
  reg [15:0] num;
  reg [31:0] base_addr;

  // ---------------------------------------------------------------- banks
  // bank index = {buffer = {pair, y}, b}
  reg  [31:0]       bk_we;
  reg  [32*AB-1:0]  bk_waddr;
  reg  [32*RB-1:0]  bk_wdata;
  reg  [31:0]       bk_re;
  reg  [32*AB-1:0]  bk_raddr;
  wire [32*RB-1:0]  bk_rdata;

  genvar gi;
  generate
    for (gi = 0; gi < 32; gi = gi + 1) begin : g_bank
      ntt_bank #(.W(RB), .D(T), .A(AB)) u_bank (
          .clk(clk), .we(bk_we[gi]), .waddr(bk_waddr[gi*AB +: AB]),
          .wdata(bk_wdata[gi*RB +: RB]), .re(bk_re[gi]), .raddr(bk_raddr[gi*AB +: AB]),
          .rdata(bk_rdata[gi*RB +: RB]));
    end
  endgenerate

  // ---------------------------------------------------------------- loader
  reg [15:0] l_poly;          // poly being loaded (or next)
  reg        l_active;
  reg [10:0] l_rows;          // beats received for l_poly
  reg [31:0] ar_next;
  reg [10:0] ar_left;
  reg [15:0] s_poly;          // storer: poly being read out (= polys fully read)

  wire l_can_start = !l_active && busy && (l_poly < num) && ({1'b0, s_poly} + 17'd1 >= {1'b0, l_poly});
  assign m_rready = l_active;
  wire r_fire = m_rvalid && m_rready;
  wire [AB-1:0] l_a = l_rows[AB-1:0];
  wire [2:0] l_h = bank3({{(10-AB){1'b0}}, l_a} << 3);   // coefficient 8a+i -> bank i ^ l_h
  reg  [8*RB-1:0] l_bank;      // the beat's coefficients in bank order
  integer lk, ll;
  always @(*) begin
    for (lk = 0; lk < 8; lk = lk + 1) begin
      l_bank[lk*RB +: RB] = {RB{1'b0}};
      for (ll = 0; ll < 8; ll = ll + 1)
        if ((lk[2:0] ^ l_h) == ll[2:0]) l_bank[lk*RB +: RB] = m_rdata[ll*32 +: RB];
    end
  end

  // ---------------------------------------------------------------- compute issue
  reg [15:0]   c_poly;
  reg [1:0]    c_pass;
  reg [AB-1:0] c_t;
  wire c_more = busy && (c_poly < num);
  wire c_go = c_more && ((c_pass != 2'd0) || (l_poly > c_poly));
  wire [1:0] c_src = {c_poly[0], c_pass[0]};
  wire [1:0] c_dst = {c_poly[0], ~c_pass[0]};

  // tag pipeline: p_*[k] describes the cycle issued k+1 cycles ago
  reg          p_v    [0:PIPE-1];
  reg  [1:0]   p_src  [0:PIPE-1];
  reg  [1:0]   p_dst  [0:PIPE-1];
  reg  [1:0]   p_pass [0:PIPE-1];
  reg [AB-1:0] p_t    [0:PIPE-1];
  reg          p_r2   [1:PIPE-1];
  reg  [3:0]   p_s    [1:PIPE-1];
  reg [LOGN-1:0] p_base [1:PIPE-1];

  // schedule ROM: indices at issue, lane factors when the unit's multipliers take them
  // (with the data forward; 9 cycles later inverse)
  wire [SW-1:0]   rom_s;
  wire [7*RB-1:0] rom_t;
  wire [RA-1:0] rom_addr_s = {inv, c_pass, c_t};
  wire [RA-1:0] rom_addr_t = inv ? {inv, p_pass[9], p_t[9]} : {inv, p_pass[0], p_t[0]};
  generate
    if (Q == 8380417 && N == 256) begin : g_d
      ntt_w8rom_q8380417_n256 u_rom (.clk(clk), .addr_s(rom_addr_s), .addr_t(rom_addr_t),
                                     .sdata(rom_s), .tdata(rom_t));
    end else if (Q == 12289 && N == 512) begin : g_f9
      ntt_w8rom_q12289_n512 u_rom (.clk(clk), .addr_s(rom_addr_s), .addr_t(rom_addr_t),
                                   .sdata(rom_s), .tdata(rom_t));
    end else begin : g_f10
      ntt_w8rom_q12289_n1024 u_rom (.clk(clk), .addr_s(rom_addr_s), .addr_t(rom_addr_t),
                                    .sdata(rom_s), .tdata(rom_t));
    end
  endgenerate

  // stage B (tag 0): the cycle's points, bank read addresses
  wire          b_r2   = rom_s[SW-1];
  wire [3:0]    b_s    = rom_s[LOGN +: 4];
  wire [LOGN-1:0] b_base = rom_s[LOGN-1:0];
  wire [2:0]    b_h    = bank3({{(10-LOGN){1'b0}}, b_base});
  wire [1:0]    b_r    = mod3(b_s);
  reg  [8*AB-1:0] rd_addr;     // per bank b
  integer bi;
  reg [2:0]      tmp_i;
  reg [LOGN-1:0] tmp_x;
  always @(*) begin
    for (bi = 0; bi < 8; bi = bi + 1) begin
      tmp_i = rotl3(bi[2:0] ^ b_h, (b_r == 2'd0) ? 2'd0 : 2'd3 - b_r);   // lane in bank bi
      tmp_x = b_base | ({{(LOGN-3){1'b0}}, tmp_i} << b_s);
      rd_addr[bi*AB +: AB] = tmp_x[LOGN-1:3];
    end
  end

  // stage C (tag 1): bank data -> unit lanes
  wire [2:0] cc_h = bank3({{(10-LOGN){1'b0}}, p_base[1]});
  wire [1:0] cc_r = mod3(p_s[1]);
  reg  [8*RB-1:0] g_buf;       // the 8 banks of the source buffer
  reg  [8*RB-1:0] u_x;
  integer li, lb;
  always @(*) begin
    case (p_src[1])
      2'd0: g_buf = bk_rdata[0*8*RB +: 8*RB];
      2'd1: g_buf = bk_rdata[1*8*RB +: 8*RB];
      2'd2: g_buf = bk_rdata[2*8*RB +: 8*RB];
      default: g_buf = bk_rdata[3*8*RB +: 8*RB];
    endcase
    // constant-index selects (a variable part-select would infer multipliers)
    for (li = 0; li < 8; li = li + 1) begin
      u_x[li*RB +: RB] = {RB{1'b0}};
      for (lb = 0; lb < 8; lb = lb + 1)
        if ((cc_h ^ rotl3(li[2:0], cc_r)) == lb[2:0]) u_x[li*RB +: RB] = g_buf[lb*RB +: RB];
    end
  end

  wire [8*RB-1:0] u_z;
  ntt_w8bfu #(.Q(Q), .RB(RB), .SCALE(SCALE)) u_bfu (
      .clk(clk), .inv(inv), .r2(p_r2[1]), .x(u_x), .cf(rom_t), .z(u_z));

  // write-back (tag PIPE-1): unit lanes -> banks of the destination buffer
  wire          wb_v   = p_v[PIPE-1];
  wire [1:0]    wb_dst = p_dst[PIPE-1];
  wire [2:0]    wb_h   = bank3({{(10-LOGN){1'b0}}, p_base[PIPE-1]});
  wire [1:0]    wb_r   = mod3(p_s[PIPE-1]);
  reg  [8*AB-1:0] wb_addr;
  reg  [8*RB-1:0] wb_data;
  reg [2:0]      tmp_wi;
  reg [LOGN-1:0] tmp_wx;
  always @(*) begin
    for (bi = 0; bi < 8; bi = bi + 1) begin
      tmp_wi = rotl3(bi[2:0] ^ wb_h, (wb_r == 2'd0) ? 2'd0 : 2'd3 - wb_r);
      tmp_wx = p_base[PIPE-1] | ({{(LOGN-3){1'b0}}, tmp_wi} << p_s[PIPE-1]);
      wb_addr[bi*AB +: AB] = tmp_wx[LOGN-1:3];
      wb_data[bi*RB +: RB] = {RB{1'b0}};
      for (lb = 0; lb < 8; lb = lb + 1)
        if (tmp_wi == lb[2:0]) wb_data[bi*RB +: RB] = u_z[lb*RB +: RB];
    end
  end

  // write-back position (mirrors the issue order)
  reg [15:0]   wb_poly;
  reg [1:0]    wb_pass;
  reg [AB:0]   wb_t;

  // ---------------------------------------------------------------- storer
  reg [AB:0]   s_t;       // beats read from the final buffer of s_poly
  reg [2:0]    f_cnt;     // FIFO occupancy + read in flight
  reg          s_rd_v;
  reg  [2:0]   s_rd_h;
  reg          s_rd_pair;
  wire [AB-1:0] s_tt = s_t[AB-1:0];
  wire s_gate = (wb_poly > s_poly);
  wire s_go = busy && (s_poly < num) && (f_cnt < 3'd4) && s_gate;
  wire [1:0] s_buf = {s_poly[0], FINAL_Y[0]};

  reg  [DW-1:0] fifo [0:3];
  reg  [1:0]    f_wp, f_rp;
  reg  [2:0]    f_n;
  wire [8*RB-1:0] sr_banks = s_rd_pair ? bk_rdata[(2 + FINAL_Y)*8*RB +: 8*RB]
                                       : bk_rdata[(0 + FINAL_Y)*8*RB +: 8*RB];
  reg  [DW-1:0] sr_beat;
  always @(*) begin
    for (li = 0; li < 8; li = li + 1) begin
      sr_beat[li*32 +: 32] = 32'd0;
      for (lb = 0; lb < 8; lb = lb + 1)
        if ((li[2:0] ^ s_rd_h) == lb[2:0]) sr_beat[li*32 +: RB] = sr_banks[lb*RB +: RB];
    end
  end

  // W channel
  reg [15:0] w_poly;
  reg [10:0] w_left;
  reg [31:0] w_addr;
  reg [8:0]  w_burst;
  wire [8:0] w_cur = (w_burst == 9'd0) ? blen(w_addr, w_left) : w_burst;
  assign m_wvalid = (f_n != 3'd0);
  assign m_wdata  = fifo[f_rp];
  assign m_wlast  = (w_cur == 9'd1);
  wire w_fire = m_wvalid && m_wready;

  // AW channel
  reg [15:0] aw_poly;
  reg [10:0] aw_left;
  reg [31:0] aw_next;
  reg [31:0] aw_cnt, b_cnt;

  wire l_done_all = (l_poly == num) && !l_active;
  wire all_done = busy && l_done_all && (c_poly == num) && (wb_poly == num) &&
                  (s_poly == num) && (f_n == 3'd0) && !s_rd_v && (w_poly == num) &&
                  (aw_poly == num) && !m_awvalid && (aw_cnt == b_cnt);

  // bank port multiplexers. The loader and the write-back never hit the same buffer in
  // one cycle, nor do the compute and storer reads (pair rotation, as in ntt_core).
  generate
    for (gi = 0; gi < 32; gi = gi + 1) begin : g_port
      localparam [1:0] BUFI = gi / 8;
      localparam [2:0] BK   = gi % 8;
      wire ld_hit = r_fire && (BUFI == {l_poly[0], 1'b0});
      wire wb_hit = wb_v && (BUFI == wb_dst);
      wire c_hit  = p_v[0] && (BUFI == p_src[0]);
      wire s_hit  = s_go && (BUFI == s_buf);
      always @(*) begin
        bk_we[gi] = ld_hit || wb_hit;
        bk_re[gi] = c_hit || s_hit;
        if (wb_hit) begin
          bk_waddr[gi*AB +: AB] = wb_addr[BK*AB +: AB];
          bk_wdata[gi*RB +: RB] = wb_data[BK*RB +: RB];
        end else begin
          bk_waddr[gi*AB +: AB] = l_a;
          bk_wdata[gi*RB +: RB] = l_bank[BK*RB +: RB];
        end
        if (c_hit)
          bk_raddr[gi*AB +: AB] = rd_addr[BK*AB +: AB];
        else
          bk_raddr[gi*AB +: AB] = s_tt;
      end
    end
  endgenerate

  integer k;
  reg any_p;
  always @(*) begin
    any_p = 1'b0;
    for (k = 0; k < PIPE; k = k + 1) any_p = any_p | p_v[k];
  end

  always @(posedge clk) begin
    done_pulse <= 1'b0;
    if (!rst_n) begin
      busy <= 1'b0; err_align <= 1'b0; err_resp <= 1'b0;
      inv <= 1'b0; num <= 16'd0; base_addr <= 32'd0;
      cyc_load <= 0; cyc_compute <= 0; cyc_store <= 0; cyc_total <= 0;
      m_arvalid <= 1'b0; m_awvalid <= 1'b0;
      l_poly <= 0; l_active <= 1'b0; l_rows <= 0; ar_next <= 0; ar_left <= 0;
      c_poly <= 0; c_pass <= 0; c_t <= 0;
      wb_poly <= 0; wb_pass <= 0; wb_t <= 0;
      s_poly <= 0; s_t <= 0; f_cnt <= 0; s_rd_v <= 1'b0; s_rd_h <= 3'd0; s_rd_pair <= 1'b0;
      f_wp <= 0; f_rp <= 0; f_n <= 0;
      w_poly <= 0; w_left <= 0; w_addr <= 0; w_burst <= 0;
      aw_poly <= 0; aw_left <= 0; aw_next <= 0; aw_cnt <= 0; b_cnt <= 0;
      for (k = 0; k < PIPE; k = k + 1) p_v[k] <= 1'b0;
    end else begin
      // ---------------- start / done
      if (start && !busy) begin
        inv <= inv_in; num <= num_polys; base_addr <= buf_addr;
        err_resp <= 1'b0;
        cyc_load <= 0; cyc_compute <= 0; cyc_store <= 0; cyc_total <= 0;
        l_poly <= 0; l_active <= 1'b0; l_rows <= 0;
        c_poly <= 0; c_pass <= 0; c_t <= 0;
        wb_poly <= 0; wb_pass <= 0; wb_t <= 0;
        s_poly <= 0; s_t <= 0;
        w_poly <= 0; w_left <= T[10:0]; w_addr <= buf_addr; w_burst <= 0;
        aw_poly <= 0; aw_left <= T[10:0]; aw_next <= buf_addr; aw_cnt <= 0; b_cnt <= 0;
        ar_next <= buf_addr;
        if (buf_addr[LBB-1:0] != 0) begin
          err_align <= 1'b1;
          done_pulse <= 1'b1;      // rejected: nothing moves
        end else begin
          err_align <= 1'b0;
          busy <= 1'b1;
        end
      end
      if (busy) begin
        cyc_total <= cyc_total + 1;
        if (l_active) cyc_load <= cyc_load + 1;
        if (c_go || any_p) cyc_compute <= cyc_compute + 1;
        if (s_go || s_rd_v || f_n != 0 || (w_poly == num && aw_cnt != b_cnt))
          cyc_store <= cyc_store + 1;
      end
      if (all_done) begin
        busy <= 1'b0;
        done_pulse <= 1'b1;
      end

      // ---------------- loader
      if (l_can_start) begin
        l_active <= 1'b1;
        l_rows <= 0;
        ar_left <= T[10:0];
      end
      if (m_arvalid && m_arready) m_arvalid <= 1'b0;
      if (l_active && ar_left != 0 && (!m_arvalid || m_arready)) begin
        m_arvalid <= 1'b1;
        m_araddr  <= ar_next;
        m_arlen   <= blen(ar_next, ar_left) - 9'd1;
        ar_next   <= ar_next + ({23'd0, blen(ar_next, ar_left)} << LBB);
        ar_left   <= ar_left - {2'b0, blen(ar_next, ar_left)};
      end
      if (r_fire) begin
        if (m_rresp != 2'b00) err_resp <= 1'b1;
        if (l_rows == T[10:0] - 11'd1) begin
          l_active <= 1'b0;
          l_poly <= l_poly + 1;
          l_rows <= 0;
        end else begin
          l_rows <= l_rows + 1;
        end
      end

      // ---------------- compute issue and tag pipeline
      p_v[0] <= c_go;
      p_src[0] <= c_src; p_dst[0] <= c_dst; p_pass[0] <= c_pass; p_t[0] <= c_t;
      p_v[1] <= p_v[0]; p_src[1] <= p_src[0]; p_dst[1] <= p_dst[0];
      p_pass[1] <= p_pass[0]; p_t[1] <= p_t[0];
      p_r2[1] <= b_r2; p_s[1] <= b_s; p_base[1] <= b_base;
      for (k = 2; k < PIPE; k = k + 1) begin
        p_v[k] <= p_v[k-1]; p_src[k] <= p_src[k-1]; p_dst[k] <= p_dst[k-1];
        p_pass[k] <= p_pass[k-1]; p_t[k] <= p_t[k-1];
        p_r2[k] <= p_r2[k-1]; p_s[k] <= p_s[k-1]; p_base[k] <= p_base[k-1];
      end
      if (c_go) begin
        if (c_t == T[AB-1:0] - 1'b1) begin
          c_t <= 0;
          if (c_pass == NP[1:0] - 2'd1) begin
            c_pass <= 0;
            c_poly <= c_poly + 1;
          end else begin
            c_pass <= c_pass + 1'b1;
          end
        end else begin
          c_t <= c_t + 1'b1;
        end
      end

      // ---------------- write-back position
      if (wb_v) begin
        if (wb_t == T[AB:0] - 1'b1) begin
          wb_t <= 0;
          if (wb_pass == NP[1:0] - 2'd1) begin
            wb_pass <= 0;
            wb_poly <= wb_poly + 1;
          end else begin
            wb_pass <= wb_pass + 1'b1;
          end
        end else begin
          wb_t <= wb_t + 1'b1;
        end
      end

      // ---------------- storer: bank reads into the FIFO
      s_rd_v <= s_go;
      s_rd_h <= bank3({{(10-AB){1'b0}}, s_tt} << 3);
      s_rd_pair <= s_poly[0];
      if (s_go) begin
        if (s_t == T[AB:0] - 1'b1) begin
          s_t <= 0;
          s_poly <= s_poly + 1;
        end else begin
          s_t <= s_t + 1'b1;
        end
      end
      if (s_rd_v) begin
        fifo[f_wp] <= sr_beat;
        f_wp <= f_wp + 1'b1;
      end
      f_n   <= f_n + (s_rd_v ? 3'd1 : 3'd0) - (w_fire ? 3'd1 : 3'd0);
      f_cnt <= f_cnt + (s_go ? 3'd1 : 3'd0) - (w_fire ? 3'd1 : 3'd0);

      // ---------------- W channel
      if (w_fire) begin
        f_rp <= f_rp + 1'b1;
        w_burst <= w_cur - 9'd1;
        w_addr <= w_addr + BB;
        if (w_left == 11'd1) begin
          w_left <= T[10:0];
          w_poly <= w_poly + 1;
        end else begin
          w_left <= w_left - 1'b1;
        end
      end

      // ---------------- AW channel: a poly's bursts once the storer reads its first beat
      if (m_awvalid && m_awready) m_awvalid <= 1'b0;
      if (busy && (aw_poly < num) && ((aw_poly < s_poly) || (aw_poly == s_poly && s_go)) &&
          (!m_awvalid || m_awready)) begin
        m_awvalid <= 1'b1;
        m_awaddr  <= aw_next;
        m_awlen   <= blen(aw_next, aw_left) - 9'd1;
        aw_next   <= aw_next + ({23'd0, blen(aw_next, aw_left)} << LBB);
        aw_cnt    <= aw_cnt + 1;
        if (aw_left == {2'b0, blen(aw_next, aw_left)}) begin
          aw_left <= T[10:0];
          aw_poly <= aw_poly + 1;
        end else begin
          aw_left <= aw_left - {2'b0, blen(aw_next, aw_left)};
        end
      end
      if (m_bvalid) begin
        b_cnt <= b_cnt + 1;
        if (m_bresp != 2'b00) err_resp <= 1'b1;
      end
    end
  end
endmodule
