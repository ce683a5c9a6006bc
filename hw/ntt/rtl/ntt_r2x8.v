// ntt_r2x8: three layers of radix-2 Cooley-Tukey butterflies on 8 points per cycle
// (12 ntt_bfu, forward mode): the radix-2 counterpart of ntt_wino8 at equal throughput
// (8 points through 3 layers per cycle), for the comparison in docs/HARDWARE.md.
// Twiddles: layer 1 one (w[1]), layer 2 two (w[2], w[3]), layer 3 four (w[4..7]), as
// the groups of a block of 8 in the NTT; Montgomery form. Outputs in the radix-2
// network's (bit-reversed) order. Latency 21 cycles.
module ntt_r2x8 #(
    parameter integer Q  = 8380417,
    parameter integer RB = 23
) (
    input  wire            clk,
    input  wire [8*RB-1:0] x,
    input  wire [8*RB-1:0] w,     // w[0] unused
    output wire [8*RB-1:0] X
);
  wire [8*RB-1:0] l1, l2;
  // twiddles delayed to meet each layer (BFU latency 7)
  reg [RB-1:0] w2d [0:6], w3d [0:6];
  reg [RB-1:0] w4d [0:13], w5d [0:13], w6d [0:13], w7d [0:13];
  integer k;
  always @(posedge clk) begin
    w2d[0] <= w[2*RB +: RB]; w3d[0] <= w[3*RB +: RB];
    w4d[0] <= w[4*RB +: RB]; w5d[0] <= w[5*RB +: RB];
    w6d[0] <= w[6*RB +: RB]; w7d[0] <= w[7*RB +: RB];
    for (k = 1; k < 7; k = k + 1) begin w2d[k] <= w2d[k-1]; w3d[k] <= w3d[k-1]; end
    for (k = 1; k < 14; k = k + 1) begin
      w4d[k] <= w4d[k-1]; w5d[k] <= w5d[k-1]; w6d[k] <= w6d[k-1]; w7d[k] <= w7d[k-1];
    end
  end
  genvar j;
  generate
    for (j = 0; j < 4; j = j + 1) begin : g_l1   // pairs (j, j+4)
      ntt_bfu #(.Q(Q), .RB(RB), .SCALE(0)) u (.clk(clk), .inv(1'b0),
          .a(x[j*RB +: RB]), .b(x[(j+4)*RB +: RB]), .w(w[1*RB +: RB]),
          .ao(l1[j*RB +: RB]), .bo(l1[(j+4)*RB +: RB]));
    end
    for (j = 0; j < 4; j = j + 1) begin : g_l2   // pairs (j, j+2) in blocks of 4
      localparam integer A = (j / 2) * 4 + (j % 2);
      ntt_bfu #(.Q(Q), .RB(RB), .SCALE(0)) u (.clk(clk), .inv(1'b0),
          .a(l1[A*RB +: RB]), .b(l1[(A+2)*RB +: RB]), .w(j < 2 ? w2d[6] : w3d[6]),
          .ao(l2[A*RB +: RB]), .bo(l2[(A+2)*RB +: RB]));
    end
    for (j = 0; j < 4; j = j + 1) begin : g_l3   // pairs (2j, 2j+1)
      wire [RB-1:0] tw = (j == 0) ? w4d[13] : (j == 1) ? w5d[13] : (j == 2) ? w6d[13] : w7d[13];
      ntt_bfu #(.Q(Q), .RB(RB), .SCALE(0)) u (.clk(clk), .inv(1'b0),
          .a(l2[(2*j)*RB +: RB]), .b(l2[(2*j+1)*RB +: RB]), .w(tw),
          .ao(X[(2*j)*RB +: RB]), .bo(X[(2*j+1)*RB +: RB]));
    end
  endgenerate
endmodule
