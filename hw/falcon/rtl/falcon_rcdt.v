// falcon_rcdt: Falcon's base sampler (half-Gaussian, sigma0 = 1.8205) on a 72-bit random
// value v = lo + 2^64 * hi: z0 = the number of entries of the reverse cumulative table
// RCDT (crates/pqsig/src/kernels/falcon/samplerz/mod.rs, round-3 specification Table
// 3.1) strictly above v. Combinational: all 18 comparisons, every time (the hardware
// form of the reference's constant-time full scan).
module falcon_rcdt (
    input  wire [71:0] v,
    output wire [4:0]  z0
);
  wire [17:0] gt;
  assign gt[0]  = v < 72'hA3F7F42ED3AC391802;
  assign gt[1]  = v < 72'h54D32B181F3F7DDB82;
  assign gt[2]  = v < 72'h227DCDD0934829C1FF;
  assign gt[3]  = v < 72'h0AD1754377C7994AE4;
  assign gt[4]  = v < 72'h0295846CAEF33F1F6F;
  assign gt[5]  = v < 72'h00774AC754ED74BD5F;
  assign gt[6]  = v < 72'h001024DD542B776AE4;
  assign gt[7]  = v < 72'h0001A1FFDC65AD63DA;
  assign gt[8]  = v < 72'h00001F80D88A7B6428;
  assign gt[9]  = v < 72'h000001C3FDB2040C69;
  assign gt[10] = v < 72'h00000012CF24D031FB;
  assign gt[11] = v < 72'h00000000949F8B091F;
  assign gt[12] = v < 72'h0000000003665DA998;
  assign gt[13] = v < 72'h00000000000EBF6EBB;
  assign gt[14] = v < 72'h0000000000002F5D7E;
  assign gt[15] = v < 72'h000000000000007098;
  assign gt[16] = v < 72'h0000000000000000C6;
  assign gt[17] = v < 72'h000000000000000001;
  function [4:0] popcount18;
    input [17:0] g;
    integer i;
    begin
      popcount18 = 5'd0;
      for (i = 0; i < 18; i = i + 1) popcount18 = popcount18 + {4'd0, g[i]};
    end
  endfunction
  assign z0 = popcount18(gt);
endmodule
