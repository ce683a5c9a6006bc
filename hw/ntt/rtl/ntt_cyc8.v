// ntt_cyc8: the 8-point cyclic transform of the Winograd radix-8 unit (docs/NTT.md
// section 6), II = 1, latency 9:
//   X_k = sum_n y_n w^(nk),  w = the primitive 8th root 1753^64 (q = 8380417) or
//   7^256 (q = 12289), with 4 multiplications by the fixed constants i = w^2,
//   s = (w - w^3)/2, t = (w + w^3)/2 and 26 additions/subtractions.
// Outputs in natural order X_0..X_7. All values canonical; the constants in hardware
// Montgomery form (value * 2^RB mod q). Used by ntt_wino8 (forward unit) and
// ntt_w8bfu (the core's unit, both directions: the inverse transform is this one with
// its output index negated).
module ntt_cyc8 #(
    parameter integer Q  = 8380417,
    parameter integer RB = 23
) (
    input  wire            clk,
    input  wire [8*RB-1:0] y,     // y_0 .. y_7
    output reg  [8*RB-1:0] X      // X_0 .. X_7
);
  localparam [RB:0] QW = Q;
  localparam [RB-1:0] CI = (Q == 8380417) ? 4337571 : 1972;   // i = w^2
  localparam [RB-1:0] CS = (Q == 8380417) ? 6143    : 6126;   // (w - w^3)/2
  localparam [RB-1:0] CT = (Q == 8380417) ? 4146234 : 8928;   // (w + w^3)/2

  function [RB-1:0] addq(input [RB-1:0] a, input [RB-1:0] b);
    reg [RB:0] s;
    begin
      s = {1'b0, a} + {1'b0, b};
      addq = (s >= QW) ? s - QW : s[RB-1:0];
    end
  endfunction
  function [RB-1:0] subq(input [RB-1:0] a, input [RB-1:0] b);
    reg [RB:0] s;
    begin
      s = {1'b0, a} - {1'b0, b};
      subq = s[RB] ? s[RB-1:0] + QW[RB-1:0] : s[RB-1:0];
    end
  endfunction

  integer k;

  // ---- fold (1 cycle): a_n = y_n + y_n+4, b_n = y_n - y_n+4
  reg [RB-1:0] a0, a1, a2, a3, b0, b1, b2, b3;
  always @(posedge clk) begin
    a0 <= addq(y[0*RB +: RB], y[4*RB +: RB]); b0 <= subq(y[0*RB +: RB], y[4*RB +: RB]);
    a1 <= addq(y[1*RB +: RB], y[5*RB +: RB]); b1 <= subq(y[1*RB +: RB], y[5*RB +: RB]);
    a2 <= addq(y[2*RB +: RB], y[6*RB +: RB]); b2 <= subq(y[2*RB +: RB], y[6*RB +: RB]);
    a3 <= addq(y[3*RB +: RB], y[7*RB +: RB]); b3 <= subq(y[3*RB +: RB], y[7*RB +: RB]);
  end

  // ---- pre-additions (1 cycle)
  reg [RB-1:0] s0, dd, s1, e0, bb0, bc, bm, bp;
  always @(posedge clk) begin
    s0 <= addq(a0, a2); dd <= subq(a0, a2);
    s1 <= addq(a1, a3); e0 <= subq(a1, a3);
    bb0 <= b0; bc <= b2;
    bm <= subq(b1, b3); bp <= addq(b1, b3);
  end

  // ---- 4 constant multiplications (latency 5); the rest delayed alongside
  wire [RB-1:0] e, c, u, v;
  ntt_modmul #(.Q(Q), .RB(RB)) u_e (.clk(clk), .a(e0), .b(CI), .r(e));
  ntt_modmul #(.Q(Q), .RB(RB)) u_c (.clk(clk), .a(bc), .b(CI), .r(c));
  ntt_modmul #(.Q(Q), .RB(RB)) u_u (.clk(clk), .a(bm), .b(CS), .r(u));
  ntt_modmul #(.Q(Q), .RB(RB)) u_v (.clk(clk), .a(bp), .b(CT), .r(v));
  reg [RB-1:0] s0d [0:4], s1d [0:4], ddd [0:4], b0d [0:4];
  always @(posedge clk) begin
    s0d[0] <= s0; s1d[0] <= s1; ddd[0] <= dd; b0d[0] <= bb0;
    for (k = 1; k < 5; k = k + 1) begin
      s0d[k] <= s0d[k-1]; s1d[k] <= s1d[k-1]; ddd[k] <= ddd[k-1]; b0d[k] <= b0d[k-1];
    end
  end

  // ---- post-additions (2 cycles)
  reg [RB-1:0] X0, X4, X2, X6, g0, g1, p, m;
  always @(posedge clk) begin
    X0 <= addq(s0d[4], s1d[4]); X4 <= subq(s0d[4], s1d[4]);
    X2 <= addq(ddd[4], e);      X6 <= subq(ddd[4], e);
    g0 <= addq(b0d[4], c);      g1 <= subq(b0d[4], c);
    p  <= addq(v, u);           m  <= subq(v, u);
    X <= {subq(g1, m), X6, subq(g0, p), X4, addq(g1, m), X2, addq(g0, p), X0};
  end
endmodule
