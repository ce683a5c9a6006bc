// ntt_bank: simple dual-port RAM (one write port, one synchronous read port), the shape
// of a Xilinx block RAM in SDP mode; inferred from a plain reg array.
module ntt_bank #(
    parameter integer W = 24,
    parameter integer D = 128,
    parameter integer A = 7
) (
    input  wire         clk,
    input  wire         we,
    input  wire [A-1:0] waddr,
    input  wire [W-1:0] wdata,
    input  wire         re,
    input  wire [A-1:0] raddr,
    output reg  [W-1:0] rdata
);
  reg [W-1:0] mem [0:D-1];
  always @(posedge clk) begin
    if (we) mem[waddr] <= wdata;
  end
  always @(posedge clk) begin
    if (re) rdata <= mem[raddr];
  end
endmodule
