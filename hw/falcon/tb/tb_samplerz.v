// Icarus bench of falcon_samplerz: replays the directed batches of vectors/samplerz.hex
// (written by crates/pqsig-hwsim/examples/gen_falcon_vectors.rs from the library's
// `samplerz::device::serve_on_cpu`; format there) as the host would: windows into the
// window RAM, load, one request after the other; checks every output, NeedMore, and the
// stream advance (windows entered, position). Prints PASS or the failures. Define VEC_DIR
// to the vectors' folder.
`timescale 1ns / 1ps
module tb_samplerz;
  localparam MAXW = 65536;
  reg clk = 0;
  always #5 clk = ~clk;
  reg [63:0] v[0:MAXW-1];
  reg rst, host_we, load, start, last;
  reg [7:0] host_addr;
  reg [63:0] host_wdata, mu, isigma, sigma_min;
  reg [9:0] load_pos;
  reg [15:0] supplied, avail;
  wire done, needmore, waiting, busy;
  wire [31:0] z_out;
  wire [15:0] win, attempts;
  wire [9:0] pos;
  falcon_samplerz dut (
      .clk(clk), .rst(rst), .host_we(host_we), .host_addr(host_addr),
      .host_wdata(host_wdata), .load(load), .load_pos(load_pos), .supplied(supplied),
      .avail(avail), .start(start), .last(last), .mu(mu), .isigma(isigma),
      .sigma_min(sigma_min), .done(done), .z_out(z_out), .needmore(needmore),
      .waiting(waiting), .busy(busy), .win(win), .pos(pos), .attempts(attempts)
  );
  integer p, b, i, k, count, n_ahead, nm, errs, batches, reqs, cyc, total;
  integer rq;
  reg [31:0] got[0:15];
  initial begin
    $readmemh({`VEC_DIR, "/samplerz.hex"}, v);
    errs = 0; batches = 0; reqs = 0; total = 0;
    rst = 1; host_we = 0; load = 0; start = 0; last = 0;
    host_addr = 0; host_wdata = 0; mu = 0; isigma = 0; sigma_min = 0;
    load_pos = 0; supplied = 0; avail = 0;
    @(negedge clk);
    rst = 0;
    p = 0;
    while (v[p][63:48] != 16'd0) begin
      count = v[p][63:48];
      load_pos = v[p][41:32];
      n_ahead = v[p][31:16];
      nm = v[p][15:8];
      sigma_min = v[p+1];
      p = p + 2;
      // windows: slot w = window w (at most 3 ahead)
      for (k = 0; k < 64 * (n_ahead + 1); k = k + 1) begin
        host_we = 1;
        host_addr = k;
        host_wdata = v[p+k];
        @(negedge clk);
      end
      host_we = 0;
      p = p + 64 * (n_ahead + 1);
      supplied = n_ahead;
      avail = n_ahead;
      load = 1;
      @(negedge clk);
      load = 0;
      rq = p;
      p = p + 2 * count;
      for (i = 0; i < count; i = i + 1) begin
        mu = v[rq+2*i];
        isigma = v[rq+2*i+1];
        last = (i == count - 1);
        start = 1;
        @(negedge clk);
        start = 0;
        cyc = 1;
        while (!done && cyc < 100000) begin
          @(negedge clk);
          cyc = cyc + 1;
        end
        total = total + cyc;
        got[i] = z_out;
        if (needmore) i = count;
      end
      if (needmore !== nm[0]) begin
        errs = errs + 1;
        $display("FAIL batch %0d: needmore %b, want %0d", batches, needmore, nm);
      end
      if (!nm[0]) begin
        for (i = 0; i < count; i = i + 1)
          if (got[i] !== v[p+i][31:0]) begin
            errs = errs + 1;
            $display("FAIL batch %0d req %0d: %0d, want %0d", batches, i, $signed(got[i]),
                     $signed(v[p+i][31:0]));
          end
        if (win !== v[p+count][15:0] || pos !== v[p+count+1][9:0]) begin
          errs = errs + 1;
          $display("FAIL batch %0d: advance (%0d, %0d), want (%0d, %0d)", batches, win, pos,
                   v[p+count], v[p+count+1]);
        end
        p = p + count + 2;
      end
      batches = batches + 1;
      reqs = reqs + count;
    end
    $display("tb_samplerz: %0d batches, %0d requests, %0d cycles", batches, reqs, total);
    if (errs == 0 && batches > 0) $display("PASS");
    $finish;
  end
endmodule
