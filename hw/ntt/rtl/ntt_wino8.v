// ntt_wino8: the Winograd radix-8 butterfly unit (docs/NTT.md section 6, "w-nega"):
// three radix-2 layers' worth of work on 8 points per cycle, II = 1.
//
//   y_n = x_n * rho^n            (twist, 7 modular multiplications, rho^n from the ROM)
//   X_k = sum_n y_n w^(nk)       (8-point cyclic transform, w = primitive 8th root:
//                                 4 multiplications by the fixed constants i = w^2,
//                                 s = (w - w^3)/2, t = (w + w^3)/2; 26 add/sub)
// 11 multiplications against 12 for three layers of radix-2 butterflies (ntt_r2x8).
// Outputs in natural order X_0..X_7. All values canonical; twist factors and constants
// in hardware Montgomery form (value * 2^RB mod q). Latency 14 cycles.
//
// The 8-point cyclic transform is ntt_cyc8 (shared with ntt_w8bfu, the core's
// two-direction unit). This forward-only unit is synthesised and verified on its own
// (hw/ntt/tb/tb_units.v) for the radix-8 vs radix-2 unit comparison in
// docs/HARDWARE.md; the Winograd core (ntt_core_w8) uses ntt_w8bfu.
module ntt_wino8 #(
    parameter integer Q  = 8380417,
    parameter integer RB = 23
) (
    input  wire            clk,
    input  wire [8*RB-1:0] x,     // x_0 .. x_7
    input  wire [8*RB-1:0] rho,   // rho^0 (unused) .. rho^7, Montgomery form
    output wire [8*RB-1:0] X      // X_0 .. X_7
);
  // ---- twist: 7 multipliers (latency 5); x_0 delayed alongside
  wire [8*RB-1:0] y;
  reg  [RB-1:0] x0d [0:4];
  integer k;
  always @(posedge clk) begin
    x0d[0] <= x[RB-1:0];
    for (k = 1; k < 5; k = k + 1) x0d[k] <= x0d[k-1];
  end
  assign y[RB-1:0] = x0d[4];
  genvar g;
  generate
    for (g = 1; g < 8; g = g + 1) begin : g_twist
      ntt_modmul #(.Q(Q), .RB(RB)) u_m (.clk(clk), .a(x[g*RB +: RB]), .b(rho[g*RB +: RB]),
                                         .r(y[g*RB +: RB]));
    end
  endgenerate

  // ---- 8-point cyclic transform (latency 9)
  ntt_cyc8 #(.Q(Q), .RB(RB)) u_cyc (.clk(clk), .y(y), .X(X));
endmodule
