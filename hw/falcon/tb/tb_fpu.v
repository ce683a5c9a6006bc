// Icarus bench of falcon_fpadd / falcon_fpmul: streams the directed cases of
// vectors/fpu.hex ({op, a, b, expected}, from the library's integer-only binary64)
// through both units at one case per cycle and compares every result bit for bit.
// Prints PASS or the failures. Define VEC_DIR to the vectors' folder.
`timescale 1ns / 1ps
module tb_fpu;
  localparam MAXV = 3468;  // 34 x 34 directed pairs x 3 operations (gen_falcon_vectors)
  localparam LA = 7, LM = 6;
  reg clk = 0;
  reg [255:0] v[0:MAXV-1];
  reg [63:0] a, b;
  reg sub;
  wire [63:0] ya, ym;
  falcon_fpadd ua (.clk(clk), .a(a), .b(b), .sub(sub), .y(ya));
  falcon_fpmul um (.clk(clk), .a(a), .b(b), .y(ym));
  integer i, n, errs, checked;
  always #5 clk = ~clk;
  initial begin
    for (i = 0; i < MAXV; i = i + 1) v[i] = {256{1'bx}};
    $readmemh({`VEC_DIR, "/fpu.hex"}, v);
    n = 0;
    while (n < MAXV && v[n][255:192] !== {64{1'bx}}) n = n + 1;
    if (n != MAXV) $display("FAIL: %0d cases in fpu.hex, %0d expected", n, MAXV);
    errs = 0;
    checked = 0;
    a = 0; b = 0; sub = 0;
    @(negedge clk);
    // one case per cycle; case i's result is checked LA (LM) cycles later
    for (i = 0; i < n + LA; i = i + 1) begin
      if (i < n) begin
        a = v[i][191:128];
        b = v[i][127:64];
        sub = v[i][255:192] == 64'd1;
      end
      @(negedge clk);
      if (i + 1 >= LA && i + 1 - LA < n && v[i+1-LA][255:192] != 64'd2) begin
        checked = checked + 1;
        if (ya !== v[i+1-LA][63:0]) begin
          errs = errs + 1;
          if (errs < 10) $display("FAIL add/sub #%0d: %h %h -> %h, want %h", i + 1 - LA,
                                  v[i+1-LA][191:128], v[i+1-LA][127:64], ya, v[i+1-LA][63:0]);
        end
      end
      if (i + 1 >= LM && i + 1 - LM < n && v[i+1-LM][255:192] == 64'd2) begin
        checked = checked + 1;
        if (ym !== v[i+1-LM][63:0]) begin
          errs = errs + 1;
          if (errs < 10) $display("FAIL mul #%0d: %h %h -> %h, want %h", i + 1 - LM,
                                  v[i+1-LM][191:128], v[i+1-LM][127:64], ym, v[i+1-LM][63:0]);
        end
      end
    end
    $display("fpu: %0d cases, %0d checked, %0d errors", n, checked, errs);
    if (errs == 0 && checked == n && n > 0) $display("PASS");
    $finish;
  end
endmodule
