// falcon_fft_u1: Falcon's FFT / inverse FFT over binary64 for n = 2^LOGN (LOGN = 9, 10) on
// ONE falcon_fpadd and ONE falcon_fpmul, computing exactly the library's portable
// kernels (crates/pqsig/src/kernels/falcon/fft/portable.rs `fft`, `ifft`): same
// butterflies, same operand order, same twiddles (GM_TAB, ROM falcon_fft_tw_n*), the
// inverse's last layer folded into the final scaling by 2/n; so the results are
// bit-identical to the library's (and the round-3 reference's).
//
// Data: one RAM of n binary64 words in the library's layout (n/2 real parts, then n/2
// imaginary parts), transformed in place. While idle the host port reads and writes it
// (read data one cycle after the address). `start` with `inverse` = 0 / 1 runs fft /
// ifft; `busy` is high until the result is in the RAM; `cycles` = clock cycles of the
// last transform, start to done.
//
// Schedule. A layer is n/4 butterflies, one issued every 6 cycles (the adder does 6
// operations per butterfly, the multiplier 4, so the single adder is busy every cycle).
// Butterfly u of the layer whose pairs are 2^sh apart: x = u with a 0 bit inserted at
// position sh, y = the same with a 1 bit, twiddle 2^(LOGN-1-sh) + (u >> sh); forward
// layers run sh = LOGN-2 .. 0, inverse layers sh = 0 .. LOGN-2. Relative to the issue
// cycle T (slot = cycle mod 6, 0 at T), with LM = 6 and LA = 7:
//   forward  reads y_re T, y_im T+1, x_re T+2, x_im T+3; twiddle at T+1..T+6
//            mul  T+1 y_re*s_re, T+2 y_im*s_im, T+3 y_re*s_im, T+4 y_im*s_re
//            add  T+8 p0-p1 (= y'_re), T+10 p2+p3 (= y'_im),
//                 T+15 x_re+y'_re, T+17 x_re-y'_re, T+18 x_im+y'_im, T+19 x_im-y'_im
//            writes T+22 x_re, T+24 y_re, T+25 x_im, T+26 y_im
//   inverse  reads x_re T, y_re T+1, x_im T+2, y_im T+3; twiddle at T+9..T+14
//            add  T+2 x_re+y_re, T+3 x_re-y_re (= d_re), T+4 x_im+y_im, T+5 x_im-y_im
//            mul  T+10 d_re*s_re, T+11 d_re*(-s_im), T+12 d_im*(-s_im), T+13 d_im*s_re
//            add  T+18 q0-q1 (= z_re), T+19 q2+q3 (= z_im)
//            writes T+9 x_re, T+11 x_im, T+25 y_re, T+26 y_im
// Every operation of a butterfly falls on a distinct slot of its unit, so the units'
// input multiplexers depend on the slot alone and the butterflies overlap freely within
// a layer. Between layers the pipeline drains (the next layer reads what the last
// butterflies write): 24 cycles. The inverse then scales the n words by 2/n, one per
// cycle through the multiplier.
// Cycles: forward (LOGN-1)(6n/4 + 24) + 1; inverse that + n + 9 (tests/fft_vs_kernels.rs).
module falcon_fft_u1 #(
    parameter LOGN = 9
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            start,
    input  wire            inverse,
    output wire            busy,
    output reg  [31:0]     cycles,
    input  wire            host_we,
    input  wire [LOGN-1:0] host_addr,
    input  wire [63:0]     host_wdata,
    output wire [63:0]     host_rdata
);
  localparam N = 1 << LOGN;
  localparam NB = N / 4;  // butterflies per layer
  localparam GAP = 24;  // drain between layers (last write at T+26, next read >= T+27)

  localparam S_IDLE = 3'd0, S_RUN = 3'd1, S_DRAIN = 3'd2, S_SCALE = 3'd3, S_TAIL = 3'd4;
  reg [2:0] state;
  reg inv;
  reg [3:0] sh;  // pair distance 2^sh in the current layer
  reg [LOGN-3:0] u;  // butterfly index in the layer
  reg [2:0] slot;
  reg [5:0] wait_cnt;
  reg [LOGN-1:0] sidx;  // scaling: next word to read
  assign busy = state != S_IDLE;

  // ---- butterfly addresses (over the n/2 complex slots) and twiddle index
  wire [LOGN-2:0] ux = {1'b0, u};
  wire [LOGN-2:0] lowmask = ({{(LOGN - 2) {1'b0}}, 1'b1} << sh) - 1'b1;
  wire [LOGN-2:0] xi = ((ux & ~lowmask) << 1) | (ux & lowmask);
  wire [LOGN-2:0] yi = xi | ({{(LOGN - 2) {1'b0}}, 1'b1} << sh);
  wire [LOGN-1:0] tw = ({{(LOGN - 1) {1'b0}}, 1'b1} << (LOGN - 1 - sh)) + ({1'b0, ux} >> sh);
  wire last_layer = inv ? (sh == LOGN - 2) : (sh == 0);
  wire issue = (state == S_RUN) && (slot == 3'd0);

  // ---- control
  always @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      cycles <= 32'd0;
      slot <= 3'd0;
    end else begin
      if (state != S_IDLE) cycles <= cycles + 32'd1;
      slot <= (slot == 3'd5 || state == S_IDLE) ? 3'd0 : slot + 3'd1;
      case (state)
        S_IDLE:
        if (start) begin
          state <= S_RUN;
          inv <= inverse;
          sh <= inverse ? 4'd0 : LOGN - 2;
          u <= 0;
          cycles <= 32'd1;
        end
        S_RUN:
        if (slot == 3'd5) begin
          u <= u + 1'b1;
          if (u == NB - 1) begin
            state <= S_DRAIN;
            wait_cnt <= GAP - 1;
          end
        end
        S_DRAIN:
        if (wait_cnt == 0) begin
          if (last_layer) begin
            state <= inv ? S_SCALE : S_IDLE;
            sidx <= 0;
          end else begin
            state <= S_RUN;
            sh <= inv ? sh + 1'b1 : sh - 1'b1;
          end
        end else wait_cnt <= wait_cnt - 1'b1;
        S_SCALE: begin
          sidx <= sidx + 1'b1;
          if (sidx == N - 1) begin
            state <= S_TAIL;
            wait_cnt <= 6'd8;
          end
        end
        S_TAIL:
        if (wait_cnt == 0) state <= S_IDLE;
        else wait_cnt <= wait_cnt - 1'b1;
        default: state <= S_IDLE;
      endcase
    end
  end

  // ---- delay lines: issue context, read data, unit outputs
  // context pushed every cycle, valid only at issue: {valid, x, y}
  wire [2*LOGN-2:0] ctx_in = {issue, xi, yi};
  wire [2*LOGN-2:0] ctx9, ctx11, ctx22, ctx24, ctx25, ctx26;
  falcon_delay #(2 * LOGN - 1, 9) dc9 (clk, ctx_in, ctx9);
  falcon_delay #(2 * LOGN - 1, 2) dc11 (clk, ctx9, ctx11);
  falcon_delay #(2 * LOGN - 1, 11) dc22 (clk, ctx11, ctx22);
  falcon_delay #(2 * LOGN - 1, 2) dc24 (clk, ctx22, ctx24);
  falcon_delay #(2 * LOGN - 1, 1) dc25 (clk, ctx24, ctx25);
  falcon_delay #(2 * LOGN - 1, 1) dc26 (clk, ctx25, ctx26);
  // twiddle index for the inverse: 8 cycles late
  wire [LOGN-1:0] tw8;
  falcon_delay #(LOGN, 8) dtw (clk, tw, tw8);
  // scaling context: {valid, address}, 1 (RAM) + 6 (multiplier) cycles
  wire [LOGN:0] sc7;
  falcon_delay #(LOGN + 1, 7) dsc (clk, {state == S_SCALE, sidx}, sc7);

  // ---- RAM (simple dual port, synchronous read)
  reg [63:0] mem[0:N-1];
  reg [63:0] rd;
  reg [LOGN-1:0] raddr;
  reg we;
  reg [LOGN-1:0] waddr;
  reg [63:0] wdata;
  always @(posedge clk) begin
    rd <= mem[raddr];
    if (we) mem[waddr] <= wdata;
  end
  assign host_rdata = rd;
  wire [63:0] rd1, rd2, rd12, rd14, rd15;
  falcon_delay #(64, 1) dr1 (clk, rd, rd1);
  falcon_delay #(64, 1) dr2 (clk, rd1, rd2);
  falcon_delay #(64, 10) dr12 (clk, rd2, rd12);
  falcon_delay #(64, 2) dr14 (clk, rd12, rd14);
  falcon_delay #(64, 1) dr15 (clk, rd14, rd15);

  // ---- twiddle ROM: {re, im} of GM_TAB entry k, registered output
  wire [127:0] s;
  generate
    if (LOGN == 9) begin : g_tw
      falcon_fft_tw_n512 rom (
          .clk (clk),
          .addr(inv ? tw8 : tw),
          .data(s)
      );
    end else begin : g_tw
      falcon_fft_tw_n1024 rom (
          .clk (clk),
          .addr(inv ? tw8 : tw),
          .data(s)
      );
    end
  endgenerate
  wire [63:0] s_re = s[127:64];
  wire [63:0] s_im = s[63:0];
  wire [63:0] s_imn = {~s_im[63], s_im[62:0]};

  // ---- the two units and their slot-driven operand multiplexers
  wire [63:0] ao, mo;
  wire [63:0] ao1, ao2, mo1, mo2;
  falcon_delay #(64, 1) da1 (clk, ao, ao1);
  falcon_delay #(64, 1) da2 (clk, ao1, ao2);
  falcon_delay #(64, 1) dm1 (clk, mo, mo1);
  falcon_delay #(64, 1) dm2 (clk, mo1, mo2);

  reg [63:0] aa, ab, ma, mb;
  reg asub;
  always @(*) begin
    aa = 64'd0; ab = 64'd0; asub = 1'b0; ma = 64'd0; mb = 64'd0;
    if (state == S_SCALE || state == S_TAIL) begin
      ma = rd;
      mb = {1'b0, 11'd1024 - LOGN[10:0], 52'd0};  // 2/n
    end else if (!inv) begin
      case (slot)
        3'd2: begin aa = mo1;  ab = mo;  asub = 1'b1; end  // p0 - p1
        3'd4: begin aa = mo1;  ab = mo;  asub = 1'b0; end  // p2 + p3
        3'd3: begin aa = rd12; ab = ao;  asub = 1'b0; end  // x_re + y'_re
        3'd5: begin aa = rd14; ab = ao2; asub = 1'b1; end  // x_re - y'_re
        3'd0: begin aa = rd14; ab = ao1; asub = 1'b0; end  // x_im + y'_im
        default: begin aa = rd15; ab = ao2; asub = 1'b1; end  // x_im - y'_im
      endcase
      case (slot)
        3'd1: begin ma = rd;  mb = s_re; end
        3'd2: begin ma = rd;  mb = s_im; end
        3'd3: begin ma = rd2; mb = s_im; end
        3'd4: begin ma = rd2; mb = s_re; end
        default: ;
      endcase
    end else begin
      case (slot)
        3'd2: begin aa = rd1; ab = rd;  asub = 1'b0; end  // x_re + y_re
        3'd3: begin aa = rd2; ab = rd1; asub = 1'b1; end  // x_re - y_re
        3'd4: begin aa = rd1; ab = rd;  asub = 1'b0; end  // x_im + y_im
        3'd5: begin aa = rd2; ab = rd1; asub = 1'b1; end  // x_im - y_im
        3'd0: begin aa = mo2; ab = mo;  asub = 1'b1; end  // q0 - q1
        default: begin aa = mo2; ab = mo; asub = 1'b0; end  // q2 + q3
      endcase
      case (slot)
        3'd4: begin ma = ao;  mb = s_re;  end
        3'd5: begin ma = ao1; mb = s_imn; end
        3'd0: begin ma = ao;  mb = s_imn; end
        3'd1: begin ma = ao1; mb = s_re;  end
        default: ;
      endcase
    end
  end
  falcon_fpadd fadd (.clk(clk), .a(aa), .b(ab), .sub(asub), .y(ao));
  falcon_fpmul fmul (.clk(clk), .a(ma), .b(mb), .y(mo));

  // ---- RAM ports: host while idle; reads at slots 0..3 of a butterfly; writes as the
  // results leave the adder (or, when scaling, the multiplier)
  always @(*) begin
    raddr = host_addr;
    we = 1'b0;
    waddr = host_addr;
    wdata = host_wdata;
    if (state == S_IDLE) begin
      we = host_we;
    end else if (state == S_SCALE || state == S_TAIL) begin
      raddr = sidx;
      we = sc7[LOGN];
      waddr = sc7[LOGN-1:0];
      wdata = mo;
    end else begin
      // reads: forward y_re, y_im, x_re, x_im; inverse x_re, y_re, x_im, y_im
      case (slot)
        3'd0: raddr = {1'b0, inv ? xi : yi};
        3'd1: raddr = inv ? {1'b0, yi} : {1'b1, yi};
        3'd2: raddr = inv ? {1'b1, xi} : {1'b0, xi};
        default: raddr = {1'b1, inv ? yi : xi};
      endcase
      wdata = ao;
      if (!inv) begin
        case (slot)
          3'd4: begin we = ctx22[2*LOGN-2]; waddr = {1'b0, ctx22[2*LOGN-3:LOGN-1]}; end
          3'd0: begin we = ctx24[2*LOGN-2]; waddr = {1'b0, ctx24[LOGN-2:0]}; end
          3'd1: begin we = ctx25[2*LOGN-2]; waddr = {1'b1, ctx25[2*LOGN-3:LOGN-1]}; end
          3'd2: begin we = ctx26[2*LOGN-2]; waddr = {1'b1, ctx26[LOGN-2:0]}; end
          default: ;
        endcase
      end else begin
        case (slot)
          3'd3: begin we = ctx9[2*LOGN-2];  waddr = {1'b0, ctx9[2*LOGN-3:LOGN-1]}; end
          3'd5: begin we = ctx11[2*LOGN-2]; waddr = {1'b1, ctx11[2*LOGN-3:LOGN-1]}; end
          3'd1: begin we = ctx25[2*LOGN-2]; waddr = {1'b0, ctx25[LOGN-2:0]}; end
          3'd2: begin we = ctx26[2*LOGN-2]; waddr = {1'b1, ctx26[LOGN-2:0]}; end
          default: ;
        endcase
      end
    end
  end
endmodule
