// falcon_fpadd: binary64 adder/subtractor, pipelined at II = 1, latency 7 (inputs are
// registered on the first edge, the result leaves a register on the seventh).
//
// Bit-exact with the library's integer-only binary64 (crates/pqsig/src/kernels/falcon/
// fpr/emulated.rs, `add_bits`) on EVERY pair of 64-bit patterns, because it computes the
// same integer function step by step:
//   * operands ordered so that |x| >= |y| (on a tie the positive one first: x + (-x) = +0,
//     (-0) + (-0) = -0), the result takes x's sign;
//   * significands with three guard bits, y aligned with a sticky bit (all sticky beyond
//     63 bits of shift), added or subtracted, renormalised to 55 bits (53 + round +
//     sticky), rounded to nearest, ties to even;
//   * subnormal inputs read as zero of their sign (exponent field 0 => significand 0);
//     a result below 2^-1022 is flushed to a zero of the result's sign; no infinities or
//     NaN (the exponent wraps as in the emulation: outside Falcon's domain).
// `sub` = 1 computes a - b as a + (b with its sign bit flipped), as IEEE-754 and the
// emulation define it.
module falcon_fpadd (
    input  wire        clk,
    input  wire [63:0] a,
    input  wire [63:0] b,
    input  wire        sub,
    output wire [63:0] y
);
  // ---- stage 0: operand registers
  reg [63:0] a0, b0;
  always @(posedge clk) begin
    a0 <= a;
    b0 <= {b[63] ^ sub, b[62:0]};
  end

  // ---- stage 1: order by magnitude, unpack
  // d = |a| - |b| - sign(a): negative iff |a| < |b|, or |a| = |b| and a is negative.
  wire [63:0] d  = {1'b0, a0[62:0]} - {1'b0, b0[62:0]} - {63'd0, a0[63]};
  wire        sw = d[63];
  wire [63:0] x  = sw ? b0 : a0;
  wire [63:0] yy = sw ? a0 : b0;
  wire [10:0] ex = x[62:52];
  wire [10:0] ey = yy[62:52];
  reg         s1_sx, s1_sub;
  reg  [10:0] s1_ex, s1_dist;
  reg  [52:0] s1_xm, s1_ym;
  always @(posedge clk) begin
    s1_sx   <= x[63];
    s1_sub  <= x[63] ^ yy[63];
    s1_ex   <= ex;
    s1_dist <= ex - ey;  // >= 0 since |x| >= |y|
    s1_xm   <= (ex != 11'd0) ? {1'b1, x[51:0]} : 53'd0;
    s1_ym   <= (ey != 11'd0) ? {1'b1, yy[51:0]} : 53'd0;
  end

  // ---- stage 2: align y on x (three guard bits, sticky)
  wire        far   = s1_dist > 11'd63;
  wire [5:0]  k     = s1_dist[5:0];
  wire [63:0] ym3   = {8'd0, s1_ym, 3'd0};
  wire [63:0] lostm = ((64'd1 << k) - 64'd1) | {64{far}};
  wire        stk   = |(ym3 & lostm);
  wire [63:0] ysh   = far ? 64'd0 : (ym3 >> k);
  reg         s2_sx, s2_sub;
  reg  [10:0] s2_ex;
  reg  [55:0] s2_xm, s2_ym;
  always @(posedge clk) begin
    s2_sx  <= s1_sx;
    s2_sub <= s1_sub;
    s2_ex  <= s1_ex;
    s2_xm  <= {s1_xm, 3'd0};
    s2_ym  <= ysh[55:0] | {55'd0, stk};
  end

  // ---- stage 3: add or subtract (|x| >= |y| keeps it non-negative; z < 2^57)
  reg         s3_sx;
  reg  [10:0] s3_ex;
  reg  [56:0] s3_z;
  always @(posedge clk) begin
    s3_sx <= s2_sx;
    s3_ex <= s2_ex;
    s3_z  <= s2_sub ? ({1'b0, s2_xm} - {1'b0, s2_ym}) : ({1'b0, s2_xm} + {1'b0, s2_ym});
  end

  // ---- stage 4: leading zeros of (z | 1) over 57 bits (0..56)
  function [5:0] clz57;
    input [56:0] v;
    integer i;
    reg found;
    begin
      clz57 = 6'd56;
      found = 1'b0;
      for (i = 56; i >= 0; i = i - 1)
        if (!found && v[i]) begin
          clz57 = 6'd56 - i[5:0];
          found = 1'b1;
        end
    end
  endfunction
  reg         s4_sx;
  reg  [10:0] s4_ex;
  reg  [56:0] s4_z;
  reg  [5:0]  s4_lz;
  always @(posedge clk) begin
    s4_sx <= s3_sx;
    s4_ex <= s3_ex;
    s4_z  <= s3_z;
    s4_lz <= clz57(s3_z | 57'd1);
  end

  // ---- stage 5: normalise to 55 bits (53 + round + sticky); biased exponent
  // The emulation's e = ex - 1069 - lz64 with lz64 = 7 + lz; round_pack biases by 1076.
  wire [56:0] zn = s4_z << s4_lz;
  reg         s5_sx;
  reg  [12:0] s5_be;
  reg  [54:0] s5_m;
  always @(posedge clk) begin
    s5_sx <= s4_sx;
    s5_be <= {2'b00, s4_ex} - {7'd0, s4_lz};
    s5_m  <= {zn[56:3], |zn[2:0]};
  end

  // ---- stage 6: round_pack (nearest, ties to even; flush below the normal range)
  falcon_round_pack rp (
      .clk(clk),
      .s  (s5_sx),
      .be (s5_be),
      .m  (s5_m),
      .nz (s5_m[54]),
      .y  (y)
  );
endmodule
