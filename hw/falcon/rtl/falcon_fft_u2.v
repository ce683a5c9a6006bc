// falcon_fft_u2: the FFT/iFFT engine of falcon_fft with TWO adders and TWO multipliers
// (falcon_fft parameter UNITS = 2): one butterfly every 3 cycles instead of 6. Same
// arithmetic, operand order, twiddles and results as falcon_fft_u1 (bit-identical to the
// library's portable fft / ifft); same ports. The real and imaginary halves live in two
// RAMs (n/2 words each, simple dual port), so a butterfly's 4 reads and 4 writes fit in 3
// cycles. Relative to the issue cycle T (slot = cycle mod 3), LM = 6, LA = 7:
//   forward  reads  T y (re, im), T+1 x (re, im); twiddle at T+1..T+3
//            mul0   T+1 y_re*s_re, T+2 y_re*s_im     mul1 T+1 y_im*s_im, T+2 y_im*s_re
//            add0   T+7 p0-p1, T+14 x_re+y'_re, T+15 x_re-y'_re
//            add1   T+8 p2+p3, T+15 x_im+y'_im, T+16 x_im-y'_im
//            writes re T+21 x, T+22 y; im T+22 x, T+23 y
//   inverse  reads  T x (re, im), T+1 y (re, im); twiddle at T+10..T+12
//            add0   T+2 x_re+y_re, T+3 x_re-y_re, T+16 q0-q1
//            add1   T+2 x_im+y_im, T+3 x_im-y_im, T+19 q2+q3
//            mul0   T+10 d_re*s_re, T+11 d_re*(-s_im) mul1 T+10 d_im*(-s_im), T+11 d_im*s_re
//            writes re T+9 x, T+23 y; im T+9 x, T+26 y
// Drain between layers 24 cycles; the inverse scales re and im together (n/2 cycles).
// Cycles: forward (LOGN-1)(3n/4 + 24) + 1; inverse that + n/2 + 9.
module falcon_fft_u2 #(
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
  localparam HN = N / 2;
  localparam NB = N / 4;
  localparam GAP = 24;

  localparam S_IDLE = 3'd0, S_RUN = 3'd1, S_DRAIN = 3'd2, S_SCALE = 3'd3, S_TAIL = 3'd4;
  reg [2:0] state;
  reg inv;
  reg [3:0] sh;
  reg [LOGN-3:0] u;
  reg [1:0] slot;
  reg [5:0] wait_cnt;
  reg [LOGN-2:0] sidx;
  assign busy = state != S_IDLE;

  wire [LOGN-2:0] ux = {1'b0, u};
  wire [LOGN-2:0] lowmask = ({{(LOGN - 2) {1'b0}}, 1'b1} << sh) - 1'b1;
  wire [LOGN-2:0] xi = ((ux & ~lowmask) << 1) | (ux & lowmask);
  wire [LOGN-2:0] yi = xi | ({{(LOGN - 2) {1'b0}}, 1'b1} << sh);
  wire [LOGN-1:0] tw = ({{(LOGN - 1) {1'b0}}, 1'b1} << (LOGN - 1 - sh)) + ({1'b0, ux} >> sh);
  wire last_layer = inv ? (sh == LOGN - 2) : (sh == 0);
  wire issue = (state == S_RUN) && (slot == 2'd0);

  always @(posedge clk) begin
    if (rst) begin
      state <= S_IDLE;
      cycles <= 32'd0;
      slot <= 2'd0;
    end else begin
      if (state != S_IDLE) cycles <= cycles + 32'd1;
      slot <= (slot == 2'd2 || state == S_IDLE) ? 2'd0 : slot + 2'd1;
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
        if (slot == 2'd2) begin
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
          if (sidx == HN - 1) begin
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

  // ---- delay lines: issue context {valid, x, y}
  wire [2*LOGN-2:0] ctx_in = {issue, xi, yi};
  wire [2*LOGN-2:0] ctx9, ctx21, ctx22, ctx23, ctx26;
  falcon_delay #(2 * LOGN - 1, 9) dc9 (clk, ctx_in, ctx9);
  falcon_delay #(2 * LOGN - 1, 12) dc21 (clk, ctx9, ctx21);
  falcon_delay #(2 * LOGN - 1, 1) dc22 (clk, ctx21, ctx22);
  falcon_delay #(2 * LOGN - 1, 1) dc23 (clk, ctx22, ctx23);
  falcon_delay #(2 * LOGN - 1, 3) dc26 (clk, ctx23, ctx26);
  localparam V = 2 * LOGN - 2;  // valid bit
  wire [LOGN-1:0] tw9;
  falcon_delay #(LOGN, 9) dtw (clk, tw, tw9);
  wire [LOGN-1:0] sc7;  // {valid, index}
  falcon_delay #(LOGN, 7) dsc (clk, {state == S_SCALE, sidx}, sc7);

  // ---- RAMs: real and imaginary halves
  reg [63:0] mre[0:HN-1];
  reg [63:0] mim[0:HN-1];
  reg [63:0] rre, rim;
  reg [LOGN-2:0] raddr, wa_re, wa_im;
  reg we_re, we_im;
  reg [63:0] wd_re, wd_im;
  reg host_im;
  always @(posedge clk) begin
    rre <= mre[raddr];
    rim <= mim[raddr];
    host_im <= host_addr[LOGN-1];
    if (we_re) mre[wa_re] <= wd_re;
    if (we_im) mim[wa_im] <= wd_im;
  end
  assign host_rdata = host_im ? rim : rre;
  wire [63:0] rre1, rre2, rre12, rre13, rim1, rim2, rim13, rim14;
  falcon_delay #(64, 1) dr1 (clk, rre, rre1);
  falcon_delay #(64, 1) dr2 (clk, rre1, rre2);
  falcon_delay #(64, 10) dr12 (clk, rre2, rre12);
  falcon_delay #(64, 1) dr13 (clk, rre12, rre13);
  falcon_delay #(64, 1) di1 (clk, rim, rim1);
  falcon_delay #(64, 1) di2 (clk, rim1, rim2);
  falcon_delay #(64, 11) di13 (clk, rim2, rim13);
  falcon_delay #(64, 1) di14 (clk, rim13, rim14);

  // ---- twiddle ROM
  wire [127:0] s;
  generate
    if (LOGN == 9) begin : g_tw
      falcon_fft_tw_n512 rom (.clk(clk), .addr(inv ? tw9 : tw), .data(s));
    end else begin : g_tw
      falcon_fft_tw_n1024 rom (.clk(clk), .addr(inv ? tw9 : tw), .data(s));
    end
  endgenerate
  wire [63:0] s_re = s[127:64];
  wire [63:0] s_im = s[63:0];
  wire [63:0] s_imn = {~s_im[63], s_im[62:0]};

  // ---- units
  wire [63:0] ao0, ao1, mo0, mo1;
  wire [63:0] ao0_1, ao1_1, mo0_1, mo0_2, mo1_1, mo1_2;
  falcon_delay #(64, 1) da01 (clk, ao0, ao0_1);
  falcon_delay #(64, 1) da11 (clk, ao1, ao1_1);
  falcon_delay #(64, 1) dm01 (clk, mo0, mo0_1);
  falcon_delay #(64, 1) dm02 (clk, mo0_1, mo0_2);
  falcon_delay #(64, 1) dm11 (clk, mo1, mo1_1);
  falcon_delay #(64, 1) dm12 (clk, mo1_1, mo1_2);

  reg [63:0] a0a, a0b, a1a, a1b, m0a, m0b, m1a, m1b;
  reg a0s, a1s;
  always @(*) begin
    a0a = 64'd0; a0b = 64'd0; a0s = 1'b0; a1a = 64'd0; a1b = 64'd0; a1s = 1'b0;
    m0a = 64'd0; m0b = 64'd0; m1a = 64'd0; m1b = 64'd0;
    if (state == S_SCALE || state == S_TAIL) begin
      m0a = rre;
      m0b = {1'b0, 11'd1024 - LOGN[10:0], 52'd0};  // 2/n
      m1a = rim;
      m1b = {1'b0, 11'd1024 - LOGN[10:0], 52'd0};
    end else if (!inv) begin
      case (slot)
        2'd1: begin
          a0a = mo0; a0b = mo1; a0s = 1'b1;  // p0 - p1
          a1a = rim14; a1b = ao1_1; a1s = 1'b1;  // x_im - y'_im
          m0a = rre; m0b = s_re;  // y_re * s_re
          m1a = rim; m1b = s_im;  // y_im * s_im
        end
        2'd2: begin
          a0a = rre12; a0b = ao0; a0s = 1'b0;  // x_re + y'_re
          a1a = mo0; a1b = mo1; a1s = 1'b0;  // p2 + p3
          m0a = rre1; m0b = s_im;  // y_re * s_im
          m1a = rim1; m1b = s_re;  // y_im * s_re
        end
        default: begin
          a0a = rre13; a0b = ao0_1; a0s = 1'b1;  // x_re - y'_re
          a1a = rim13; a1b = ao1; a1s = 1'b0;  // x_im + y'_im
        end
      endcase
    end else begin
      case (slot)
        2'd2: begin
          a0a = rre1; a0b = rre; a0s = 1'b0;  // x_re + y_re
          a1a = rim1; a1b = rim; a1s = 1'b0;  // x_im + y_im
          m0a = ao0_1; m0b = s_imn;  // d_re * (-s_im)
          m1a = ao1_1; m1b = s_re;  // d_im * s_re
        end
        2'd0: begin
          a0a = rre2; a0b = rre1; a0s = 1'b1;  // x_re - y_re
          a1a = rim2; a1b = rim1; a1s = 1'b1;  // x_im - y_im
        end
        default: begin
          a0a = mo0; a0b = mo1; a0s = 1'b1;  // q0 - q1
          a1a = mo0_2; a1b = mo1_2; a1s = 1'b0;  // q2 + q3
          m0a = ao0; m0b = s_re;  // d_re * s_re
          m1a = ao1; m1b = s_imn;  // d_im * (-s_im)
        end
      endcase
    end
  end
  falcon_fpadd fadd0 (.clk(clk), .a(a0a), .b(a0b), .sub(a0s), .y(ao0));
  falcon_fpadd fadd1 (.clk(clk), .a(a1a), .b(a1b), .sub(a1s), .y(ao1));
  falcon_fpmul fmul0 (.clk(clk), .a(m0a), .b(m0b), .y(mo0));
  falcon_fpmul fmul1 (.clk(clk), .a(m1a), .b(m1b), .y(mo1));

  // ---- RAM ports
  always @(*) begin
    raddr = host_addr[LOGN-2:0];
    we_re = 1'b0; we_im = 1'b0;
    wa_re = host_addr[LOGN-2:0]; wa_im = host_addr[LOGN-2:0];
    wd_re = host_wdata; wd_im = host_wdata;
    if (state == S_IDLE) begin
      we_re = host_we & ~host_addr[LOGN-1];
      we_im = host_we & host_addr[LOGN-1];
    end else if (state == S_SCALE || state == S_TAIL) begin
      raddr = sidx;
      we_re = sc7[LOGN-1]; we_im = sc7[LOGN-1];
      wa_re = sc7[LOGN-2:0]; wa_im = sc7[LOGN-2:0];
      wd_re = mo0; wd_im = mo1;
    end else begin
      // forward: y then x; inverse: x then y
      raddr = (slot == 2'd0) ^ inv ? yi : xi;
      wd_re = ao0; wd_im = ao1;
      if (!inv) begin
        case (slot)
          2'd0: begin we_re = ctx21[V]; wa_re = ctx21[V-1:LOGN-1]; end
          2'd1: begin
            we_re = ctx22[V]; wa_re = ctx22[LOGN-2:0];
            we_im = ctx22[V]; wa_im = ctx22[V-1:LOGN-1];
          end
          default: begin we_im = ctx23[V]; wa_im = ctx23[LOGN-2:0]; end
        endcase
      end else begin
        case (slot)
          2'd0: begin
            we_re = ctx9[V]; wa_re = ctx9[V-1:LOGN-1];
            we_im = ctx9[V]; wa_im = ctx9[V-1:LOGN-1];
          end
          2'd2: begin
            we_re = ctx23[V]; wa_re = ctx23[LOGN-2:0];
            we_im = ctx26[V]; wa_im = ctx26[LOGN-2:0];
          end
          default: ;
        endcase
      end
    end
  end
endmodule
