// ntt_core: batched NTT / INTT engine with an AXI4 master (INCR bursts) to memory.
//
// A request {buf_addr, num_polys, inv} transforms num_polys polynomials of N words
// (32 bits each, one canonical coefficient in the low RB bits) stored one after the
// other from buf_addr, in place. Three engines run concurrently on different polys:
//   loader  (AXI read)  -> buffer X of pair p%2
//   compute (BFUS butterflies per cycle, in-order, II = 1) X -> Y -> X ... (ping-pong
//           between layers), final layer into buffer F (X if log2 N even, else Y)
//   storer  (AXI write) <- buffer F
// so loading poly p+1 and storing p-1 overlap computing p; inside one poly the first
// layer starts as soon as the rows it needs have arrived, and the store of a row starts
// as soon as the last layer has written it.
//
// Memory layout: a buffer holds N/BFUS rows of BFUS coefficients (row r = coefficients
// r*BFUS .. r*BFUS+BFUS-1) in two banks: row r lives in bank parity(r) at address r>>1.
// Every access pairs two rows differing in exactly one bit (layer rows J, J + 2^l, or
// 2t, 2t+1), so the two rows always sit in different banks: conflict-free, one read and
// one write per bank per cycle (simple dual-port block RAM).
//
// The butterfly schedule has no read-after-write stall for a write-back latency up to
// 12 cycles (checked exhaustively by hw/ntt/gen/schedule_check.py); the datapath writes back 9 cycles after the issue.
module ntt_core #(
    parameter integer Q     = 8380417,
    parameter integer N     = 256,
    parameter integer LOGN  = 8,
    parameter integer BFUS  = 1,
    parameter integer LOGB  = 0,
    parameter integer RB    = 23,
    parameter integer SCALE = 3,
    parameter integer DW    = 64 * BFUS
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
  localparam integer NR   = N / BFUS;        // rows per buffer
  localparam integer RW   = LOGN - LOGB;     // row index bits
  localparam integer T    = NR / 2;          // cycles per layer = beats per poly = bank depth
  localparam integer AB   = RW - 1;          // bank address bits
  localparam integer S    = LOGN;            // layers
  localparam integer BB   = DW / 8;          // bytes per beat
  localparam integer LBB  = LOGB + 3;        // log2(BB)
  localparam integer RWD  = BFUS * RB;       // bank word
  localparam integer TA   = LOGN + 1;        // twiddle ROM address bits
  localparam integer FINAL_Y = S % 2;        // final layer writes Y when S is odd
  localparam integer PIPE = 8;               // tag stages: bank read (1) + BFU (7)

  assign m_arsize  = LBB[2:0];
  assign m_arburst = 2'b01;
  assign m_awsize  = LBB[2:0];
  assign m_awburst = 2'b01;
  assign m_wstrb   = {(DW/8){1'b1}};
  assign m_bready  = 1'b1;

  // ---------------------------------------------------------------- helpers
  function [RW-1:0] ins0(input [RW-1:0] x, input [4:0] l);
    reg [RW:0] lo_mask;
    begin
      lo_mask = ({{RW{1'b0}}, 1'b1} << l) - 1'b1;
      ins0 = ((x >> l) << (l + 1)) | (x & lo_mask[RW-1:0]);
    end
  endfunction

  function [RW-1:0] rem0(input [RW-1:0] x, input [4:0] l);
    reg [RW:0] lo_mask;
    begin
      lo_mask = ({{RW{1'b0}}, 1'b1} << l) - 1'b1;
      rem0 = ((x >> (l + 1)) << l) | (x & lo_mask[RW-1:0]);
    end
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
  reg [31:0] base;

  // ---------------------------------------------------------------- bank ports
  // buffer index = {pair, y}; bank 0/1 = row parity
  reg  [7:0]       bk_we;
  reg  [8*AB-1:0]  bk_waddr;
  reg  [8*RWD-1:0] bk_wdata;
  reg  [7:0]       bk_re;
  reg  [8*AB-1:0]  bk_raddr;
  wire [8*RWD-1:0] bk_rdata;

  genvar gi;
  generate
    for (gi = 0; gi < 8; gi = gi + 1) begin : g_bank
      ntt_bank #(.W(RWD), .D(T), .A(AB)) u_bank (
          .clk(clk), .we(bk_we[gi]), .waddr(bk_waddr[gi*AB +: AB]),
          .wdata(bk_wdata[gi*RWD +: RWD]), .re(bk_re[gi]), .raddr(bk_raddr[gi*AB +: AB]),
          .rdata(bk_rdata[gi*RWD +: RWD]));
    end
  endgenerate

  // ---------------------------------------------------------------- loader
  reg [15:0] l_poly;          // poly being loaded (or next)
  reg        l_active;
  reg [10:0] l_rows;          // beats received for l_poly (2 rows each)
  reg [31:0] ar_next;         // next read address
  reg [10:0] ar_left;         // beats of l_poly not yet requested
  reg [15:0] s_poly;          // storer: poly being read out (= polys fully read)

  wire l_can_start = !l_active && busy && (l_poly < num) && ({1'b0, s_poly} + 17'd1 >= {1'b0, l_poly});
  assign m_rready = l_active;
  wire r_fire = m_rvalid && m_rready;
  wire [AB-1:0] l_t = l_rows[AB-1:0];
  wire l_par = ^l_t;          // parity of row 2t (bit 0 is 0)
  wire [RWD-1:0] r_row0, r_row1;
  generate
    for (gi = 0; gi < BFUS; gi = gi + 1) begin : g_rlanes
      assign r_row0[gi*RB +: RB] = m_rdata[gi*32 +: RB];
      assign r_row1[gi*RB +: RB] = m_rdata[(BFUS+gi)*32 +: RB];
    end
  endgenerate

  // ---------------------------------------------------------------- compute issue
  reg [15:0] c_poly;
  reg [4:0]  c_stage;
  reg [AB-1:0] c_t;
  wire c_more = busy && (c_poly < num);
  wire [4:0] c_loglen = inv ? c_stage : (S[4:0] - 5'd1 - c_stage);
  wire       c_within = (c_loglen < LOGB);
  wire [4:0] c_l      = c_within ? 5'd0 : (c_loglen - LOGB[4:0]);
  wire [RW-1:0] c_J   = ins0({1'b0, c_t}, c_l);
  wire [RW-1:0] c_J2  = c_J | ({{(RW-1){1'b0}}, 1'b1} << c_l);
  wire c_gate0 = (l_poly > c_poly) ||
                 (l_active && (l_poly == c_poly) && ({1'b0, c_J2} < {l_rows, 1'b0}));
  wire c_go = c_more && ((c_stage != 5'd0) || c_gate0);
  wire c_src_y = c_stage[0];
  wire [1:0] c_src = {c_poly[0], c_src_y};
  wire [1:0] c_dst = {c_poly[0], ~c_src_y};
  wire c_parJ = ^c_J;

  // twiddle ROMs: one per BFU lane
  wire [BFUS*RB-1:0] tw;
  generate
    for (gi = 0; gi < BFUS; gi = gi + 1) begin : g_tw
      wire [LOGN-1:0] j_row  = c_J;
      wire [LOGN-1:0] j_lane = (j_row << LOGB) |
                               (c_within ? ins0(gi, c_loglen) : gi);
      wire [LOGN-1:0] k_lane = (({{(LOGN-1){1'b0}}, 1'b1} << (S[4:0] - 5'd1 - c_loglen)))
                               + (j_lane >> (c_loglen + 5'd1));
      wire [TA-1:0] tw_addr = {inv, k_lane};
      if (Q == 8380417 && N == 256) begin : g_d
        ntt_tw_q8380417_n256 u_rom (.clk(clk), .en(1'b1), .addr(tw_addr), .data(tw[gi*RB +: RB]));
      end else if (Q == 12289 && N == 512) begin : g_f9
        ntt_tw_q12289_n512 u_rom (.clk(clk), .en(1'b1), .addr(tw_addr), .data(tw[gi*RB +: RB]));
      end else begin : g_f10
        ntt_tw_q12289_n1024 u_rom (.clk(clk), .en(1'b1), .addr(tw_addr), .data(tw[gi*RB +: RB]));
      end
    end
  endgenerate

  // issue tag pipeline (PIPE-1 stages until the BFU outputs are valid)
  reg          p_v     [0:PIPE-1];
  reg  [1:0]   p_src   [0:PIPE-1];
  reg  [1:0]   p_dst   [0:PIPE-1];
  reg          p_par   [0:PIPE-1];
  reg          p_within[0:PIPE-1];
  reg  [4:0]   p_loglen[0:PIPE-1];
  reg [AB-1:0] p_a1    [0:PIPE-1];
  reg [AB-1:0] p_a2    [0:PIPE-1];

  // gather: two rows (lo = row J, hi = row J2) -> BFU lanes
  reg  [RWD-1:0] g_b0, g_b1;   // bank 0 / 1 of the buffer read by the compute
  always @(*) begin
    case (p_src[0])
      2'd0: begin g_b0 = bk_rdata[0*RWD +: RWD]; g_b1 = bk_rdata[1*RWD +: RWD]; end
      2'd1: begin g_b0 = bk_rdata[2*RWD +: RWD]; g_b1 = bk_rdata[3*RWD +: RWD]; end
      2'd2: begin g_b0 = bk_rdata[4*RWD +: RWD]; g_b1 = bk_rdata[5*RWD +: RWD]; end
      default: begin g_b0 = bk_rdata[6*RWD +: RWD]; g_b1 = bk_rdata[7*RWD +: RWD]; end
    endcase
  end
  wire [2*RWD-1:0] g_cat = p_par[0] ? {g_b0, g_b1} : {g_b1, g_b0};  // {hi, lo}
  reg  [BFUS*RB-1:0] bf_a, bf_b;
  wire [BFUS*RB-1:0] bf_ao, bf_bo;
  // constant version of ins0 for the crossbars (elaboration-time indices)
  function integer cins0(input integer x, input integer l);
    cins0 = ((x >> l) << (l + 1)) | (x & ((1 << l) - 1));
  endfunction

  integer ii, ll;
  always @(*) begin
    for (ii = 0; ii < BFUS; ii = ii + 1) begin
      bf_a[ii*RB +: RB] = g_cat[ii*RB +: RB];
      bf_b[ii*RB +: RB] = g_cat[(BFUS+ii)*RB +: RB];
      for (ll = 0; ll < LOGB; ll = ll + 1)
        if (p_within[0] && p_loglen[0] == ll) begin
          bf_a[ii*RB +: RB] = g_cat[cins0(ii, ll)*RB +: RB];
          bf_b[ii*RB +: RB] = g_cat[(cins0(ii, ll) + (1 << ll))*RB +: RB];
        end
    end
  end

  generate
    for (gi = 0; gi < BFUS; gi = gi + 1) begin : g_bfu
      ntt_bfu #(.Q(Q), .RB(RB), .SCALE(SCALE)) u_bfu (
          .clk(clk), .inv(inv), .a(bf_a[gi*RB +: RB]), .b(bf_b[gi*RB +: RB]), .w(tw[gi*RB +: RB]),
          .ao(bf_ao[gi*RB +: RB]), .bo(bf_bo[gi*RB +: RB]));
    end
  endgenerate

  // scatter: BFU lanes -> two rows
  integer si, sl;
  reg [2*RWD-1:0] s_cat;
  always @(*) begin
    for (si = 0; si < BFUS; si = si + 1) begin
      s_cat[si*RB +: RB] = bf_ao[si*RB +: RB];
      s_cat[(BFUS+si)*RB +: RB] = bf_bo[si*RB +: RB];
    end
    for (sl = 0; sl < LOGB; sl = sl + 1)
      if (p_within[PIPE-1] && p_loglen[PIPE-1] == sl)
        for (si = 0; si < BFUS; si = si + 1) begin
          s_cat[cins0(si, sl)*RB +: RB] = bf_ao[si*RB +: RB];
          s_cat[(cins0(si, sl) + (1 << sl))*RB +: RB] = bf_bo[si*RB +: RB];
        end
  end
  wire wb_v = p_v[PIPE-1];
  wire [1:0] wb_dst = p_dst[PIPE-1];
  wire wb_par = p_par[PIPE-1];

  // write-back position (mirrors the issue order)
  reg [15:0]   wb_poly;
  reg [4:0]    wb_stage;
  reg [AB:0]   wb_t;      // butterfly rows retired in wb_stage

  // ---------------------------------------------------------------- storer
  reg [AB:0]   s_t;       // beats read from the final buffer of s_poly
  reg [2:0]    f_cnt;     // FIFO occupancy + read in flight
  reg          s_rd_v;    // read issued last cycle
  reg          s_rd_par;
  reg  [1:0]   s_rd_buf;
  wire [AB-1:0] s_tt = s_t[AB-1:0];
  wire [AB-1:0] s_umax = inv ? {s_tt[AB-2:0], 1'b1} : s_tt;
  wire s_gate = (wb_poly > s_poly) ||
                ((wb_poly == s_poly) && (wb_stage == S[4:0] - 5'd1) && (wb_t > {1'b0, s_umax}));
  wire s_go = busy && (s_poly < num) && (f_cnt < 3'd4) && s_gate;
  wire [1:0] s_buf = {s_poly[0], FINAL_Y[0]};

  // FIFO of beats
  reg  [DW-1:0] fifo [0:3];
  reg  [1:0]    f_wp, f_rp;
  reg  [2:0]    f_n;      // entries present
  // the final buffer is Y (odd layer count) or X of the pair: two candidates
  wire [RWD-1:0] sr_b0 = s_rd_buf[1] ? bk_rdata[(4 + 2*FINAL_Y)*RWD +: RWD]
                                     : bk_rdata[(0 + 2*FINAL_Y)*RWD +: RWD];
  wire [RWD-1:0] sr_b1 = s_rd_buf[1] ? bk_rdata[(5 + 2*FINAL_Y)*RWD +: RWD]
                                     : bk_rdata[(1 + 2*FINAL_Y)*RWD +: RWD];
  wire [RWD-1:0] sr_row0 = s_rd_par ? sr_b1 : sr_b0;   // row 2t in bank parity(t)
  wire [RWD-1:0] sr_row1 = s_rd_par ? sr_b0 : sr_b1;
  wire [DW-1:0] sr_beat;
  generate
    for (gi = 0; gi < BFUS; gi = gi + 1) begin : g_wlanes
      assign sr_beat[gi*32 +: 32]         = {{(32-RB){1'b0}}, sr_row0[gi*RB +: RB]};
      assign sr_beat[(BFUS+gi)*32 +: 32]  = {{(32-RB){1'b0}}, sr_row1[gi*RB +: RB]};
    end
  endgenerate

  // W channel
  reg [15:0] w_poly;
  reg [10:0] w_left;      // beats of w_poly not yet sent
  reg [31:0] w_addr;
  reg [8:0]  w_burst;     // beats left in the current burst (0: none open)
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

  // bank port multiplexers (combinational: the banks register address and data).
  // Loader and write-back never hit the same bank in one cycle, nor do the compute
  // and storer reads (see the buffer rotation above); write-back has priority anyway.
  generate
    for (gi = 0; gi < 8; gi = gi + 1) begin : g_port
      localparam [1:0] BUFI = gi / 2;
      localparam       PAR  = gi % 2;
      wire ld_hit = r_fire && (BUFI == {l_poly[0], 1'b0});
      wire wb_hit = wb_v && (BUFI == wb_dst);
      wire c_hit  = c_go && (BUFI == c_src);
      wire s_hit  = s_go && (BUFI == s_buf);
      always @(*) begin
        bk_we[gi] = ld_hit || wb_hit;
        bk_re[gi] = c_hit || s_hit;
        if (wb_hit) begin
          bk_waddr[gi*AB +: AB]   = (PAR == wb_par) ? p_a1[PIPE-1] : p_a2[PIPE-1];
          bk_wdata[gi*RWD +: RWD] = (PAR == wb_par) ? s_cat[RWD-1:0] : s_cat[2*RWD-1:RWD];
        end else begin
          bk_waddr[gi*AB +: AB]   = l_t;
          bk_wdata[gi*RWD +: RWD] = (PAR == l_par) ? r_row0 : r_row1;
        end
        if (c_hit)
          bk_raddr[gi*AB +: AB] = (PAR == c_parJ) ? c_J[RW-1:1] : c_J2[RW-1:1];
        else
          bk_raddr[gi*AB +: AB] = s_tt;
      end
    end
  endgenerate

  integer k;

  always @(posedge clk) begin
    done_pulse <= 1'b0;
    if (!rst_n) begin
      busy <= 1'b0; err_align <= 1'b0; err_resp <= 1'b0;
      inv <= 1'b0; num <= 16'd0; base <= 32'd0;
      cyc_load <= 0; cyc_compute <= 0; cyc_store <= 0; cyc_total <= 0;
      m_arvalid <= 1'b0; m_awvalid <= 1'b0;
      l_poly <= 0; l_active <= 1'b0; l_rows <= 0; ar_next <= 0; ar_left <= 0;
      c_poly <= 0; c_stage <= 0; c_t <= 0;
      wb_poly <= 0; wb_stage <= 0; wb_t <= 0;
      s_poly <= 0; s_t <= 0; f_cnt <= 0; s_rd_v <= 1'b0; s_rd_par <= 1'b0; s_rd_buf <= 2'd0;
      f_wp <= 0; f_rp <= 0; f_n <= 0;
      w_poly <= 0; w_left <= 0; w_addr <= 0; w_burst <= 0;
      aw_poly <= 0; aw_left <= 0; aw_next <= 0; aw_cnt <= 0; b_cnt <= 0;
      for (k = 0; k < PIPE; k = k + 1) p_v[k] <= 1'b0;
    end else begin
      // ---------------- start / done
      if (start && !busy) begin
        inv <= inv_in; num <= num_polys; base <= buf_addr;
        err_resp <= 1'b0;
        cyc_load <= 0; cyc_compute <= 0; cyc_store <= 0; cyc_total <= 0;
        l_poly <= 0; l_active <= 1'b0; l_rows <= 0;
        c_poly <= 0; c_stage <= 0; c_t <= 0;
        wb_poly <= 0; wb_stage <= 0; wb_t <= 0;
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
        if (c_go || p_v[0] || p_v[1] || p_v[2] || p_v[3] || p_v[4] || p_v[5] || p_v[6] || p_v[7])
          cyc_compute <= cyc_compute + 1;
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

      // ---------------- compute issue
      p_v[0] <= c_go;
      p_src[0] <= c_src; p_dst[0] <= c_dst; p_par[0] <= c_parJ;
      p_within[0] <= c_within; p_loglen[0] <= c_loglen;
      p_a1[0] <= c_J[RW-1:1]; p_a2[0] <= c_J2[RW-1:1];
      for (k = 1; k < PIPE; k = k + 1) begin
        p_v[k] <= p_v[k-1]; p_src[k] <= p_src[k-1]; p_dst[k] <= p_dst[k-1];
        p_par[k] <= p_par[k-1]; p_within[k] <= p_within[k-1]; p_loglen[k] <= p_loglen[k-1];
        p_a1[k] <= p_a1[k-1]; p_a2[k] <= p_a2[k-1];
      end
      if (c_go) begin
        if (c_t == T[AB-1:0] - 1'b1) begin
          c_t <= 0;
          if (c_stage == S[4:0] - 5'd1) begin
            c_stage <= 0;
            c_poly <= c_poly + 1;
          end else begin
            c_stage <= c_stage + 1;
          end
        end else begin
          c_t <= c_t + 1'b1;
        end
      end

      // ---------------- write-back
      if (wb_v) begin
        if (wb_t == T[AB:0] - 1'b1) begin
          wb_t <= 0;
          if (wb_stage == S[4:0] - 5'd1) begin
            wb_stage <= 0;
            wb_poly <= wb_poly + 1;
          end else begin
            wb_stage <= wb_stage + 1;
          end
        end else begin
          wb_t <= wb_t + 1'b1;
        end
      end

      // ---------------- storer: bank reads into the FIFO
      s_rd_v <= s_go;
      s_rd_par <= ^s_tt;
      s_rd_buf <= s_buf;
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

      // ---------------- AW channel: a poly's bursts once the storer reads its first row
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
