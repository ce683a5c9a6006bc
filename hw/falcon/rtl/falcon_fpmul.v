// falcon_fpmul: binary64 multiplier, pipelined at II = 1, latency 6 (inputs registered
// on the first edge, the result leaves a register on the sixth).
//
// Bit-exact with the library's integer-only binary64 (crates/pqsig/src/kernels/falcon/
// fpr/emulated.rs, `mul_bits`) on EVERY pair of 64-bit patterns: the 106-bit product of
// the two 53-bit significands (hidden bit always set, as in the emulation), bits 105..50
// kept with a sticky bit, brought to 55 bits, rounded to nearest, ties to even. A zero
// (or subnormal, read as zero) operand gives a zero with sign sa ^ sb; a result below
// 2^-1022 flushes to a zero of that sign; no infinities or NaN (the exponent wraps as in
// the emulation: outside Falcon's domain).
//
// The significand product is shaped for DSP48E1 (25 x 18 signed = 24 x 17 unsigned):
// A = 24 + 24 + 5 bits on the 25-bit port, B[50:0] = 3 x 17 bits on the 18-bit port:
// nine products, one DSP48E1 each; A * B[52:51] (two bits) is two rows of LUT adders.
module falcon_fpmul (
    input  wire        clk,
    input  wire [63:0] a,
    input  wire [63:0] b,
    output wire [63:0] y
);
  // ---- stage 0: operand registers
  reg [63:0] a0, b0;
  always @(posedge clk) begin
    a0 <= a;
    b0 <= b;
  end
  wire [52:0] ma = {1'b1, a0[51:0]};
  wire [52:0] mb = {1'b1, b0[51:0]};

  // ---- stage 1: partial products (each a 24x17, 5x17 product: one DSP48E1, M register)
  reg [40:0] p00, p01, p02, p10, p11, p12;
  reg [21:0] p20, p21, p22;
  reg [54:0] ptop;  // A * B[52:51]
  reg        s1_s, s1_nz;
  reg [11:0] s1_es;  // ex + ey
  always @(posedge clk) begin
    p00   <= ma[23:0] * mb[16:0];
    p01   <= ma[23:0] * mb[33:17];
    p02   <= ma[23:0] * mb[50:34];
    p10   <= ma[47:24] * mb[16:0];
    p11   <= ma[47:24] * mb[33:17];
    p12   <= ma[47:24] * mb[50:34];
    p20   <= ma[52:48] * mb[16:0];
    p21   <= ma[52:48] * mb[33:17];
    p22   <= ma[52:48] * mb[50:34];
    ptop  <= (mb[51] ? {2'b00, ma} : 55'd0) + (mb[52] ? {1'b0, ma, 1'b0} : 55'd0);
    s1_s  <= a0[63] ^ b0[63];
    s1_nz <= (a0[62:52] != 11'd0) && (b0[62:52] != 11'd0);
    s1_es <= {1'b0, a0[62:52]} + {1'b0, b0[62:52]};
  end

  // ---- stage 2: one row per A piece (A_i * B[50:0])
  reg [74:0] r0, r1;
  reg [55:0] r2;
  reg [54:0] s2_top;
  reg        s2_s, s2_nz;
  reg [11:0] s2_es;
  always @(posedge clk) begin
    r0     <= {34'd0, p00} + {17'd0, p01, 17'd0} + {p02, 34'd0};
    r1     <= {34'd0, p10} + {17'd0, p11, 17'd0} + {p12, 34'd0};
    r2     <= {34'd0, p20} + {17'd0, p21, 17'd0} + {p22, 34'd0};
    s2_top <= ptop;
    s2_s   <= s1_s;
    s2_nz  <= s1_nz;
    s2_es  <= s1_es;
  end

  // ---- stage 3: the 106-bit product
  reg [105:0] s3_p;
  reg         s3_s, s3_nz;
  reg  [11:0] s3_es;
  always @(posedge clk) begin
    s3_p  <= {31'd0, r0} + {7'd0, r1, 24'd0} + {2'd0, r2, 48'd0} + {s2_top, 51'd0};
    s3_s  <= s2_s;
    s3_nz <= s2_nz;
    s3_es <= s2_es;
  end

  // ---- stage 4: keep bits 105..50 + sticky, bring [2^55, 2^56) down to 55 bits
  wire [55:0] m56 = {s3_p[105:51], s3_p[50] | (|s3_p[49:0])};
  wire        w = m56[55];
  reg  [54:0] s4_m;
  reg  [12:0] s4_be;
  reg         s4_s, s4_nz;
  always @(posedge clk) begin
    s4_m  <= w ? {m56[55:2], m56[1] | m56[0]} : m56[54:0];
    // emulation: e = ex + ey - 2100 + w, round_pack biases by 1076
    s4_be <= {1'b0, s3_es} - 13'd1024 + {12'd0, w};
    s4_s  <= s3_s;
    s4_nz <= s3_nz;
  end

  // ---- stage 5: round_pack
  falcon_round_pack rp (
      .clk(clk),
      .s  (s4_s),
      .be (s4_be),
      .m  (s4_m),
      .nz (s4_nz),
      .y  (y)
  );
endmodule
