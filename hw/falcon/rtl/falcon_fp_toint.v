// falcon_fp_toint: binary64 -> i64, rounding toward zero (floor_mode = 0, `Fpr::trunc`) or
// toward minus infinity (floor_mode = 1, `Fpr::floor`). Combinational.
//
// Bit-exact with the library's emulation (crates/pqsig/src/kernels/falcon/fpr/
// emulated.rs, `int_parts` + `trunc` / `floor`) on every 64-bit pattern: |x| >= 2^63
// saturates to i64::MAX / i64::MIN by sign (like `f64 as i64`); below 1/2 the quotient
// is 0 and floor of a negative non-zero value (subnormals included) is -1.
module falcon_fp_toint (
    input  wire [63:0] x,
    input  wire        floor_mode,
    output wire [63:0] y
);
  // |x| = mant * 2^(e - 1085), mant in [2^62, 2^63): shift right by sh = 1085 - e.
  wire [12:0] sh    = 13'd1085 - {2'b00, x[62:52]};
  wire        big   = sh[12];              // sh < 0: |x| >= 2^63
  wire [12:0] d63   = 13'd63 - sh;
  wire        tiny = d63[12];             // sh > 63: |x| < 1/2
  wire [5:0]  k     = sh[5:0];
  wire [63:0] mant  = ({x[53:0], 10'd0} | 64'h4000_0000_0000_0000)
                      & 64'h7FFF_FFFF_FFFF_FFFF & {64{~tiny}};
  wire [63:0] q     = mant >> k;
  wire [63:0] frac  = {mant[62:0], 1'b0} << (6'd63 - k);
  wire        neg   = x[63];
  wire        inexact = (|frac) | (tiny & (|x[62:0]));
  wire [63:0] mag   = q + {63'd0, floor_mode & inexact & neg};
  wire [63:0] negm  = {64{neg}};
  wire [63:0] sgn   = (mag ^ negm) - negm;
  wire [63:0] sat   = 64'h7FFF_FFFF_FFFF_FFFF ^ negm;
  assign y = big ? sat : sgn;
endmodule
