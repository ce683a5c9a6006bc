// tb_units: self-checking Icarus bench of the two 8-point units compared in
// docs/HARDWARE.md: ntt_wino8 (Winograd radix-8) and ntt_r2x8 (3 radix-2 layers).
// One vector per cycle (II = 1), outputs checked after each unit's latency against
// hw/ntt/gen/gen_unit_vectors.py. Prints PASS or FAIL.
//   iverilog -g2005 -P tb_units.Q=12289 -DVEC_DIR=\"hw/ntt/tb/vectors\" -o tbu \
//     hw/ntt/tb/tb_units.v hw/ntt/rtl/ntt_wino8.v hw/ntt/rtl/ntt_r2x8.v \
//     hw/ntt/rtl/ntt_bfu.v hw/ntt/rtl/ntt_modmul.v && vvp tbu
`timescale 1ns/1ps
`ifndef VEC_DIR
`define VEC_DIR "vectors"
`endif
module tb_units;
  parameter integer Q = 8380417;
  localparam integer RB = (Q == 8380417) ? 23 : 14;
  localparam integer COUNT = 64;
  localparam integer LW = 14, LR = 21;   // latencies
  reg clk = 0;
  always #5 clk = ~clk;
  reg [31:0] vw [0:COUNT*23-1];
  reg [31:0] vr [0:COUNT*23-1];
  reg [8*RB-1:0] xw, cw, xr, cr;
  wire [8*RB-1:0] Xw, Xr;
  ntt_wino8 #(.Q(Q), .RB(RB)) u_w (.clk(clk), .x(xw), .rho(cw), .X(Xw));
  ntt_r2x8  #(.Q(Q), .RB(RB)) u_r (.clk(clk), .x(xr), .w(cr), .X(Xr));
  integer t, i, errors = 0, v;
  initial begin
    if (Q == 8380417) begin
      $readmemh({`VEC_DIR, "/units_q8380417_wino8.hex"}, vw);
      $readmemh({`VEC_DIR, "/units_q8380417_r2x8.hex"}, vr);
    end else begin
      $readmemh({`VEC_DIR, "/units_q12289_wino8.hex"}, vw);
      $readmemh({`VEC_DIR, "/units_q12289_r2x8.hex"}, vr);
    end
    for (t = 0; t < COUNT + LR + 2; t = t + 1) begin
      @(negedge clk);
      // check outputs of the vector issued LW / LR cycles ago
      v = t - LW;
      if (v >= 0 && v < COUNT)
        for (i = 0; i < 8; i = i + 1)
          if (Xw[i*RB +: RB] !== vw[v*23 + 15 + i][RB-1:0]) begin
            if (errors < 5) $display("FAIL wino8 vec %0d X%0d = %0d expected %0d", v, i, Xw[i*RB +: RB], vw[v*23 + 15 + i]);
            errors = errors + 1;
          end
      v = t - LR;
      if (v >= 0 && v < COUNT)
        for (i = 0; i < 8; i = i + 1)
          if (Xr[i*RB +: RB] !== vr[v*23 + 15 + i][RB-1:0]) begin
            if (errors < 5) $display("FAIL r2x8 vec %0d X%0d = %0d expected %0d", v, i, Xr[i*RB +: RB], vr[v*23 + 15 + i]);
            errors = errors + 1;
          end
      // drive the next vector
      for (i = 0; i < 8; i = i + 1) begin
        xw[i*RB +: RB] = (t < COUNT) ? vw[t*23 + i][RB-1:0] : 0;
        xr[i*RB +: RB] = (t < COUNT) ? vr[t*23 + i][RB-1:0] : 0;
        cw[i*RB +: RB] = (t < COUNT && i > 0) ? vw[t*23 + 7 + i][RB-1:0] : 0;
        cr[i*RB +: RB] = (t < COUNT && i > 0) ? vr[t*23 + 7 + i][RB-1:0] : 0;
      end
    end
    if (errors == 0) $display("PASS units q=%0d (wino8 and r2x8, %0d vectors at II=1)", Q, COUNT);
    else $display("FAIL units q=%0d (%0d errors)", Q, errors);
    $finish;
  end
endmodule
