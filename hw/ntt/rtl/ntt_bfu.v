// ntt_bfu: one radix-2 butterfly unit, pipelined at II = 1, latency 7.
//
//   forward (Cooley-Tukey):    a' = a + w*b,        b' = a - w*b
//   inverse (Gentleman-Sande): a' = (a + b) * 2^S,  b' = (a - b) * w     (w includes 2^S)
//
// All values canonical in [0, q). w is in hardware Montgomery form (w_true * 2^RB), so
// the Montgomery product yields the true product. The inverse's final factor (1/n, and
// 2^32 for ML-DSA) is fused into the layers: every inverse layer scales both outputs by
// 2^S (S = SCALE: +3 doubles three times, -1 halves), so after log2 n layers the whole
// transform is scaled by 2^(S log2 n) (ML-DSA: 2^24 = 2^32/256; Falcon: 2^-logn = 1/n).
module ntt_bfu #(
    parameter integer Q     = 8380417,
    parameter integer RB    = 23,
    parameter integer SCALE = 3
) (
    input  wire          clk,
    input  wire          inv,    // travels with the data (one per issue)
    input  wire [RB-1:0] a,
    input  wire [RB-1:0] b,
    input  wire [RB-1:0] w,
    output reg  [RB-1:0] ao,
    output reg  [RB-1:0] bo
);
  localparam [RB:0] QW = Q;

  function [RB-1:0] addq(input [RB-1:0] x, input [RB-1:0] y);
    reg [RB:0] s;
    begin
      s = {1'b0, x} + {1'b0, y};
      addq = (s >= QW) ? s - QW : s[RB-1:0];
    end
  endfunction

  function [RB-1:0] subq(input [RB-1:0] x, input [RB-1:0] y);
    reg [RB:0] s;
    begin
      s = {1'b0, x} - {1'b0, y};
      subq = s[RB] ? s[RB-1:0] + QW[RB-1:0] : s[RB-1:0];
    end
  endfunction

  function [RB-1:0] dblq(input [RB-1:0] x);
    reg [RB:0] s;
    begin
      s = {x, 1'b0};
      dblq = (s >= QW) ? s - QW : s[RB-1:0];
    end
  endfunction

  function [RB-1:0] halfq(input [RB-1:0] x);
    reg [RB:0] s;
    begin
      s = {1'b0, x} + (x[0] ? QW : {(RB+1){1'b0}});
      halfq = s[RB:1];
    end
  endfunction

  // stage 1: pre-addition (inverse) or pass-through (forward)
  reg [RB-1:0] x1, y1, w1;
  reg          inv1;
  always @(posedge clk) begin
    inv1 <= inv;
    w1   <= w;
    x1   <= inv ? subq(a, b) : b;
    y1   <= inv ? addq(a, b) : a;
  end

  // stages 2..6: Montgomery product x1 * w1 (latency 5); y travels alongside and is
  // scaled by 2^S in inverse mode.
  wire [RB-1:0] r6;
  ntt_modmul #(.Q(Q), .RB(RB)) u_mul (.clk(clk), .a(x1), .b(w1), .r(r6));

  reg [RB-1:0] y2, y3, y4, y5, y6;
  reg          inv2, inv3, inv4, inv5, inv6;
  always @(posedge clk) begin
    inv2 <= inv1; inv3 <= inv2; inv4 <= inv3; inv5 <= inv4; inv6 <= inv5;
    if (SCALE < 0) begin
      y2 <= inv1 ? halfq(y1) : y1;
      y3 <= y2;
      y4 <= y3;
    end else begin
      y2 <= (inv1 && SCALE >= 1) ? dblq(y1) : y1;
      y3 <= (inv2 && SCALE >= 2) ? dblq(y2) : y2;
      y4 <= (inv3 && SCALE >= 3) ? dblq(y3) : y3;
    end
    y5 <= y4;
    y6 <= y5;
  end

  // stage 7: post-addition (forward) or pass-through (inverse)
  always @(posedge clk) begin
    ao <= inv6 ? y6 : addq(y6, r6);
    bo <= inv6 ? r6 : subq(y6, r6);
  end
endmodule
