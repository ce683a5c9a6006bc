// tb_w8bfu: self-checking Icarus bench of ntt_w8bfu, the Winograd core's unit, in one
// direction (INV), Winograd and radix-2 passes mixed cycle by cycle (r2 travels with the
// data), one vector per cycle (II = 1), outputs checked 14 cycles later against
// hw/ntt/gen/gen_w8bfu_vectors.py. The lane factors go in with the data (forward) or 9
// cycles later (inverse), as the core feeds them. Prints PASS or FAIL.
//   iverilog -g2005 -P tb_w8bfu.Q=12289 -P tb_w8bfu.INV=1 -DVEC_DIR=\"hw/ntt/tb/vectors\" \
//     -o tbw hw/ntt/tb/tb_w8bfu.v hw/ntt/rtl/ntt_w8bfu.v hw/ntt/rtl/ntt_cyc8.v \
//     hw/ntt/rtl/ntt_modmul.v && vvp tbw
`timescale 1ns/1ps
`ifndef VEC_DIR
`define VEC_DIR "vectors"
`endif
module tb_w8bfu;
  parameter integer Q = 8380417;
  parameter integer INV = 0;
  localparam integer RB = (Q == 8380417) ? 23 : 14;
  localparam integer SCALE = (Q == 8380417) ? 3 : -1;
  localparam integer COUNT = 64;
  localparam integer LAT = 14, CDEL = (INV != 0) ? 9 : 0;
  reg clk = 0;
  always #5 clk = ~clk;
  reg [31:0] vv [0:COUNT*24-1];
  reg [8*RB-1:0] x;
  reg [7*RB-1:0] cf;
  reg r2;
  wire [8*RB-1:0] z;
  ntt_w8bfu #(.Q(Q), .RB(RB), .SCALE(SCALE)) u (.clk(clk), .inv(INV != 0), .r2(r2), .x(x),
                                                 .cf(cf), .z(z));
  integer t, i, v, errors = 0;
  initial begin
    if (Q == 8380417) begin
      if (INV) $readmemh({`VEC_DIR, "/units_q8380417_w8bfu_inv.hex"}, vv);
      else     $readmemh({`VEC_DIR, "/units_q8380417_w8bfu_fwd.hex"}, vv);
    end else begin
      if (INV) $readmemh({`VEC_DIR, "/units_q12289_w8bfu_inv.hex"}, vv);
      else     $readmemh({`VEC_DIR, "/units_q12289_w8bfu_fwd.hex"}, vv);
    end
    for (t = 0; t < COUNT + LAT + 2; t = t + 1) begin
      @(negedge clk);
      v = t - LAT;
      if (v >= 0 && v < COUNT)
        for (i = 0; i < 8; i = i + 1)
          if (z[i*RB +: RB] !== vv[v*24 + 16 + i][RB-1:0]) begin
            if (errors < 5) $display("FAIL w8bfu inv=%0d vec %0d (r2=%0d) z%0d = %0d expected %0d",
                                     INV, v, vv[v*24], i, z[i*RB +: RB], vv[v*24 + 16 + i]);
            errors = errors + 1;
          end
      r2 = (t < COUNT) ? vv[t*24][0] : 1'b0;
      for (i = 0; i < 8; i = i + 1) x[i*RB +: RB] = (t < COUNT) ? vv[t*24 + 1 + i][RB-1:0] : 0;
      v = t - CDEL;
      for (i = 0; i < 7; i = i + 1)
        cf[i*RB +: RB] = (v >= 0 && v < COUNT) ? vv[v*24 + 9 + i][RB-1:0] : 0;
    end
    if (errors == 0) $display("PASS w8bfu q=%0d inv=%0d (%0d vectors, Winograd and radix-2 mixed, II=1)", Q, INV, COUNT);
    else $display("FAIL w8bfu q=%0d inv=%0d (%0d errors)", Q, INV, errors);
    $finish;
  end
endmodule
