// falcon_mulhi64: the high 64 bits of a 64 x 64-bit unsigned product (the `mulhi` of
// Falcon's fixed-point exp polynomial, fpr/mod.rs `expm_p63`), sequential: b is taken W
// bits at a time, low digits first, STEPS = 64 / W cycles of one 64 x W product each
// (W = 16: three DSP48E1-sized products per step).
//
// Invariant: after step j, acc = floor(a * (b mod 2^(W*j)) / 2^(W*j)) < 2^64, so the
// next step is acc' = (acc + a * b_j) >> W and after the last step acc = (a*b) >> 64,
// exactly (the low digits only contribute their carries).
//
// start (one cycle, with a and b) -> done is a one-cycle pulse STEPS + 1 cycles later,
// with hi valid from then until the next start.
module falcon_mulhi64 #(
    parameter W = 16
) (
    input  wire        clk,
    input  wire        start,
    input  wire [63:0] a,
    input  wire [63:0] b,
    output reg  [63:0] hi,
    output reg         done
);
  localparam STEPS = 64 / W;
  reg  [63:0]  ra, rb, acc;
  reg  [7:0]   j;
  reg          busy = 1'b0;
  wire [W-1:0] bj = rb[W-1:0];
  wire [64+W:0] t = {{(W + 1) {1'b0}}, acc} + ra * bj;
  always @(posedge clk) begin
    done <= 1'b0;
    if (start) begin
      ra   <= a;
      rb   <= b;
      acc  <= 64'd0;
      j    <= 8'd0;
      busy <= 1'b1;
    end else if (busy) begin
      acc <= t[63+W:W];
      rb  <= rb >> W;
      j   <= j + 8'd1;
      if (j == STEPS - 1) begin
        busy <= 1'b0;
        done <= 1'b1;
        hi   <= t[63+W:W];
      end
    end
  end
endmodule
