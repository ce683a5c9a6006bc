// falcon_samplerz: the device half of Falcon's SamplerZ (issue 19, item 3): for each
// request (centre mu, inverse standard deviation isigma, both binary64 bit patterns, and
// the degree's sigma_min) the base sampler, the sign bit and BerExp, over random bytes
// the host supplies. Bit-exact with the library's portable SamplerZ and with
// `samplerz::device::serve_on_cpu` (crates/pqsig/src/kernels/falcon/samplerz/), outputs
// and stream advance, NeedMore included.
//
// Floating point: one falcon_fpadd and one falcon_fpmul, time-multiplexed by a fixed
// schedule (below), plus falcon_i2f (i64 -> binary64), falcon_fp_toint (floor / trunc),
// falcon_mulhi64 (the 63-bit fixed-point exp polynomial) and falcon_rcdt (base sampler).
//
// Byte supply (the host keeps the PRNG; the device is stateless between batches): a
// window RAM of NSLOT = 2^NSLOT_LOG slots of 512 bytes, written by the host as 64-bit
// little-endian words (host_addr = slot * 64 + word). Window k of a batch (k = 0: the
// current one, read from position load_pos; k >= 1: the k-th window supplied ahead) lives
// in slot k mod NSLOT. `supplied` = windows supplied ahead, `avail` = how many of them
// are in the RAM now (the host writes window k into slot k mod NSLOT once window k - NSLOT
// is left, i.e. once win >= k - NSLOT + 1, and raises avail; the device waits, `waiting`
// = 1, when it needs a window that is supplied but not written yet).
//
// The refill rule is the library's `Stream` (samplerz/mod.rs): a u64 read at pos >= 503
// drops the rest of the window; a u8 read that empties the window refills it. The device
// performs the u8 refill lazily (before the next read, or at the end of the batch), which
// enters the same windows in the same order. A refill to window win + 1 > supplied ends
// the batch with needmore = 1 (serve_on_cpu's NeedMore: the supplied windows ran out
// before the last request was decided; the outputs are then void).
//
// Protocol: `load` (while idle) starts a batch at (window 0, load_pos) and clears
// needmore; then each request: `start` with mu, isigma, sigma_min, `last` (1 for the
// batch's last request) while idle -> `done` pulse with z_out = floor(mu) + z (i32) or
// needmore = 1. After the last request, win (windows entered) and pos (< 512) give the
// stream advance. `attempts` = rejection-loop iterations of the request just done.
//
// Constant-time properties are those of the reference: the number of attempts and the
// number of BerExp bytes read depend on data, nothing else does (the table scan is all
// 18 comparisons, the FP schedule is fixed).
module falcon_samplerz #(
    parameter NSLOT_LOG = 2,
    parameter MULW      = 32
) (
    input  wire                 clk,
    input  wire                 rst,
    // host port: window RAM
    input  wire                 host_we,
    input  wire [NSLOT_LOG+5:0] host_addr,
    input  wire [63:0]          host_wdata,
    // batch
    input  wire                 load,
    input  wire [9:0]           load_pos,
    input  wire [15:0]          supplied,
    input  wire [15:0]          avail,
    // requests
    input  wire                 start,
    input  wire                 last,
    input  wire [63:0]          mu,
    input  wire [63:0]          isigma,
    input  wire [63:0]          sigma_min,
    output reg                  done,
    output reg  [31:0]          z_out,
    output reg                  needmore,
    output wire                 waiting,
    output wire                 busy,
    output reg  [15:0]          win,
    output reg  [9:0]           pos,
    output reg  [15:0]          attempts
);
  // ---- constants (binary64 bit patterns, fpr/mod.rs)
  localparam [63:0] INV_2SQRSIGMA0 = 64'h3FC34F8BC183BBC2;
  localparam [63:0] LOG2 = 64'h3FE62E42FEFA39EF;
  localparam [63:0] INV_LOG2 = 64'h3FF71547652B82FE;
  localparam [63:0] PTWO63 = 64'h43E0000000000000;
  // EXPM_COEFFS (1.63 fixed point, highest degree first)
  function [63:0] coef;
    input [3:0] i;
    case (i)
      4'd0: coef = 64'h0000_0004_7411_83A3;
      4'd1: coef = 64'h0000_0036_548C_FC06;
      4'd2: coef = 64'h0000_024F_DCBF_140A;
      4'd3: coef = 64'h0000_171D_939D_E045;
      4'd4: coef = 64'h0000_D00C_F58F_6F84;
      4'd5: coef = 64'h0006_8068_1CF7_96E3;
      4'd6: coef = 64'h002D_82D8_305B_0FEA;
      4'd7: coef = 64'h0111_1111_0E06_6FD0;
      4'd8: coef = 64'h0555_5555_5507_0F00;
      4'd9: coef = 64'h1555_5555_5581_FF00;
      4'd10: coef = 64'h4000_0000_0002_B400;
      4'd11: coef = 64'h7FFF_FFFF_FFFF_4800;
      default: coef = 64'h8000_0000_0000_0000;
    endcase
  endfunction

  // `Fpr::half` of the emulation: exponent - 1, a result whose exponent field is 0 is a
  // signed zero; zeros stay.
  function [63:0] fhalf;
    input [63:0] x;
    reg [63:0] t;
    begin
      t = x - ((x[62:52] != 11'd0) ? 64'h0010_0000_0000_0000 : 64'd0);
      fhalf = (t[62:52] == 11'd0) ? {t[63], 63'd0} : t;
    end
  endfunction

  // ---- states
  localparam [3:0] S_IDLE = 4'd0,  // waiting for load / start
  S_V = 4'd2,  // base sampler bytes (the first attempt's beside the request setup): u64 (j = 0..7) then u8 (j = 8)
  S_B = 4'd3,  // sign byte; z0 from the table
  S_FP = 4'd4,  // x = (z - r)^2 dss - z0^2 / (2 sigma0^2); s, r' = x - s ln 2; r' 2^63
  S_POLY = 4'd5,  // 12 steps y = c - mulhi(z, y)
  S_ZV = 4'd6,  // mulhi(ccs 2^64, y), scaled by 2^-s
  S_BER = 4'd7,  // BerExp bytes, most significant first
  S_END = 4'd8,  // last request: the pending refill of an emptied window
  S_DONE = 4'd9;  // result out

  reg [3:0] st;
  reg [5:0] c;  // step within S_FP
  // Request setup (floor(mu), r, dss, ccs * 2^63) runs beside the first attempt's byte
  // reads, step sc while sact; S_FP starts once it is over.
  reg [3:0] sc;
  reg sact;
  reg [3:0] j;  // byte within S_V; coefficient within S_POLY
  reg [2:0] bi;  // byte of BerExp (7: most significant)
  reg [63:0] mu_r, isg_r, smin_r;
  reg last_r;
  reg [63:0] s64, r_fp, dss, z2, t_fp, xx, zz, y, zval;
  reg [71:0] v;
  reg [5:0] zs;  // z = b + (2b - 1) z0, two's complement, -18..19
  reg [9:0] z0sq;
  reg [5:0] sw;  // BerExp shift, saturated at 63 as the library does
  assign busy = (st != S_IDLE);

  // ---- arithmetic units
  reg  [63:0] add_a, add_b, mul_a, mul_b, i2f_x;
  reg         add_sub;
  wire [63:0] add_y, mul_y, i2f_y, trunc_y, floor_y;
  falcon_fpadd u_add (
      .clk(clk),
      .a  (add_a),
      .b  (add_b),
      .sub(add_sub),
      .y  (add_y)
  );
  falcon_fpmul u_mul (
      .clk(clk),
      .a  (mul_a),
      .b  (mul_b),
      .y  (mul_y)
  );
  falcon_i2f u_i2f (
      .clk(clk),
      .i  (i2f_x),
      .y  (i2f_y)
  );
  // trunc only ever reads the multiplier's output; floor only mu
  falcon_fp_toint u_trunc (
      .x         (mul_y),
      .floor_mode(1'b0),
      .y         (trunc_y)
  );
  falcon_fp_toint u_floor (
      .x         (mu_r),
      .floor_mode(1'b1),
      .y         (floor_y)
  );
  reg         mh_start;
  reg  [63:0] mh_a, mh_b;
  wire [63:0] mh_hi;
  wire        mh_done;
  falcon_mulhi64 #(
      .W(MULW)
  ) u_mh (
      .clk  (clk),
      .start(mh_start),
      .a    (mh_a),
      .b    (mh_b),
      .hi   (mh_hi),
      .done (mh_done)
  );
  wire [4:0] z0_tab;
  falcon_rcdt u_rcdt (
      .v (v),
      .z0(z0_tab)
  );

  // ---- window RAM and the read pointer
  localparam NW = 64 << NSLOT_LOG;
  reg [63:0] ram[0:NW-1];
  reg [63:0] rword;
  reg [2:0] rlane;
  wire [7:0] rbyte = rword[8*rlane+:8];

  // A read at the current position needs a refill first (the library's rule).
  wire need_rf = (st == S_V && ((j == 4'd0 && pos >= 10'd503) || (j == 4'd8 && pos[9])))
               || ((st == S_B || st == S_BER || st == S_END) && pos[9]);
  wire [16:0] kn = {1'b0, win} + 17'd1;
  wire rf_out = kn > {1'b0, supplied};  // not supplied: NeedMore
  wire rf_ok = !rf_out && kn <= {1'b0, avail};
  wire rf = need_rf && rf_ok;
  wire adv = (st == S_V || st == S_B || st == S_BER) && !need_rf;  // one byte consumed
  assign waiting = need_rf && !rf_out && !rf_ok;

  reg [9:0] pos_n;
  reg [15:0] win_n;
  always @* begin
    pos_n = pos;
    win_n = win;
    if (load && st == S_IDLE) begin
      pos_n = load_pos;
      win_n = 16'd0;
    end else if (rf) begin
      pos_n = 10'd0;
      win_n = win + 16'd1;
    end else if (adv) pos_n = pos + 10'd1;
  end

  // RAM read one cycle ahead, from the next pointer: rbyte = window byte at (win, pos).
  always @(posedge clk) begin
    if (host_we) ram[host_addr] <= host_wdata;
    rword <= ram[{win_n[NSLOT_LOG-1:0], pos_n[8:3]}];
    rlane <= pos_n[2:0];
    pos   <= pos_n;
    win   <= win_n;
  end

  // ---- unit operands: a fixed schedule (issue in step c, result read in step c + latency:
  // fpadd 7, fpmul 6, i2f 1)
  always @* begin
    add_a = 64'd0;
    add_b = 64'd0;
    add_sub = 1'b0;
    mul_a = 64'd0;
    mul_b = 64'd0;
    i2f_x = 64'd0;
    if (sact)
      case (sc)
        4'd0: begin  // isigma^2 -> 6
          mul_a = isg_r;
          mul_b = isg_r;
        end
        4'd1: begin  // isigma * sigma_min -> 7; of(floor(mu)) -> 2
          mul_a = isg_r;
          mul_b = smin_r;
          i2f_x = s64;
        end
        4'd2: begin  // r = mu - of(s) -> 9
          add_a = mu_r;
          add_b = i2f_y;
          add_sub = 1'b1;
        end
        4'd7: begin  // ccs * 2^63 -> 13
          mul_a = mul_y;
          mul_b = PTWO63;
        end
        default: ;
      endcase
    if (st == S_FP && !sact)
      case (c)
        6'd0: i2f_x = {{58{zs[5]}}, zs};  // of(z) -> 1
        6'd1: begin  // of(z) - r -> 8; of(z0^2) -> 2
          add_a = i2f_y;
          add_b = r_fp;
          add_sub = 1'b1;
          i2f_x = {54'd0, z0sq};
        end
        6'd2: begin  // of(z0^2) * inv_2sqrsigma0 -> 8
          mul_a = i2f_y;
          mul_b = INV_2SQRSIGMA0;
        end
        6'd8: begin  // (z - r)^2 -> 14
          mul_a = add_y;
          mul_b = add_y;
        end
        6'd14: begin  // * dss -> 20
          mul_a = mul_y;
          mul_b = dss;
        end
        6'd20: begin  // x = ... - z0^2 inv_2sqrsigma0 -> 27
          add_a = mul_y;
          add_b = t_fp;
          add_sub = 1'b1;
        end
        6'd27: begin  // x * 1/ln2 -> 33
          mul_a = add_y;
          mul_b = INV_LOG2;
        end
        6'd34: i2f_x = {{32{s64_t[31]}}, s64_t[31:0]};  // of(s as i32) -> 35
        6'd35: begin  // of(s) * ln2 -> 41
          mul_a = i2f_y;
          mul_b = LOG2;
        end
        6'd41: begin  // r' = x - s ln2 -> 48
          add_a = xx;
          add_b = mul_y;
          add_sub = 1'b1;
        end
        6'd48: begin  // r' * 2^63 -> 54
          mul_a = add_y;
          mul_b = PTWO63;
        end
        default: ;
      endcase
  end
  // s = trunc(x / ln2) as i32, kept from step 33
  reg [31:0] s64_t;

  // mulhi operands: the polynomial steps chain without a gap
  wire [63:0] y_next = coef(j) - mh_hi;
  always @* begin
    mh_start = 1'b0;
    mh_a = zz;
    mh_b = y;
    if (st == S_FP && c == 6'd54) begin
      mh_start = 1'b1;
      mh_a = {trunc_y[62:0], 1'b0};
      mh_b = coef(4'd0);
    end else if (st == S_POLY && mh_done) begin
      mh_start = 1'b1;
      mh_a = (j == 4'd12) ? z2 : zz;
      mh_b = y_next;
    end
  end

  // BerExp: the byte of z compared now, and the decision
  wire [7:0] zb = zval[8*bi+:8];
  wire ber_last = (rbyte != zb) || (bi == 3'd0);
  wire accept = rbyte < zb;
  // s (32 bits) saturated at 63 as an unsigned value, as `ber_exp` does: the shift is
  // 63 when 63 - s (mod 2^32) has its top bit set, else s (mod 64).
  wire [31:0] d63 = 32'd63 - trunc_y[31:0];

  always @(posedge clk) begin
    done <= 1'b0;
    if (rst) begin
      st <= S_IDLE;
      needmore <= 1'b0;
      sact <= 1'b0;
    end else begin
      // request setup, beside the byte reads (operands issued above)
      if (sact) begin
        sc <= sc + 4'd1;
        if (sc == 4'd0) s64 <= floor_y;
        if (sc == 4'd6) dss <= fhalf(mul_y);
        if (sc == 4'd9) r_fp <= add_y;
        if (sc == 4'd13) begin
          z2   <= {trunc_y[62:0], 1'b0};
          sact <= 1'b0;
        end
      end
      case (st)
        S_IDLE: begin
          if (load) needmore <= 1'b0;
          else if (start) begin
            mu_r <= mu;
            isg_r <= isigma;
            smin_r <= sigma_min;
            last_r <= last;
            attempts <= 16'd0;
            sc <= 4'd0;
            sact <= 1'b1;
            j <= 4'd0;
            st <= S_V;
          end
        end
        S_V: begin
          if (need_rf) begin
            if (rf_out) st <= S_DONE;
          end else begin
            v[8*j+:8] <= rbyte;
            j <= j + 4'd1;
            if (j == 4'd8) st <= S_B;
          end
          if (need_rf && rf_out) needmore <= 1'b1;
        end
        S_B: begin
          if (need_rf) begin
            if (rf_out) begin
              needmore <= 1'b1;
              st <= S_DONE;
            end
          end else begin
            z0sq <= z0_tab * z0_tab;
            // b = 1: z = z0 + 1; b = 0: z = -z0
            zs <= rbyte[0] ? {1'b0, z0_tab} + 6'd1 : 6'd0 - {1'b0, z0_tab};
            attempts <= attempts + 16'd1;
            c <= 6'd0;
            st <= S_FP;
          end
        end
        S_FP:
        if (!sact) begin
          c <= c + 6'd1;
          if (c == 6'd8) t_fp <= mul_y;
          if (c == 6'd27) xx <= add_y;
          if (c == 6'd33) begin
            s64_t <= trunc_y[31:0];
            sw <= d63[31] ? 6'd63 : trunc_y[5:0];
          end
          if (c == 6'd54) begin
            zz <= {trunc_y[62:0], 1'b0};
            y <= coef(4'd0);
            j <= 4'd1;
            st <= S_POLY;
          end
        end
        S_POLY:
        if (mh_done) begin
          y <= y_next;
          if (j == 4'd12) st <= S_ZV;
          else j <= j + 4'd1;
        end
        S_ZV:
        if (mh_done) begin
          zval <= ({mh_hi[62:0], 1'b0} - 64'd1) >> sw;
          bi <= 3'd7;
          st <= S_BER;
        end
        S_BER: begin
          if (need_rf) begin
            if (rf_out) begin
              needmore <= 1'b1;
              st <= S_DONE;
            end
          end else if (ber_last) begin
            if (accept) begin
              z_out <= s64[31:0] + {{26{zs[5]}}, zs};
              st <= last_r ? S_END : S_DONE;
            end else begin
              j <= 4'd0;
              st <= S_V;
            end
          end else bi <= bi - 3'd1;
        end
        S_END: begin
          if (!need_rf) st <= S_DONE;
          else if (rf_out) begin
            needmore <= 1'b1;
            st <= S_DONE;
          end else if (rf_ok) st <= S_DONE;
        end
        S_DONE: begin
          done <= 1'b1;
          st <= S_IDLE;
        end
        default: st <= S_IDLE;
      endcase
    end
  end
endmodule
