// tb_ntt: self-checking Icarus Verilog test bench of ntt_accel, independent of the
// Verilator harness. It plays the host over AXI-Lite, serves the AXI4 master from a
// behavioural memory (with a pseudo-random stall pattern), checks that every burst is
// INCR, full width, <= 256 beats, inside the buffer and inside one 4 KiB page, runs a
// forward and an inverse request of K polynomials, a num_polys = 0 request, and
// compares the memory with vectors generated from the library kernels
// (crates/pqsig-hwsim/examples/gen_vectors.rs). Prints "PASS" or "FAIL ...".
//
//   iverilog -g2005 -P tb_ntt.Q=8380417 -P tb_ntt.N=256 -P tb_ntt.BFUS=2 [-P tb_ntt.KIND=1] \
//     -DVEC_DIR=\"hw/ntt/tb/vectors\" -o tb hw/ntt/tb/tb_ntt.v hw/ntt/rtl/*.v && vvp tb
`timescale 1ns/1ps
`ifndef VEC_DIR
`define VEC_DIR "vectors"
`endif
module tb_ntt;
  parameter integer Q = 8380417;
  parameter integer N = 256;
  parameter integer BFUS = 2;
  parameter integer KIND = 0;        // 0 radix-2, 1 Winograd radix-8 (ntt_core_w8)
  parameter integer K = 2;           // polys per request (the vector files hold K)
  localparam integer DW = (KIND == 1 ? 256 : 64) * BFUS;
  localparam integer BW = DW / 32;   // words per beat
  localparam integer OFF = 4096 - 2 * DW / 8;   // buffer offset: first bursts split at 4 KiB
  localparam integer BASE = 32'h2000_0000;
  localparam integer WORDS = K * N;
  localparam integer MEMW = (OFF / 4) + WORDS + 1024;

  reg clk = 0, rst_n = 0;
  always #5 clk = ~clk;

  // AXI-Lite
  reg  [7:0]  s_awaddr = 0; reg s_awvalid = 0; wire s_awready;
  reg  [31:0] s_wdata = 0;  reg s_wvalid = 0;  wire s_wready;
  wire [1:0]  s_bresp; wire s_bvalid; reg s_bready = 0;
  reg  [7:0]  s_araddr = 0; reg s_arvalid = 0; wire s_arready;
  wire [31:0] s_rdata; wire [1:0] s_rresp; wire s_rvalid; reg s_rready = 0;
  // AXI4
  wire [31:0] m_araddr; wire [7:0] m_arlen; wire [2:0] m_arsize; wire [1:0] m_arburst;
  wire m_arvalid; reg m_arready = 0;
  reg  [DW-1:0] m_rdata = 0; reg m_rlast = 0; reg m_rvalid = 0; wire m_rready;
  wire [31:0] m_awaddr; wire [7:0] m_awlen; wire [2:0] m_awsize; wire [1:0] m_awburst;
  wire m_awvalid; reg m_awready = 0;
  wire [DW-1:0] m_wdata; wire [DW/8-1:0] m_wstrb; wire m_wlast; wire m_wvalid;
  reg m_wready = 0;
  reg m_bvalid = 0; wire m_bready; wire irq;

  ntt_accel #(.Q(Q), .N(N), .BFUS(BFUS), .KIND(KIND)) dut (
      .clk(clk), .rst_n(rst_n),
      .s_awaddr(s_awaddr), .s_awvalid(s_awvalid), .s_awready(s_awready),
      .s_wdata(s_wdata), .s_wvalid(s_wvalid), .s_wready(s_wready),
      .s_bresp(s_bresp), .s_bvalid(s_bvalid), .s_bready(s_bready),
      .s_araddr(s_araddr), .s_arvalid(s_arvalid), .s_arready(s_arready),
      .s_rdata(s_rdata), .s_rresp(s_rresp), .s_rvalid(s_rvalid), .s_rready(s_rready),
      .m_araddr(m_araddr), .m_arlen(m_arlen), .m_arsize(m_arsize), .m_arburst(m_arburst),
      .m_arvalid(m_arvalid), .m_arready(m_arready), .m_rdata(m_rdata), .m_rresp(2'b00),
      .m_rlast(m_rlast), .m_rvalid(m_rvalid), .m_rready(m_rready),
      .m_awaddr(m_awaddr), .m_awlen(m_awlen), .m_awsize(m_awsize), .m_awburst(m_awburst),
      .m_awvalid(m_awvalid), .m_awready(m_awready), .m_wdata(m_wdata), .m_wstrb(m_wstrb),
      .m_wlast(m_wlast), .m_wvalid(m_wvalid), .m_wready(m_wready), .m_bresp(2'b00),
      .m_bvalid(m_bvalid), .m_bready(m_bready), .irq(irq));

  // ---------------------------------------------------------------- memory model
  reg [31:0] mem [0:MEMW-1];
  reg [31:0] vin  [0:WORDS-1];
  reg [31:0] vout [0:WORDS-1];
  integer errors = 0;
  reg [31:0] lfsr = 32'h1;
  wire stall = lfsr[2] & lfsr[5];   // about 25 % of cycles
  always @(posedge clk) lfsr <= {lfsr[30:0], lfsr[31] ^ lfsr[21] ^ lfsr[1] ^ lfsr[0]};

  task check_burst(input [31:0] a, input [7:0] len, input [2:0] size, input [1:0] burst);
    reg [31:0] last;
    begin
      last = a + (len + 1) * (DW / 8) - 1;
      if (burst != 2'b01) begin errors = errors + 1; $display("FAIL burst type %0d", burst); end
      if ((1 << size) != DW / 8) begin errors = errors + 1; $display("FAIL size %0d", size); end
      if (a % (DW / 8) != 0) begin errors = errors + 1; $display("FAIL unaligned %h", a); end
      if (a[31:12] != last[31:12]) begin errors = errors + 1; $display("FAIL 4K crossing %h..%h", a, last); end
      if (a < BASE + OFF || last >= BASE + OFF + 4 * WORDS) begin
        errors = errors + 1; $display("FAIL outside buffer %h..%h", a, last);
      end
    end
  endtask

  reg [31:0] rd_addr, wr_addr; reg [8:0] rd_left, wr_left; reg rd_act = 0, wr_act = 0;
  integer i, ic;
  always @(posedge clk) begin
    if (rst_n) begin
      if (m_arvalid && m_arready) begin
        check_burst(m_araddr, m_arlen, m_arsize, m_arburst);
        rd_addr <= m_araddr; rd_left <= m_arlen + 1; rd_act <= 1;
      end
      if (m_rvalid && m_rready) begin
        rd_addr <= rd_addr + DW / 8; rd_left <= rd_left - 1;
        if (rd_left == 1) rd_act <= 0;
      end
      if (m_awvalid && m_awready) begin
        check_burst(m_awaddr, m_awlen, m_awsize, m_awburst);
        wr_addr <= m_awaddr; wr_left <= m_awlen + 1; wr_act <= 1;
      end
      if (m_wvalid && m_wready) begin
        for (i = 0; i < BW; i = i + 1) mem[(wr_addr - BASE) / 4 + i] <= m_wdata[32 * i +: 32];
        if (m_wlast != (wr_left == 1)) begin errors = errors + 1; $display("FAIL WLAST"); end
        if (&m_wstrb !== 1'b1) begin errors = errors + 1; $display("FAIL WSTRB"); end
        wr_addr <= wr_addr + DW / 8; wr_left <= wr_left - 1;
        if (wr_left == 1) begin wr_act <= 0; m_bvalid <= 1; end
      end
      if (m_bvalid && m_bready) m_bvalid <= 0;
    end
  end
  always @(*) begin
    m_arready = rst_n && !rd_act && !stall;
    m_awready = rst_n && !wr_act && !m_bvalid && !stall;
    m_wready  = wr_act && !stall;
    m_rvalid  = rd_act && !stall;
    m_rlast   = rd_act && rd_left == 1;
    for (ic = 0; ic < BW; ic = ic + 1) m_rdata[32 * ic +: 32] = mem[(rd_addr - BASE) / 4 + ic];
  end

  // ---------------------------------------------------------------- host
  // The host drives on the falling edge and samples there too (the slave's outputs are
  // registered), so a handshake seen at a falling edge completes at the next rising one.
  task lite_write(input [7:0] a, input [31:0] d);
    begin
      @(negedge clk); s_awaddr = a; s_awvalid = 1; s_wdata = d; s_wvalid = 1; s_bready = 1;
      @(negedge clk); while (!(s_awready && s_wready)) @(negedge clk);
      @(negedge clk); s_awvalid = 0; s_wvalid = 0;
      while (!s_bvalid) @(negedge clk);
      @(negedge clk); s_bready = 0;
    end
  endtask
  task lite_read(input [7:0] a, output [31:0] d);
    begin
      @(negedge clk); s_araddr = a; s_arvalid = 1; s_rready = 1;
      @(negedge clk); while (!s_arready) @(negedge clk);
      @(negedge clk); s_arvalid = 0;
      while (!s_rvalid) @(negedge clk);
      d = s_rdata;
      @(negedge clk); s_rready = 0;
    end
  endtask

  reg [31:0] r, cyc;
  integer t;
  task request(input mode, input [15:0] num, input [8*5-1:0] tag);
    begin
      lite_write(8'h10, BASE + OFF);
      lite_write(8'h18, mode);
      lite_write(8'h1C, num);
      lite_write(8'h00, 1);
      r = 0; t = 0;
      while (!(r & 2) && t < 200000) begin lite_read(8'h00, r); t = t + 1; end
      if (!(r & 2)) begin errors = errors + 1; $display("FAIL %0s: no done", tag); end
      lite_read(8'h2C, cyc);
      lite_read(8'h08, r);
      if (r != 0) begin errors = errors + 1; $display("FAIL %0s: ERR = %h", tag, r); end
      $display("%0s q=%0d n=%0d bfus=%0d kind=%0d polys=%0d: %0d cycles", tag, Q, N, BFUS, KIND, num, cyc);
    end
  endtask

  integer j, bad;
  task load_input;
    begin
      for (j = 0; j < MEMW; j = j + 1) mem[j] = 32'hDEADBEEF;
      for (j = 0; j < WORDS; j = j + 1) mem[OFF / 4 + j] = vin[j];
    end
  endtask
  task compare(input [8*5-1:0] tag);
    begin
      bad = 0;
      for (j = 0; j < WORDS; j = j + 1)
        if (mem[OFF / 4 + j] !== vout[j]) begin
          if (bad < 4) $display("FAIL %0s: word %0d = %h, expected %h", tag, j, mem[OFF / 4 + j], vout[j]);
          bad = bad + 1;
        end
      for (j = 0; j < OFF / 4; j = j + 1)
        if (mem[j] !== 32'hDEADBEEF) bad = bad + 1;
      for (j = OFF / 4 + WORDS; j < MEMW; j = j + 1)
        if (mem[j] !== 32'hDEADBEEF) bad = bad + 1;
      errors = errors + bad;
    end
  endtask

  initial begin
    repeat (5) @(posedge clk);
    rst_n = 1;
    if (Q == 8380417) $readmemh({`VEC_DIR, "/q8380417_n256_in.hex"}, vin);
    else $readmemh({`VEC_DIR, "/q12289_n1024_in.hex"}, vin);
    // forward
    if (Q == 8380417) $readmemh({`VEC_DIR, "/q8380417_n256_ntt.hex"}, vout);
    else $readmemh({`VEC_DIR, "/q12289_n1024_ntt.hex"}, vout);
    load_input;
    request(0, K, "NTT");
    compare("NTT");
    // inverse (of the same input)
    if (Q == 8380417) $readmemh({`VEC_DIR, "/q8380417_n256_intt.hex"}, vout);
    else $readmemh({`VEC_DIR, "/q12289_n1024_intt.hex"}, vout);
    load_input;
    request(1, K, "INTT");
    compare("INTT");
    // num_polys = 0: done, nothing moves
    request(0, 0, "EMPTY");
    compare("EMPTY");
    if (errors == 0) $display("PASS");
    else $display("FAIL (%0d errors)", errors);
    $finish;
  end
endmodule
