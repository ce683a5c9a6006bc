// falcon_i2f: i64 -> binary64 (`Fpr::of`), rounded to nearest, ties to even (exact up
// to 2^53 in magnitude, every i64 accepted). Latency 1: the input is converted
// combinationally and leaves falcon_round_pack's register on the next edge.
//
// Bit-exact with the library's emulation (fpr/emulated.rs, `scaled_bits` with sc = 0):
// |i| normalised to [2^63, 2^64), 55 bits kept with a sticky bit, then round_pack;
// i = 0 gives +0.
module falcon_i2f (
    input  wire        clk,
    input  wire [63:0] i,
    output wire [63:0] y
);
  function [5:0] clz64;
    input [63:0] v;
    integer b;
    reg found;
    begin
      clz64 = 6'd63;
      found = 1'b0;
      for (b = 63; b >= 0; b = b - 1)
        if (!found && v[b]) begin
          clz64 = 6'd63 - b[5:0];
          found = 1'b1;
        end
    end
  endfunction
  wire        neg = i[63];
  wire [63:0] u   = (i ^ {64{neg}}) + {63'd0, neg};  // |i| (2^63 for i64::MIN)
  wire [5:0]  z   = clz64(u | 64'd1);                      // u = 0: 63, n = 0
  wire [63:0] n   = u << z;
  wire [54:0] m   = {n[63:10], n[9] | (|n[8:0])};
  // e = 9 - z; round_pack's biased exponent e + 1076.
  falcon_round_pack rp (
      .clk(clk),
      .s  (neg),
      .be (13'd1085 - {7'd0, z}),
      .m  (m),
      .nz (m[54]),
      .y  (y)
  );
endmodule
