// Icarus bench of falcon_fft (n = 512, parameter UNITS): loads vectors/fft512_in.hex, runs the forward
// transform, compares with fft512_fft.hex (the library's portable fft); reloads the
// input, runs the inverse, compares with fft512_ifft.hex. Prints the cycle counts and
// PASS. Define VEC_DIR to the vectors' folder.
`timescale 1ns / 1ps
module tb_fft;
  parameter UNITS = 1;  // adders and multipliers of the engine (1 or 2)
  localparam LOGN = 9, N = 512;
  reg clk = 0, rst = 1, start = 0, inverse = 0, we = 0;
  reg [LOGN-1:0] addr = 0;
  reg [63:0] wdata = 0;
  wire [63:0] rdata;
  wire busy;
  wire [31:0] cycles;
  reg [63:0] vin[0:N-1], vf[0:N-1], vi[0:N-1];
  falcon_fft #(.LOGN(LOGN), .UNITS(UNITS)) dut (
      .clk(clk), .rst(rst), .start(start), .inverse(inverse), .busy(busy), .cycles(cycles),
      .host_we(we), .host_addr(addr), .host_wdata(wdata), .host_rdata(rdata));
  always #5 clk = ~clk;
  integer i, errs, dir;
  initial begin
    $readmemh({`VEC_DIR, "/fft512_in.hex"}, vin);
    $readmemh({`VEC_DIR, "/fft512_fft.hex"}, vf);
    $readmemh({`VEC_DIR, "/fft512_ifft.hex"}, vi);
    errs = 0;
    @(negedge clk);
    @(negedge clk);
    rst = 0;
    for (dir = 0; dir < 2; dir = dir + 1) begin
      for (i = 0; i < N; i = i + 1) begin
        we = 1; addr = i; wdata = vin[i];
        @(negedge clk);
      end
      we = 0;
      start = 1; inverse = dir;
      @(negedge clk);
      start = 0;
      while (busy) @(negedge clk);
      $display("%s (UNITS %0d): %0d cycles", dir ? "ifft512" : "fft512", UNITS, cycles);
      for (i = 0; i < N; i = i + 1) begin
        addr = i;
        @(negedge clk);
        if (rdata !== (dir ? vi[i] : vf[i])) begin
          errs = errs + 1;
          if (errs < 10) $display("FAIL %s word %0d: %h want %h", dir ? "ifft" : "fft", i,
                                  rdata, dir ? vi[i] : vf[i]);
        end
      end
    end
    if (errs == 0) $display("PASS");
    else $display("%0d errors", errs);
    $finish;
  end
endmodule
