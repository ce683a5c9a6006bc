// ntt_w8bfu: the Winograd radix-8 butterfly unit of the Winograd core (ntt_core_w8),
// both directions, 8 points per cycle, II = 1, latency 14. 11 modular multipliers:
// 7 lane multipliers (lanes 1..7) + the 4 constant multipliers of ntt_cyc8.
//
// Winograd pass (three NTT layers, r2 = 0), x_i = the points base + i*2^s:
//   forward (CT):  y_i = x_i * c_i (twist, c_i = rho^i), X = cyc8(y),
//                  z_t = X_brv3(t)                       (the radix-2 network's order)
//   inverse (GS):  X_k = x_brv3(k), Y = cyc8(X), z_i = Y_(-i mod 8) * c_i
//                  (untwist, c_i = 2^(3S) rho^-i: the inverse 8-point transform, and the
//                  three layers' fused scaling 2^S each)
// radix-2 pass (one layer, r2 = 1), butterflies on lanes (2j, 2j+1):
//   forward:  z_2j = x_2j + c_2j+1 x_2j+1, z_2j+1 = x_2j - c_2j+1 x_2j+1   (c_even = 1)
//   inverse:  z_2j = (x_2j + x_2j+1) c_2j, z_2j+1 = (x_2j - x_2j+1) c_2j+1
//             (c_2j = 2^S, c_2j+1 = iw 2^S)
// The lane multipliers sit before the cyclic transform forward and after it inverse
// (multiplexed, not duplicated). Lane 0's factor is a power of two (1, 2^(3S), 2^S):
// shifts and conditional subtractions, no multiplier.
//
// c_1..c_7 (hardware Montgomery form) must be presented when the lane multipliers take
// their inputs: with x (forward), 9 cycles after x (inverse). inv must not change while
// data is in flight (the core drains between requests); r2 travels with the data.
module ntt_w8bfu #(
    parameter integer Q     = 8380417,
    parameter integer RB    = 23,
    parameter integer SCALE = 3
) (
    input  wire            clk,
    input  wire            inv,
    input  wire            r2,
    input  wire [8*RB-1:0] x,
    input  wire [7*RB-1:0] cf,    // c_1 .. c_7
    output reg  [8*RB-1:0] z
);
  localparam [RB:0] QW = Q;
  localparam integer AS  = (SCALE < 0) ? -SCALE : SCALE;   // shifts per layer

  function [RB-1:0] addq(input [RB-1:0] a, input [RB-1:0] b);
    reg [RB:0] s;
    begin
      s = {1'b0, a} + {1'b0, b};
      addq = (s >= QW) ? s - QW : s[RB-1:0];
    end
  endfunction
  function [RB-1:0] subq(input [RB-1:0] a, input [RB-1:0] b);
    reg [RB:0] s;
    begin
      s = {1'b0, a} - {1'b0, b};
      subq = s[RB] ? s[RB-1:0] + QW[RB-1:0] : s[RB-1:0];
    end
  endfunction
  // one scaling step: times 2 (SCALE > 0) or times 1/2 (SCALE < 0)
  function [RB-1:0] step(input [RB-1:0] a);
    reg [RB:0] s;
    begin
      if (SCALE < 0) begin
        s = {1'b0, a} + (a[0] ? QW : {(RB+1){1'b0}});
        step = s[RB:1];
      end else begin
        s = {a, 1'b0};
        step = (s >= QW) ? s - QW : s[RB-1:0];
      end
    end
  endfunction
  function integer brv3(input integer i);
    brv3 = ((i & 1) << 2) | (i & 2) | ((i >> 2) & 1);
  endfunction

  integer k, j;

  // r2 flag, travelling with the data: fr[k] = r2 of the data that entered k cycles ago
  reg fr [1:14];
  always @(posedge clk) begin
    fr[1] <= r2;
    for (k = 2; k <= 14; k = k + 1) fr[k] <= fr[k-1];
  end
  wire r2_c_out = inv ? fr[9] : fr[14];   // at the cyclic transform's output

  // ---------------------------------------------------------------- cyclic transform
  wire [8*RB-1:0] mul_out;                // lanes 1..7 multipliers, lane 0 shifts
  reg  [8*RB-1:0] c_in;
  wire [8*RB-1:0] c_X;
  always @(*) begin
    for (k = 0; k < 8; k = k + 1)
      if (!inv) c_in[k*RB +: RB] = mul_out[k*RB +: RB];
      else if (r2) c_in[k*RB +: RB] = x[k*RB +: RB];
      else c_in[k*RB +: RB] = x[brv3(k)*RB +: RB];
  end
  ntt_cyc8 #(.Q(Q), .RB(RB)) u_cyc (.clk(clk), .y(c_in), .X(c_X));

  // radix-2 butterflies on the same input, delayed to the cyclic transform's latency
  reg [8*RB-1:0] r2d [0:8];
  always @(posedge clk) begin
    for (j = 0; j < 4; j = j + 1) begin
      r2d[0][(2*j)*RB +: RB]   <= addq(c_in[(2*j)*RB +: RB], c_in[(2*j+1)*RB +: RB]);
      r2d[0][(2*j+1)*RB +: RB] <= subq(c_in[(2*j)*RB +: RB], c_in[(2*j+1)*RB +: RB]);
    end
    for (k = 1; k < 9; k = k + 1) r2d[k] <= r2d[k-1];
  end
  wire [8*RB-1:0] c_out = r2_c_out ? r2d[8] : c_X;

  // ---------------------------------------------------------------- lane multipliers
  reg [8*RB-1:0] m_in;
  always @(*) begin
    for (k = 0; k < 8; k = k + 1)
      if (!inv) m_in[k*RB +: RB] = x[k*RB +: RB];
      else if (fr[9]) m_in[k*RB +: RB] = c_out[k*RB +: RB];
      else m_in[k*RB +: RB] = c_out[((8 - k) % 8)*RB +: RB];
  end
  genvar g;
  generate
    for (g = 1; g < 8; g = g + 1) begin : g_mul
      ntt_modmul #(.Q(Q), .RB(RB)) u_m (.clk(clk), .a(m_in[g*RB +: RB]),
                                         .b(cf[(g-1)*RB +: RB]), .r(mul_out[g*RB +: RB]));
    end
  endgenerate
  // lane 0: 0 (forward), 3*AS (inverse Winograd) or AS (inverse radix-2) scaling steps,
  // at most two per stage over the multipliers' 5 cycles
  reg [RB-1:0] l0 [0:4];
  reg [4:0]    l0n [0:4];
  reg [RB-1:0] l0v;         // blocking temporaries of one stage
  reg [4:0]    l0c;
  wire [4:0] l0_amt = !inv ? 5'd0 : fr[9] ? AS[4:0] : 3 * AS[4:0];
  always @(posedge clk) begin
    for (k = 0; k < 5; k = k + 1) begin
      l0v = (k == 0) ? m_in[RB-1:0] : l0[k-1];
      l0c = (k == 0) ? l0_amt : l0n[k-1];
      if (l0c != 0) begin l0v = step(l0v); l0c = l0c - 1'b1; end
      if (l0c != 0) begin l0v = step(l0v); l0c = l0c - 1'b1; end
      l0[k] <= l0v;
      l0n[k] <= l0c;
    end
  end
  assign mul_out[RB-1:0] = l0[4];

  // ---------------------------------------------------------------- output
  always @(*) begin
    for (k = 0; k < 8; k = k + 1)
      if (inv) z[k*RB +: RB] = mul_out[k*RB +: RB];
      else if (fr[14]) z[k*RB +: RB] = c_out[k*RB +: RB];
      else z[k*RB +: RB] = c_out[brv3(k)*RB +: RB];
  end
endmodule
