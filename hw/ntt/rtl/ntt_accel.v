// ntt_accel: the accelerator top. AXI-Lite control slave (register map in
// docs/HARDWARE.md) + ntt_core with its AXI4 master. One clock, active-low
// synchronous reset (ARESETn).
//
// Parameters: Q, N select the transform (8380417/256, 12289/512, 12289/1024);
// KIND 0 = radix-2 (ntt_core, BFUS = 1, 2, 4 butterfly units, bus 64*BFUS bits);
// KIND 1 = Winograd radix-8 (ntt_core_w8, BFUS = 1 radix-8 unit, bus 256 bits).
module ntt_accel #(
    parameter integer Q    = 8380417,
    parameter integer N    = 256,
    parameter integer BFUS = 1,
    parameter integer KIND = 0
) (
    input  wire        clk,
    input  wire        rst_n,
    // AXI-Lite slave
    input  wire [7:0]  s_awaddr,
    input  wire        s_awvalid,
    output reg         s_awready,
    input  wire [31:0] s_wdata,
    input  wire        s_wvalid,
    output reg         s_wready,
    output reg  [1:0]  s_bresp,
    output reg         s_bvalid,
    input  wire        s_bready,
    input  wire [7:0]  s_araddr,
    input  wire        s_arvalid,
    output reg         s_arready,
    output reg  [31:0] s_rdata,
    output reg  [1:0]  s_rresp,
    output reg         s_rvalid,
    input  wire        s_rready,
    // AXI4 master
    output wire [31:0] m_araddr,
    output wire [7:0]  m_arlen,
    output wire [2:0]  m_arsize,
    output wire [1:0]  m_arburst,
    output wire        m_arvalid,
    input  wire        m_arready,
    input  wire [(KIND == 1 ? 256 : 64)*BFUS-1:0] m_rdata,
    input  wire [1:0]  m_rresp,
    input  wire        m_rlast,
    input  wire        m_rvalid,
    output wire        m_rready,
    output wire [31:0] m_awaddr,
    output wire [7:0]  m_awlen,
    output wire [2:0]  m_awsize,
    output wire [1:0]  m_awburst,
    output wire        m_awvalid,
    input  wire        m_awready,
    output wire [(KIND == 1 ? 256 : 64)*BFUS-1:0] m_wdata,
    output wire [(KIND == 1 ? 32 : 8)*BFUS-1:0] m_wstrb,
    output wire        m_wlast,
    output wire        m_wvalid,
    input  wire        m_wready,
    input  wire [1:0]  m_bresp,
    input  wire        m_bvalid,
    output wire        m_bready,
    output wire        irq
);
  localparam integer LOGN  = (N == 256) ? 8 : (N == 512) ? 9 : 10;
  localparam integer LOGB  = (BFUS == 1) ? 0 : (BFUS == 2) ? 1 : 2;
  localparam integer RB    = (Q == 8380417) ? 23 : 14;
  localparam integer SCALE = (Q == 8380417) ? 3 : -1;

  // registers
  reg [31:0] r_buf;
  reg        r_mode;
  reg [15:0] r_num;
  reg        r_done;
  reg        r_start;
  reg        r_ie;

  wire        busy, done_pulse, err_align, err_resp;
  wire [31:0] cyc_load, cyc_compute, cyc_store, cyc_total;

  generate
    if (KIND == 1) begin : g_w8
      ntt_core_w8 #(.Q(Q), .N(N), .LOGN(LOGN), .RB(RB), .SCALE(SCALE), .DW(256 * BFUS)) u_core (
          .clk(clk), .rst_n(rst_n),
          .start(r_start), .inv_in(r_mode), .buf_addr(r_buf), .num_polys(r_num),
          .busy(busy), .done_pulse(done_pulse), .err_align(err_align), .err_resp(err_resp),
          .cyc_load(cyc_load), .cyc_compute(cyc_compute), .cyc_store(cyc_store),
          .cyc_total(cyc_total),
          .m_araddr(m_araddr), .m_arlen(m_arlen), .m_arsize(m_arsize), .m_arburst(m_arburst),
          .m_arvalid(m_arvalid), .m_arready(m_arready), .m_rdata(m_rdata), .m_rresp(m_rresp),
          .m_rlast(m_rlast), .m_rvalid(m_rvalid), .m_rready(m_rready),
          .m_awaddr(m_awaddr), .m_awlen(m_awlen), .m_awsize(m_awsize), .m_awburst(m_awburst),
          .m_awvalid(m_awvalid), .m_awready(m_awready), .m_wdata(m_wdata), .m_wstrb(m_wstrb),
          .m_wlast(m_wlast), .m_wvalid(m_wvalid), .m_wready(m_wready), .m_bresp(m_bresp),
          .m_bvalid(m_bvalid), .m_bready(m_bready));
    end else begin : g_r2
      ntt_core #(.Q(Q), .N(N), .LOGN(LOGN), .BFUS(BFUS), .LOGB(LOGB), .RB(RB),
                 .SCALE(SCALE)) u_core (
          .clk(clk), .rst_n(rst_n),
          .start(r_start), .inv_in(r_mode), .buf_addr(r_buf), .num_polys(r_num),
          .busy(busy), .done_pulse(done_pulse), .err_align(err_align), .err_resp(err_resp),
          .cyc_load(cyc_load), .cyc_compute(cyc_compute), .cyc_store(cyc_store),
          .cyc_total(cyc_total),
          .m_araddr(m_araddr), .m_arlen(m_arlen), .m_arsize(m_arsize), .m_arburst(m_arburst),
          .m_arvalid(m_arvalid), .m_arready(m_arready), .m_rdata(m_rdata), .m_rresp(m_rresp),
          .m_rlast(m_rlast), .m_rvalid(m_rvalid), .m_rready(m_rready),
          .m_awaddr(m_awaddr), .m_awlen(m_awlen), .m_awsize(m_awsize), .m_awburst(m_awburst),
          .m_awvalid(m_awvalid), .m_awready(m_awready), .m_wdata(m_wdata), .m_wstrb(m_wstrb),
          .m_wlast(m_wlast), .m_wvalid(m_wvalid), .m_wready(m_wready), .m_bresp(m_bresp),
          .m_bvalid(m_bvalid), .m_bready(m_bready));
    end
  endgenerate

  assign irq = r_ie & r_done;

  // register read mux
  reg [31:0] rd;
  always @(*) begin
    case (s_araddr[7:2])
      6'h00: rd = {28'd0, ~busy, r_done, busy};           // CTRL: start/busy, done, idle
      6'h01: rd = {31'd0, r_ie};                           // IER
      6'h02: rd = {30'd0, err_resp, err_align};            // ERR
      6'h04: rd = r_buf;                                   // BUF_ADDR
      6'h05: rd = 32'd0;                                   // BUF_ADDR_HI
      6'h06: rd = {31'd0, r_mode};                         // MODE
      6'h07: rd = {16'd0, r_num};                          // NUM_POLYS
      6'h08: rd = cyc_load;
      6'h09: rd = cyc_compute;
      6'h0a: rd = cyc_store;
      6'h0b: rd = cyc_total;
      6'h0c: rd = Q;                                       // ID: modulus
      6'h0d: rd = {8'd0, KIND[7:0], BFUS[7:0], LOGN[7:0]}; // ID: shape
      6'h0e: rd = 32'h4E54_5401;                           // ID: magic "NTT", version 1
      default: rd = 32'd0;
    endcase
  end

  always @(posedge clk) begin
    r_start <= 1'b0;
    if (!rst_n) begin
      s_awready <= 1'b0; s_wready <= 1'b0; s_bvalid <= 1'b0; s_bresp <= 2'b00;
      s_arready <= 1'b0; s_rvalid <= 1'b0; s_rresp <= 2'b00; s_rdata <= 32'd0;
      r_buf <= 32'd0; r_mode <= 1'b0; r_num <= 16'd0; r_done <= 1'b0; r_ie <= 1'b0;
    end else begin
      if (done_pulse) r_done <= 1'b1;
      s_awready <= 1'b0;
      s_wready  <= 1'b0;
      // write: address and data together; ready for one cycle (the handshake), the
      // response in the cycle after it
      if (s_awready) begin
        s_bvalid <= 1'b1;
        s_bresp  <= 2'b00;
      end
      if (s_awvalid && s_wvalid && !s_awready && !s_bvalid) begin
        s_awready <= 1'b1;
        s_wready  <= 1'b1;
        case (s_awaddr[7:2])
          6'h00: if (s_wdata[0] && !busy) begin r_start <= 1'b1; r_done <= 1'b0; end
          6'h01: r_ie <= s_wdata[0];
          6'h04: if (!busy) r_buf <= s_wdata;
          6'h06: if (!busy) r_mode <= s_wdata[0];
          6'h07: if (!busy) r_num <= s_wdata[15:0];
          default: ;
        endcase
      end
      if (s_bvalid && s_bready) s_bvalid <= 1'b0;
      // read
      s_arready <= 1'b0;
      if (s_arready) s_rvalid <= 1'b1;
      if (s_arvalid && !s_arready && !s_rvalid) begin
        s_arready <= 1'b1;
        s_rdata   <= rd;
        s_rresp   <= 2'b00;
      end
      if (s_rvalid && s_rready) s_rvalid <= 1'b0;
    end
  end
endmodule
