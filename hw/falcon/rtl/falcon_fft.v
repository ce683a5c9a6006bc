// falcon_fft: Falcon's FFT / inverse FFT engine over binary64, n = 2^LOGN (LOGN = 9, 10),
// bit-identical to the library's portable fft / ifft. UNITS = number of adders and of
// multipliers: 1 (falcon_fft_u1: one of each, as in the paper, a butterfly every 6
// cycles) or 2 (falcon_fft_u2: two of each, a butterfly every 3 cycles). Ports and
// behaviour are the same for both; see the two cores for the schedules.
module falcon_fft #(
    parameter LOGN  = 9,
    parameter UNITS = 1
) (
    input  wire            clk,
    input  wire            rst,
    input  wire            start,
    input  wire            inverse,
    output wire            busy,
    output wire [31:0]     cycles,
    input  wire            host_we,
    input  wire [LOGN-1:0] host_addr,
    input  wire [63:0]     host_wdata,
    output wire [63:0]     host_rdata
);
  generate
    if (UNITS == 2) begin : g_core
      falcon_fft_u2 #(.LOGN(LOGN)) core (
          .clk(clk), .rst(rst), .start(start), .inverse(inverse), .busy(busy),
          .cycles(cycles), .host_we(host_we), .host_addr(host_addr),
          .host_wdata(host_wdata), .host_rdata(host_rdata));
    end else begin : g_core
      falcon_fft_u1 #(.LOGN(LOGN)) core (
          .clk(clk), .rst(rst), .start(start), .inverse(inverse), .busy(busy),
          .cycles(cycles), .host_we(host_we), .host_addr(host_addr),
          .host_wdata(host_wdata), .host_rdata(host_rdata));
    end
  endgenerate
endmodule
