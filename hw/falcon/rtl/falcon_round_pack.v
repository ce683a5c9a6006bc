// falcon_round_pack: the emulation's `round_pack` as one registered stage.
// m = 55 bits (53 result bits, a rounding bit, a sticky bit) with its leading bit on
// bit 54 when nz = 1; be = the biased exponent minus one (the leading bit of m >> 2 adds
// it back), a 13-bit two's complement value. Rounds to nearest, ties to even (a carry
// out of the significand bumps the exponent); be < 0 (below the normal range) or nz = 0
// gives a zero with sign s. Only be's low 12 bits reach the encoding, as in the
// emulation's wrapping arithmetic.
module falcon_round_pack (
    input  wire        clk,
    input  wire        s,
    input  wire [12:0] be,
    input  wire [54:0] m,
    input  wire        nz,
    output reg  [63:0] y
);
  wire        keep = nz & ~be[12];
  wire        up   = m[1] & (m[0] | m[2]);
  wire [63:0] body = {be[11:0], 52'd0} + {11'd0, m[54:2]} + {63'd0, up};
  always @(posedge clk) y <= {s, 63'd0} | (body & {64{keep}});
endmodule
