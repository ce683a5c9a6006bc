// ntt_modmul: pipelined Montgomery multiplier, r = a * b * 2^-RB mod q (canonical).
//
// Method: Montgomery reduction with R = 2^RB, RB = bit length of q (23 for 8380417,
// 14 for 12289). Both moduli are NTT-friendly, q = c*2^s + 1 with c*2^s squared
// vanishing mod 2^RB, so -1/q mod 2^RB and the product m*q are shifts and adds:
//   q = 8380417 = 2^23 - 2^13 + 1:  -1/q = -(1 + 2^13)   mod 2^23
//   q = 12289   = 3*2^12 + 1:       -1/q = 3*2^12 - 1    mod 2^14
// The only real multiplication is a*b (23x23 -> two DSP48E1 25x18 tiles; 14x14 -> one),
// registered at its input and output so Yosys can absorb the registers into the DSP.
// In: a, b in [0, q). Out: [0, q). Latency 5 cycles, II = 1.
module ntt_modmul #(
    parameter integer Q  = 8380417,
    parameter integer RB = 23
) (
    input  wire          clk,
    input  wire [RB-1:0] a,
    input  wire [RB-1:0] b,
    output reg  [RB-1:0] r
);
  localparam [RB:0] QW = Q;

  reg  [RB-1:0] a_r, b_r;
  reg  [2*RB-1:0] p_r;          // a*b
  reg  [2*RB-1:0] p_r2;
  reg  [RB-1:0] m_r;            // -p/q mod 2^RB
  reg  [RB:0]   u_r;            // (p + m q) / 2^RB, < 2q

  wire [RB-1:0] p_lo = p_r[RB-1:0];
  wire [RB-1:0] m_w;
  wire [2*RB:0] mq_w;
  generate
    if (Q == 8380417) begin : g_dil
      assign m_w  = {RB{1'b0}} - (p_lo + {p_lo[RB-14:0], 13'd0});
      assign mq_w = {m_r, {RB{1'b0}}} - {m_r, 13'd0} + m_r;
    end else if (Q == 12289) begin : g_fal
      wire [RB-1:0] p3 = p_lo + {p_lo[RB-2:0], 1'b0};
      assign m_w  = {p3[RB-13:0], 12'd0} - p_lo;
      assign mq_w = {m_r, 12'd0} + {m_r, 13'd0} + m_r;
    end else begin : g_unsupported
      // Only the two moduli above are supported (elaboration leaves r = 0).
      assign m_w  = {RB{1'b0}};
      assign mq_w = {(2*RB+1){1'b0}};
    end
  endgenerate

  wire [2*RB:0] sum_w = {1'b0, p_r2} + mq_w;

  always @(posedge clk) begin
    a_r  <= a;
    b_r  <= b;
    p_r  <= a_r * b_r;
    p_r2 <= p_r;
    m_r  <= m_w;
    u_r  <= sum_w[2*RB:RB];
    r    <= (u_r >= QW) ? u_r - QW : u_r[RB-1:0];
  end
endmodule
